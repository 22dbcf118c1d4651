"""The two SVG plots (throughput per case, shop ÷ seed against the 10× target), drawn with
matplotlib into the output directory and, with --write-docs, docs/img/."""
from .common import DOCS_IMG, TARGET_RATIO


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
    saved.append(("bench-compare-throughput.svg", fig))

    fig2, ax2 = plt.subplots(figsize=(8.5, 3.2))
    rr = [(p, r["shop_over_seed"]) for p, r in zip(x, rows) if r["shop_over_seed"]]
    ax2.bar([p for p, _ in rr], [v for _, v in rr], 0.55,
            color=["#2ca02c" if v >= TARGET_RATIO else "#d62728" for _, v in rr])
    for p, v in rr:
        ax2.text(p, v * 1.04, f"{v:.1f}×", ha="center", va="bottom", fontsize=8)
    for p, r in zip(x, rows):
        if r["seed_note"]:
            ax2.text(p, 0.3, "no seed\nequivalent", ha="center", va="bottom", fontsize=8,
                     color="#555555")
    ax2.axhline(TARGET_RATIO, color="black", linestyle="--", linewidth=1)
    ax2.text(len(rows) - 0.5, TARGET_RATIO * 1.04, "target 10×", ha="right", va="bottom", fontsize=8)
    ceiling = [(p, r["engine_over_seed"]) for p, r in zip(x, rows) if r["engine_over_seed"]]
    # Beside each bar, clear of its label.
    ax2.hlines([v for _, v in ceiling], [p + 0.3 for p, _ in ceiling],
               [p + 0.5 for p, _ in ceiling], color="#ff7f0e", linewidth=2.5,
               label="engine alone ÷ seed: roughly the ceiling for any server over this engine")
    ax2.legend(frameon=False, fontsize=8, loc="upper left")
    ax2.set_ylabel("shop req/s ÷ seed calls/s")
    ax2.set_xticks(x, names)
    ax2.set_ylim(0, max([TARGET_RATIO] + [v for _, v in rr] + [v for _, v in ceiling]) * 1.25)
    fig2.tight_layout()
    saved.append(("bench-compare-ratio.svg", fig2))

    written = []
    for name, figure in saved:
        dirs = [out] + ([DOCS_IMG] if write_docs else [])
        for d in dirs:
            d.mkdir(parents=True, exist_ok=True)
            figure.savefig(d / name, format="svg", metadata={"Date": None, "Creator": None})
            written.append(d / name)
        plt.close(figure)
    return written
