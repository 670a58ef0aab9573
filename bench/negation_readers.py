"""Other readers of negation scope against negdata's rules, on every labelled set.

This measures what the readers that can run here offline do on the rules' sets, those the rules
were tuned on and those never tuned on (docs/verification.md, "Two readers"):

- ``negdata``: the rule checker (``negdata.validate.negation``);
- ``parse``: the reader built on spaCy's dependency parse (``negdata.validate.parsed``);
- ``agree``: the rules' reading where the parse reads the object alike, else no reading
  (``unmentioned``): what ``compose.readers_agree`` publishes on;
- ``negex``: NegEx (negspacy, its general English cue set) over an entity ruler of the COCO
  lexicon on a blank spaCy pipeline: no spaCy English model is on the package index;
- ``learned``: a logistic regression over word n-grams of the caption and the words around the
  object's mention, trained on every development set (``negation_cases``, ``dev2``, ``dev3``;
  3,624 captions). The rules' own verdict is no feature: the rules are near perfect on the sets it
  trains on, so a model given it learns to copy them;
- ``negdata+learned``: the rules, overruled to *negated* where the learned reader is confident.

Only aggregate scores are printed: the sets stay unread. ``python -m bench.negation_readers``
(``make eval-negation-readers``; negspacy comes with the ``test`` extra, scikit-learn with
``sample``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.clinical_negation import labelled_cases, negex_checker
from negdata.detect.lexicon import Lexicon, lexicon_for
from negdata.validate.audit import SETS
from negdata.validate.evaluate import CLASSES, Outcome, label_polarity, scores
from negdata.validate.negation import Polarity, analyze
from negdata.validate.parsed import analyze as analyze_parse

DATA = Path("tests/data")
TRAIN = ("negation_cases", "negation_dev2", "negation_dev3")
# title -> (file, tuned on by the rules): every set of the truth audit
SCORED = {name: (file.removesuffix(".jsonl"), tuned) for name, (file, _, tuned) in SETS.items()}
WINDOW = 6  # words on each side of a mention
CONFIDENT = 0.6  # the learned reader's probability of "negated" that overrules the rules
Row = tuple[str, str, str]  # caption, label, expected polarity
Reader = Callable[[list[Row]], list[str]]


def rows(name: str) -> list[Row]:
    return [
        (text, label, expected)
        for _, text, objects in labelled_cases(DATA / f"{name}.jsonl")
        for label, expected in objects.items()
    ]


def mention_context(text: str, label: str, lexicon: Lexicon) -> str:
    """The words before (``L_``, and ``Ln_`` n words away) and after (``R_``) each mention of
    the label's terms, and whether it is mentioned at all."""
    words = re.findall(r"[a-z0-9']+|[,.;:!?]", text.lower())
    terms = [t.split() for t in lexicon.terms(label)]
    features = []
    for i in range(len(words)):
        for term in terms:
            n = len(term)
            if words[i : i + n] == term or (n == 1 and words[i].rstrip("s") == term[0].rstrip("s")):
                before = [(j, words[i - j]) for j in range(1, WINDOW + 1) if i >= j]
                after = words[i + n : i + n + WINDOW]
                features += [f"L{j}_{w}" for j, w in before] + [f"L_{w}" for _, w in before]
                features += [f"R_{w}" for w in after]
    return " ".join(features or ["UNMENTIONED"])


def learned_reader(lexicon: Lexicon) -> Callable[[list[Row]], Any]:
    """Fit on the development sets; returns rows -> class probabilities (columns: CLASSES)."""
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    train = [row for name in TRAIN for row in rows(name)]
    captions = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
    contexts = TfidfVectorizer(token_pattern=r"\S+", min_df=2)
    captions.fit([t for t, _, _ in train])
    contexts.fit([mention_context(t, label, lexicon) for t, label, _ in train])

    def features(batch: list[Row]) -> Any:
        return hstack(
            [
                captions.transform([t for t, _, _ in batch]),
                contexts.transform([mention_context(t, label, lexicon) for t, label, _ in batch]),
            ]
        ).tocsr()

    model = LogisticRegression(C=4.0, max_iter=3000).fit(features(train), [e for *_, e in train])
    order = [list(model.classes_).index(c) for c in CLASSES]
    return lambda batch: model.predict_proba(features(batch))[:, order]


def by_caption(check: Callable[[str], dict[str, Polarity]], lexicon: Lexicon) -> Reader:
    return lambda batch: [label_polarity(check(t), label, lexicon) for t, label, _ in batch]


def summary(batch: list[Row], predicted: list[str]) -> str:
    outcomes = [
        Outcome("", "", text, label, expected, got)
        for (text, label, expected), got in zip(batch, predicted, strict=True)
    ]
    found = scores(outcomes)
    return "  ".join(
        f"{cls} P {found[cls]['precision']:.3f} R {found[cls]['recall']:.3f}"
        for cls in ("negated", "affirmed")
    )


def main() -> None:
    lexicon = lexicon_for("coco")
    rules = by_caption(lambda text: analyze(text, lexicon), lexicon)
    probabilities = learned_reader(lexicon)
    negated = CLASSES.index("negated")

    def learned(batch: list[Row]) -> list[str]:
        return [CLASSES[int(p.argmax())] for p in probabilities(batch)]

    def combined(batch: list[Row]) -> list[str]:
        said = rules(batch)
        sure = probabilities(batch)[:, negated] > CONFIDENT
        return ["negated" if s else r for r, s in zip(said, sure, strict=True)]

    parse = by_caption(lambda text: analyze_parse(text, lexicon), lexicon)

    def agree(batch: list[Row]) -> list[str]:
        return [
            r if r == p else "unmentioned" for r, p in zip(rules(batch), parse(batch), strict=True)
        ]

    readers: dict[str, Reader] = {
        "negdata": rules,
        "parse": parse,
        "agree": agree,
        "negex": by_caption(negex_checker(lexicon, "en"), lexicon),
        "learned": learned,
        "negdata+learned": combined,
    }
    for title, (name, tuned) in SCORED.items():
        batch = rows(name)
        trained = " (the learned reader trains on it)" if name in TRAIN else ""
        kind = "tuned on" if tuned else "never tuned on"
        print(f"{title} ({name}.jsonl, {kind}{trained}): {len(batch)} labelled objects")
        for reader, read in readers.items():
            print(f"  {reader:<16} {summary(batch, read(batch))}")


if __name__ == "__main__":
    main()
