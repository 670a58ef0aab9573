"""The WordNet table's generator, on a small dictionary in WordNet 3.0's file format, and the
shipped table as the lexicon reads it."""

from pathlib import Path

import yaml

from negdata.detect.lexicon import SYNONYMS_FILE, WORDNET_FILE, lexicon_for
from negdata.detect.wordnet import WordNet, label_words
from negdata.validate.negation import analyze

# offset: (words, hyponym offsets, gloss)
SYNSETS = {
    "00000001": (
        ["person"],
        ["00000002", "00000003", "00000004", "00000005", "00000006"],
        "a human",
    ),
    "00000002": (["chap", "fellah"], [], "a boy or man"),
    "00000003": (["giant"], [], "a very large person"),
    "00000004": (["tiger"], [], "a fierce person"),
    "00000005": (["Iowa", "gondoliere"], [], "a member of a people; a boatman"),
    "00000006": (["knave"], [], "(ethnic slur) an offensive word"),
    "00000010": (["dog"], ["00000011"], "a domestic canine"),
    "00000011": (["Pekinese", "chap"], [], "a small dog"),
    "00000020": (["tiger", "cat"], [], "a large striped cat"),
}
SENSES = {  # word: offsets, most used first
    "person": ["00000001"],
    "chap": ["00000002", "00000011"],
    "fellah": ["00000002"],
    "giant": ["00000003"],
    "tiger": ["00000004", "00000020"],
    "iowa": ["00000005"],
    "gondoliere": ["00000005"],
    "knave": ["00000006"],
    "dog": ["00000010"],
    "pekinese": ["00000011"],
    "cat": ["00000020"],
}
TAGGED = {("tiger", 1): 1, ("tiger", 2): 1, ("chap", 1): 3}


def _dictionary(root: Path) -> Path:
    root.mkdir()
    licence = "  1 This software and database is being provided ...\n"
    index = [
        f"{word} n {len(offsets)} 1 ~ {len(offsets)} 1 {' '.join(offsets)}"
        for word, offsets in sorted(SENSES.items())
    ]
    (root / "index.noun").write_text(licence + "\n".join(index) + "\n")
    data = []
    for offset, (words, below, gloss) in SYNSETS.items():
        lemmas = " ".join(f"{w} 0" for w in words)
        pointers = "".join(f" ~ {b} n 0000" for b in below)
        data.append(f"{offset} 03 n {len(words):02x} {lemmas} {len(below):03d}{pointers} | {gloss}")
    (root / "data.noun").write_text(licence + "\n".join(data) + "\n")
    (root / "index.adj").write_text(licence + "giant a 1 0 1 0 00300001\nlong a 1 0 1 0 00300002\n")
    (root / "index.verb").write_text(licence + "chase v 1 0 1 0 00400001\n")
    (root / "adj.exc").write_text("better good\n")
    (root / "verb.exc").write_text("chosen choose\n")
    sense = [
        f"{word}%1:18:00:: {offset} {number} {TAGGED.get((word, number), 0)}"
        for word, offsets in SENSES.items()
        for number, offset in enumerate(offsets, 1)
    ]
    (root / "index.sense").write_text("\n".join(sense) + "\n")
    return root


ANCHORS = {"person": (("person", 1),), "dog": (("dog", 1),)}


def test_a_word_is_taken_for_a_label_only_where_its_most_used_sense_is_a_kind_of_it(
    tmp_path: Path,
) -> None:
    wordnet = WordNet.load(_dictionary(tmp_path / "dict"))
    table = label_words(wordnet, ANCHORS, known={"dog": "dog", "person": "person"})
    # "chap" is a man first and a dog second; "fellah" is a man; "Pekinese" keeps its capital
    # for a breed. "giant" is an adjective too, "tiger" is a fierce person as often as a cat,
    # "Iowa" is a person's proper name and "knave" is in a slur's synset.
    assert table == {"person": ["chap", "fellah", "gondoliere"], "dog": ["pekinese"]}


def test_a_word_the_hand_written_table_names_is_left_to_it(tmp_path: Path) -> None:
    wordnet = WordNet.load(_dictionary(tmp_path / "dict"))
    known = {"person": "person", "chap": "person", "pekinese": "cat"}
    table = label_words(wordnet, ANCHORS, known)
    assert table == {"person": ["fellah", "gondoliere"]}


def test_comparatives_and_verb_forms_are_no_nouns_for_a_label(tmp_path: Path) -> None:
    wordnet = WordNet.load(_dictionary(tmp_path / "dict"))
    assert wordnet.adjective_form("longer")  # "no longer": not a person who longs
    assert wordnet.adjective_form("chased") and wordnet.adjective_form("better")
    assert not wordnet.adjective_form("fellah")


def test_the_shipped_table_adds_to_the_hand_written_one_and_the_reader_uses_it() -> None:
    hand = {w for words in yaml.safe_load(SYNONYMS_FILE.read_text()).values() for w in words}
    shipped = yaml.safe_load(WORDNET_FILE.read_text())
    assert not hand & {w for words in shipped.values() for w in words}
    assert "nobody" not in shipped["person"]
    lexicon = lexicon_for("coco")
    assert lexicon.name("gondoliere") == "person" and lexicon.name("cheeseburger") == "sandwich"
    reading = analyze("A gondoliere poles past, with no boat behind him.", lexicon)
    assert reading == {"person": "affirmed", "boat": "negated"}
