"""The report's charts as inline SVG: no script, no network, every text escaped
(docs/cli.md, "halluscope report").

* :func:`histogram_svg`: a score's distribution, one series per label when the records
  carry labels (consistent / inconsistent), each normalised to its own count;
* :func:`roc_svg`: the ROC curve of every score against the labels, with its AUC;
* :func:`reliability_svg`: the reliability diagram of ``p_consistent`` (mean p against the
  share of consistent summaries in 10 bins of p, the diagonal for a calibrated p);
* :func:`bars_svg`: one bar per name (the per-dimension means without labels).

The points they draw come from pure functions (:func:`histogram`, :func:`roc_points`,
:func:`halluscope.report.stats.reliability_bins`) that the tests check by hand.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence

from ..ranges import within
from .stats import reliability_bins

__all__ = ["bars_svg", "histogram", "histogram_svg", "reliability_bins", "reliability_svg", "roc_points", "roc_svg"]

WIDTH, HEIGHT = 360, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 26, 34
#: series colours: consistent, inconsistent, then one per further series
COLOURS = ("#16a34a", "#dc2626", "#2563eb", "#9333ea", "#ea580c", "#0891b2", "#4b5563", "#ca8a04")


def _escape(text: object) -> str:
    return html.escape(str(text), quote=True)


def histogram(values: Sequence[float], low: float, high: float, bins: int = 20) -> list[int]:
    """Counts of the defined values in ``bins`` equal bins over [low, high] (the last bin
    closed); values outside are clipped into the end bins."""
    counts = [0] * bins
    width = (high - low) / bins if high > low else 1.0
    for value in values:
        if math.isnan(value):
            continue
        index = int((value - low) / width) if high > low else 0
        counts[min(max(index, 0), bins - 1)] += 1
    return counts


def roc_points(scores: Sequence[float], labels: Sequence[int]) -> list[tuple[float, float]]:
    """(false positive rate, true positive rate) of "consistent when score >= t" for every
    distinct t from the highest down, from (0, 0) to (1, 1); an undefined score counts as
    consistent (+inf), as in the agreement table. 1 = consistent is the positive class."""
    pairs = [(math.inf if math.isnan(s) else s, int(y)) for s, y in zip(scores, labels, strict=True)]
    positives = sum(y for _, y in pairs)
    negatives = len(pairs) - positives
    if not positives or not negatives:
        return []
    points, tp, fp = [(0.0, 0.0)], 0, 0
    pairs.sort(key=lambda p: -p[0])
    k = 0
    while k < len(pairs):
        value = pairs[k][0]
        while k < len(pairs) and pairs[k][0] == value:
            tp += pairs[k][1]
            fp += 1 - pairs[k][1]
            k += 1
        points.append((fp / negatives, tp / positives))
    return points


def _frame(
    title: str,
    x_label: str,
    y_label: str,
    x_range: tuple[float, float],
    y_range: tuple[float, float],
    body: list[str],
    legend: Sequence[tuple[str, str]] = (),
    chart_id: str = "",
    x_ticks: bool = True,
) -> str:
    (x0, x1), (y0, y1) = x_range, y_range
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    out = [
        f'<svg class="hs-chart" role="img" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'aria-label="{_escape(title)}"' + (f' data-chart="{_escape(chart_id)}"' if chart_id else "") + ">",
        f"<title>{_escape(title)}</title>",
        f'<text x="{LEFT}" y="16" font-size="12" font-weight="600">{_escape(title)}</text>',
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#9ca3af"/>',
    ]
    for fraction in (0.0, 0.5, 1.0):
        x = LEFT + fraction * plot_w
        y = TOP + plot_h - fraction * plot_h
        if x_ticks:
            out.append(
                f'<text x="{x:.1f}" y="{TOP + plot_h + 13}" font-size="10" text-anchor="middle">'
                f"{x0 + fraction * (x1 - x0):g}</text>"
            )
        out.append(
            f'<text x="{LEFT - 4}" y="{y + 3:.1f}" font-size="10" text-anchor="end">'
            f"{y0 + fraction * (y1 - y0):.3g}</text>"
        )
    out.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 4}" font-size="10" text-anchor="middle">'
        f"{_escape(x_label)}</text>"
    )
    out.append(
        f'<text x="10" y="{TOP + plot_h / 2:.1f}" font-size="10" text-anchor="middle" '
        f'transform="rotate(-90 10 {TOP + plot_h / 2:.1f})">{_escape(y_label)}</text>'
    )
    out.extend(body)
    for k, (name, colour) in enumerate(legend):
        y = TOP + 12 + 13 * k
        out.append(
            f'<rect x="{WIDTH - RIGHT - 118}" y="{y - 8}" width="9" height="9" fill="{colour}"/>'
            f'<text x="{WIDTH - RIGHT - 105}" y="{y}" font-size="10">{_escape(name)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _xy(x: float, y: float, x_range: tuple[float, float], y_range: tuple[float, float]) -> tuple[float, float]:
    (x0, x1), (y0, y1) = x_range, y_range
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    fx = (x - x0) / (x1 - x0) if x1 > x0 else 0.0
    fy = (y - y0) / (y1 - y0) if y1 > y0 else 0.0
    return LEFT + fx * plot_w, TOP + plot_h - fy * plot_h


def histogram_svg(
    title: str, series: Mapping[str, Sequence[float]], bins: int = 20, span: tuple[float, float] = (0.0, 1.0)
) -> str:
    """A step outline per series (share of its defined values per bin) over ``span``, the
    score's declared range (:func:`halluscope.ranges.declared_range`); a value outside it
    is a ``ValueError`` (the report refuses such records before it draws:
    docs/cli.md#scores-the-report-refuses)."""
    low, high = span
    outside = [v for values in series.values() for v in values if not math.isnan(v) and not within(v, span)]
    if outside:
        raise ValueError(f"{title}: {outside[0]!r} is outside the chart's range [{low:g}, {high:g}]")
    shares = {}
    for name, values in series.items():
        counts = histogram(values, low, high, bins)
        total = sum(counts)
        shares[name] = [c / total if total else 0.0 for c in counts]
    top = max([max(s) for s in shares.values() if s] + [0.01])
    body, legend = [], []
    for k, (name, share) in enumerate(shares.items()):
        colour = COLOURS[k % len(COLOURS)]
        points = []
        for b, value in enumerate(share):
            left, right = low + b * (high - low) / bins, low + (b + 1) * (high - low) / bins
            points += [_xy(left, value, (low, high), (0, top)), _xy(right, value, (low, high), (0, top))]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        body.append(
            f'<polyline class="hs-series" data-series="{_escape(name)}" points="{path}" fill="none" '
            f'stroke="{colour}" stroke-width="1.5"/>'
        )
        legend.append((f"{name} (n={sum(not math.isnan(v) for v in series[name])})", colour))
    return _frame(title, "score", "share of rows", (low, high), (0, top), body, legend, chart_id="histogram")


def roc_svg(curves: Mapping[str, tuple[list[tuple[float, float]], float]]) -> str:
    """The ROC curve of each score ({name: (points, auc)}), the chance diagonal dashed."""
    body = [
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{TOP}" stroke="#d1d5db" '
        'stroke-dasharray="4 3"/>'
    ]
    legend = []
    for k, (name, (points, auc)) in enumerate(curves.items()):
        colour = COLOURS[(k + 2) % len(COLOURS)]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in (_xy(fx, fy, (0, 1), (0, 1)) for fx, fy in points))
        body.append(
            f'<polyline class="hs-series" data-series="{_escape(name)}" points="{path}" fill="none" '
            f'stroke="{colour}" stroke-width="1.5"/>'
        )
        legend.append((f"{name} AUC {auc:.3f}", colour))
    return _frame(
        "ROC against the labels",
        "false positive rate",
        "true positive rate",
        (0, 1),
        (0, 1),
        body,
        legend,
        chart_id="roc",
    )


def reliability_svg(bins: Sequence[tuple[float, float, int]], ece: float | None = None) -> str:
    """Mean p against the share consistent per bin (a dot sized by its rows), and the
    diagonal a calibrated p lies on."""
    body = [
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" y2="{TOP}" stroke="#d1d5db" '
        'stroke-dasharray="4 3"/>'
    ]
    most = max([rows for _, _, rows in bins] + [1])
    points = []
    for mean_p, share, rows in bins:
        x, y = _xy(mean_p, share, (0, 1), (0, 1))
        points.append((x, y))
        body.append(
            f'<circle class="hs-bin" cx="{x:.1f}" cy="{y:.1f}" r="{2 + 5 * math.sqrt(rows / most):.1f}" '
            f'fill="{COLOURS[2]}" fill-opacity="0.6"><title>{rows} rows: mean p {mean_p:.3f}, '
            f"consistent {share:.3f}</title></circle>"
        )
    if len(points) > 1:
        body.append(
            '<polyline points="'
            + " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
            + f'" fill="none" stroke="{COLOURS[2]}" stroke-width="1"/>'
        )
    title = "Reliability of p_consistent" + ("" if ece is None else f" (ECE {ece:.3f})")
    return _frame(title, "mean p_consistent", "share consistent", (0, 1), (0, 1), body, chart_id="reliability")


def bars_svg(title: str, values: Mapping[str, float]) -> str:
    """One bar per name (NaN: no bar), on [0, max(1, largest)]."""
    defined = [v for v in values.values() if not math.isnan(v)]
    top = max([1.0] + defined)
    plot_w = WIDTH - LEFT - RIGHT
    slot = plot_w / max(1, len(values))
    body = []
    for k, (name, value) in enumerate(values.items()):
        x = LEFT + k * slot + slot * 0.2
        if not math.isnan(value):
            _, y = _xy(0, value, (0, 1), (0, top))
            body.append(
                f'<rect class="hs-bar" data-series="{_escape(name)}" x="{x:.1f}" y="{y:.1f}" '
                f'width="{slot * 0.6:.1f}" height="{HEIGHT - BOTTOM - y:.1f}" fill="{COLOURS[2]}">'
                f"<title>{_escape(name)}: {value:.4f}</title></rect>"
            )
        body.append(
            f'<text x="{x + slot * 0.3:.1f}" y="{TOP + 12}" font-size="10" text-anchor="middle">{_escape(name)}</text>'
        )
    return _frame(title, "", "mean", (0, 1), (0, top), body, chart_id="bars", x_ticks=False)
