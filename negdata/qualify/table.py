"""What ``negdata qualify`` prints: one row per model, then every gate's pass rate side by side,
then the false statements the judge found."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from negdata.qualify.run import GateRate, Qualification

# The summary's columns: heading, value, decimals.
SUMMARY: tuple[tuple[str, Callable[[Qualification], float | None], int], ...] = (
    ("captions/img", lambda q: q.captions_per_image, 2),
    ("MCQs/img", lambda q: q.mcqs_per_image, 2),
    ("false/1k captions", lambda q: q.false_captions_per_1000, 1),
    ("false/1k options", lambda q: q.false_options_per_1000, 1),
    ("tokens/img", lambda q: q.tokens_per_image, 0),
    ("distinct-2", lambda q: q.distinct_2, 3),
    ("seconds", lambda q: q.duration_s, 0),
)


def _number(value: float | None, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _names(results: Sequence[Qualification]) -> list[str]:
    """Each result's column name: its model, with its config where two share a model."""
    models = [q.model for q in results]
    return [q.model if models.count(q.model) == 1 else f"{q.model} ({q.config})" for q in results]


def _summary(results: Sequence[Qualification], names: list[str]) -> list[str]:
    width = max(len("model"), *(len(n) for n in names))
    head = f"{'model':<{width}}  {'images':>6}" + "".join(f"  {h:>{len(h)}}" for h, _, _ in SUMMARY)
    rows = [head]
    for name, q in zip(names, results, strict=True):
        cells = "".join(f"  {_number(get(q), d):>{len(h)}}" for h, get, d in SUMMARY)
        rows.append(f"{name:<{width}}  {q.images:>6}{cells}")
    return rows


def _rate(part: int, whole: int) -> str:
    return f"{part / whole:.3f} ({part}/{whole})" if whole else "-"


def _gate_cells(results: Sequence[Qualification], mcq: bool) -> list[tuple[str, list[str]]]:
    """A row per gate any result has (in their order): its pass rate and refusals per result,
    ``-`` for a result without that gate (no judge, say)."""
    tables = [{g.gate: g for g in (q.mcq_gates if mcq else q.caption_gates)} for q in results]
    names = dict.fromkeys(gate for table in tables for gate in table)
    return [(f"  {gate}", [_gate_cell(table.get(gate)) for table in tables]) for gate in names]


def _gate_cell(gate: GateRate | None) -> str:
    return "-" if gate is None else f"{_number(gate.pass_rate, 3)} ({gate.refused})"


def _gates(results: Sequence[Qualification], names: list[str]) -> list[str]:
    """The gates' rows, one column per model."""
    title = "pass rate (refused) by gate"
    rows: list[tuple[str, list[str]]] = [
        ("plan answered", [_rate(q.plan_answered, q.images) for q in results]),
        ("captions written", [_rate(q.captions_written, q.captions_requested) for q in results]),
        ("caption gates", ["" for _ in results]),
        *_gate_cells(results, mcq=False),
        ("  all: published", [_rate(q.captions_published, q.captions_written) for q in results]),
        ("MCQ gates", ["" for _ in results]),
        *_gate_cells(results, mcq=True),
        ("  all: published", [_rate(q.mcqs_published, q.mcqs_built) for q in results]),
    ]
    label = max(len(title), *(len(text) for text, _ in rows))
    widths = [max(len(n), *(len(cells[i]) for _, cells in rows)) for i, n in enumerate(names)]
    return [
        f"{text:<{label}}" + "".join(f"  {c:>{w}}" for c, w in zip(cells, widths, strict=True))
        for text, cells in [(title, names), *rows]
    ]


def _examples(results: Sequence[Qualification], names: list[str]) -> list[str]:
    lines = []
    for name, q in zip(names, results, strict=True):
        if q.false_examples:
            lines += [
                "",
                f"false statements published, {name} "
                f"({len(q.false_examples)} of {q.false_captions + q.false_options}):",
            ]
            lines += [f"  {example}" for example in q.false_examples]
    return lines


def format_table(results: Sequence[Qualification]) -> str:
    """The comparison, one column or row per model (in the order given)."""
    names = _names(results)
    lines = [*_summary(results, names), "", *_gates(results, names), *_examples(results, names)]
    return "\n".join(line.rstrip() for line in lines)
