#!/usr/bin/env python3
"""Runs utter's benchmarks and writes RESULTS.md and delivery-vs-n.svg.

    python3 benches/report.py              # everything but the Python reference
    python3 benches/report.py --reference  # also the reference engine (installs rasa-pro into a venv)
    python3 benches/report.py --quick      # fewer samples, no build-time scaling

Steps: the divan delivery benchmarks (medians, ratios), process start-up to
first delivery, and (build_cost.py) crate build time / binary size for
N = 1,000 .. 10,000 in both forms of generated code.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
COMPACT_ABOVE = 1000  # utter_compiler::codegen::COMPACT_ABOVE
QUICK = "--quick" in sys.argv
REFERENCE = "--reference" in sys.argv
UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def ns(text):
    value, unit = text.split()
    return float(value) * UNITS[unit]


def run_divan():
    args = ["cargo", "bench", "--bench", "delivery", "--"]
    if QUICK:
        args += ["--sample-count", "20"]
    out = subprocess.run(args, cwd=HERE, capture_output=True, text=True, check=True).stdout
    results, path = {}, []
    row = re.compile(r"^([│├╰─ ]*)(\S+)\s+([\d.]+ \S+)\s+│\s+([\d.]+ \S+)\s+│\s+([\d.]+ \S+)\s+│")
    group = re.compile(r"^([│├╰─ ]*)(\S+)\s+│")
    for line in out.splitlines():
        m = row.match(line) or group.match(line)
        if not m:
            continue
        depth = len(m.group(1)) // 3  # tree prefix: 3 characters a level, from level 1
        path = path[: depth - 1] + [m.group(2)]
        if m.re is row:
            results["/".join(path)] = ns(m.group(5))  # the median
    return out, results


def median_wall(cmd, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def agents_dir():
    found = (HERE / "target" / "release" / "build").glob("utter-benches-*/out/agents")
    return max(found, key=lambda p: p.stat().st_mtime)


def reference(*args):
    out = subprocess.run([str(HERE / "reference" / "run.sh"), *args], check=True, capture_output=True, text=True)
    return out.stdout


def startup():
    subprocess.run(["cargo", "build", "--release", "--bin", "startup"], cwd=HERE, check=True, capture_output=True)
    binary = HERE / "target" / "release" / "startup"
    runs = 5 if QUICK else 21
    rows = {}
    for n in (10, 1000, 10000):
        rows[n] = {k: median_wall([str(binary), k, str(n)], runs) for k in "abc"}
        if REFERENCE:
            reference("first", str(agents_dir()), "10")  # installs the venv once
            rows[n]["py"] = median_wall([str(HERE / "reference" / "run.sh"), "first", str(agents_dir()), str(n)], max(3, runs // 4))
    return rows


def fmt_ns(v):
    if v == 0:
        return "—"
    if v >= 1e6:
        return f"{v / 1e6:.2f} ms"
    if v >= 1e3:
        return f"{v / 1e3:.2f} µs"
    return f"{v:.1f} ns"


def svg_plot(points, path):
    """A small log-log line chart of delivery time against N."""
    w, h, left, bottom, top, right = 640, 400, 70, 50, 30, 150
    import math
    xs = [10, 100, 1000, 10000]
    ys = [v for series in points.values() for v in series if v > 0]
    ymin, ymax = 10 ** math.floor(math.log10(min(ys))), 10 ** math.ceil(math.log10(max(ys)))
    def px(x):
        return left + (math.log10(x) - 1) / 3 * (w - left - right)
    def py(y):
        return h - bottom - (math.log10(y) - math.log10(ymin)) / (math.log10(ymax) - math.log10(ymin)) * (h - top - bottom)
    colors = {"(a) generated": "#1b7837", "(b) interpreter": "#2166ac", "(c) minijinja": "#b2182b"}
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{w / 2 - 60}" y="18" font-size="14">Delivery time vs. responses (N)</text>']
    for x in xs:
        out.append(f'<line x1="{px(x)}" y1="{top}" x2="{px(x)}" y2="{h - bottom}" stroke="#ddd"/>')
        out.append(f'<text x="{px(x) - 14}" y="{h - bottom + 18}">{x:,}</text>')
    e = math.log10(ymin)
    while e <= math.log10(ymax) + 1e-9:
        y = 10 ** e
        out.append(f'<line x1="{left}" y1="{py(y)}" x2="{w - right}" y2="{py(y)}" stroke="#ddd"/>')
        out.append(f'<text x="8" y="{py(y) + 4}">{fmt_ns(y)}</text>')
        e += 1
    for i, (label, series) in enumerate(points.items()):
        pairs = [(x, y) for x, y in zip(xs, series) if y > 0]
        coords = " ".join(f"{px(x)},{py(y)}" for x, y in pairs)
        c = colors.get(label, "black")
        out.append(f'<polyline points="{coords}" fill="none" stroke="{c}" stroke-width="2"/>')
        for x, y in pairs:
            out.append(f'<circle cx="{px(x)}" cy="{py(y)}" r="3" fill="{c}"/>')
        out.append(f'<text x="{w - right + 10}" y="{top + 20 + 18 * i}" fill="{c}">{label}</text>')
    out.append(f'<text x="{w / 2 - 40}" y="{h - 12}">responses (log)</text></svg>')
    Path(path).write_text("\n".join(out) + "\n")


def main():
    raw, medians = run_divan()
    (HERE / "target").mkdir(exist_ok=True)
    (HERE / "target" / "divan.txt").write_text(raw)
    cases = ["literal", "first_true", "last_true", "default_after_10", "error_skipped", "three_placeholders", "missing_name"]
    paths = [("(a)", "a_generated"), ("(a-typed)", "a_typed_deliver"), ("(a-render)", "a_typed_render"),
             ("(a-compact)", "a_compact_deliver"), ("(b)", "b_interpreter"), ("(c)", "c_minijinja"), ("(d)", "d_match")]
    lines = ["## Delivery (median per delivery, one run)", "",
             "(a) generated, by name through `Context`; (a-typed) `view.deliver(Response::X)` on typed memory; "
             "(a-render) the same view rendering into a reused `String`; (a-compact) (a-typed) on the compact form; "
             "(b) the interpreter; (c) minijinja; (d) a bare `match`.", "",
             "| case | " + " | ".join(label for label, _ in paths) + " | (a-typed)/(d) | (c)/(a-typed) |",
             "| - |" + " - |" * (len(paths) + 2)]
    for case in cases:
        m = {label: medians[f"delivery/{key}/{case}"] for label, key in paths}
        lines.append(f"| {case} | " + " | ".join(fmt_ns(m[label]) for label, _ in paths)
                     + f" | {m['(a-typed)'] / m['(d)']:.1f}× | {m['(c)'] / m['(a-typed)']:.0f}× |")
    if REFERENCE:
        import json
        py = json.loads(reference("delivery", str(agents_dir())))
        lines += ["", "## The reference engine (rasa-pro 3.21.0, CPython 3.11): select_variant + substitute_memory_placeholders", "",
                  "| case | reference (Python) | (a-typed) | reference/(a-typed) | (a-compact) | reference/(a-compact) |",
                  "| - | - | - | - | - | - |"]
        for case in cases:
            t = medians[f"delivery/a_typed_deliver/{case}"]
            k = medians[f"delivery/a_compact_deliver/{case}"]
            lines.append(f"| {case} | {fmt_ns(py[case])} | {fmt_ns(t)} | {py[case] / t:,.0f}× | {fmt_ns(k)} | {py[case] / k:,.0f}× |")
        lines += ["", f"`ResponseRegistry.from_yaml` of the case file: {fmt_ns(py['from_yaml'])}; "
                      f"one `evaluate_expression`: {fmt_ns(py['condition'])}."]
    sizes = [10, 100, 1000, 10000]
    series = {label: [medians.get(f"scaling/{key}/{n}", 0.0) for n in sizes]
              for label, key in (("(a) generated", "a_generated"), ("(b) interpreter", "b_interpreter"), ("(c) minijinja", "c_minijinja"))}
    lines += ["", "## Scaling: a middle response of N (3 variants each, two placeholders)", "",
              f"(a) is straight-line code up to {COMPACT_ABOVE:,} responses (the bundled system responses count), the compact form beyond: N = 1,000 and 10,000 here are compact.", "",
              "| N | (a) generated | (b) interpreter | (c) minijinja | expansion (read + check + generate) |",
              "| - | - | - | - | - |"]
    for i, n in enumerate(sizes):
        lines.append(f"| {n:,} | {fmt_ns(series['(a) generated'][i])} | {fmt_ns(series['(b) interpreter'][i])} | "
                     f"{fmt_ns(series['(c) minijinja'][i])} | {fmt_ns(medians[f'scaling/expansion/{n}'])} |")
    svg_plot(series, HERE / "delivery-vs-n.svg")
    rows = startup()
    py_col = " reference (Python) |" if REFERENCE else ""
    lines += ["", "## Start-up to first delivery (median wall time of the whole process)", "",
              f"| N | (a) generated | (b) interpreter | (c) minijinja |{py_col}", "| - | - | - | - |" + (" - |" if REFERENCE else "")]
    for n, r in rows.items():
        py = f" {r['py']:.0f} ms |" if REFERENCE else ""
        a = f"{r['a']:.2f} ms" if r["a"] else "—"
        lines.append(f"| {n:,} | {a} | {r['b']:.2f} ms | {r['c']:.2f} ms |{py}")
    if not QUICK:
        import build_cost
        lines += ["", "## Build cost of a crate using include_responses! (the crate alone, dependencies built)", "",
                  *build_cost.table([1000, 3000, 10000])]
    text = "\n".join(lines) + "\n"
    (HERE / "RESULTS.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
