"""The two SVG plots, drawn with matplotlib into the output directory: throughput per case (with
--write-docs also into docs/img/), and shop ÷ engine alone per case against its targets (docs/img/
gets that one from scripts/bench-plots.py, which draws it from the table in docs/benchmarks.md)."""
from .common import DOCS_IMG, TARGET_FAN_OUT, TARGET_ONE_REQUEST


def plots(rows, out, write_docs):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "bench-compare",
                         "font.family": "sans-serif", "font.sans-serif": ["DejaVu Sans", "Arial"],
                         "font.size": 9, "axes.spines.top": False, "axes.spines.right": False})
    short = {"ap1": "AP1 user", "ap2": "AP2 user's\norders", "ap3": "AP3+4 order\n+ items",
             "ap5": "AP5 orders\nby status", "ap6": "AP6 orders\nof a day", "ap7": "AP7 product",
             "ap8": "AP8 products\nby category", "order": "create\norder"}
    names = [short[r["case"]] for r in rows]
    x = list(range(len(rows)))
    saved = []

    fig, ax = plt.subplots(figsize=(8.5, 3.6))
    width = 0.27
    series = [("seed (boto3 functions)", "seed_ops_s", "#9e9e9e"),
              ("shop (REST API)", "shop_req_s", "#1f77b4"),
              ("engine alone (raw DynamoDB JSON)", "engine_req_s", "#ff7f0e")]
    for i, (label, field, color) in enumerate(series):
        xs = [p + (i - 1) * width for p, r in zip(x, rows) if r[field]]
        ys = [r[field] for r in rows if r[field]]
        ax.bar(xs, ys, width, label=label, color=color)
    ax.set_yscale("log")
    ax.set_ylabel("requests per second (log)")
    ax.set_xticks(x, names)
    ax.legend(frameon=False, fontsize=8, loc="upper right", ncols=3, bbox_to_anchor=(1, 1.12))
    ax.grid(axis="y", which="major", linewidth=0.4, alpha=0.5)
    fig.tight_layout()
    saved.append(("bench-compare-throughput.svg", fig, True))

    fig2, ax2 = plt.subplots(figsize=(8.5, 3.2))
    rr = [(p, r) for p, r in zip(x, rows) if r["shop_over_engine"]]
    ax2.bar([p for p, _ in rr], [r["shop_over_engine"] for _, r in rr], 0.55,
            color=["#2ca02c" if r["met"] else "#d62728" for _, r in rr])
    for p, r in rr:
        ax2.text(p, r["shop_over_engine"] + 0.02, f"{r['shop_over_engine']:.2f}×", ha="center",
                 va="bottom", fontsize=8)
    for value, label in ((TARGET_ONE_REQUEST, "target ≥ 0.85×, one request"),
                         (TARGET_FAN_OUT, "target ≥ 0.5×, fanned-out listings")):
        if value == TARGET_FAN_OUT and not any(r["fan_out"] for r in rows):
            continue
        ax2.axhline(value, color="black", linestyle="--", linewidth=1)
        ax2.text(len(rows) - 0.5, value + 0.01, label, ha="right", va="bottom", fontsize=8)
    ax2.set_ylabel("shop req/s ÷ engine alone req/s")
    ax2.set_xticks(x, names)
    ax2.set_ylim(0, max([1.0] + [r["shop_over_engine"] for _, r in rr]) * 1.15)
    fig2.tight_layout()
    # In docs/, this plot is drawn by scripts/bench-plots.py from the table in benchmarks.md.
    saved.append(("bench-compare-ratio.svg", fig2, False))

    written = []
    for name, figure, to_docs in saved:
        dirs = [out] + ([DOCS_IMG] if write_docs and to_docs else [])
        for d in dirs:
            d.mkdir(parents=True, exist_ok=True)
            figure.savefig(d / name, format="svg", metadata={"Date": None, "Creator": None})
            written.append(d / name)
        plt.close(figure)
    return written
