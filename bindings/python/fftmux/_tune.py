"""autotune: measure the backends and variants on this machine, then route by it."""

import ctypes
from dataclasses import dataclass

from . import _capi as C
from . import _desc

SETS = {"default": C.TUNE_DEFAULT, "quick": C.TUNE_QUICK}


@dataclass(frozen=True)
class TuneRecord:
    """One problem on one backend variant, as autotune measured it (seconds)."""

    problem: dict  # the descriptor, as Plan.desc describes it
    backend: str
    variant: str
    ok: bool  # measured, and its round trip verified
    reason: str  # why not ok: declined, failed, wrong result, skipped
    plan_seconds: float
    upload_seconds: float  # None when the backend has no memory of its own
    execute_seconds: float
    download_seconds: float
    median_seconds: float  # what routing compares: HOST end to end, DEVICE execution
    spread_seconds: float
    round_trip_error: float
    gbytes_per_second: float
    problem_index: int
    problem_count: int
    elapsed_seconds: float
    eta_seconds: float  # None when unknown
    same_as: str  # the variant whose kernels this one runs, timed once for both; "" if none
    runs: int  # timed runs behind median_seconds (a race times the losers less)


def _seconds(value):
    return None if value < 0 else value


def _record(raw):
    return TuneRecord(
        problem=_desc.describe(raw.desc), backend=C.decode(raw.backend),
        variant=C.decode(raw.variant), ok=bool(raw.ok), reason=C.decode(raw.reason),
        plan_seconds=raw.plan_seconds, upload_seconds=_seconds(raw.upload_seconds),
        execute_seconds=raw.execute_seconds, download_seconds=_seconds(raw.download_seconds),
        median_seconds=raw.median_seconds, spread_seconds=raw.spread_seconds,
        round_trip_error=raw.round_trip_error, gbytes_per_second=raw.gbytes_per_second,
        problem_index=raw.problem_index, problem_count=raw.problem_count,
        elapsed_seconds=raw.elapsed_seconds, eta_seconds=_seconds(raw.eta_seconds),
        same_as=C.decode(raw.same_as), runs=raw.runs)


def problem_set(name):
    """The descriptors of autotune's "default" or "quick" set, as dicts."""
    return [_desc.describe(d) for d in _set(name)]


def _set(name):
    if name not in SETS:
        raise ValueError(f"problem set {name!r}: use one of {', '.join(SETS)}")
    count = ctypes.c_size_t()
    C.call("fftmux_autotune_problems", SETS[name], None, 0, ctypes.byref(count))
    descs = (C.Desc * count.value)()
    C.call("fftmux_autotune_problems", SETS[name], descs, count.value, ctypes.byref(count))
    return list(descs)


def _problems(problems):
    """Descriptors from a set name or from dicts of Plan arguments."""
    if isinstance(problems, str):
        return _set(problems)
    out = []
    for p in problems:
        p = dict(p)
        shape = p.pop("shape")
        out.append(_desc.make(shape, p.pop("kind", "c2c"), p.pop("precision", "f32"), **p))
    return out


def autotune(context, problems="quick", *, backends=None, budget=0.0, repeats=15, warmup=3,
             cache=None, seed=0, write_cache=True, progress=None, exhaustive=False,
             skip_factor=0.0):
    """Runs fftmux_autotune and returns its TuneRecords.

    problems: "default", "quick", or an iterable of dicts of Plan arguments, e.g.
    [{"shape": (4096,), "batch": 256, "precision": "f64"}]. progress(record) is called
    after every measurement; an exception it raises stops nothing but is re-raised at the end.
    By default the candidates race (skip_factor: those estimated that many times slower than
    the best time are skipped; 0 is 4); exhaustive=True times every one fully.
    """
    descs = _problems(problems)
    array = (C.Desc * len(descs))(*descs)
    records, failures = [], []

    def on_record(_user, raw):
        record = _record(raw.contents)
        records.append(record)
        if progress is not None:
            try:
                progress(record)
            except BaseException as e:  # never across the C boundary
                failures.append(e)

    callback = C.TuneProgress(on_record)
    o = C.new(C.TuneOptions, "fftmux_tune_options_init")
    o.repeats, o.warmup, o.budget_seconds = int(repeats), int(warmup), float(budget)
    o.write_cache, o.seed = int(bool(write_cache)), int(seed)
    o.exhaustive, o.skip_factor = int(bool(exhaustive)), float(skip_factor)
    strings = (",".join(backends).encode() if backends else None,
               str(cache).encode() if cache else None)
    o.backends, o.cache_path = strings
    o.progress = callback
    C.call("fftmux_autotune", context.handle, array, len(descs), ctypes.byref(o))
    if failures:
        raise failures[0]
    return records
