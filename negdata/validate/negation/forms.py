"""Caption forms beyond plain prose: inventories and scene lists ("absent: tv, laptop",
"Objects not in image: bicycle", "has_dog: false"), yes/no questions and their answers ("Is
there a cup? There is not."), and word order carried over from other languages ("In the image
is not present any car", "a vase there is not")."""

from __future__ import annotations

import re

from negdata.validate.negation.words import HEDGE

# The header of a list of what is not there: "absent: tv, laptop", "absent=[cat]", "Missing
# objects: suitcase", "Objects not in image: bicycle", "negatives: snowboard", "no: kite",
# "Vehicles absent - truck, bus", "Object list (absent): clock", "Does not contain: hot dog".
_NOUNS = r"(?:objects?|items?|tags?|labels?|classes|things|categories|vehicles|animals|nodes)"
_ABSENT_HEADER = re.compile(
    rf"(?:\b{_NOUNS}(?: list)? )?"
    # (not "the stable has no animals: two cows stand in the straw")
    r"(?:\((?:absent|missing|not present)\)|absent|missing|excluded|unseen|negatives?"
    r"|(?<![a-z] )no|"
    r"(?:does|do) not contain|not (?:in (?:the )?(?:image|picture|photo|scene)|present|visible|"
    r"detected|found|seen|pictured|shown|depicted|displayed|annotated(?: as present)?))"
    rf"(?: {_NOUNS})?\s*(?:[:=]|\s-\s)\s*\[?(?=\s*[a-z])"
)
# ... and after a long dash where a noun says it heads a list: "Items absent \u2014 hair dryer"
# (not "Horse absent \u2014 sheep everywhere").
_NOUNS_ABSENT_DASH = re.compile(
    rf"\b{_NOUNS}(?: list)? (?:absent|missing|excluded|unseen|not (?:in (?:the )?(?:image|picture"
    r"|photo|scene)|present|visible|detected|found|seen|pictured))\s[\u2013\u2014]\s*(?=[a-z])"
)
# A list's header at the start of a sentence that says where its items are not: "things not
# there: cat", "Not in the yard: cat, bicycle", "none detected: bicycle".
_NOT_HERE_HEADER = re.compile(
    rf"(?:^|(?<=[.;|]))\s*(?:{_NOUNS} )?(?:not (?:there|here|in (?:the |this )?[a-z]+)|"
    r"none (?:detected|found|seen|visible|present|pictured))\s*:\s*(?=[a-z])"
)
# An object named before "absent:" is what is absent: "Cat absent: the dog took the chair" (an
# adverb is none: "Noticeably absent: the fridge").
_NAMED_ABSENT = re.compile(
    rf"(?:^|(?<=[.;|]))(\s*(?!{_NOUNS}\b)(?:(?![a-z]+ly\b)[a-z]+ ){{1,2}}"
    r"(?:absent|missing|gone))\s*:"
)
# "None of the following appear in the image: a bus, ..." is such a header too.
_NONE_FOLLOWING = re.compile(r"\bnone of the following\b[^:.;!?|]{0,60}:\s*(?=[a-z])")
# A line of a list that opens with "no" and a dash: "yes \u2014 kite, dogs\nno \u2014 bikes, ball".
_NO_LINE = re.compile(r"(?<=\n)[ \t]*no[ \t]*[-\u2013\u2014][ \t]*(?=[a-z])")
# An article of a listed item: "absent: a bus, a train, or an airplane".
_LISTED_ARTICLE = re.compile(r"(^|, |\band |\bor )(?:a|an|the|any) ")
_ABSENT_LIST = re.compile(r"; absent ([^.;|?!]+)")
_PRESENT_HEADER = re.compile(
    r"\b(?<!\bnot )(?:yes|positives?|present|seen|visible|shown|pictured|depicted)\s*(?:[:=])"
    r"\s*\[?"
)
# A yes/no question supposes what it asks about: "Is there a cup?", "Any forks?", "Is she
# carrying a suitcase?" (the subject of a verb, "she", "the man", is there).
_QUESTION_END = r"(?=[^.?!;|]*\?)"
_ASKED = re.compile(
    r"(?:^|(?<=[.?!;:]))\s*(?:q\s*:\s*)?"
    r"(?:(?:is|are|was|were) (?:there|(?=any(?:one|body)\b))|any|"
    r"(?:do|does|did) (?:you see|it have|they have))\b" + _QUESTION_END
)
# A question that is only names: "Zebras, giraffes and elephants?", "A cat?", "Late train?"
_NAMES_ASKED = re.compile(
    r"(?:^|(?<=[.?!;:]))\s*((?:an? |any )?(?:(?!(?:no|not|never|zero|none|without|only|just|is"
    r"|are|was|were|do|does|did|can|could)\b)[a-z]+ (?!(?:only|just|alone|too|also|either|again"
    r"|here|there|now|today)\b))?[a-z]+(?:(?:,| and| or),? (?:an? )?[a-z]+){0,5})\s*\?"
)
_ASKED_OBJECT = re.compile(
    r"(?:^|(?<=[.?!;:]))\s*(?:q\s*:\s*)?(?:is|are|was|were|does|do|did) "
    r"((?:he|she|they|it|(?:the|a|an|this|that) [a-z]+) [a-z]+ing)\b" + _QUESTION_END
)


def rewrite(text: str) -> str:
    """Lower-cased caption text with these forms turned into plain cues and hedges."""
    text = re.sub(r"\b([a-z]+)_([a-z]+)\b", r"\1 \2", text)  # "has_dog", "not_holding"
    text = re.sub(r":\s*false\b", ": no", text)
    text = re.sub(r":\s*true\b", ": yes", text)
    text = _NAMED_ABSENT.sub(r"\1 ;", text)
    text = _NOT_HERE_HEADER.sub(" ; absent ", text)
    text = _ABSENT_HEADER.sub(" ; absent ", text)
    text = _NOUNS_ABSENT_DASH.sub(" ; absent ", text)
    text = _NONE_FOLLOWING.sub(" ; absent ", text)
    text = _NO_LINE.sub(" ; absent ", text)
    text = _ABSENT_LIST.sub(lambda m: "; absent " + _LISTED_ARTICLE.sub(r"\1", m.group(1)), text)
    text = _PRESENT_HEADER.sub(" ; ", text)
    text = _ASKED.sub(f" {HEDGE} ", text)
    text = _NAMES_ASKED.sub(rf" {HEDGE} {HEDGE} \1 ?", text)  # all of it asked
    text = _ASKED_OBJECT.sub(rf" \1 {HEDGE} ", text)
    # Translated word order: "is not present any car", "are not to see persons", "not is
    # visible the rider" -> "not have ...".
    text = re.sub(
        r"\b(?:(?:is|are) not|not (?:is|are)) (?:present|visible|to see|to be seen|seen)"
        r"(?= (?:any|a|an|the|some|[a-z]+s)\b)",
        "not have",
        text,
    )
    # "free from any television", "unaccompanied by any giraffes", "not including any hot dogs"
    text = re.sub(r"\bfree from\b", "free of", text)
    text = re.sub(r"\bunaccompanied by\b|\bwith out\b", "without", text)
    text = re.sub(r"\bnot including\b", "excluding", text)
    # "nobody forgot their umbrella": everyone has one
    text = re.sub(
        r"\b(?:nobody|no one|no-one|none of (?:us|them)) forg[eo]t (?:to (?:bring|pack|take) )?",
        "everyone had ",
        text,
    )
    # "nobody has brought out any forks": there are none
    text = re.sub(
        r"\b(?:nobody|no one|no-one) (?:has |had )?(?:brought|packed|(?:brought|set|laid|put) out) "
        r"(?:any|the)\b",
        "there are no",
        text,
    )
    # "forgot the bat", "forgot his umbrella": what was forgotten is not there
    return re.sub(
        r"\bforg[eo]t (?:the |(?=(?:his|her|their|my|our|its)\b))",
        "did not have ",
        text,
    )
