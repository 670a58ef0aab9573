"""What stricter gates would have done on text the checker had never read.

Every held-out and unseen set was written blind and scored first by the checker of the commit
that added it; later rounds tuned the rules on most of them, so today's audit cannot say how a
new author's text fares. This puts the checker back where it stood when each set was new (a git
worktree at that commit) and scores the set there, as ``make audit-truth`` does (labels-only
evidence, each caption's flips, by that commit's own ``audit_set``), through the gates of that
commit and through stricter ones:

- ``plain``: the gates as they were;
- ``agree``: also ``compose.readers_agree``: the parse-based reader reads the negated object and
  every object the rules read as the rules do;
- ``unplaced``: also refuse a clause with a negation word whose objects the rules read none of as
  negated ("he's never without his dog", "not a slice of the pizza is missing");
- ``both``: ``agree`` and ``unplaced``.

It prints each set's yield (true explicit captions published) and false statements published,
then the pooled figures by style (docs/verification.md, "Text never read"). Labels are today's
(a few were corrected after their set was scored). ``python -m bench.blind_backtest``
(``make bench-blind``, about 15 minutes); it needs the repository's history.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tqdm import tqdm

from negdata.detect.vocab import VocabularyName

REPO = Path(__file__).resolve().parent.parent
VARIANTS = ("plain", "agree", "unplaced", "both")
_CUE = re.compile(
    r"\b(?:no|not|never|none|neither|nor|without|hardly|barely|scarcely|lacks?|lacking|missing|"
    r"absent|devoid|nowhere|zero|free of)\b|n['\u2019]t\b",
    re.IGNORECASE,
)
_NOBODY = re.compile(r"\b(?:nobody|no one|no-one)\b", re.IGNORECASE)
_CLAUSE = re.compile(
    r"[,;:()?!.\u2014\u2013]|\s-\s|\b(?:but|though|although|yet|while|whereas|and)\b",
    re.IGNORECASE,
)


def unplaced(
    text: str, negated: Callable[[str], bool], mentioned: Callable[[str], list[str]]
) -> bool:
    """Whether a clause of ``text`` holds a negation word and names objects (``mentioned``: the
    lexicon's lookup) none of which the rules read as ``negated``."""
    for clause in _CLAUSE.split(text):
        if _CUE.search(_NOBODY.sub(" ", clause)):
            names = mentioned(clause)
            if names and not any(negated(name) for name in names):
                return True
    return False


def score(path: Path, vocabulary: VocabularyName) -> dict[str, Any]:
    """One set through that commit's own ``audit_set``, its gate recording what the stricter
    variants would have let through (imported here: the ``negdata`` on ``sys.path`` is the
    commit's, and these names are where every commit the backtest drives has them)."""
    from negdata.detect.lexicon import lexicon_for
    from negdata.validate import audit
    from negdata.validate.evaluate import label_polarity
    from negdata.validate.exclusivity import kind_exclusions
    from negdata.validate.gates import CaptionGate, readers_agree
    from negdata.validate.negation import analyze
    from negdata.validate.parsed import analyze as analyze_parse

    lex = lexicon_for(vocabulary)
    explicit = {
        str(case["id"])
        for case in audit._cases(path)
        if audit._kind(str(case["construction"]), str(case["text"]), lex) == "explicit"
    }
    published = dict.fromkeys(VARIANTS, 0)
    false_published = dict.fromkeys(VARIANTS, 0)

    def passes(text: str, negated: str) -> dict[str, bool]:
        rules = kind_exclusions(text, analyze(text, lex), lex)
        parsed = kind_exclusions(text, analyze_parse(text, lex), lex)
        agree = readers_agree(parsed, rules, negated, lex)
        placed = not unplaced(
            text, lambda name: label_polarity(rules, name, lex) == "negated", lex.mentioned
        )
        return {"plain": True, "agree": agree, "unplaced": placed, "both": agree and placed}

    class Recording(CaptionGate):
        """The gate, counting each caption it passes under each variant: a true one (its key
        is the case's and the negated label's) or a flip (one more part, the flip's number)."""

        def check(self, row: Any, evidence: Any) -> Any:
            reason = super().check(row, evidence)
            case, *rest = row.key.split(":")
            flip = len(rest) == 2
            tally = false_published if flip else published
            if reason is None and (flip or case in explicit):
                for variant, ok in passes(row.caption, row.negated_label).items():
                    tally[variant] += ok
            return reason

    audit.CaptionGate = Recording  # type: ignore[attr-defined,misc]
    found = audit.audit_set(path.stem, path, vocabulary, False)
    return {
        "true": found.true["explicit"],
        "published": published,
        "false": found.false,
        "false_published": false_published,
    }


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.strip()


def blind_sets() -> dict[str, list[tuple[str, str, VocabularyName]]]:
    """Commit -> (set, file, vocabulary) of every held-out and unseen set whose adding commit's
    audit the backtest can drive."""
    from negdata.validate.audit import SETS

    by_commit: dict[str, list[tuple[str, str, VocabularyName]]] = defaultdict(list)
    for name, (file, vocabulary, _tuned) in SETS.items():
        if not name.startswith(("held-out", "unseen")):
            continue
        log = _git("log", "--diff-filter=A", "--format=%H", "--", f"tests/data/{file}")
        commit = log.splitlines()[-1] if log else ""
        gates = _git("show", f"{commit}:negdata/validate/gates.py") if commit else ""
        if "kind_exclusions" in gates and "def readers_agree" in gates:
            by_commit[commit].append((name, file, vocabulary))
    return by_commit


def _pooled(rows: list[dict[str, Any]]) -> str:
    false = sum(r["false"] for r in rows)
    cells = []
    for v in VARIANTS:
        wrong = sum(r["false_published"][v] for r in rows)
        kept = sum(r["published"][v] for r in rows) / sum(r["true"] for r in rows)
        cells.append(f"{v} {kept:.3f} / {wrong} ({1000 * wrong / false:.2f})")
    return " | ".join(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--score", nargs=2, metavar=("FILE", "VOCABULARY"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.score:
        print(json.dumps(score(Path(args.score[0]), args.score[1])))
        return
    rows = []
    sets = blind_sets()
    with tempfile.TemporaryDirectory() as tmp, tqdm(total=sum(map(len, sets.values()))) as bar:
        for commit, members in sets.items():
            tree = Path(tmp) / commit
            _git("worktree", "add", "--detach", str(tree), commit)
            try:
                for name, file, vocabulary in members:
                    out = subprocess.run(
                        [sys.executable, __file__, "--score", str(REPO / "tests/data" / file),
                         vocabulary],
                        cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
                        capture_output=True, text=True,
                    ).stdout  # fmt: skip
                    rows.append({"set": name, "commit": commit[:7], **json.loads(out)})
                    bar.update()
            finally:
                _git("worktree", "remove", "--force", str(tree))
    print("set: yield / false published (per 1,000 false statements), by gate")
    for r in rows:
        print(f"{r['set']} at {r['commit']}: {_pooled([r])}")
    for style, prefix in (("compose", "held-out"), ("many registers", "unseen")):
        print(f"pooled, {style}: {_pooled([r for r in rows if r['set'].startswith(prefix)])}")
    print(f"pooled, all: {_pooled(rows)}")


if __name__ == "__main__":
    main()
