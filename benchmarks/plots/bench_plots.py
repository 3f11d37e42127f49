#!/usr/bin/env python3
"""Plots and tables of fftmux_bench results (bench.json or bench.csv).

For every problem set and class of engines (cpu, gpu) in the results:
  <set>_<class>_throughput.png  GB/s of the forward transform against size,
                                one line per engine, the copy limit dashed
  <set>_<class>_ratio.png       each engine's speed relative to the best peer
  <set>_<class>_planning.png    plan creation, cold (solid) and warm (dashed)
and, with --table, a Markdown table of the forward times per problem.

Only rows the harness measured and verified (status ok) are drawn.
"""
import argparse
import csv
import json
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter  # noqa: E402

NUMERIC = {"rank", "batch", "points", "elements", "median_s", "q1_s", "q3_s", "min_s", "max_s",
           "samples", "runs_per_sample", "bytes", "gbps", "gflops", "forward_error",
           "round_trip_error", "error_bound", "rows_checked", "rows_total"}


def read_csv(path):
    """(meta, rows) of a harness CSV: its "# key: value" lines, then rows of text."""
    meta, lines = {}, []
    with open(path, newline="") as f:
        for line in f:
            if line.startswith("# "):
                key, _, value = line[2:].rstrip("\n").partition(": ")
                meta[key] = value
            else:
                lines.append(line)
    return meta, list(csv.DictReader(lines))


def load(path):
    """(meta, rows): rows as dicts with numbers parsed, from JSON or CSV."""
    if path.endswith(".json"):
        with open(path) as f:
            data = json.load(f)
        return data["meta"], data["rows"]
    meta, rows = read_csv(path)
    for r in rows:
        for k in NUMERIC:
            r[k] = float(r[k]) if r.get(k) not in (None, "") else None
        r["verified"] = r["verified"] == "true"
    return meta, rows


def panel_key(r):
    return (r["kind"], r["precision"], r["placement"], int(r["rank"]))


def panel_title(key):
    kind, precision, placement, rank = key
    return f"{kind.upper()} {precision.upper()} {rank}D, {placement} memory"


def engine_style(engine, family, engines):
    """Colour by engine (stable order), dashed black for copies."""
    if family == "copy":
        return dict(color="black", linestyle="--", marker="", linewidth=1.2)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    markers = "os^Dv<>ph*"
    i = engines.index(engine)
    return dict(color=colours[i % len(colours)], marker=markers[i % len(markers)],
                linestyle="-", markersize=4, linewidth=1.2)


def pow2_formatter():
    def fmt(x, _):
        if x <= 0:
            return ""
        e = math.log2(x)
        return f"$2^{{{int(round(e))}}}$" if abs(e - round(e)) < 1e-9 else f"{x:g}"
    return FuncFormatter(fmt)


def grouped(rows, phase):
    """{(set, class): {panel: {engine: [rows sorted by size]}}} of one phase."""
    out = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    for r in rows:
        if r["status"] == "ok" and r["phase"] == phase:
            out[(r["set"], r["class"])][panel_key(r)][r["engine"]].append(r)
    for panels in out.values():
        for engines in panels.values():
            for lst in engines.values():
                lst.sort(key=lambda r: r["points"])
    return out


def figure(n_panels):
    cols = min(2, n_panels)
    rows = (n_panels + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.4 * cols, 4.2 * rows), squeeze=False)
    for ax in axes.flat[n_panels:]:
        ax.set_visible(False)
    return fig, list(axes.flat[:n_panels])


def is_pow2(n):
    n = int(n)
    return n > 0 and n & (n - 1) == 0


def draw(ax, rows, y, style, label, yerr=None):
    """Powers of two joined by a line; other sizes as open markers of the
    same colour, so that slow prime sizes do not zigzag the line."""
    groups = ([i for i, r in enumerate(rows) if is_pow2(r["points"])],
              [i for i, r in enumerate(rows) if not is_pow2(r["points"])])
    for n, idx in enumerate(groups):
        if not idx:
            continue
        extra = {} if n == 0 else dict(linestyle="none", markerfacecolor="none")
        err = None if yerr is None else [[yerr[0][i] for i in idx], [yerr[1][i] for i in idx]]
        ax.errorbar([rows[i]["points"] for i in idx], [y[i] for i in idx], yerr=err,
                    capsize=2 if err else 0, label=label if n == 0 or not groups[0] else None,
                    **dict(style, **extra))


def finish(fig, axes, path, title, meta, cls):
    for ax in axes:
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=7, loc="best")
    machine = meta.get("gpus") if cls == "gpu" else f"{meta.get('cpu')}, {meta.get('cores')} cores"
    fig.suptitle(f"{title}\n{meta.get('host', '')}: {machine}; open markers: N not a power of 2",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def all_engines(rows):
    seen = []
    for r in rows:
        if r["family"] != "copy" and r["engine"] not in seen:
            seen.append(r["engine"])
    return sorted(seen)


def families(rows):
    return {r["engine"]: r["family"] for r in rows}


def plot_throughput(rows, meta, out, prefix):
    paths, engines, fam = [], all_engines(rows), families(rows)
    fwd, copies = grouped(rows, "forward"), grouped(rows, "copy")
    for (set_, cls), panels in sorted(fwd.items()):
        fig, axes = figure(len(panels))
        for ax, (key, by_engine) in zip(axes, sorted(panels.items())):
            for engine, lst in sorted(by_engine.items()):
                y = [r["gbps"] for r in lst]
                # The interquartile range of the samples, as GB/s.
                lo = [r["bytes"] / r["q3_s"] / 1e9 for r in lst]
                hi = [r["bytes"] / r["q1_s"] / 1e9 for r in lst]
                err = [[max(0, b - a) for a, b in zip(lo, y)],
                       [max(0, a - b) for a, b in zip(hi, y)]]
                draw(ax, lst, y, engine_style(engine, fam[engine], engines), engine, err)
            for engine, lst in sorted(copies.get((set_, cls), {}).get(key, {}).items()):
                draw(ax, lst, [r["gbps"] for r in lst], engine_style(engine, "copy", engines),
                     f"{engine} (copy limit)")
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(pow2_formatter())
            ax.set_xlabel("points per transform")
            ax.set_ylabel("GB/s (one read + one write per transform)")
            ax.set_ylim(bottom=0)
            ax.set_title(panel_title(key), fontsize=9)
        paths.append(finish(fig, axes, os.path.join(out, f"{prefix}{set_}_{cls}_throughput.png"),
                            f"fftmux_bench '{set_}', {cls}: forward throughput (median, IQR)",
                            meta, cls))
    return paths


def plot_ratio(rows, meta, out, prefix):
    paths, engines, fam = [], all_engines(rows), families(rows)
    for (set_, cls), panels in sorted(grouped(rows, "forward").items()):
        fig, axes = figure(len(panels))
        any_peer = False
        for ax, (key, by_engine) in zip(axes, sorted(panels.items())):
            best = {}  # problem -> fastest peer time
            for engine, lst in by_engine.items():
                if fam[engine] == "peer":
                    for r in lst:
                        best[r["problem"]] = min(best.get(r["problem"], math.inf), r["median_s"])
            any_peer = any_peer or bool(best)
            for engine, lst in sorted(by_engine.items()):
                lst = [r for r in lst if r["problem"] in best]
                draw(ax, lst, [best[r["problem"]] / r["median_s"] for r in lst],
                     engine_style(engine, fam[engine], engines), engine)
            ax.axhline(1.0, color="grey", linewidth=0.8)
            # Ratios span orders of magnitude (a software rasterizer, launch-bound
            # sizes): a log scale keeps 0.5x and 2x equally far from 1.
            ax.set_yscale("log", base=2)
            ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}x"))
            ax.set_xscale("log", base=2)
            ax.xaxis.set_major_formatter(pow2_formatter())
            ax.set_xlabel("points per transform")
            ax.set_ylabel("best peer's time / engine's time (above 1x: faster)")
            ax.set_title(panel_title(key), fontsize=9)
        if not any_peer:
            plt.close(fig)
            continue
        paths.append(finish(fig, axes, os.path.join(out, f"{prefix}{set_}_{cls}_ratio.png"),
                            f"fftmux_bench '{set_}', {cls}: forward speed against the best peer",
                            meta, cls))
    return paths


def plot_planning(rows, meta, out, prefix):
    paths, engines, fam = [], all_engines(rows), families(rows)
    cold, warm = grouped(rows, "plan_cold"), grouped(rows, "plan_warm")
    for (set_, cls), panels in sorted(cold.items()):
        fig, axes = figure(len(panels))
        for ax, (key, by_engine) in zip(axes, sorted(panels.items())):
            for engine, lst in sorted(by_engine.items()):
                style = engine_style(engine, fam[engine], engines)
                draw(ax, lst, [r["median_s"] for r in lst], style, f"{engine} cold")
                w = warm[(set_, cls)][key].get(engine, [])
                draw(ax, w, [r["median_s"] for r in w], dict(style, linestyle=":"),
                     f"{engine} warm")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.xaxis.set_major_formatter(pow2_formatter())
            ax.set_xlabel("points per transform")
            ax.set_ylabel("plan creation, both directions (s)")
            ax.set_title(panel_title(key), fontsize=9)
        paths.append(finish(fig, axes, os.path.join(out, f"{prefix}{set_}_{cls}_planning.png"),
                            f"fftmux_bench '{set_}', {cls}: planning time", meta, cls))
    return paths


def fmt_time(s):
    return f"{s * 1e6:.1f} µs" if s < 1e-3 else f"{s * 1e3:.2f} ms"


def table(rows):
    """Markdown: per set and class, one line per problem in the order the
    harness ran them: forward time, GB/s and GFLOP/s per engine, the copy
    limit, and the best fftmux engine against the best peer."""
    fam = families(rows)
    ok = [r for r in rows if r["status"] == "ok"]
    copy_of = {(r["set"], r["class"], r["problem"]): r["gbps"] for r in ok if r["phase"] == "copy"}
    groups = {}  # (set, class) -> problem -> engine -> row
    for r in ok:
        if r["phase"] == "forward":
            problems = groups.setdefault((r["set"], r["class"]), {})
            problems.setdefault(r["problem"], {})[r["engine"]] = r
    lines = []
    for (set_, cls), problems in groups.items():
        engines = sorted({e for cells in problems.values() for e in cells})
        head = ["problem"] + engines + ["copy limit", "fftmux / best peer"]
        lines += [f"**{set_}, {cls}** (forward: median time, GB/s, GFLOP/s)", "",
                  "| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
        for problem, cells in problems.items():
            row = [problem]
            for e in engines:
                r = cells.get(e)
                row.append(f"{fmt_time(r['median_s'])}, {r['gbps']:.1f} GB/s, "
                           f"{r['gflops']:.1f} GF/s" if r else "–")
            limit = copy_of.get((set_, cls, problem))
            row.append(f"{limit:.1f} GB/s" if limit else "–")
            ours = [r["median_s"] for e, r in cells.items() if fam[e] == "fftmux"]
            peers = [r["median_s"] for e, r in cells.items() if fam[e] == "peer"]
            row.append(f"{min(peers) / min(ours):.2f}x" if ours and peers else "–")
            lines.append("| " + " | ".join(row) + " |")
        lines.append("")
    return "\n".join(lines)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("results", help="bench.json or bench.csv of fftmux_bench")
    p.add_argument("--out", default=".", help="folder for the PNGs")
    p.add_argument("--prefix", default="bench_", help="file name prefix of the PNGs")
    p.add_argument("--table", help="write the Markdown table to this file ('-': stdout)")
    a = p.parse_args(argv)
    meta, rows = load(a.results)
    os.makedirs(a.out, exist_ok=True)
    paths = (plot_throughput(rows, meta, a.out, a.prefix) + plot_ratio(rows, meta, a.out, a.prefix)
             + plot_planning(rows, meta, a.out, a.prefix))
    for path in paths:
        print(path)
    if a.table:
        text = table(rows)
        if a.table == "-":
            print(text)
        else:
            with open(a.table, "w") as f:
                f.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
