#!/usr/bin/python3
"""DCT-II and DCT-IV against C2C of the same shape on the same backend: each problem timed by
`fftmux run --json` (the median of --repeat runs, device data unless --placement host says
otherwise), the two kinds one after the other in the same run, and a markdown table of the
times and their ratio (DCT time over C2C time; the goal of a GPU DCT is at most 1.15).

    benchmarks/r2r_ratio.py --fftmux build/bin/fftmux --backends vulkan,opengl --elements 2^20
"""
import argparse
import json
import subprocess
import sys

PROBLEMS = [  # (shape, kinds): 1D lines batched to fill --elements, 2D single and batched
    ([1024], ["dct2", "dct4"]),
    ([4096], ["dct2", "dct4"]),
    ([65536], ["dct2"]),
    ([1000], ["dct2"]),
    ([512, 512], ["dct2", "dct4"]),
    ([2048, 2048], ["dct2"]),
]


def run(fftmux, backend, shape, batch, kind, precision, placement, repeat):
    cmd = [fftmux, "run", "--shape", "x".join(map(str, shape)), "--batch", str(batch),
           "--kind", kind if kind == "c2c" else ",".join([kind] * len(shape)),
           "--precision", precision, "--placement", placement, "--backend", backend,
           "--repeat", str(repeat), "--warmup", "3", "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if out.returncode:
        return None, out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"
    return json.loads(out.stdout)["median_seconds"], ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fftmux", default="build/bin/fftmux")
    ap.add_argument("--backends", default="vulkan,opengl,cuda")
    ap.add_argument("--precisions", default="f32,f64")
    ap.add_argument("--placement", default="device")
    ap.add_argument("--elements", default="2^24", help="points a call for batched 1D")
    ap.add_argument("--repeat", type=int, default=20)
    a = ap.parse_args()
    base, _, exp = a.elements.partition("^")
    elements = int(base) ** int(exp) if exp else int(base)
    print("| backend | precision | problem | kind | time ms | C2C ms | ratio |")
    print("|---|---|---|---|---:|---:|---:|")
    for backend in a.backends.split(","):
        for precision in a.precisions.split(","):
            for shape, kinds in PROBLEMS:
                points = 1
                for n in shape:
                    points *= n
                batch = max(1, elements // points) if len(shape) == 1 else 1
                if points > elements:
                    continue
                c2c, why = run(a.fftmux, backend, shape, batch, "c2c", precision, a.placement,
                               a.repeat)
                for kind in kinds:
                    t, why_r = run(a.fftmux, backend, shape, batch, kind, precision, a.placement,
                                   a.repeat)
                    name = "x".join(map(str, shape)) + (f" x{batch}" if batch > 1 else "")
                    if t is None or c2c is None:
                        print(f"| {backend} | {precision} | {name} | {kind} | "
                              f"not run: {why_r or why} | | |")
                        continue
                    print(f"| {backend} | {precision} | {name} | {kind} | {t * 1e3:.3f} | "
                          f"{c2c * 1e3:.3f} | {t / c2c:.2f} |")
                    sys.stdout.flush()


if __name__ == "__main__":
    main()
