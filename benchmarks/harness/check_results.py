#!/usr/bin/env python3
"""ctest bench.harness: runs fftmux_bench on the tiny set, then checks that
its CSV and JSON parse and agree, that every measured row was verified and
plausible, that engines that did not run say why, and that the plots come
out of the results. A second run on the test fixtures, one of which gives
results off by a factor of two, checks that a wrong engine gets no time.

usage: check_results.py HARNESS OUT_DIR PLOTS_SCRIPT FIXTURES_DIR
"""
import json
import math
import os
import subprocess
import sys

# The CSV reader of the plots script, which reads the same files.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "plots"))
from bench_plots import read_csv  # noqa: E402

# The tiny set (benchmarks/harness/problems.cpp) and what must run it here.
PROBLEMS = {"c2c f32 16 b256 host", "c2c f32 1000 b4 host", "c2c f32 64 b64 device",
            "r2c f64 64 b64 host", "c2c f64 8x12 b42 host", "c2c f32 4x4x4 b1 device"}
CPU_ENGINES = {"fftw": "peer", "memcpy": "copy", "fftmux:fftw": "fftmux"}
TIMED = {"host": {"plan_cold", "plan_warm", "forward", "inverse"},
         "device": {"plan_cold", "plan_warm", "upload", "forward", "inverse", "download"}}
META = {"harness", "command", "started", "finished", "host", "cpu", "cores", "os", "fftmux",
        "fftw", "sets", "settings"}
STATUSES = {"ok", "failed", "declined", "skipped"}


def fail(message):
    print("check_results: " + message, file=sys.stderr)
    sys.exit(1)


def expect(condition, message):
    if not condition:
        fail(message)


def csv_value(text, reference):
    """The CSV text of a JSON value, for comparison."""
    if reference is None:
        return text == ""
    if isinstance(reference, bool):
        return text == ("true" if reference else "false")
    if isinstance(reference, (int, float)):
        return math.isclose(float(text), reference, rel_tol=1e-5, abs_tol=1e-300)
    return text == reference


def check_agreement(csv_meta, csv_rows, data):
    expect(META <= set(data["meta"]), f"JSON meta lacks {META - set(data['meta'])}")
    expect(META <= set(csv_meta), f"CSV header lacks {META - set(csv_meta)}")
    expect(len(csv_rows) == len(data["rows"]) > 0,
           f"{len(csv_rows)} CSV rows, {len(data['rows'])} JSON rows")
    expect(list(csv_rows[0].keys()) == data["columns"], "CSV and JSON columns differ")
    for i, (c, j) in enumerate(zip(csv_rows, data["rows"])):
        for k in data["columns"]:
            expect(csv_value(c[k], j[k]), f"row {i} column {k}: CSV {c[k]!r}, JSON {j[k]!r}")


def check_row(r):
    where = f"{r['problem']} {r['engine']} {r['phase']}"
    expect(r["status"] in STATUSES, f"{where}: status {r['status']}")
    if r["status"] != "ok":
        expect(r["reason"], f"{where}: {r['status']} without a reason")
        expect(r["median_s"] is None, f"{where}: a time on a row that did not run")
        return
    expect(r["verified"], f"{where}: a time reported unverified")
    expect(r["median_s"] > 0 and r["min_s"] <= r["median_s"] <= r["max_s"], f"{where}: times")
    expect(r["q1_s"] <= r["median_s"] <= r["q3_s"], f"{where}: quartiles")
    expect(r["rows_checked"] == r["rows_total"] == r["batch"], f"{where}: rows checked")
    if r["family"] != "copy":
        expect(r["forward_error"] <= r["error_bound"], f"{where}: forward error")
        expect(r["round_trip_error"] <= 2 * r["error_bound"], f"{where}: round trip")
    if r["phase"] in ("forward", "inverse", "copy", "upload", "download"):
        expect(r["gbps"] > 0 and r["samples"] >= 3, f"{where}: rate or samples")
        expect(r["gbps"] < 1e5, f"{where}: {r['gbps']} GB/s is not plausible")
    if r["phase"] in ("forward", "inverse"):
        expect(0 < r["gflops"] < 1e5, f"{where}: {r['gflops']} GFLOP/s")


def check_coverage(rows, engines):
    ok = {(r["problem"], r["engine"], r["phase"]) for r in rows if r["status"] == "ok"}
    expect({r["problem"] for r in rows} == PROBLEMS, "the tiny set's problems")
    for name, family in CPU_ENGINES.items():
        expect(engines.get(name, {}).get("family") == family, f"engine {name} missing")
        for p in PROBLEMS:
            phases = {"copy"} if family == "copy" else TIMED[p.split()[-1]]
            for phase in phases:
                expect((p, name, phase) in ok, f"{p}: {name} has no verified {phase}")
    # fftmux's engines name the variant their plans ran: a forced one, or the backend's pick.
    for r in rows:
        if r["status"] == "ok" and r["family"] == "fftmux":
            forced = r["engine"].partition("/")[2]
            expect(r["variant"] and (not forced or r["variant"] == forced),
                   f"{r['problem']}: {r['engine']} ran variant '{r['variant']}'")
        elif r["family"] != "fftmux":
            expect(r["variant"] == "", f"{r['engine']} has no variants")
    for name, e in engines.items():
        if e["skipped"]:
            own = [r for r in rows if r["engine"] == name]
            expect(own and all(r["status"] == "skipped" and r["reason"] for r in own),
                   f"skipped engine {name} must say why on every row")


def check_plots(plots, results, out):
    folder = os.path.join(out, "plots")
    table = os.path.join(out, "table.md")
    printed = subprocess.run([sys.executable, plots, results, "--out", folder, "--table", table],
                             check=True, capture_output=True, text=True).stdout.split()
    for kind in ("throughput", "ratio", "planning"):
        path = os.path.join(folder, f"bench_tiny_cpu_{kind}.png")
        expect(path in printed, f"{path} not drawn")
        with open(path, "rb") as f:
            expect(f.read(8) == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG")
    with open(table) as f:
        text = f.read()
    expect(all(p in text for p in PROBLEMS) and "fftmux:fftw" in text, "table.md")


def run_tiny(harness, out, env=None, *extra):
    subprocess.run([harness, "--set", "tiny", "--out", out, "--repeats", "3", "--warmup", "1",
                    "--min-sample-time", "1e-4", "--phase-budget", "0.02",
                    "--fftw-planner", "estimate", *extra], check=True, env=env)
    with open(os.path.join(out, "bench.json")) as f:
        return json.load(f)


def check_wrong_engine(harness, out, fixtures):
    """The routing fixtures: 'fast' is told to be wrong, 'slow' is right;
    timed one group at a time."""
    os.makedirs(out, exist_ok=True)
    config = os.path.join(out, "fftmux.toml")
    with open(config, "w") as f:
        f.write("[backends.fast]\nwrong = true\n[backends.slow]\n")
    env = dict(os.environ, FFTMUX_CONFIG=config,
               FFTMUX_PLUGIN_PATH=os.path.join(fixtures, "routing"))
    env.pop("FFTMUX_ADD_PLUGIN_PATH", None)
    # A budget too small for two engines at once: each is timed in a group of its own.
    rows = run_tiny(harness, out, env, "--engines", "fftmux:fast,fftmux:slow",
                    "--gpu-memory", "1e-6")["rows"]
    for r in rows:
        check_row(r)
    fast = [r for r in rows if r["engine"] == "fftmux:fast"]
    slow = [r for r in rows if r["engine"] == "fftmux:slow"]
    expect(fast and slow, "the fixture engines did not run")
    expect(not any(r["status"] == "ok" for r in fast), "a wrong engine got a time")
    failed = [r for r in fast if r["status"] == "failed"]
    expect(failed and all("forward error" in r["reason"] for r in failed),
           "the wrong engine's failures must name the forward error")
    expect(any(r["status"] == "ok" and r["phase"] == "forward" for r in slow),
           "the right fixture engine was not timed")
    expect(all(r["reason"] for r in fast + slow if r["status"] == "declined"),
           "declined without a reason")


def main(harness, out, plots, fixtures):
    # The FFTW backend, the peers and the copies: GPU backends on a software
    # rasterizer would take minutes here (their own tests cover them).
    data = run_tiny(harness, out, None, "--engines",
                    "fftmux:fftw,fftw,memcpy,cufft,vkfft,cudaMemcpy")
    csv_meta, csv_rows = read_csv(os.path.join(out, "bench.csv"))
    check_agreement(csv_meta, csv_rows, data)
    for r in data["rows"]:
        check_row(r)
    check_coverage(data["rows"], {e["name"]: e for e in data["engines"]})
    check_plots(plots, os.path.join(out, "bench.json"), out)
    check_wrong_engine(harness, os.path.join(out, "fixtures"), fixtures)
    print(f"check_results: {len(data['rows'])} rows, "
          f"{sum(r['status'] == 'ok' for r in data['rows'])} measured and verified")


if __name__ == "__main__":
    if len(sys.argv) != 5:
        fail(__doc__)
    main(*sys.argv[1:])
