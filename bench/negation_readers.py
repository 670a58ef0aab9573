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
from negdata.validate.evaluate import CLASSES, Outcome, label_polarity, scores
from negdata.validate.negation import Polarity, analyze
from negdata.validate.parsed import analyze as analyze_parse

DATA = Path("tests/data")
TRAIN = ("negation_cases", "negation_dev2", "negation_dev3")
# title -> (file, tuned on by the rules)
SCORED = {
    "cases": ("negation_cases", True),
    "dev2": ("negation_dev2", True),
    "dev3": ("negation_dev3", True),
    "dev4": ("negation_dev4", True),
    "dev5": ("negation_dev5", True),
    "dev6": ("negation_dev6", True),
    "dev7": ("negation_dev7", True),
    "dev8": ("negation_dev8", True),
    "dev9": ("negation_dev9", True),
    "dev10": ("negation_dev10", True),
    "dev11": ("negation_dev11", True),
    "dev12": ("negation_dev12", True),
    "dev13": ("negation_dev13", True),
    "held-out2": ("negation_heldout2", True),
    "unseen2": ("negation_unseen2", True),
    "unseen3": ("negation_unseen3", True),
    "held-out3": ("negation_heldout3", True),
    "held-out4": ("negation_heldout4", True),
    "held-out5": ("negation_heldout5", False),
    "unseen4": ("negation_unseen4", True),
    "unseen5": ("negation_unseen5", True),
    "held-out6": ("negation_heldout6", True),
    "held-out7": ("negation_heldout7", True),
    "unseen6": ("negation_unseen6", True),
    "held-out8": ("negation_heldout8", False),
    "held-out9": ("negation_heldout9", True),
    "unseen7": ("negation_unseen7", True),
    "held-out10": ("negation_heldout10", True),
    "unseen8": ("negation_unseen8", True),
    "held-out11": ("negation_heldout11", False),
    "unseen9": ("negation_unseen9", True),
    "held-out12": ("negation_heldout12", True),
    "unseen10": ("negation_unseen10", True),
    "held-out13": ("negation_heldout13", False),
    "unseen11": ("negation_unseen11", True),
    "held-out14": ("negation_heldout14", True),
    "unseen12": ("negation_unseen12", False),
    "held-out15": ("negation_heldout15", True),
    "unseen13": ("negation_unseen13", True),
    "held-out16": ("negation_heldout16", True),
    "unseen14": ("negation_unseen14", True),
    "held-out17": ("negation_heldout17", True),
    "unseen15": ("negation_unseen15", True),
    "held-out18": ("negation_heldout18", False),
    "unseen16": ("negation_unseen16", True),
    "held-out19": ("negation_heldout19", True),
    "unseen17": ("negation_unseen17", True),
    "held-out20": ("negation_heldout20", False),
    "unseen18": ("negation_unseen18", True),
    "held-out21": ("negation_heldout21", True),
    "unseen19": ("negation_unseen19", True),
    "held-out22": ("negation_heldout22", True),
    "unseen20": ("negation_unseen20", True),
    "held-out23": ("negation_heldout23", True),
    "unseen21": ("negation_unseen21", True),
    "held-out24": ("negation_heldout24", False),
    "unseen22": ("negation_unseen22", True),
    "held-out25": ("negation_heldout25", True),
    "unseen23": ("negation_unseen23", True),
    "held-out26": ("negation_heldout26", False),
    "held-out27": ("negation_heldout27", True),
    "unseen24": ("negation_unseen24", True),
    "held-out28": ("negation_heldout28", False),
    "held-out29": ("negation_heldout29", True),
    "unseen25": ("negation_unseen25", True),
    "held-out30": ("negation_heldout30", False),
    "unseen26": ("negation_unseen26", True),
    "held-out31": ("negation_heldout31", False),
    "held-out32": ("negation_heldout32", True),
    "unseen27": ("negation_unseen27", True),
    "held-out33": ("negation_heldout33", False),
    "held-out34": ("negation_heldout34", False),
    "held-out35": ("negation_heldout35", True),
    "unseen28": ("negation_unseen28", True),
    "held-out36": ("negation_heldout36", False),
    "held-out37": ("negation_heldout37", True),
    "unseen29": ("negation_unseen29", True),
    "unseen30": ("negation_unseen30", False),
    "held-out38": ("negation_heldout38", False),
    "held-out39": ("negation_heldout39", True),
    "unseen31": ("negation_unseen31", False),
    "unseen32": ("negation_unseen32", True),
    "held-out40": ("negation_heldout40", False),
    "unseen33": ("negation_unseen33", False),
    "held-out41": ("negation_heldout41", False),
    "held-out42": ("negation_heldout42", True),
    "unseen34": ("negation_unseen34", False),
    "unseen35": ("negation_unseen35", True),
    "held-out43": ("negation_heldout43", False),
    "held-out44": ("negation_heldout44", True),
    "unseen36": ("negation_unseen36", False),
    "unseen37": ("negation_unseen37", True),
    "held-out45": ("negation_heldout45", False),
    "held-out46": ("negation_heldout46", True),
    "unseen38": ("negation_unseen38", False),
    "unseen39": ("negation_unseen39", True),
    "held-out47": ("negation_heldout47", False),
    "held-out48": ("negation_heldout48", True),
    "unseen40": ("negation_unseen40", False),
    "unseen41": ("negation_unseen41", True),
    "held-out49": ("negation_heldout49", False),
    "held-out50": ("negation_heldout50", True),
    "unseen42": ("negation_unseen42", False),
    "unseen43": ("negation_unseen43", True),
    "held-out51": ("negation_heldout51", True),
    "held-out52": ("negation_heldout52", True),
    "unseen44": ("negation_unseen44", True),
    "unseen45": ("negation_unseen45", True),
    "held-out53": ("negation_heldout53", False),
    "unseen46": ("negation_unseen46", False),
    "held-out54": ("negation_heldout54", False),
    "held-out55": ("negation_heldout55", True),
    "unseen47": ("negation_unseen47", False),
    "unseen48": ("negation_unseen48", True),
    "held-out56": ("negation_heldout56", False),
    "held-out57": ("negation_heldout57", True),
    "unseen49": ("negation_unseen49", False),
    "unseen50": ("negation_unseen50", True),
    "held-out58": ("negation_heldout58", False),
    "held-out59": ("negation_heldout59", True),
    "unseen51": ("negation_unseen51", False),
    "unseen52": ("negation_unseen52", True),
    "held-out60": ("negation_heldout60", False),
    "held-out61": ("negation_heldout61", True),
    "unseen53": ("negation_unseen53", False),
    "unseen54": ("negation_unseen54", True),
    "held-out62": ("negation_heldout62", False),
    "held-out63": ("negation_heldout63", True),
    "unseen55": ("negation_unseen55", False),
    "unseen56": ("negation_unseen56", True),
    "held-out64": ("negation_heldout64", False),
    "held-out65": ("negation_heldout65", True),
    "unseen57": ("negation_unseen57", False),
    "unseen58": ("negation_unseen58", True),
    "held-out66": ("negation_heldout66", False),
    "held-out67": ("negation_heldout67", True),
    "unseen59": ("negation_unseen59", False),
    "unseen60": ("negation_unseen60", True),
    "held-out68": ("negation_heldout68", False),
    "held-out69": ("negation_heldout69", True),
    "unseen61": ("negation_unseen61", False),
    "unseen62": ("negation_unseen62", True),
    "held-out70": ("negation_heldout70", False),
    "held-out71": ("negation_heldout71", True),
    "unseen63": ("negation_unseen63", False),
    "unseen64": ("negation_unseen64", True),
    "held-out72": ("negation_heldout72", False),
    "unseen65": ("negation_unseen65", False),
    "held-out73": ("negation_heldout73", False),
    "held-out74": ("negation_heldout74", True),
    "unseen66": ("negation_unseen66", False),
    "unseen67": ("negation_unseen67", True),
    "held-out75": ("negation_heldout75", False),
    "unseen68": ("negation_unseen68", False),
    "unseen69": ("negation_unseen69", True),
    "unseen70": ("negation_unseen70", True),
    "unseen71": ("negation_unseen71", False),
    "held-out76": ("negation_heldout76", False),
    "held-out77": ("negation_heldout77", True),
    "unseen72": ("negation_unseen72", False),
    "unseen73": ("negation_unseen73", True),
    "unseen74": ("negation_unseen74", True),
    "unseen75": ("negation_unseen75", False),
    "held-out78": ("negation_heldout78", False),
    "held-out79": ("negation_heldout79", True),
    "unseen76": ("negation_unseen76", False),
    "unseen77": ("negation_unseen77", True),
    "unseen78": ("negation_unseen78", True),
    "unseen79": ("negation_unseen79", True),
    "unseen80": ("negation_unseen80", False),
    "held-out80": ("negation_heldout80", False),
    "held-out81": ("negation_heldout81", True),
    "unseen81": ("negation_unseen81", False),
    "unseen82": ("negation_unseen82", True),
    "unseen83": ("negation_unseen83", False),
    "unseen84": ("negation_unseen84", True),
    "held-out82": ("negation_heldout82", False),
    "held-out83": ("negation_heldout83", True),
    "unseen85": ("negation_unseen85", False),
    "unseen86": ("negation_unseen86", True),
    "unseen87": ("negation_unseen87", False),
    "unseen88": ("negation_unseen88", True),
    "held-out84": ("negation_heldout84", False),
    "held-out85": ("negation_heldout85", True),
    "unseen89": ("negation_unseen89", False),
    "unseen90": ("negation_unseen90", True),
    "unseen91": ("negation_unseen91", False),
    "unseen92": ("negation_unseen92", True),
    "held-out86": ("negation_heldout86", False),
    "held-out87": ("negation_heldout87", True),
    "unseen93": ("negation_unseen93", False),
    "unseen94": ("negation_unseen94", True),
    "unseen95": ("negation_unseen95", False),
    "unseen96": ("negation_unseen96", True),
    "held-out88": ("negation_heldout88", False),
    "unseen97": ("negation_unseen97", False),
    "unseen98": ("negation_unseen98", False),
    "held-out89": ("negation_heldout89", True),
    "unseen99": ("negation_unseen99", True),
    "unseen100": ("negation_unseen100", True),
    "held-out90": ("negation_heldout90", True),
    "unseen101": ("negation_unseen101", True),
    "unseen102": ("negation_unseen102", True),
    "held-out91": ("negation_heldout91", False),
    "unseen103": ("negation_unseen103", False),
    "unseen104": ("negation_unseen104", False),
    "held-out": ("negation_heldout", True),
    "unseen": ("negation_unseen", True),
    "claims": ("negation_claims", False),
    "counts": ("negation_counts", False),
}
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
