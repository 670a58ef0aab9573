"""The run's visual report, ``report.html``: one self-contained page.

Inline CSS, thumbnails as data URIs, boxes as inline SVG, and a Content-Security-Policy that
lets the page load nothing from anywhere. Every piece of text goes through ``html.escape``:
captions are untrusted input, and one holding ``<script>`` must show as text.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from itertools import pairwise

from negdata.publish.contents import LENGTH_BINS
from negdata.publish.gallery import GalleryItem
from negdata.publish.run_facts import RunFacts
from negdata.records import McqRecord

TOP_OBJECTS = 15
CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'"
CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1180px;padding:16px 24px;
color:#1d232b;background:#fbfbfd}
h1{font-size:22px;margin:8px 0 2px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid
#d5d9e0;padding-bottom:4px}.sub{color:#5b6673;margin:0 0 12px}
.cols{display:grid;grid-template-columns:repeat(auto-fit,minmax(340px,1fr));gap:8px 32px}
.bars{margin:4px 0 12px}.row{display:grid;grid-template-columns:170px 1fr 64px;align-items:center;
gap:8px;margin:3px 0}.row .label{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.track{background:#e8ebf0;border-radius:3px;height:16px}.fill{background:#3b6fd8;height:16px;
border-radius:3px;min-width:2px}.rejects .fill{background:#d2603a}.neg .fill{background:#8a4fd1}
.aff .fill{background:#2f9e6a}.num{text-align:right;font-variant-numeric:tabular-nums}
table{border-collapse:collapse;margin:4px 0 12px}td,th{padding:3px 10px;border-bottom:1px solid
#e1e4ea;text-align:right}td:first-child,th:first-child{text-align:left}
.gallery{display:grid;grid-template-columns:repeat(auto-fill,minmax(330px,1fr));gap:16px}
.item{background:#fff;border:1px solid #d9dde4;border-radius:6px;padding:10px}
.pic{position:relative;display:inline-block;line-height:0}.pic img{display:block;max-width:100%}
.pic svg{position:absolute;inset:0;width:100%;height:100%}
.box{fill:none;stroke:#ff2d55;stroke-width:3;vector-effect:non-scaling-stroke}
.key{color:#5b6673;font-size:12px}.orig{color:#5b6673;font-style:italic}
ul{margin:4px 0;padding-left:20px}.tag{font-size:11px;color:#fff;background:#7a8594;
border-radius:3px;padding:0 4px;margin-left:4px}.tag.llm{background:#3b6fd8}
ol.mcq{padding-left:22px}.correct{font-weight:600;color:#17703f}
.correct::after{content:" \\2714 correct";font-size:12px}
"""


def render_report(facts: RunFacts) -> str:
    title = f"negdata report: {facts.name}"
    made = facts.provenance
    body = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="sub">negdata {escape(made.negdata_version)} &middot; LLM '
        f"{escape(', '.join(made.llm_models))} &middot; vocabulary {escape(made.vocabulary)} "
        f"&middot; shards {len(facts.summary['shards'])}</p>",
        "<h2>Funnel: input rows to published samples</h2>",
        _bars(
            ((what, n, f' data-stats-key="{escape(key)}"') for what, key, n in facts.funnel()),
            "funnel",
        ),
        '<div class="cols"><div>',
        "<h2>Rejects by reason</h2>",
        _rejects(facts),
        "</div><div>",
        f"<h2>Caption length (CLIP tokens; {facts.contents.captions} captions)</h2>",
        _lengths(facts),
        "</div></div>",
        '<div class="cols"><div>',
        "<h2>Most negated objects</h2>",
        _bars(_top(facts.contents.negated.most_common(TOP_OBJECTS)), "neg"),
        "</div><div>",
        "<h2>Most affirmed objects</h2>",
        _bars(_top(facts.contents.affirmed.most_common(TOP_OBJECTS)), "aff"),
        "</div></div>",
        "<h2>Diversity (distinct n-grams, frame reuse)</h2>",
        _diversity(facts),
        f"<h2>Gallery: the first {len(facts.gallery)} images</h2>",
        '<div class="gallery">',
        *(_item(item) for item in facts.gallery),
        "</div>",
    ]
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head>\n<body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _top(counts: Iterable[tuple[str, int]]) -> Iterable[tuple[str, int, str]]:
    return ((name, n, "") for name, n in counts)


def _bars(rows: Iterable[tuple[str, int, str]], kind: str) -> str:
    """A horizontal bar chart: (label, count, extra attributes of the row) per bar."""
    shown = list(rows)
    if not shown:
        return '<p class="sub">none</p>'
    top = max(n for _, n, _ in shown) or 1
    lines = [f'<div class="bars {kind}">']
    for label, n, attrs in shown:
        lines.append(
            f'<div class="row"{attrs} data-count="{n}"><span class="label" title="{escape(label)}">'
            f'{escape(label)}</span><span class="track"><span class="fill" style="display:block;'
            f'width:{100 * n / top:.1f}%"></span></span><span class="num">{n}</span></div>'
        )
    return "\n".join([*lines, "</div>"])


def _rejects(facts: RunFacts) -> str:
    rejects = facts.summary["rejects_by_reason"]
    rows = sorted(rejects.items(), key=lambda item: (-item[1], item[0]))
    return _bars(((reason, n, "") for reason, n in rows), "rejects")


def _lengths(facts: RunFacts) -> str:
    contents = facts.contents
    bins = pairwise(LENGTH_BINS)
    chart = _bars(
        ((f"{lo}-{hi - 1} tokens", contents.lengths.get(lo, 0), "") for lo, hi in bins), "len"
    )
    return (
        f'{chart}<p class="sub">mean {contents.mean_tokens or 0} tokens, longest '
        f"{contents.longest} (CLIP's context: 77)</p>"
    )


def _diversity(facts: RunFacts) -> str:
    head = ("generator/style", "captions", "distinct-1", "distinct-2", "distinct-3", "frame reuse")
    rows = [
        "<tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>",
    ]
    for group, figures in facts.summary.get("diversity", {}).items():
        cells = [group, figures["captions"]] + [
            "-" if figures[k] is None else f"{figures[k]:.3f}"
            for k in ("distinct_1", "distinct_2", "distinct_3", "frame_reuse")
        ]
        rows.append("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in cells) + "</tr>")
    return "<table>" + "".join(rows) + "</table>"


def _item(item: GalleryItem) -> str:
    boxes = "".join(
        f'<rect class="box" x="{b.x0:.1f}" y="{b.y0:.1f}" width="{b.x1 - b.x0:.1f}" '
        f'height="{b.y1 - b.y0:.1f}"><title>{escape(b.label)} {b.score:.2f} '
        f"({escape(b.source)})</title></rect>"
        for b in item.boxes
    )
    names = sorted({b.label for b in item.boxes})
    labels = ": " + escape(", ".join(names)) if names else ""
    count = f"{len(item.boxes)} box" + ("" if len(item.boxes) == 1 else "es")
    captions = "".join(
        f'<li>{escape(c.caption)}<span class="tag {escape(c.generator)}">'
        f'{escape(c.generator)}</span> <span class="key">no {escape(c.negated_label)}</span></li>'
        for c in item.captions
    )
    return (
        f'<div class="item" data-key="{escape(item.key)}">'
        f'<div class="pic"><img src="{item.thumbnail}" alt="image {escape(item.key)}">'
        f'<svg viewBox="0 0 {item.width} {item.height}" preserveAspectRatio="none">{boxes}</svg>'
        f'</div><div class="key">{escape(item.key)} &middot; {count}{labels}</div>'
        f'<p class="orig">{escape(item.original_caption)}</p>'
        + (f'<ul class="captions">{captions}</ul>' if captions else "")
        + "".join(_question(q) for q in item.questions)
        + "</div>"
    )


def _question(question: McqRecord) -> str:
    options = [question.caption_0, question.caption_1, question.caption_2, question.caption_3]
    marks = ["" if i != question.correct_answer else ' class="correct"' for i in range(4)]
    items = "".join(
        f"<li{mark}>{escape(text)}</li>" for mark, text in zip(marks, options, strict=True)
    )
    return (
        f'<div class="question" data-correct="{question.correct_answer}">'
        f'<span class="key">MCQ ({escape(question.correct_answer_template)})</span>'
        f'<ol class="mcq" start="0">{items}</ol></div>'
    )
