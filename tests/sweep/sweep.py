#!/usr/bin/env python3
"""A random differential sweep of one backend against numpy in double precision.

Each trial draws a problem (rank 1-3, sizes smooth, prime and mixed, batch, kind (real-to-real
DCTs and DSTs too, a kind per axis, checked against scipy.fft where it is installed),
precision, norm, shifts, direction, in-place or out of place) and a layout for each side (axes in any
order in memory, steps, padding, batches interleaved with the axes), plans it on the backend
under one of its variants drawn at random, and checks the promises of docs/promises.md: the
result within the correctness suite's bound, nothing written outside the output's elements,
an out-of-place input left as it was. The correctness matrices fix their cases and run
variants on few of them; this reaches the combinations between, as `fftmux autotune` may
route them.

  sweep.py --backend vulkan --trials 40                   # what ctest runs (sweep.<backend>)
  sweep.py --backend opengl --trials 0 --seconds 3600 --seed 0    # a campaign, a new seed

Exits 1 when a trial fails, naming its problem, variant and seed; a backend that cannot run
(no driver, no device) exits 77 with the reason, which ctest reports as a skip.
"""

import argparse
import contextlib
import math
import sys
import time

import numpy as np

import fftmux

try:
    import scipy.fft as scipy_fft
except ImportError:  # the real-to-real kinds are not drawn without their reference
    scipy_fft = None

# Sizes by family; each family is drawn with the same chance.
SMOOTH = [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 16, 18, 20, 24, 25, 27, 32, 36, 45, 49, 64, 81,
          96, 100, 125, 128, 143, 169, 192, 240, 243, 256, 343, 360, 384, 500, 512, 625, 1000,
          1024, 1536, 2048, 2187, 2401, 4096, 6000, 8192]
PRIME = [17, 19, 23, 29, 31, 37, 41, 53, 97, 101, 127, 257, 509, 1009, 2039, 4093, 4099]
MIXED = [34, 38, 51, 62, 85, 194, 202, 291, 306, 485, 514, 1018, 2018, 4097, 4106, 8186]
TINY = list(range(1, 17))
# Multi-pass lines and long convolutions: a fifth family where --max-elements reaches them
# (campaigns), so that the default draws, and what ctest runs, stay as they are.
LARGE = [10007, 12800, 16384, 24576, 32768, 32771, 65536, 65537, 100000, 131072, 262144]
R2R = ["dct1", "dct2", "dct3", "dct4", "dst1", "dst2", "dst3", "dst4"]
R2R_INVERSE = {"dct2": "dct3", "dct3": "dct2", "dst2": "dst3", "dst3": "dst2"}


def draw_size(rng, limit, large=False):
    families = (SMOOTH, PRIME, MIXED, TINY, LARGE) if large else (SMOOTH, PRIME, MIXED, TINY)
    for _ in range(100):
        family = families[rng.integers(len(families))]
        n = int(family[rng.integers(len(family))])
        if n <= limit:
            return n
    return 1


def draw_problem(rng, max_elements):
    rank = int(rng.choice([1, 1, 1, 2, 2, 3]))
    n, left = [], max_elements
    for axis in range(rank):
        # Later axes take what the earlier ones left, the last at least its share.
        limit = max(1, int(left ** (1.0 / (rank - axis))) if axis < rank - 1 else left)
        n.append(draw_size(rng, limit, max_elements > 1 << 14))
        left = max(1, left // n[-1])
    kind = str(rng.choice(["c2c", "c2c", "r2c", "c2r"] + (["r2r"] if scipy_fft else [])))
    batch = int(rng.choice([1, 1, 2, 3, 5, 8])) if left >= 8 else 1
    r2r = [str(rng.choice(R2R[1:] if size < 2 else R2R)) for size in n]  # DCT-I: n >= 2
    return {
        "n": n,
        "kind": kind,
        "precision": str(rng.choice(["f32", "f32", "f64"])),
        "batch": batch,
        "norm": str(rng.choice(["none", "backward", "ortho", "forward"])),
        "shift": None if kind == "r2r" else [None, "input", "output", "both"][rng.integers(4)],
        "r2r": r2r if kind == "r2r" else None,
        "direction": {"r2c": "forward", "c2r": "inverse"}.get(kind)
        or str(rng.choice(["forward", "inverse"])),
        "in_place": bool(rng.random() < 0.2),
    }


def halved(p, side):
    """Whether side ("in" or "out") is the complex side of R2C or C2R: its last axis halved."""
    return p["kind"] in ("r2c", "c2r") and (p["kind"] == "r2c") == (side == "out")


def side_extents(p, side):
    """Each transform's element counts per axis on a side."""
    n = list(p["n"])
    if halved(p, side):
        n[-1] = n[-1] // 2 + 1
    return n


def draw_layout(rng, extents, batch, rows=False):
    """(strides per axis, distance): the batch and axes stacked in a random order, innermost
    first, each with padding or a step now and then; no two elements share an address.
    rows: the last axis innermost and contiguous (in-place R2C/C2R)."""
    dims = list(range(len(extents))) + ["batch"]
    if rng.random() < 0.6:
        rng.shuffle(dims)
    else:
        dims = list(reversed(dims))  # row-major, the batch outermost
    if rows:
        dims.remove(len(extents) - 1)
        dims.insert(0, len(extents) - 1)
    stride = 1 if rows else int(rng.choice([1, 1, 1, 2, 3]))
    strides, distance = [0] * len(extents), 0
    for d in dims:
        if d == "batch":
            distance, extent = stride, batch
        else:
            strides[d], extent = stride, extents[d]
        stride *= extent + int(rng.choice([0, 0, 0, 1, 3]))
    return tuple(strides), distance


def offsets(extents, batch, strides, distance):
    """Element offsets of a side, shaped (batch, *extents)."""
    grid = np.zeros([batch] + list(extents), dtype=np.int64)
    grid += (np.arange(batch) * distance).reshape([batch] + [1] * len(extents))
    for axis, (e, s) in enumerate(zip(extents, strides)):
        shape = [1] * (len(extents) + 1)
        shape[axis + 1] = e
        grid += (np.arange(e) * s).reshape(shape)
    return grid


def shifted_axes(p, side):
    """Axes (of the batch-first arrays) that a shift moves on a side: all but a halved last."""
    rank = len(p["n"])
    return tuple(range(1, rank + (0 if halved(p, side) else 1)))


def transform_axes(p):
    """The axes of the batch-first arrays that a transform runs along."""
    return tuple(range(1, len(p["n"]) + 1))


def r2r_reference(p, x):
    """The expected R2R output: scipy's unnormalized DCT or DST along each axis (the inverse
    kinds inverse), the norm over the logical sizes N', under ortho the first and last terms
    weighed as docs/api.md defines it (the last of DST-II/III, where scipy 1.10 takes the
    first)."""
    forward, ortho = p["direction"] == "forward", p["norm"] == "ortho"
    logical = 1
    for axis, kind in zip(transform_axes(p), p["r2r"]):
        kind = kind if forward else R2R_INVERSE.get(kind, kind)
        n = x.shape[axis]
        logical *= 2 * (n - 1) if kind == "dct1" else 2 * (n + 1) if kind == "dst1" else 2 * n
        x = np.moveaxis(x.copy(), axis, 0)
        if ortho:
            x[0] *= math.sqrt(2) if kind in ("dct1", "dct3") else 1
            x[-1] *= math.sqrt(2) if kind in ("dct1", "dst3") else 1
        x = getattr(scipy_fft, kind[:3])(x, type=int(kind[3]), axis=0)
        if ortho:
            x[0] /= math.sqrt(2) if kind in ("dct1", "dct2") else 1
            x[-1] /= math.sqrt(2) if kind in ("dct1", "dst2") else 1
        x = np.moveaxis(x, 0, axis)
    scale = {"none": 1.0, "ortho": 1.0 / math.sqrt(logical),
             "backward": 1.0 if forward else 1.0 / logical,
             "forward": 1.0 / logical if forward else 1.0}[p["norm"]]
    return x * scale


def reference(p, x):
    """The expected output, in double precision, for the logical input x (batch first)."""
    if p["kind"] == "r2r":
        return r2r_reference(p, x)
    axes = transform_axes(p)
    shift = p["shift"] or ""
    if shift in ("input", "both"):
        x = np.fft.ifftshift(x, axes=shifted_axes(p, "in"))
    if p["kind"] == "r2c":
        y = np.fft.rfftn(x, axes=axes)
    elif p["kind"] == "c2r":
        y = np.fft.irfftn(x, s=p["n"], axes=axes, norm="forward")
    elif p["direction"] == "forward":
        y = np.fft.fftn(x, axes=axes)
    else:
        y = np.fft.ifftn(x, axes=axes, norm="forward")
    if shift in ("output", "both"):
        y = np.fft.fftshift(y, axes=shifted_axes(p, "out"))
    size = math.prod(p["n"])
    forward = p["direction"] == "forward"
    scale = {"none": 1.0, "ortho": 1.0 / math.sqrt(size),
             "backward": 1.0 if forward else 1.0 / size,
             "forward": 1.0 / size if forward else 1.0}[p["norm"]]
    return y * scale


def draw_input(rng, p):
    """The logical input: random values, a Hermitian-consistent spectrum for C2R (shifted, so
    that the input shift gives back the consistent one)."""
    shape = [p["batch"]] + side_extents(p, "in")
    if p["kind"] == "c2r":
        x = np.fft.rfftn(rng.standard_normal([p["batch"]] + p["n"]), axes=transform_axes(p))
        if p["shift"] in ("input", "both"):
            x = np.fft.fftshift(x, axes=shifted_axes(p, "in"))
        return x
    if p["kind"] in ("r2c", "r2r"):
        return rng.standard_normal(shape)
    return rng.standard_normal(shape) + 1j * rng.standard_normal(shape)


def bound(p):
    """tests' ref::error_bound: eps (5 log2 N + 4), N the transform's size."""
    eps = 2.0**-52 if p["precision"] == "f64" else 2.0**-23
    return eps * (5.0 * max(1.0, math.log2(math.prod(p["n"]))) + 4.0)


def relative_error(got, want):
    """tests' ref::relative_error: the norm of the difference over the norm of want."""
    if not np.all(np.isfinite(got)):
        return math.inf
    diff = np.sum(np.abs(got.astype(np.complex128) - want) ** 2)
    norm = np.sum(np.abs(want) ** 2)
    return math.sqrt(diff / norm) if norm > 0 else math.sqrt(diff)


SENTINEL = 7.25


def draw_trial(rng, variants, max_elements):
    """A problem, a variant, layouts and where the data lives."""
    p = draw_problem(rng, max_elements)
    p["variant"] = str(variants[rng.integers(len(variants))])
    p["placement"] = ["host", "host", "device", "wrapped"][rng.integers(4)]
    ext_in, ext_out = side_extents(p, "in"), side_extents(p, "out")
    if not p["in_place"]:
        p["in_strides"], p["in_distance"] = draw_layout(rng, ext_in, p["batch"])
        p["out_strides"], p["out_distance"] = draw_layout(rng, ext_out, p["batch"])
    elif rng.random() < 0.5:  # in place on a strided layout
        c = "in" if halved(p, "in") else "out"
        real_complex = p["kind"] in ("r2c", "c2r")
        s, d = draw_layout(rng, side_extents(p, c), p["batch"], rows=real_complex)
        p.update(in_strides=s, in_distance=d, out_strides=s, out_distance=d)
        if real_complex:  # the real side padded as the C API's rule for in place
            r = "out" if c == "in" else "in"
            p[f"{r}_strides"] = tuple(2 * x for x in s[:-1]) + (s[-1],)
            p[f"{r}_distance"] = 2 * d
    return p


def api_placement(p):
    """The descriptor's placement: wrapped buffers are device buffers too."""
    return "host" if p["placement"] == "host" else "device"


def run(plan, p, buf):
    """Runs plan on a copy of buf, in host memory or in the backend's buffers (placement
    device; wrapped: those buffers' native handles wrapped again, as a caller's are): the
    output side's whole span as the run left it, and the input side's."""
    direction, in_place = p["direction"], p["in_place"]
    out = np.full(plan.out_bytes // plan.out_dtype.itemsize + 2, SENTINEL, plan.out_dtype)
    if p["placement"] == "host":
        src = buf.copy()
        dst = plan.execute(direction, src, out=None if in_place else out)
        return dst.reshape(-1).view(plan.out_dtype), src
    with contextlib.ExitStack() as stack:
        src, dst = (stack.enter_context(plan.buffer(n)) for n in (buf.nbytes, out.nbytes))
        src.write(buf)
        dst.write(out)
        a, b = src, dst
        if p["placement"] == "wrapped":  # the same memory under a caller's kind of handle
            a, b = (stack.enter_context(plan.context.wrap(plan.backend, x.native, x.nbytes))
                    for x in (src, dst))
        plan.execute(direction, a, None if in_place else b)
        plan.synchronize()
        after = src.read(plan.in_dtype)
        return (after.view(plan.out_dtype) if in_place else dst.read(plan.out_dtype)), after


def trial(rng, index, backend, variants, max_elements, verbose):
    """One problem: (problem, what failed or None, "declined: why" or "")."""
    p = draw_trial(rng, variants, max_elements)
    if verbose:
        print(f"trial {index}: {p}", flush=True)
    layout = {k: p[k] for k in ("in_strides", "in_distance", "out_strides", "out_distance")
              if k in p}
    try:
        plan = fftmux.Plan(tuple(p["n"]), plan_kind(p), p["precision"], batch=p["batch"],
                           norm=p["norm"], shift=p["shift"], in_place=p["in_place"],
                           placement=api_placement(p),
                           backend=backend, variant=p["variant"],
                           **layout)
    except (fftmux.UnsupportedError, fftmux.NotFoundError) as e:
        return p, None, f"declined: {e}"
    with plan:
        desc = plan.desc
        ext_in, ext_out = side_extents(p, "in"), side_extents(p, "out")
        in_off = offsets(ext_in, p["batch"], desc["in_strides"], desc["in_distance"])
        out_off = offsets(ext_out, p["batch"], desc["out_strides"], desc["out_distance"])
        x = draw_input(rng, p).astype(plan.in_dtype)  # what the engine gets, and the reference
        size = max(plan.in_bytes, plan.out_bytes if p["in_place"] else 0) // plan.in_dtype.itemsize
        buf = np.full(size + 2, SENTINEL, plan.in_dtype)  # 2: whole complex views
        buf[in_off] = x
        got, after = run(plan, p, buf)
        want = reference(p, x.astype(np.complex128 if x.dtype.kind == "c" else np.float64))
        error = relative_error(got[out_off], want)
        if not error <= bound(p):
            return p, f"error {error:.3g} over the bound {bound(p):.3g}", ""
        if not p["in_place"]:
            if not np.array_equal(after, buf):
                return p, "the out-of-place input changed", ""
            outside = np.ones(got.size, bool)
            outside[out_off] = False
            if np.any(got[outside] != SENTINEL):
                return p, "wrote outside the output's elements", ""
    return p, None, ""


def plan_kind(p):
    """The kind as Plan and `fftmux run --kind` take it: R2R's per axis ("dct2,dst1")."""
    return ",".join(p["r2r"]) if p["kind"] == "r2r" else p["kind"]


def command(p, backend):
    """The `fftmux run` line that runs the same problem (its own random input) and verifies it."""
    args = [f"--backend {backend} --variant {p['variant']}",
            "--shape " + "x".join(map(str, p["n"])),
            f"--batch {p['batch']} --kind {plan_kind(p)} --precision {p['precision']}",
            f"--norm {p['norm']} --shift {p['shift'] or 'none'} --direction {p['direction']}",
            f"--placement {api_placement(p)}"]
    if p["in_place"]:
        args.append("--in-place")
    for side in ("in", "out"):
        if f"{side}_strides" in p:
            args.append(f"--{side}-strides " + "x".join(map(str, p[f"{side}_strides"])) +
                        f" --{side}-distance {p[f'{side}_distance']}")
    return "fftmux run " + " ".join(args) + " --verify --repeat 1"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--backend", required=True)
    ap.add_argument("--trials", type=int, default=100, help="how many (0: no limit)")
    ap.add_argument("--seconds", type=float, default=0,
                    help="start no trial after this long (0: no limit)")
    ap.add_argument("--seed", type=int, default=1, help="0: a new seed, printed")
    ap.add_argument("--first", type=int, default=0, help="index of the first trial (to replay one)")
    ap.add_argument("--max-elements", type=int, default=1 << 14,
                    help="largest transform (elements of one, times the batch)")
    ap.add_argument("--variants", default="", help="comma-separated; default every one listed")
    ap.add_argument("--verbose", action="store_true",
                    help="print each trial before it runs (to name one that crashes)")
    a = ap.parse_args()
    seed = a.seed or int(np.random.SeedSequence().entropy % 2**63)
    info = [b for b in fftmux.backends() if b.name == a.backend]
    if not info or not info[0].ready:
        reason = info[0].reason if info else "not found"
        print(f"sweep: backend {a.backend} cannot run here: {reason}")
        return 77
    variants = a.variants.split(",") if a.variants else list(info[0].variants)
    print(f"sweep: {a.backend} ({'; '.join(info[0].devices)}), variants {','.join(variants)}, seed {seed}")
    start, done, declined, failed = time.monotonic(), 0, 0, 0
    while (not a.seconds or time.monotonic() - start < a.seconds) and (
            not a.trials or done < a.trials):
        index = a.first + done
        rng = np.random.default_rng([seed, index])  # a trial reproduces alone by its index
        p, failure, note = trial(rng, index, a.backend, variants, a.max_elements, a.verbose)
        if failure:
            failed += 1
            print(f"FAIL trial {index} (--seed {seed} --first {index} --trials 1): {failure}: "
                  f"{p}\n  {command(p, a.backend)}", flush=True)
        if note:
            declined += 1
            if a.verbose or declined <= 3:
                print(f"trial {index} {note}", flush=True)
        done += 1
    print(f"sweep: {done} trials in {time.monotonic() - start:.0f} s, {failed} failed, "
          f"{declined} declined by the backend")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
