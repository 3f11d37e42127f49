#!/usr/bin/env python3
"""Reduces `fftmux autotune --json` outputs of parts of the default set to
what autotune's pace is made of: per part its wall seconds and problems; per
problem started (not those the budget left out) its wall seconds (from the
records' done_seconds), the candidates
planned (distinct code), timed, skipped, the seconds their planning took,
their checks took (where the records have them), the seconds their timed
runs took, and the route. Writes the JSON that results.py's
`pace` renderer tables.

    autotune_pace.py OUT.json PART=SECONDS=FILE.json [PART=SECONDS=FILE.json ...]
"""
import collections
import json
import sys


def part(name, seconds, path):
    with open(path) as f:
        records = json.load(f)["records"]
    problems = collections.OrderedDict()
    for r in records:
        problems.setdefault(r["problem"], []).append(r)
    rows, before = [], 0.0
    for problem, rs in problems.items():
        if all("time budget" in r["reason"] for r in rs):
            continue  # not started: the run's budget was spent
        done = max(r.get("done_seconds", 0.0) for r in rs)
        distinct = [r for r in rs if r["ok"] and not r.get("same_as")]
        timed = [r for r in distinct if r["runs"] > 0]
        best = min(timed, key=lambda r: r["median_seconds"], default=None)
        rows.append({"problem": problem,
                     "planned": len(distinct),
                     "same_code": sum(1 for r in rs if r.get("same_as")),
                     "skipped": sum(1 for r in rs if not r["ok"] and "skipped" in r["reason"]),
                     "plan_seconds": round(sum(r["plan_seconds"] for r in distinct), 3),
                     "check_seconds": round(sum(r.get("check_seconds", 0.0) for r in distinct), 3),
                     "timed_seconds": round(sum(r["runs"] * r["median_seconds"] for r in timed), 3),
                     "route": f"{best['backend']}/{best['variant']}" if best else ""})
        if done:
            rows[-1]["seconds"] = round(done - before, 3)
            before = done
    return {"part": name, "seconds": float(seconds), "problems": rows}


def main():
    out, parts = sys.argv[1], []
    for arg in sys.argv[2:]:
        name, seconds, path = arg.split("=", 2)
        parts.append(part(name, seconds, path))
    with open(out, "w") as f:
        json.dump({"parts": parts}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
