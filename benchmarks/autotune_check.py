#!/usr/bin/env python3
"""How good the autotune race is: its time and its routes against the exhaustive sweep's.

Runs `fftmux autotune --quick` (the race) and `fftmux autotune --quick --exhaustive` into
fresh caches, then, for every problem, prices the race's route with the sweep's own
measurement of it (the sweep times every candidate side by side) against the sweep's best;
where the two routes differ, both are timed again in one run of 51 repeats, which decides.
Then routes sizes between the tuned ones from the race's cache (interpolated) and times
every candidate of those problems exhaustively, to price the interpolated route.

    benchmarks/autotune_check.py [--fftmux build/bin/fftmux] [--json FILE]
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

# Sizes between the quick set's 2^3, 2^7, 2^11, 2^15, 2^19, at its 2^18 elements a call.
BETWEEN = [32, 512, 8192, 131072]


def autotune(fftmux, env, *args):
    """Wall seconds and records of one autotune run."""
    start = time.monotonic()
    out = subprocess.run([fftmux, "autotune", "--json", *args], env=env, check=True,
                         capture_output=True, text=True).stdout
    return time.monotonic() - start, json.loads(out)["records"]


def timed(records):
    """problem -> {backend/variant: median seconds} of the candidates measured."""
    out = {}
    for r in records:
        if r["ok"]:
            out.setdefault(r["problem"], {})[f'{r["backend"]}/{r["variant"]}'] = r["median_seconds"]
    return out


def route(times):
    return min(times, key=times.get)


def problem_args(problem):
    """fftmux options of a record's problem text, e.g. "c2c f32 64x64 batch 8 host"."""
    kind, precision, shape, _, batch, placement = problem.split()
    return ["--kind", kind, "--precision", precision, "--shape", shape, "--batch", batch,
            "--placement", placement]


def retime(fftmux, env, problem, a, b, cache):
    """a's time over b's, both timed again in one exhaustive run of 51 repeats."""
    backends = sorted({a.split("/")[0], b.split("/")[0]})
    _, recs = autotune(fftmux, env, "--exhaustive", "--repeat", "51", "--backends",
                       ",".join(backends), "--cache", cache, *problem_args(problem))
    times = next(iter(timed(recs).values()))
    return times[a] / times[b]


def explain_choice(fftmux, env, shape, kind, batch):
    out = subprocess.run([fftmux, "explain", "--shape", str(shape), "--kind", kind, "--batch",
                          str(batch)], env=env, check=True, capture_output=True, text=True).stdout
    line = next(l for l in out.splitlines() if l.startswith("chosen: "))
    how = next(l for l in out.splitlines() if l.startswith("decision: "))
    return line.split(": ", 1)[1], how.split(": ", 1)[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fftmux", default="build/bin/fftmux")
    parser.add_argument("--json", help="write the results here")
    a = parser.parse_args()
    home = tempfile.mkdtemp(prefix="autotune_check_")
    env = dict(os.environ, XDG_CACHE_HOME=home)
    race_cache, sweep_cache = f"{home}/race.toml", f"{home}/sweep.toml"
    t_race, race = autotune(a.fftmux, env, "--quick", "--cache", race_cache)
    t_sweep, sweep = autotune(a.fftmux, env, "--quick", "--exhaustive", "--cache", sweep_cache)
    race_t, sweep_t = timed(race), timed(sweep)
    rows, worst = [], 1.0
    print(f"{'PROBLEM':34} {'RACE ROUTE':26} {'SWEEP ROUTE':26} SWEEP AGAIN")
    for problem, times in sweep_t.items():
        r = route(race_t[problem])
        s = route(times)
        first = times[r] / times[s] if r in times else float("nan")
        ratio = first if r == s else retime(a.fftmux, env, problem, r, s, f"{home}/again.toml")
        worst = max(worst, ratio)
        rows.append({"problem": problem, "race": r, "sweep": s, "sweep_ratio": first,
                     "ratio": ratio})
        print(f"{problem:34} {r:26} {s:26} {first:5.2f} {ratio:5.2f}")
    env_race = dict(env, FFTMUX_TUNING_CACHE=race_cache)
    between, worst_between = [], 1.0
    for n in BETWEEN:
        for kind in ("c2c", "r2c"):
            batch = max(1, (1 << 18) // n)
            chosen, how = explain_choice(a.fftmux, env_race, n, kind, batch)
            _, recs = autotune(a.fftmux, env, "--exhaustive", "--shape", str(n), "--kind", kind,
                               "--batch", str(batch), "--cache", f"{home}/between.toml")
            times = next(iter(timed(recs).values()))
            best = route(times)
            ratio = times.get(chosen, float("nan")) / times[best]
            worst_between = max(worst_between, ratio)
            between.append({"problem": f"{kind} f32 {n} batch {batch} host", "route": chosen,
                            "how": how, "best": best, "ratio": ratio})
            print(f"{kind} {n:>7} x{batch:<5} {chosen:26} ({how[:40]}) best {best:26} {ratio:5.2f}")
    summary = {"race_seconds": t_race, "sweep_seconds": t_sweep,
               "race_measurements": sum(r["ok"] for r in race),
               "sweep_measurements": sum(r["ok"] for r in sweep),
               "worst_race_over_sweep": worst, "worst_interpolated_over_best": worst_between}
    print(json.dumps(summary, indent=1))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"summary": summary, "routes": rows, "between": between}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
