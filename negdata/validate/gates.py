"""Gates every caption and MCQ passes before publication; a failure names its reason code."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from negdata.clip_text import fits_clip
from negdata.config import Config
from negdata.detect.lexicon import Lexicon, lexicon_for
from negdata.detect.vocab import CLINICAL_VOCABULARIES
from negdata.english import article_errors
from negdata.records import CaptionRecord, Evidence, McqRecord, Verdict
from negdata.validate.claims import (
    denied_gear_there,
    identity_claim,
    implied_ruled_out,
    left_out,
    meta_text,
    negation_verdict,
)
from negdata.validate.counts import CountProblem, count_problem
from negdata.validate.evaluate import label_polarity
from negdata.validate.exclusivity import exclusive_only_by_count, kind_exclusions
from negdata.validate.grammar import broken_sentence, garbled
from negdata.validate.negation import Polarity, analyze, contradictions
from negdata.validate.negation.anaphora import unresolved_anaphor
from negdata.validate.negation.denials import (
    contrast_cleft,
    said_plainly,
    unread_double_negation,
)
from negdata.validate.negation.words import POSSESS_VERBS
from negdata.validate.nouns import unaccounted_nouns
from negdata.validate.parsed import analyze as analyze_parse
from negdata.verify import box_counts, evidence_verdicts

# The reason codes of the gates, in the order they are checked: a caption or question is
# refused by the first gate it fails.
CaptionReason = Literal[
    "prompt_residue",
    "meta_text",
    "length",
    "too_long_for_clip",
    "copy_of_original",
    "article_error",
    "garbled",
    "double_negation",
    "contrast_cleft",
    "unresolved_anaphor",
    "self_contradiction",
    "not_negated",
    "identity_claim",
    "affirms_absent",
    "negates_present",
    "negates_undecided",
    "affirms_undecided",
    "affirms_unverified",
    "readers_disagree",
    "exclusive_not_true",
    CountProblem,
    "unaccounted_noun",
]
McqReason = Literal[
    "mcq_duplicate_options",
    "mcq_placeholder",
    "mcq_too_long_for_clip",
    "mcq_nonsense",
    "mcq_article_error",
    "mcq_unaccounted_noun",
    "mcq_unverifiable",
    "mcq_not_one_true",
]
_RESIDUE = re.compile(
    r"(caption\s*\d*\s*:|negat\w*\s*:|^\s*(sure|here is|here's|here are|certainly|okay)\b|"
    r"[{}\[\]\"`<>]|\bjson\b|\bstyle\b|affirmation_first|negation_first|\bas an ai\b|"
    r"\bi hope\b|\blet me know\b|\bi can(not|'t)\b|\boutput\s*:|\btext\s*:)",
    re.IGNORECASE,
)


# A sentence that takes back what it said: which of the two is meant, readers differ.
# "no" in a file name: "gate-no-people-plane-at-window.jpg"
_SLUG_DENIAL = re.compile(r"(?:^|[^a-z]+)(?:no|not|without)(?=[^a-z]|$)")
_CORRECTED = re.compile(
    r"\b(?:wait|actually|correction|scratch that|on second (?:look|thought)|on closer (?:look|"
    r"inspection)|i mean)\b[,:!]",
    re.IGNORECASE,
)


def prompt_residue(text: str) -> bool:
    """Whether ``text`` carries what a prompt or a chat reply leaves behind ("Caption:", "Sure",
    "Here is", JSON punctuation, "as an AI")."""
    return _RESIDUE.search(text) is not None


def _norm(text: str) -> str:
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


@dataclass(frozen=True)
class CaptionGate:
    """Checks one caption against its image's evidence."""

    cfg: Config
    lexicon: Lexicon
    _verdicts: dict[str, dict[str, Verdict]] = field(default_factory=dict, compare=False)
    _boxes: dict[str, dict[str, int]] = field(default_factory=dict, compare=False)

    def verdicts(self, evidence: Evidence) -> dict[str, Verdict]:
        """Every name's verdict for one image, computed once for all of its candidates."""
        if evidence.key not in self._verdicts:
            self._verdicts[evidence.key] = evidence_verdicts(
                evidence, self.lexicon, self.cfg.detect
            )
        return self._verdicts[evidence.key]

    def boxes(self, evidence: Evidence) -> dict[str, int]:
        """One image's box counts (``box_counts``), computed once for all of its candidates."""
        if evidence.key not in self._boxes:
            self._boxes[evidence.key] = box_counts(evidence, self.cfg.detect)
        return self._boxes[evidence.key]

    def _denies_a_run(self, slug: str) -> bool:
        """Whether a file name's "no" comes before words that name two things."""
        runs = _SLUG_DENIAL.split(slug.lower())[1:]
        return any(len(self.lexicon.mentioned(run)) > 1 for run in runs)

    def check(self, row: CaptionRecord, evidence: Evidence) -> CaptionReason | None:
        """``None`` when the caption passes, else the reason code of the first failed gate."""
        text = row.caption
        problem = text_problem(text, row.original_caption, self.cfg.compose.max_caption_chars)
        if problem is not None:
            return problem
        if unread_double_negation(text):
            rest = said_plainly(text, self.lexicon)
            if rest is None:
                return "double_negation"  # "I would hardly call the shelf free of books"
            # the caption must hold both as a whole and without the denial the rest restates
            problem = self.check(row.model_copy(update={"caption": rest}), evidence)
            if problem is not None:
                return problem
        if contrast_cleft(text):
            return "contrast_cleft"  # "it's the microwave, not the oven, that's running"
        polarities = kind_exclusions(text, analyze(text, self.lexicon), self.lexicon)
        if unresolved_anaphor(text, polarities, self.lexicon):
            return "unresolved_anaphor"  # "no dog on the sofa - it's curled up on the floor"
        if _CORRECTED.search(text) and contradictions(text, self.lexicon):
            return "self_contradiction"  # "the TV is off. Wait, there's no TV at all"
        if " " not in text.strip() and (
            set(self.lexicon.mentioned(text)) - set(polarities) or self._denies_a_run(text)
        ):
            # a file name's words, all run together: "hero_img__beach-umbrella-chairs--nobody"
            # has an umbrella to one reader and umbrella chairs to another, and
            # "gate-no-people-plane-at-window" no people to one and no plane to another
            return "unaccounted_noun"
        if label_polarity(polarities, row.negated_label, self.lexicon) != "negated":
            # negated by name, by its kind's ("no vehicles"), or left out of all there is of
            # its kind ("the only vehicle is a motorcycle")
            return "not_negated"
        if identity(text, self.lexicon):
            return "identity_claim"
        verdicts = self.verdicts(evidence)
        in_original = set(self.lexicon.mentioned(row.original_caption))
        # What is negated, the evidence rules out (of a kind, each member the sentence does not
        # affirm). A clinical caption also affirms only what the labels decide: no finding the
        # report hedges or never mentions, whatever the original caption says.
        clinical = self.cfg.detect.vocabulary in CLINICAL_VOCABULARIES
        for name, pol in polarities.items():
            verdict = self._verdict(name, pol, polarities, verdicts)
            contradiction = _contradicts(pol, verdict)
            if contradiction is not None:
                return contradiction
            if pol == "negated" and verdict != "absent":
                return "negates_undecided"
            if clinical and pol == "affirmed" and verdict != "present":
                return "affirms_undecided"
            if pol == "affirmed" and verdict != "present" and name not in in_original:
                return "affirms_unverified"
        if implied_ruled_out(text, polarities, verdicts, self.lexicon):
            return "affirms_absent"  # "a lone surfer" where no surfboard is
        if denied_gear_there(text, polarities, verdicts):
            return "negates_present"  # "no cyclists" beside a bike: none, to most readers
        # What only the parse reads ("to make room for the new microwave": the rules see no
        # microwave) is held to the evidence too: a misreading of the rules' must not hide a
        # false claim.
        parsed = kind_exclusions(text, analyze_parse(text, self.lexicon), self.lexicon)
        for name, pol in parsed.items():
            contradiction = _contradicts(pol, self._verdict(name, pol, parsed, verdicts, False))
            if name not in polarities and contradiction is not None:
                return contradiction
        if self.cfg.compose.readers_agree and not readers_agree(
            parsed, polarities, row.negated_label, self.lexicon
        ):
            return "readers_disagree"
        if left_out(text, polarities, verdicts, self.lexicon):
            return "exclusive_not_true"
        counts = count_problem(text, polarities, self.boxes(evidence), self.lexicon)
        if counts is not None:
            return counts
        if len(self.unaccounted(row)) > self.cfg.compose.max_unaccounted_nouns:
            return "unaccounted_noun"
        return None

    def _verdict(
        self,
        name: str,
        pol: Polarity,
        polarities: Mapping[str, Polarity],
        verdicts: Mapping[str, Verdict],
        open_kinds: bool = True,
    ) -> Verdict:
        """The evidence's verdict on what the sentence says of ``name``. With ``open_kinds``, a
        kind affirmed with none of its labels there is unverifiable, not absent: "a chef slices
        vegetables" with no broccoli or carrot (onions, perhaps); the rules' reading must then
        come from the original caption. What only the parse reads is held to the labels."""
        if pol == "negated":
            return negation_verdict(name, polarities, verdicts, self.lexicon)
        verdict = verdicts.get(name, "unverifiable")
        if open_kinds and verdict == "absent" and self.lexicon.members(name) != {name}:
            return "unverifiable"
        return verdict

    def unaccounted(self, row: CaptionRecord) -> list[str]:
        """The caption's nouns that nothing accounts for (``validate.nouns``): no vocabulary
        object, no word of the original caption, no scene word ("a lamp", "a big cat")."""
        return unaccounted_nouns(row.caption, row.original_caption, self.lexicon)


def _contradicts(polarity: Polarity, verdict: Verdict) -> CaptionReason | None:
    if polarity == "affirmed" and verdict == "absent":
        return "affirms_absent"
    if polarity == "negated" and verdict == "present":
        return "negates_present"
    return None


def readers_agree(
    parsed: Mapping[str, Polarity],
    polarities: Mapping[str, Polarity],
    negated: str,
    lexicon: Lexicon,
) -> bool:
    """Whether the parse-based reader's reading (``validate.parsed``) of ``negated`` and of every
    object of the rules' ``polarities`` is the rules' (a hypernym's negation covers its
    members)."""
    return all(
        label_polarity(parsed, name, lexicon) == label_polarity(polarities, name, lexicon)
        for name in {*polarities, negated}
    )


def nonsense(text: str, lexicon: Lexicon) -> bool:
    """Word salad (``validate.grammar``), or an identity claim (:func:`identity`)."""
    return garbled(text) or identity(text, lexicon)


def identity(text: str, lexicon: Lexicon) -> bool:
    """One object said to be another ("The dog is a lion") or not itself, in ``lexicon``'s
    names or LVIS's."""
    return identity_claim(text, lexicon) or identity_claim(text, lexicon_for("lvis"))


# "Nobody (in the park) is holding an umbrella" beside people: to some readers nobody is there,
# to others the people there hold none.
_NOBODY_HOLDS = re.compile(
    r"\b(?:nobody|no one|no-one)\b(?: [a-z]+){0,4} (?:is |are |was |were |has |have |had )?"
    rf"(?:{POSSESS_VERBS})\b",
    re.IGNORECASE,
)


def text_problem(text: str, original: str, max_chars: int) -> CaptionReason | None:
    """The first of the gates that read a caption's text alone that ``text`` fails (chat
    residue, meta text, length, CLIP's token limit, a copy of the ``original`` caption, article
    errors, word salad), else None: every published caption passes them, a NegPair's too."""
    if prompt_residue(text):
        return "prompt_residue"
    if meta_text(text):
        return "meta_text"
    if not 10 <= len(text) <= max_chars:
        return "length"
    if not fits_clip(text):
        return "too_long_for_clip"
    if _norm(text) == _norm(original):
        return "copy_of_original"
    if article_errors(text):
        return "article_error"
    if garbled(text):
        return "garbled"
    return None


def option_truth(
    verdicts: dict[str, Verdict],
    text: str,
    lexicon: Lexicon,
    boxes: Mapping[str, int] | None = None,
) -> bool | None:
    """Whether an MCQ sentence is true of the image: everything it affirms is present,
    everything it negates is absent, an exclusive claim ("only a dog") leaves out nothing
    present, and a count agrees with the ``boxes`` (``negdata.validate.counts``). ``None`` when
    it names something the evidence cannot decide, or where only an article disagrees with the
    boxes ("a suitcase" beside two): a question must not hang on it."""
    polarities = kind_exclusions(text, analyze(text, lexicon), lexicon)
    if (
        not polarities
        or unread_double_negation(text)
        or contrast_cleft(text)
        or unresolved_anaphor(text, polarities, lexicon)
    ):
        return None
    # "nobody on the bus is holding a dog": the people on it hold none, to the rules and most
    # readers, but nobody is there to some; "nobody is holding a dog" beside people, likewise
    if _NOBODY_HOLDS.search(text) and (
        verdicts.get("person") == "present" or polarities.get("person") == "affirmed"
    ):
        return None
    truth = True
    for name, pol in polarities.items():
        verdict = verdicts.get(name, "unverifiable")
        if verdict not in ("present", "absent"):
            return None
        truth = truth and (verdict == "present") == (pol == "affirmed")
    if not truth:
        return False  # "a few clocks" where there is none: false, whatever the count
    if implied_ruled_out(text, polarities, verdicts, lexicon):
        return False  # "a skier" where there are no skis
    if denied_gear_there(text, polarities, verdicts):
        return None  # "no cyclists" beside a bike: false to most readers, true to some
    counts = count_problem(text, polarities, boxes or {}, lexicon)
    if counts == "count_unverified":
        return None
    if counts is not None and count_problem(text, polarities, boxes or {}, lexicon, False) is None:
        return None  # only "a suitcase" beside two: true to some readers, false to others
    if left_out(text, polarities, verdicts, lexicon):
        # "only one person" beside a motorcycle: false to some readers, true to others
        return None if exclusive_only_by_count(text, lexicon) else False
    return counts is None


# What a template left unfilled: "None", "{object}", "[OBJECT_2]", "<label>", "features."
_PLACEHOLDER = re.compile(r"\b(none|null|nan)\b|[{}\[\]<>]|features\s*[.,]")
# A letter of another script in an English option ("a pair of scissors, 但是没有sink"): the model
# slipped into another language.
_NOT_LATIN = re.compile(r"[^\W\d_\u0000-\u024f]")


def mcq_gate(mcq: McqRecord, evidence: Evidence, lexicon: Lexicon, cfg: Config) -> McqReason | None:
    options = [mcq.caption_0, mcq.caption_1, mcq.caption_2, mcq.caption_3]
    if len({_norm(o) for o in options}) != 4:
        return "mcq_duplicate_options"
    if any(_PLACEHOLDER.search(o.lower()) for o in options):
        return "mcq_placeholder"
    if not all(fits_clip(o) for o in options):
        return "mcq_too_long_for_clip"
    if any(
        meta_text(o)
        or nonsense(o, lexicon)
        or broken_sentence(o)
        or contradictions(o, lexicon)
        or _NOT_LATIN.search(o)
        for o in options
    ):
        return "mcq_nonsense"
    if any(article_errors(o) for o in options):
        return "mcq_article_error"
    unchecked = [bool(unaccounted_nouns(o, "", lexicon)) for o in options]
    if unchecked[mcq.correct_answer]:
        return "mcq_unaccounted_noun"
    verdicts = evidence_verdicts(evidence, lexicon, cfg.detect)
    boxes = box_counts(evidence, cfg.detect)
    truths = [option_truth(verdicts, o, lexicon, boxes) for o in options]
    if None in truths:
        return "mcq_unverifiable"
    if any(u and t for u, t in zip(unchecked, truths, strict=True)):
        # "a desk lamp" cannot be checked: a distractor may name it only where what it says
        # of the vocabulary's objects is false already
        return "mcq_unaccounted_noun"
    if truths.count(True) != 1 or not truths[mcq.correct_answer]:
        return "mcq_not_one_true"
    return None
