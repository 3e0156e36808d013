"""Plotly figures, rendered on the server into the page (plotly.js itself is served from our
static files, see ``leaderboard.staticfinders``; no CDN).

Figures are plain dicts rendered without plotly's validation pass (fast enough for a page built
per request). Every piece of text that came from a user — submission names, owners, trace
changes — goes through :func:`text`: plotly draws a small subset of HTML in labels, so it is
escaped to be shown as written; the JSON itself is embedded with ``<``, ``>`` and ``/`` escaped
by plotly.
"""

from __future__ import annotations

import html
import math

import plotly.io as pio

from evaluator.vocabulary import Baseline
from leaderboard.ranking import HIST_BINS_PER_OCTAVE, Ranking

CONFIG = {"displaylogo": False, "responsive": True}
COLORS = {"submission": "#3b6fb6", "baseline": "#8a94a8", Baseline.TVM_DEFAULT: "#6b7487", Baseline.VENDOR: "#c77c0e",
          Baseline.TVM_TUNED: "#7a4fb0", "correct": "#1e7b34", "wrong": "#b3261e"}


def text(s) -> str:
    return html.escape(str(s if s is not None else ""), quote=False)


def render(fig: dict, div_id: str, height: int = 360) -> str:
    fig.setdefault("layout", {}).update(height=height, margin={"l": 60, "r": 20, "t": 40, "b": 50},
                                        font={"family": "system-ui, sans-serif", "size": 12})
    return pio.to_html(fig, include_plotlyjs=False, full_html=False, validate=False, config=CONFIG, div_id=div_id)


def speedup_distribution(r: Ranking) -> str:
    """Histogram of per-task speedups (correct tasks of every ranked submission) on a log axis."""
    if not r.histogram:
        return ""
    xs, ys, widths = [], [], []
    for k, n in sorted(r.histogram.items()):
        lo, hi = 2 ** (k / HIST_BINS_PER_OCTAVE), 2 ** ((k + 1) / HIST_BINS_PER_OCTAVE)
        xs.append(math.sqrt(lo * hi))
        ys.append(n)
        widths.append(hi - lo)
    fig = {
        "data": [{"type": "bar", "x": xs, "y": ys, "width": widths, "marker": {"color": COLORS["submission"]},
                  "hovertemplate": "%{x:.2f}×: %{y} tasks<extra></extra>"}],
        "layout": {"title": {"text": f"Speedup vs {text(r.query.baseline)}, correct tasks of all ranked submissions"},
                   "xaxis": {"type": "log", "title": {"text": f"speedup (× {text(r.query.baseline)}, log scale)"}},
                   "yaxis": {"title": {"text": "tasks"}}, "bargap": 0.05,
                   "shapes": [{"type": "line", "x0": 1, "x1": 1, "yref": "paper", "y0": 0, "y1": 1,
                               "line": {"color": "#b3261e", "dash": "dot"}}]},
    }
    return render(fig, "plot-speedups")


def correct_vs_fast(r: Ranking) -> str:
    key = r.query.fast_key
    subs = [x for x in r.rows if x.kind == "submission"]
    bases = [x for x in r.rows if x.kind == "baseline"]
    data = []
    if subs:
        data.append({"type": "scattergl" if len(subs) > 300 else "scatter", "mode": "markers", "name": "submissions",
                     "x": [x.summary["correct@1"] for x in subs], "y": [x.summary[key] for x in subs],
                     "text": [f"{text(x.name)} ({text(x.owner)})" for x in subs],
                     "marker": {"color": COLORS["submission"], "opacity": 0.6, "size": 7},
                     "hovertemplate": ("%{text}<br>Correct@1 %{x:.3f}<br>" + f"Fast@{r.query.p:.1f}"
                                       + " %{y:.3f}<extra></extra>")})
    if bases:
        data.append({"type": "scatter", "mode": "markers+text", "name": "baselines",
                     "x": [x.summary["correct@1"] for x in bases], "y": [x.summary[key] for x in bases],
                     "text": [text(x.name) for x in bases], "textposition": "top center",
                     "marker": {"symbol": "diamond", "size": 11, "color": [COLORS.get(x.name, "#888") for x in bases]},
                     "hovertemplate": "%{text}<br>Correct@1 %{x:.3f}<extra></extra>"})
    fig = {"data": data, "layout": {
        "title": {"text": f"Correct@1 vs Fast@{r.query.p:.1f} (higher is better on both)"},
        "xaxis": {"title": {"text": "Correct@1"}, "range": [-0.03, 1.03]},
        "yaxis": {"title": {"text": f"Fast@{r.query.p:.1f} vs {text(r.query.baseline)}"}, "range": [-0.03, 1.03]},
        "legend": {"orientation": "h", "y": -0.2}}}
    return render(fig, "plot-correct-fast")


def domain_bars(r: Ranking, top: int = 5) -> str:
    shown = [x for x in r.rows if x.kind == "submission"]
    shown = sorted(shown, key=lambda x: x.rank)[:top] + [x for x in r.rows if x.kind == "baseline"]
    domains = sorted({d for x in shown for d in x.domains})
    if not domains:
        return ""
    data = [{"type": "bar", "name": text(x.name) + (" (baseline)" if x.kind == "baseline" else ""),
             "x": domains, "y": [x.domains.get(d) for d in domains],
             "marker": {"color": COLORS.get(x.name)} if x.kind == "baseline" else {}}
            for x in shown]
    fig = {"data": data, "layout": {
        "title": {"text": f"Fast@{r.query.p:.1f} per domain: top {top} and the baselines"},
        "barmode": "group", "yaxis": {"title": {"text": f"Fast@{r.query.p:.1f}"}, "range": [0, 1.02]},
        "legend": {"orientation": "h", "y": -0.25}}}
    return render(fig, "plot-domains", height=400)


def heatmap(rows: list[str], cols: list[str], z: list[list[float | None]], title: str, hover: list[list[str]]) -> str:
    fig = {"data": [{"type": "heatmap", "x": [text(c) for c in cols], "y": [text(r) for r in rows], "z": z,
                     "zmin": 0, "zmax": 1, "colorscale": [[0, "#b3261e"], [0.5, "#f2d65c"], [1, "#1e7b34"]],
                     "colorbar": {"title": {"text": "Fast@1.0"}},
                     "text": [[text(h) for h in row] for row in hover],
                     "hovertemplate": "%{y} · %{x}<br>%{text}<extra></extra>",
                     "texttemplate": "%{z:.2f}", "hoverongaps": False}],
           "layout": {"title": {"text": text(title)}, "xaxis": {"side": "bottom"},
                      "yaxis": {"automargin": True, "autorange": "reversed"}}}
    return render(fig, "plot-matrix", height=max(260, 90 + 60 * len(rows)))


def roofline(*, ai: float, peak_flops: float, peak_bw: float, points: list[dict], by_bytes: bool) -> str:
    """Roofline of one workload: the device's measured roof and what each kernel achieved.
    ``points``: {"name", "kind", "y"} in FLOP/s (or bytes/s when ``by_bytes``)."""
    if by_bytes:
        # No arithmetic: the only roof is bandwidth; plot achieved GB/s against it.
        data = [{"type": "scatter", "mode": "lines", "name": "measured peak bandwidth",
                 "x": [0, 1], "y": [peak_bw / 1e9] * 2, "line": {"color": "#b3261e"}}]
        xs = [0.5] * len(points)
        unit, xaxis = "GB/s", {"visible": False}
    else:
        lo, hi = min(ai / 64, 1 / 8), max(ai * 64, 256)
        knee = peak_flops / peak_bw
        rx = sorted({lo, hi, knee} | ({ai} if lo < ai < hi else set()))
        data = [{"type": "scatter", "mode": "lines", "name": "roof: min(peak compute, AI × peak bandwidth)",
                 "x": rx, "y": [min(peak_flops, x * peak_bw) / 1e9 for x in rx], "line": {"color": "#b3261e"}},
                {"type": "scatter", "mode": "lines", "name": "this workload's arithmetic intensity",
                 "x": [ai, ai], "y": [min(peak_flops, ai * peak_bw) / 1e9 / 1e4, peak_flops / 1e9],
                 "line": {"color": "#8a94a8", "dash": "dot"}}]
        xs = [ai] * len(points)
        unit, xaxis = "GFLOP/s", {"type": "log", "title": {"text": "arithmetic intensity (FLOP / byte, log)"}}
    for kind, symbol in (("submission", "circle"), ("baseline", "diamond")):
        sel = [(x, p) for x, p in zip(xs, points) if p["kind"] == kind]
        if sel:
            data.append({"type": "scatter", "mode": "markers", "name": kind + "s",
                         "x": [x for x, _ in sel], "y": [p["y"] / 1e9 for _, p in sel],
                         "text": [text(p["name"]) for _, p in sel],
                         "marker": {"symbol": symbol, "size": 10 if kind == "baseline" else 8,
                                    "color": [COLORS.get(p["name"], COLORS[kind]) for _, p in sel], "opacity": 0.75},
                         "hovertemplate": "%{text}: %{y:.2f} " + unit + "<extra></extra>"})
    fig = {"data": data, "layout": {"title": {"text": "Roofline: achieved vs the backend's measured peaks"},
                                    "xaxis": xaxis, "yaxis": {"type": "log", "title": {"text": unit + " (log)"}},
                                    "legend": {"orientation": "h", "y": -0.25}}}
    return render(fig, "plot-roofline", height=440)


def ratio_bars(workloads: list[str], ratios: list[float], title: str) -> str:
    if not ratios:
        return ""
    fig = {"data": [{"type": "bar", "x": list(range(1, len(ratios) + 1)), "y": ratios,
                     "text": [text(w) for w in workloads],
                     "marker": {"color": [COLORS["correct"] if v >= 1 else COLORS["wrong"] for v in ratios]},
                     "hovertemplate": "%{text}: %{y:.2f}×<extra></extra>", "base": 0}],
           "layout": {"title": {"text": title}, "yaxis": {"type": "log", "title": {"text": "speedup ratio (log)"}},
                      "xaxis": {"title": {"text": "tasks, sorted by ratio"}}}}
    return render(fig, "plot-compare")


def trace_latency(steps: list[dict]) -> str:
    pts = [s for s in steps if isinstance(s.get("latency_ms"), (int, float))]
    if not pts:
        return ""
    colour = {True: COLORS["correct"], False: COLORS["wrong"], None: "#8a94a8"}
    fig = {"data": [{"type": "scatter", "mode": "lines+markers", "x": [s["step"] for s in pts],
                     "y": [s["latency_ms"] for s in pts],
                     "text": [f"{text(s.get('layer'))}: {text(s.get('change', ''))[:120]}" for s in pts],
                     "marker": {"size": 10, "color": [colour[s.get("correct")] for s in pts]},
                     "line": {"color": "#3b6fb6"},
                     "hovertemplate": "step %{x}: %{y:.4g} ms<br>%{text}<extra></extra>"}],
           "layout": {"title": {"text": "Latency by step (green: correct, red: wrong, grey: not checked)"},
                      "xaxis": {"title": {"text": "step"}, "dtick": 1},
                      "yaxis": {"type": "log", "title": {"text": "latency ms (log)"}}}}
    return render(fig, "plot-trace")
