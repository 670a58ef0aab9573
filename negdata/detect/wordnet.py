"""Words for the COCO labels from WordNet: every noun whose most frequent sense is a kind of a
label's synset ("fella", "gondolier": a person; "pekingese": a dog; "butty": a sandwich).

The reader knows a label only by its words, and a word it does not know hides the object: "a
fella on a pushbike" read as no person at all is published where no person is. The hand-written
``synonyms.yaml`` holds everyday and regional words; this table, generated from WordNet 3.0's
noun hierarchy, holds the long tail of roles, breeds and models. A word is taken only where
its first (most frequent) noun sense falls under the label, it has no adjective or verb sense
("a giant pizza", "the cook" who cooks), and no other label claims it.

Regenerate with ``make wordnet-synonyms``: it fetches Debian's ``wordnet-base`` and
``wordnet-sense-index`` packages and runs ``python -m negdata.detect.wordnet DICT_DIR``.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml

from negdata.detect.lexicon import SYNONYMS_FILE, WORDNET_FILE
from negdata.detect.vocab import vocabulary

_OFFENSIVE = re.compile(
    r"\b(?:offensive|slur|disparaging|derogatory|obscene|vulgar|insult\w*|contempt\w*"
    r"|low opinion)\b"
)
# Words a caption uses for something else: "nobody" denies that anyone is there; "the sole
# occupant of the bench is a pigeon", "the toaster is the sole survivor", "Buddy the beagle",
# "#foodie", "a turkey sandwich", "GoPro HERO11".
NOT_NAMES = frozenset({"nobody", "occupant", "survivor", "buddy", "foodie", "turkey", "hero"})

# Each label's synsets, as (word, sense number) in WordNet 3.0.
ANCHORS: dict[str, tuple[tuple[str, int], ...]] = {
    "person": (("person", 1),),
    "bicycle": (("bicycle", 1),),
    "car": (("car", 1),),
    "motorcycle": (("motorcycle", 1),),
    "airplane": (("airplane", 1),),
    "bus": (("bus", 1),),
    "train": (("train", 1),),
    "truck": (("truck", 1),),
    "boat": (("boat", 1), ("ship", 1)),
    "bird": (("bird", 1),),
    "cat": (("domestic_cat", 1),),
    "dog": (("dog", 1),),
    "horse": (("horse", 1),),
    "sheep": (("sheep", 1),),
    "cow": (("cattle", 1),),
    "elephant": (("elephant", 1),),
    "bear": (("bear", 1),),
    "zebra": (("zebra", 1),),
    "giraffe": (("giraffe", 1),),
    "sandwich": (("sandwich", 1),),
    "pizza": (("pizza", 1),),
    "tie": (("necktie", 1),),
    "umbrella": (("umbrella", 1),),
    "couch": (("sofa", 1),),
    "bed": (("bed", 1),),
    "tv": (("television_receiver", 1),),
    "cell phone": (("cellular_telephone", 1),),
    "laptop": (("laptop", 1),),
    "clock": (("clock", 1),),
    "refrigerator": (("refrigerator", 1),),
    "teddy bear": (("teddy", 1),),
}


@dataclass(frozen=True)
class WordNet:
    """The noun synsets WordNet's dictionary files hold: each word's senses, most frequent
    first; each synset's words and hyponyms; and the words never to take for a label."""

    senses: dict[str, list[str]]
    words: dict[str, list[str]]
    hyponyms: dict[str, list[str]]
    other_pos: frozenset[str]  # adjectives, verbs and their irregular forms, and slurs
    tagged: dict[str, dict[int, int]]  # word -> noun sense number -> times tagged in SemCor

    @classmethod
    def load(cls, root: Path) -> WordNet:
        senses = {word: offsets for word, offsets in _index(root / "index.noun")}
        words: dict[str, list[str]] = {}
        hyponyms: dict[str, list[str]] = {}
        slurs: set[str] = set()
        for line in _entries(root / "data.noun"):
            entry, _, gloss = line.partition(" | ")
            fields = entry.split()
            offset, count = fields[0], int(fields[3], 16)
            words[offset] = [fields[4 + 2 * i] for i in range(count)]
            if _OFFENSIVE.search(gloss):  # a slur, in any of its senses
                slurs |= {word.lower() for word in words[offset]}
            pointers = 4 + 2 * count
            hyponyms[offset] = [
                fields[pointers + 1 + 4 * i + 1]
                for i in range(int(fields[pointers]))
                if fields[pointers + 1 + 4 * i] == "~"  # not "~i", a named instance
            ]
        other = {w for pos in ("adj", "verb") for w, _ in _index(root / f"index.{pos}")}
        for pos in ("adj", "verb"):  # "better", "chosen"
            other |= {line.split()[0] for line in _entries(root / f"{pos}.exc")}
        tagged: dict[str, dict[int, int]] = defaultdict(dict)
        for line in _entries(root / "index.sense"):
            key, _, sense, times = line.split()
            word, kind = key.split("%")
            if kind.startswith("1:"):
                tagged[word][int(sense)] = int(times)
        return cls(senses, words, hyponyms, frozenset(other | slurs), dict(tagged))

    def dominant(self, word: str) -> bool:
        """Whether ``word``'s first noun sense is tagged more often than each of its others:
        "tiger" (a fierce person once, the cat once) and "carrier" are not, "fella" is."""
        counts = self.tagged.get(word, {})
        first = counts.get(1, 0)
        return len(self.senses[word]) == 1 or all(
            first > n for sense, n in counts.items() if sense != 1
        )

    def adjective_form(self, word: str) -> bool:
        """Whether ``word`` is an adjective or verb (or a slur), an adjective's comparative
        ("longer", "bigger") or a verb's form ("chased")."""
        if word in self.other_pos:
            return True
        stems: tuple[str, ...] = ()
        if word.endswith(("er", "ed")):  # "bigger", "chased"
            stems = (word[:-2], word[:-1], word[:-3])
        elif word.endswith("ing"):
            stems = (word[:-3], word[:-3] + "e", word[:-4])
        return any(stem in self.other_pos for stem in stems)

    def kinds(self, offset: str) -> Iterator[str]:
        """``offset`` and every synset below it."""
        stack, seen = [offset], {offset}
        while stack:
            current = stack.pop()
            yield current
            for below in self.hyponyms.get(current, []):
                if below not in seen:
                    seen.add(below)
                    stack.append(below)


def _entries(path: Path) -> Iterator[str]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith(" "):  # the licence's lines start with spaces
            yield line


def _index(path: Path) -> Iterator[tuple[str, list[str]]]:
    for line in _entries(path):
        fields = line.split()
        pointers = int(fields[3])
        yield fields[0], fields[6 + pointers :]


def label_words(
    wordnet: WordNet,
    anchors: Mapping[str, tuple[tuple[str, int], ...]],
    known: Mapping[str, str],
) -> dict[str, list[str]]:
    """Label -> the single words whose first noun sense is one of its kinds and that no other
    label claims. Left out: a word ``known`` (word -> label, the hand-written table) already
    names; a word whose first sense is not its most used ("tiger"); an adjective or verb
    ("giant", "cook", "longer"); a word of three letters ("tom"); "nobody";
    a proper name for a person ("Iowa", "Amazon"; a breed keeps its capital: "Pekinese"). A
    phrase is left out too: "top dog" and "hard hat" are no dog and no hat, and "police dog" is
    found by its "dog"."""
    claimed: dict[str, set[str]] = defaultdict(set)
    for label, synsets in anchors.items():
        for anchor, sense in synsets:
            for offset in wordnet.kinds(wordnet.senses[anchor][sense - 1]):
                for lemma in wordnet.words.get(offset, []):
                    word = lemma.lower()
                    if (
                        wordnet.senses[word][0] == offset
                        and wordnet.dominant(word)
                        and not wordnet.adjective_form(word)
                        and not (label == "person" and lemma != word)
                    ):
                        claimed[word].add(label)
    table: dict[str, list[str]] = defaultdict(list)
    for word, labels in sorted(claimed.items()):
        if word in NOT_NAMES or word in known or not word.isalpha() or len(word) < 4:
            continue
        if len(labels) == 1:
            table[labels.pop()].append(word)
    return dict(table)


_HEADER = """\
# Generated by negdata/detect/wordnet.py (make wordnet-synonyms): do not edit by hand.
# Words for the labels from WordNet 3.0 (Princeton University, https://wordnet.princeton.edu,
# WordNet 3.0 licence; Debian's wordnet-base 1:3.0-37 and wordnet-sense-index): each single
# noun whose most used sense is a kind of the label's synset, that is no adjective or verb and
# that synonyms.yaml does not give already (its words come first).
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dict_dir", type=Path, help="WordNet 3.0's dict directory")
    parser.add_argument("--out", type=Path, default=WORDNET_FILE, help="the table to write")
    args = parser.parse_args(argv)
    hand = yaml.safe_load(SYNONYMS_FILE.read_text())
    known = {word: label for label, words in hand.items() for word in words}
    known |= {label: label for label in vocabulary("coco")}
    table = label_words(WordNet.load(args.dict_dir), ANCHORS, known)
    lines = [_HEADER]
    for label in sorted(table):
        lines.append(f"{label}:\n" + "".join(f"  - {json.dumps(word)}\n" for word in table[label]))
    partial = args.out.with_suffix(".partial")
    partial.write_text("".join(lines))
    partial.replace(args.out)
    print(f"{args.out}: {sum(map(len, table.values()))} words for {len(table)} labels")


if __name__ == "__main__":
    main()
