#!/usr/bin/env python3
"""The main comparisons of docs/benchmarks.md as SVG bar charts, drawn from the doc's own tables.

Usage:

    python3 scripts/bench-plots.py            # (re)writes docs/img/bench-*.svg from the tables
    python3 scripts/bench-plots.py --check    # exits 1 when a plot on disk is stale

It reads docs/benchmarks.md, finds each table by the heading of its section and by its header
cells, and draws one chart per comparison against its target (a dashed line): our SDK stack
against the engine called directly (≤ 3×), latency at 1M orders against 10k (≤ 1.5×), the typed
library against the hand-written SDK request (≤ 10 %), the capacity emulator's cost per call
(< 10 %), sample loading (≥ 20,000 items/s), `check` on large models (1,000 entities < 1 s,
10,000 < 10 s) and the shop's REST API against the engine alone (≥ 0.85× on a one-request case,
≥ 0.5× on a listing fanned out over write shards; the targets come from the table's own column). Numbers come only from the tables, so after a table changes, rerun it; the
targets are constants below. Each plot is referenced from the doc right after its table, and
--check also fails when the doc lacks that reference.

Standard library only; the SVG is written by hand (plain text, no fonts or scripts), so the same
tables always give the same bytes.
"""

import argparse
import html
import math
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
IMG = ROOT / "docs" / "img"

# The targets the doc states next to each table.
TARGET_STACK = 3.0  # our stack / direct engine call, p50
TARGET_SCALE = 1.5  # p50 at 1M orders / p50 at 10k
TARGET_LIBRARY = 10.0  # % the typed library may add over the hand-written SDK request
TARGET_CAPACITY = 10.0  # % capacity emulation may add per call
TARGET_LOAD = 20_000  # items/s for load-sample
TARGETS_CHECK = [(1.0, "1,000 entities: under 1 s"), (10.0, "10,000 entities: under 10 s")]

BLUE, CYAN, GREEN, GREY, TARGET = "#4477aa", "#66ccee", "#228833", "#999999", "#cc3311"
W, PAD, FONT = 720, 16, "Helvetica, Arial, sans-serif"


# --- reading the doc -------------------------------------------------------------------------

def clean(cell):
    return cell.replace("**", "").replace("`", "").strip()


def tables_under(lines, heading):
    """The tables of the section whose heading starts with `heading`: (header, rows, last line)."""
    fence, start, level = False, None, 0
    tables, i = [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            fence = not fence
        heading_match = None if fence else re.match(r"(#+)\s+(.*)", line)
        if heading_match and start is None and heading_match.group(2).startswith(heading):
            start, level = i, len(heading_match.group(1))
        elif heading_match and start is not None and len(heading_match.group(1)) <= level:
            break
        elif start is not None and not fence and line.startswith("|"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            cells = [[clean(c) for c in row.strip().strip("|").split("|")] for row in lines[i:j]]
            tables.append((cells[0], cells[2:], j - 1))
            i = j
            continue
        i += 1
    if start is None:
        sys.exit(f"bench-plots: no heading starting with {heading!r} in {DOC.name}")
    return tables


def table(lines, heading, *columns):
    for header, rows, last in tables_under(lines, heading):
        if all(c in header for c in columns):
            return header, rows, last
    sys.exit(f"bench-plots: no table with columns {columns} under {heading!r} in {DOC.name}")


def numbers(cell):
    return [float(n.replace(",", "").replace("−", "-"))
            for n in re.findall(r"[-−]?\d[\d,]*(?:\.\d+)?", cell)]


def percent(cell):
    """The last percentage in a cell ('+9.8 %', '±0.0 %', '46.2 → 50.4, +9.1 %'), or None."""
    found = re.findall(r"([-−+±]?)(\d+(?:\.\d+)?)\s*%", cell)
    if not found:
        return None
    sign, value = found[-1]
    return (-1 if sign and sign in "-−" else 1) * float(value), f"{sign}{value} %"


def signed(value, suffix):
    return f"{value:+.1f}{suffix}".replace("-", "−")


# --- the charts --------------------------------------------------------------------------------
# A chart: title, subtitle, axis label, series [(name, colour)], groups [(label, [bar or None per
# series])] where a bar is (low, high, text): solid up to low, lighter up to high.

def chart_patterns(lines):
    heading = "Access patterns: our SDK stack vs the same request on the engine"
    header, rows, last = table(lines, heading, "pattern", "10k: items", "1M: items")
    ratio = [i for i, h in enumerate(header) if h == "ratio"]
    ours = [i for i, h in enumerate(header) if h == "ours"]
    groups = [(r[0], [(v, v, r[i]) for i in ratio for v in numbers(r[i])[:1]]) for r in rows]
    stack = dict(title="Our SDK stack against the same request on the engine, p50",
                 subtitle="ours ÷ direct engine call, lower is better; target at most 3×",
                 axis="p50 of our stack ÷ p50 of the direct engine call", suffix="×",
                 series=[("10k orders", CYAN), ("1M orders", BLUE)], groups=groups,
                 targets=[(TARGET_STACK, "target ≤ 3×")])
    scaled = []
    for r in rows:
        small, big = numbers(r[ours[0]])[0], numbers(r[ours[1]])[0]
        scaled.append((r[0], [(big / small, big / small,
                               f"{big / small:.2f}× ({r[ours[0]]} → {r[ours[1]]} µs)")]))
    scale = dict(title="Our stack's latency at 1M orders against 10k orders, p50",
                 subtitle="p50 at 1M orders ÷ p50 at 10k, lower is better; target at most 1.5×",
                 axis="p50 at 1M orders ÷ p50 at 10k orders", suffix="×",
                 series=[("our stack", BLUE)], groups=scaled,
                 targets=[(TARGET_SCALE, "target ≤ 1.5×")])
    return [("patterns-vs-direct", stack, last, "Our stack's p50 divided by the direct engine "
             "call's for each access pattern, at 10k and 1M orders, against the 3× target"),
            ("patterns-1m-vs-10k", scale, last, "Each access pattern's p50 at 1M orders divided "
             "by its p50 at 10k orders, against the 1.5× target")]


def chart_library(lines):
    heading = "The typed library against the same request written by hand"
    p50, mean = "library / hand (p50)", "library / hand (mean)"
    header, rows, last = table(lines, heading, "pattern", p50, mean)
    groups = []
    for r in rows:
        bars = []
        for col in (p50, mean):
            cell = r[header.index(col)]
            extra = (numbers(cell)[0] - 1) * 100
            bars.append((extra, extra, f"{signed(extra, ' %')} ({cell})"))
        items = r[header.index("items")]
        groups.append((f"{r[0]} ({items} item{'' if items == '1' else 's'})", bars))
    chart = dict(title="The typed library against the same SDK request written by hand",
                 subtitle="time the library adds, lower is better; target at most 10 %",
                 axis="library ÷ hand-written SDK request − 1, %", suffix=" %",
                 series=[("p50", BLUE), ("mean", CYAN)], groups=groups,
                 targets=[(TARGET_LIBRARY, "target ≤ 10 %")])
    return [("library-vs-hand", chart, last, "The typed library's time over the same SDK "
             "request written by hand, p50 and mean per pattern, against the 10 % target")]


def chart_capacity(lines):
    heading = "Capacity emulation: what it costs per call"
    ins_header, ins_rows, _ = table(lines, heading, "call", "emulator's share")
    time_header, time_rows, last = table(lines, heading, "call", "overhead", "second run")
    second = dict((r[0], r[time_header.index("second run")]) for r in time_rows)
    overhead = dict((r[0], r[time_header.index("overhead")]) for r in time_rows)
    groups = []
    for r in ins_rows:
        cells = [r[ins_header.index("emulator's share")], overhead.get(r[0], ""),
                 second.get(r[0], "")]
        bars = [(p[0], p[0], p[1]) if p else None for p in map(percent, cells)]
        groups.append((r[0], bars))
    chart = dict(title="Capacity emulation: what it adds per call",
                 subtitle="emulation on against off, lower is better; target under 10 %",
                 axis="extra cost with emulation on, %", suffix=" %",
                 series=[("instructions (callgrind)", GREEN), ("time, first run", BLUE),
                         ("time, second run", CYAN)], groups=groups,
                 targets=[(TARGET_CAPACITY, "target < 10 %")])
    return [("capacity-overhead", chart, last, "The capacity emulator's extra instructions and "
             "time per call for GetItem, Query and PutItem, against the 10 % target")]


def chart_load(lines):
    header, rows, last = table(lines, "Loading sample data", "where", "items/s")
    groups = []
    for r in rows:
        cell = r[header.index("items/s")]
        values = numbers(cell)
        floor = r[0].startswith("floor")
        bar = (min(values), max(values), cell)
        groups.append((r[0], [None, bar] if floor else [bar, None]))
    chart = dict(title="Loading sample data: items written per second",
                 subtitle="higher is better; target at least 20,000 items/s; "
                          "a lighter bar spans the runs or sizes its row lists",
                 axis="items per second", suffix="",
                 series=[("through the SDK (load-sample)", BLUE),
                         ("floor: the engine's BatchWriteItem, no SDK", GREY)],
                 groups=groups, targets=[(TARGET_LOAD, "target ≥ 20,000 items/s")])
    return [("load-sample", chart, last, "Sample loading rate in items per second for each "
             "measured run and the engine-only floor, against the 20,000 items/s target")]


def chart_check(lines):
    header, rows, last = table(lines, "`check` on large models", "entities", "before (main)",
                               "after")
    groups = []
    for r in rows:
        bars = []
        for col in ("before (main)", "after"):
            cell = r[header.index(col)]
            bars.append((numbers(cell)[0],) * 2 + (cell,) if cell else None)
        groups.append((f"{r[0]} entities ({r[header.index('patterns')]} patterns)", bars))
    chart = dict(title="monotable check on large models: time to check one model",
                 subtitle="median of three runs, lower is better, log scale",
                 axis="seconds (log scale)", suffix=" s", log=True,
                 series=[("before (main)", GREY), ("after", BLUE)], groups=groups,
                 targets=TARGETS_CHECK)
    return [("check-large-models", chart, last, "Seconds to check generated models of 100 to "
             "10,000 entities before and after, on a log scale, against the 1 s and 10 s targets")]


def chart_compare(lines):
    heading = "The shop against the engine alone"
    ratio, goal = "shop / engine alone", "target"
    header, rows, last = table(lines, heading, "case", ratio, goal, "engine alone req/s")
    kinds = [("one request to the engine", BLUE), ("a listing fanned out over write shards", CYAN)]
    targets = sorted({numbers(r[header.index(goal)])[0] for r in rows}, reverse=True)
    groups = []
    for r in rows:
        value, want = numbers(r[header.index(ratio)])[0], numbers(r[header.index(goal)])[0]
        shop = next(c for h, c in zip(header, r) if h.startswith("shop req/s"))
        engine = r[header.index("engine alone req/s")].split(" (")[0]
        bar = (value, value, f"{value:.2f}× ({shop} of {engine} req/s)")
        groups.append((r[0], [bar, None] if want == max(targets) else [None, bar]))
    # With one target (no listing fanned out), its line is labelled for what it is.
    label = {min(targets): f"target ≥ {min(targets):g}×, fanned out",
             max(targets): f"target ≥ {max(targets):g}×, one request"}
    chart = dict(title="The shop's REST API against the engine alone, on the same requests",
                 subtitle="shop req/s ÷ engine alone req/s, higher is better; the engine alone is "
                          "the ceiling",
                 axis="shop req/s ÷ engine alone req/s", suffix="×",
                 series=kinds if len(targets) > 1 else kinds[:1], groups=groups,
                 targets=[(t, label[t]) for t in targets])
    against = " and ".join(f"{t:g}×" for t in targets)
    return [("compare-ratio", chart, last, "The shop's requests per second divided by the engine "
             f"alone's on the same requests, per case, against the {against} "
             f"target{'s' if len(targets) > 1 else ''}")]


CHARTS = [chart_patterns, chart_library, chart_capacity, chart_load, chart_check, chart_compare]


# --- drawing -----------------------------------------------------------------------------------

def text_width(text, size):
    return len(text) * size * 0.58


def fmt(value, suffix=""):
    if abs(value) >= 1000:
        out = f"{value:,.0f}"
    else:
        out = f"{value:.3f}".rstrip("0").rstrip(".")
    return out.replace("-", "−") + suffix


def ticks(lo, hi, log):
    if log:
        return [10.0 ** e for e in range(math.ceil(math.log10(lo) - 1e-9),
                                         math.floor(math.log10(hi) + 1e-9) + 1)]
    raw = (hi - lo) / 6
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9)
    return [round(k * step, 9) for k in range(first, int(math.floor(hi / step + 1e-9)) + 1)]


def wrap(text, width):
    out, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            out.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return out + [line]


def svg(chart):
    series, groups, log = chart["series"], chart["groups"], chart.get("log", False)
    values = [v for _, bars in groups for b in bars if b for v in b[:2]]
    limits = values + [t for t, _ in chart["targets"]]
    if log:
        lo = 10.0 ** math.floor(math.log10(min(limits)))
        hi = max(limits) * 2.5
    else:
        lo, hi = min(0.0, min(limits) * 1.15), max(limits) * 1.12
        grid = ticks(lo, hi, False)
        step = grid[1] - grid[0]
        lo, hi = math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step
    label_width = max(text_width(label, 12) for label, _ in groups)
    above = label_width > 230  # long labels go above their bars, across the whole plot
    x0 = PAD + (0 if above else label_width + 10)
    x1 = W - PAD - 12

    def x(v):
        f = (math.log10(v) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) if log \
            else (v - lo) / (hi - lo)
        return x0 + f * (x1 - x0)

    out, y = [], 26
    t = html.escape
    out.append(f'<text x="{PAD}" y="{y}" font-size="16" font-weight="bold">'
               f'{t(chart["title"])}</text>')
    y += 20
    out.append(f'<text x="{PAD}" y="{y}" font-size="12" fill="#444">{t(chart["subtitle"])}</text>')
    if len(series) > 1:
        y, lx = y + 20, PAD
        for name, colour in series:
            out.append(f'<rect x="{lx}" y="{y - 10}" width="12" height="12" fill="{colour}"/>')
            out.append(f'<text x="{lx + 17}" y="{y}" font-size="12">{t(name)}</text>')
            lx += 17 + text_width(name, 12) + 18
    y += 8
    target_rows, target_labels = [], []
    for value, label in sorted(chart["targets"], reverse=True):
        y += 15
        tx, anchor = x(value), "middle"
        if tx + text_width(label, 11) / 2 > W - PAD:
            tx, anchor = x(value) + 3, "end"
        target_rows.append((value, y))
        target_labels.append(f'<text x="{tx:.1f}" y="{y}" font-size="11" fill="{TARGET}" '
                             f'text-anchor="{anchor}" font-weight="bold" stroke="#fff" '
                             f'stroke-width="3" paint-order="stroke">{t(label)}</text>')
    top = y + 6
    y = top + 8
    bar_h, bars_out = 15, []
    for label, bars in groups:
        present = [(i, b) for i, b in enumerate(bars) if b]
        if above:
            for line in wrap(label, int((x1 - x0) / (12 * 0.58))):
                y += 14
                bars_out.append(f'<text x="{x0}" y="{y}" font-size="12">{t(line)}</text>')
            y += 4
        else:
            middle = y + len(present) * (bar_h + 3) / 2 + 4
            bars_out.append(f'<text x="{x0 - 8}" y="{middle:.1f}" font-size="12" '
                            f'text-anchor="end">{t(label)}</text>')
        for i, (low, high, text) in ((i, b) for i, b in present):
            colour = series[i][1]
            base = x(lo) if log else x(0)
            a, b = sorted((base, x(low)))
            bars_out.append(f'<rect x="{a:.1f}" y="{y}" width="{b - a:.1f}" height="{bar_h}" '
                            f'fill="{colour}"/>')
            if high > low:
                bars_out.append(f'<rect x="{x(low):.1f}" y="{y}" width="{x(high) - x(low):.1f}" '
                                f'height="{bar_h}" fill="{colour}" fill-opacity="0.4"/>')
            end, tw = max(x(high), base), text_width(text, 11)
            if low < 0:
                tx, anchor, fill = (x(low) - 4, "end", "#222") if x(low) - 4 - tw >= x0 \
                    else (base + 4, "start", "#222")
            elif end + 4 + tw <= W - PAD and (x(low) - base < tw + 8 or not any(
                    end < x(v) < end + 8 + tw for v, _ in chart["targets"])):
                tx, anchor, fill = end + 4, "start", "#222"
            else:
                light = sum(int(colour[k:k + 2], 16) for k in (1, 3, 5)) > 450
                tx, anchor, fill = x(low) - 4, "end", "#000" if light else "#fff"
            halo = ' stroke="#fff" stroke-width="3" paint-order="stroke"' if fill == "#222" else ""
            bars_out.append(f'<text x="{tx:.1f}" y="{y + bar_h - 4}" font-size="11" '
                            f'text-anchor="{anchor}" fill="{fill}"{halo}>{t(text)}</text>')
            y += bar_h + 3
        y += 10
    bottom = y
    for v in ticks(lo, hi, log):
        out.append(f'<line x1="{x(v):.1f}" y1="{top}" x2="{x(v):.1f}" y2="{bottom}" '
                   f'stroke="{"#888" if v == 0 and not log else "#e3e3e3"}"/>')
        out.append(f'<text x="{x(v):.1f}" y="{bottom + 15}" font-size="11" text-anchor="middle" '
                   f'fill="#444">{t(fmt(v, chart["suffix"]))}</text>')
    for value, label_y in target_rows:  # under the bars' texts, whose white halo keeps them legible
        out.append(f'<line x1="{x(value):.1f}" y1="{label_y + 3}" x2="{x(value):.1f}" '
                   f'y2="{bottom}" stroke="{TARGET}" stroke-width="1.5" stroke-dasharray="6 4"/>')
    out.extend(target_labels + bars_out)
    out.append(f'<line x1="{x0}" y1="{bottom}" x2="{x1}" y2="{bottom}" stroke="#444"/>')
    out.append(f'<text x="{(x0 + x1) / 2:.1f}" y="{bottom + 33}" font-size="12" '
               f'text-anchor="middle">{t(chart["axis"])}</text>')
    height = bottom + 58
    out.append(f'<text x="{W - PAD}" y="{height - 8}" font-size="10" fill="#777" '
               f'text-anchor="end">from the table in docs/benchmarks.md, drawn by '
               f'scripts/bench-plots.py</text>')
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" '
            f'viewBox="0 0 {W} {height}" font-family="{FONT}" fill="#111">\n'
            f'<title>{t(chart["title"])}</title>\n'
            f'<rect width="{W}" height="{height}" fill="#fff"/>\n')
    return head + "\n".join(out) + "\n</svg>\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when a plot differs from what would be written")
    args = parser.parse_args()
    doc = DOC.read_text(encoding="utf-8")
    lines = doc.splitlines()
    stale = []
    for make in CHARTS:
        for name, chart, last, alt in make(lines):
            path = IMG / f"bench-{name}.svg"
            text = svg(chart)
            current = path.read_text(encoding="utf-8") if path.exists() else None
            if f"(img/bench-{name}.svg)" not in doc:
                stale.append(f"{DOC.relative_to(ROOT)} lacks, after line {last + 1} (its table): "
                             f"![{alt}](img/bench-{name}.svg)")
            if current == text:
                continue
            if args.check:
                stale.append(f"{path.relative_to(ROOT)} does not match its table")
            else:
                path.write_text(text, encoding="utf-8")
                print(f"wrote {path.relative_to(ROOT)}")
    for problem in stale:
        print(f"bench-plots: {problem}", file=sys.stderr)
    if stale:
        print("bench-plots: rerun `python3 scripts/bench-plots.py` (it redraws the plots; an image "
              "line the doc lacks must be added by hand)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
