"""Would a false sentence be published? ``python -m negdata.validate.audit`` (``make audit-truth``).

Every labelled caption of the checker's sets (``tests/data/negation_*.jsonl``) that negates an
object goes through the real publication gate (``CaptionGate``), once per object it negates, with
evidence built from its labels, as a detector scores every label: an affirmed object present,
every other label of the vocabulary absent.
Then again with each labelled object flipped (an affirmed one absent, a negated one present,
and, where the caption claims that nothing else is there, ``"exclusive": true``, an unmentioned
one present; where it states how many of an object there are, ``"counts": {"dog": 2}``, the
evidence has that many boxes, and one more in a flip (of an object it affirms: "zero cats" is
flipped by a cat made present); where it states a vague amount, "a few
birds", ``"amounts": {"bird": 3}`` is as many boxes as a photo that makes it true shows, never
flipped, since one more makes it no less true). Objects such a photo shows that the caption
names in words of no label ("a desk", a surfer's board), ``"also_present"``, are present in
every evidence and never flipped. Each flip makes the sentence false, and a
gate that publishes it publishes a false statement.

Per set it prints:

- **false statements published per 1,000**: of the flipped (false) captions, how many publish;
- **yield**: of the true captions, the share that publish: explicit negations whose every noun
  something can check, apart from those that name what nothing checks (*unchecked*: "a lamp",
  refused as ``unaccounted_noun``, or a kind none of whose labels the photo shows, "a chef
  slices vegetables", refused as ``affirms_unverified``, unless the original caption names it,
  and the audit's captions have none) and from implicit ones (world knowledge: "the bullring
  is vacant"), whose rejection is allowed and counted;
- why true captions were refused, by reason.

Then the questions (``audit_mcq``), and how often ``exclusivity.exclusive`` finds a claim that
nothing else is there, and takes another sentence for one (``audit_exclusive``).

The development sets are those the rules were tuned on; the others were never tuned on.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from negdata.detect.lexicon import Lexicon, lexicon_for
from negdata.detect.vocab import VocabularyName
from negdata.records import CaptionRecord, Evidence, known_evidence
from negdata.validate.audit_common import audit_config, figure
from negdata.validate.audit_exclusive import EXCLUSIVE_SETS, audit_exclusive
from negdata.validate.audit_exclusive import report as exclusive_report
from negdata.validate.audit_mcq import audit_mcqs
from negdata.validate.audit_mcq import report as mcq_report
from negdata.validate.gates import CaptionGate
from negdata.validate.negation import analyze
from negdata.validate.nouns import unaccounted_nouns

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
# name -> (file, vocabulary, tuned on)
SETS: dict[str, tuple[str, VocabularyName, bool]] = {
    "cases": ("negation_cases.jsonl", "coco", True),
    "dev2": ("negation_dev2.jsonl", "coco", True),
    "dev3": ("negation_dev3.jsonl", "coco", True),
    "held-out": ("negation_heldout.jsonl", "coco", True),
    "unseen": ("negation_unseen.jsonl", "coco", True),
    "claims": ("negation_claims.jsonl", "coco", False),
    "dev4": ("negation_dev4.jsonl", "coco", True),
    "counts": ("negation_counts.jsonl", "coco", False),
    "dev5": ("negation_dev5.jsonl", "coco", True),
    "dev6": ("negation_dev6.jsonl", "coco", True),
    "dev7": ("negation_dev7.jsonl", "coco", True),
    "dev8": ("negation_dev8.jsonl", "coco", True),
    "dev9": ("negation_dev9.jsonl", "coco", True),
    "dev10": ("negation_dev10.jsonl", "coco", True),
    "dev11": ("negation_dev11.jsonl", "coco", True),
    "dev12": ("negation_dev12.jsonl", "coco", True),
    "dev13": ("negation_dev13.jsonl", "coco", True),
    "held-out2": ("negation_heldout2.jsonl", "coco", True),
    "unseen2": ("negation_unseen2.jsonl", "coco", True),
    "unseen3": ("negation_unseen3.jsonl", "coco", True),
    "held-out3": ("negation_heldout3.jsonl", "coco", True),
    "held-out4": ("negation_heldout4.jsonl", "coco", True),
    "held-out5": ("negation_heldout5.jsonl", "coco", False),
    "unseen4": ("negation_unseen4.jsonl", "coco", True),
    "unseen5": ("negation_unseen5.jsonl", "coco", True),
    "held-out6": ("negation_heldout6.jsonl", "coco", True),
    "held-out7": ("negation_heldout7.jsonl", "coco", True),
    "unseen6": ("negation_unseen6.jsonl", "coco", True),
    "held-out8": ("negation_heldout8.jsonl", "coco", False),
    "held-out9": ("negation_heldout9.jsonl", "coco", True),
    "unseen7": ("negation_unseen7.jsonl", "coco", True),
    "held-out10": ("negation_heldout10.jsonl", "coco", True),
    "unseen8": ("negation_unseen8.jsonl", "coco", True),
    "held-out11": ("negation_heldout11.jsonl", "coco", False),
    "unseen9": ("negation_unseen9.jsonl", "coco", True),
    "held-out12": ("negation_heldout12.jsonl", "coco", True),
    "unseen10": ("negation_unseen10.jsonl", "coco", True),
    "held-out13": ("negation_heldout13.jsonl", "coco", False),
    "unseen11": ("negation_unseen11.jsonl", "coco", True),
    "held-out14": ("negation_heldout14.jsonl", "coco", True),
    "unseen12": ("negation_unseen12.jsonl", "coco", False),
    "held-out15": ("negation_heldout15.jsonl", "coco", True),
    "unseen13": ("negation_unseen13.jsonl", "coco", True),
    "held-out16": ("negation_heldout16.jsonl", "coco", True),
    "unseen14": ("negation_unseen14.jsonl", "coco", True),
    "held-out17": ("negation_heldout17.jsonl", "coco", True),
    "unseen15": ("negation_unseen15.jsonl", "coco", True),
    "held-out18": ("negation_heldout18.jsonl", "coco", False),
    "unseen16": ("negation_unseen16.jsonl", "coco", True),
    "held-out19": ("negation_heldout19.jsonl", "coco", True),
    "unseen17": ("negation_unseen17.jsonl", "coco", True),
    "held-out20": ("negation_heldout20.jsonl", "coco", False),
    "unseen18": ("negation_unseen18.jsonl", "coco", True),
    "held-out21": ("negation_heldout21.jsonl", "coco", True),
    "unseen19": ("negation_unseen19.jsonl", "coco", True),
    "held-out22": ("negation_heldout22.jsonl", "coco", True),
    "unseen20": ("negation_unseen20.jsonl", "coco", True),
    "held-out23": ("negation_heldout23.jsonl", "coco", True),
    "unseen21": ("negation_unseen21.jsonl", "coco", True),
    "held-out24": ("negation_heldout24.jsonl", "coco", False),
    "unseen22": ("negation_unseen22.jsonl", "coco", True),
    "held-out25": ("negation_heldout25.jsonl", "coco", True),
    "unseen23": ("negation_unseen23.jsonl", "coco", True),
    "held-out26": ("negation_heldout26.jsonl", "coco", False),
    "held-out27": ("negation_heldout27.jsonl", "coco", True),
    "unseen24": ("negation_unseen24.jsonl", "coco", True),
    "held-out28": ("negation_heldout28.jsonl", "coco", False),
    "held-out29": ("negation_heldout29.jsonl", "coco", True),
    "unseen25": ("negation_unseen25.jsonl", "coco", True),
    "held-out30": ("negation_heldout30.jsonl", "coco", False),
    "unseen26": ("negation_unseen26.jsonl", "coco", True),
    "held-out31": ("negation_heldout31.jsonl", "coco", False),
    "held-out32": ("negation_heldout32.jsonl", "coco", True),
    "unseen27": ("negation_unseen27.jsonl", "coco", True),
    "held-out33": ("negation_heldout33.jsonl", "coco", False),
    "held-out34": ("negation_heldout34.jsonl", "coco", False),
    "held-out35": ("negation_heldout35.jsonl", "coco", True),
    "unseen28": ("negation_unseen28.jsonl", "coco", True),
    "held-out36": ("negation_heldout36.jsonl", "coco", False),
    "held-out37": ("negation_heldout37.jsonl", "coco", True),
    "unseen29": ("negation_unseen29.jsonl", "coco", True),
    "unseen30": ("negation_unseen30.jsonl", "coco", False),
    "held-out38": ("negation_heldout38.jsonl", "coco", False),
    "held-out39": ("negation_heldout39.jsonl", "coco", True),
    "unseen31": ("negation_unseen31.jsonl", "coco", False),
    "unseen32": ("negation_unseen32.jsonl", "coco", True),
    "held-out40": ("negation_heldout40.jsonl", "coco", False),
    "unseen33": ("negation_unseen33.jsonl", "coco", False),
    "held-out41": ("negation_heldout41.jsonl", "coco", False),
    "held-out42": ("negation_heldout42.jsonl", "coco", True),
    "unseen34": ("negation_unseen34.jsonl", "coco", False),
    "unseen35": ("negation_unseen35.jsonl", "coco", True),
    "held-out43": ("negation_heldout43.jsonl", "coco", False),
    "held-out44": ("negation_heldout44.jsonl", "coco", True),
    "unseen36": ("negation_unseen36.jsonl", "coco", False),
    "unseen37": ("negation_unseen37.jsonl", "coco", True),
    "held-out45": ("negation_heldout45.jsonl", "coco", False),
    "held-out46": ("negation_heldout46.jsonl", "coco", True),
    "unseen38": ("negation_unseen38.jsonl", "coco", False),
    "unseen39": ("negation_unseen39.jsonl", "coco", True),
    "held-out47": ("negation_heldout47.jsonl", "coco", False),
    "held-out48": ("negation_heldout48.jsonl", "coco", True),
    "unseen40": ("negation_unseen40.jsonl", "coco", False),
    "unseen41": ("negation_unseen41.jsonl", "coco", True),
    "held-out49": ("negation_heldout49.jsonl", "coco", False),
    "held-out50": ("negation_heldout50.jsonl", "coco", True),
    "unseen42": ("negation_unseen42.jsonl", "coco", False),
    "unseen43": ("negation_unseen43.jsonl", "coco", True),
    "held-out51": ("negation_heldout51.jsonl", "coco", True),
    "held-out52": ("negation_heldout52.jsonl", "coco", True),
    "unseen44": ("negation_unseen44.jsonl", "coco", True),
    "unseen45": ("negation_unseen45.jsonl", "coco", True),
    "held-out53": ("negation_heldout53.jsonl", "coco", False),
    "unseen46": ("negation_unseen46.jsonl", "coco", False),
    "held-out54": ("negation_heldout54.jsonl", "coco", False),
    "held-out55": ("negation_heldout55.jsonl", "coco", True),
    "unseen47": ("negation_unseen47.jsonl", "coco", False),
    "unseen48": ("negation_unseen48.jsonl", "coco", True),
    "held-out56": ("negation_heldout56.jsonl", "coco", False),
    "held-out57": ("negation_heldout57.jsonl", "coco", True),
    "unseen49": ("negation_unseen49.jsonl", "coco", False),
    "unseen50": ("negation_unseen50.jsonl", "coco", True),
    "held-out58": ("negation_heldout58.jsonl", "coco", False),
    "held-out59": ("negation_heldout59.jsonl", "coco", True),
    "unseen51": ("negation_unseen51.jsonl", "coco", False),
    "unseen52": ("negation_unseen52.jsonl", "coco", True),
    "held-out60": ("negation_heldout60.jsonl", "coco", False),
    "held-out61": ("negation_heldout61.jsonl", "coco", True),
    "unseen53": ("negation_unseen53.jsonl", "coco", False),
    "unseen54": ("negation_unseen54.jsonl", "coco", True),
    "held-out62": ("negation_heldout62.jsonl", "coco", False),
    "held-out63": ("negation_heldout63.jsonl", "coco", True),
    "unseen55": ("negation_unseen55.jsonl", "coco", False),
    "unseen56": ("negation_unseen56.jsonl", "coco", True),
    "held-out64": ("negation_heldout64.jsonl", "coco", False),
    "held-out65": ("negation_heldout65.jsonl", "coco", True),
    "unseen57": ("negation_unseen57.jsonl", "coco", False),
    "unseen58": ("negation_unseen58.jsonl", "coco", True),
    "held-out66": ("negation_heldout66.jsonl", "coco", False),
    "held-out67": ("negation_heldout67.jsonl", "coco", True),
    "unseen59": ("negation_unseen59.jsonl", "coco", False),
    "unseen60": ("negation_unseen60.jsonl", "coco", True),
    "held-out68": ("negation_heldout68.jsonl", "coco", False),
    "held-out69": ("negation_heldout69.jsonl", "coco", True),
    "unseen61": ("negation_unseen61.jsonl", "coco", False),
    "unseen62": ("negation_unseen62.jsonl", "coco", True),
    "held-out70": ("negation_heldout70.jsonl", "coco", False),
    "held-out71": ("negation_heldout71.jsonl", "coco", True),
    "unseen63": ("negation_unseen63.jsonl", "coco", False),
    "unseen64": ("negation_unseen64.jsonl", "coco", True),
    "held-out72": ("negation_heldout72.jsonl", "coco", False),
    "unseen65": ("negation_unseen65.jsonl", "coco", False),
    "held-out73": ("negation_heldout73.jsonl", "coco", False),
    "held-out74": ("negation_heldout74.jsonl", "coco", True),
    "unseen66": ("negation_unseen66.jsonl", "coco", False),
    "unseen67": ("negation_unseen67.jsonl", "coco", True),
    "held-out75": ("negation_heldout75.jsonl", "coco", False),
    "unseen68": ("negation_unseen68.jsonl", "coco", False),
    "unseen69": ("negation_unseen69.jsonl", "coco", True),
    "unseen70": ("negation_unseen70.jsonl", "coco", True),
    "unseen71": ("negation_unseen71.jsonl", "coco", False),
    "held-out76": ("negation_heldout76.jsonl", "coco", False),
    "held-out77": ("negation_heldout77.jsonl", "coco", True),
    "unseen72": ("negation_unseen72.jsonl", "coco", False),
    "unseen73": ("negation_unseen73.jsonl", "coco", True),
    "unseen74": ("negation_unseen74.jsonl", "coco", True),
    "unseen75": ("negation_unseen75.jsonl", "coco", False),
    "held-out78": ("negation_heldout78.jsonl", "coco", False),
    "held-out79": ("negation_heldout79.jsonl", "coco", True),
    "unseen76": ("negation_unseen76.jsonl", "coco", False),
    "unseen77": ("negation_unseen77.jsonl", "coco", True),
    "unseen78": ("negation_unseen78.jsonl", "coco", True),
    "unseen79": ("negation_unseen79.jsonl", "coco", True),
    "unseen80": ("negation_unseen80.jsonl", "coco", False),
    "held-out80": ("negation_heldout80.jsonl", "coco", False),
    "held-out81": ("negation_heldout81.jsonl", "coco", True),
    "unseen81": ("negation_unseen81.jsonl", "coco", False),
    "unseen82": ("negation_unseen82.jsonl", "coco", True),
    "unseen83": ("negation_unseen83.jsonl", "coco", False),
    "unseen84": ("negation_unseen84.jsonl", "coco", True),
    "held-out82": ("negation_heldout82.jsonl", "coco", False),
    "held-out83": ("negation_heldout83.jsonl", "coco", True),
    "unseen85": ("negation_unseen85.jsonl", "coco", False),
    "unseen86": ("negation_unseen86.jsonl", "coco", True),
    "unseen87": ("negation_unseen87.jsonl", "coco", False),
    "unseen88": ("negation_unseen88.jsonl", "coco", True),
    "held-out84": ("negation_heldout84.jsonl", "coco", False),
    "held-out85": ("negation_heldout85.jsonl", "coco", True),
    "unseen89": ("negation_unseen89.jsonl", "coco", False),
    "unseen90": ("negation_unseen90.jsonl", "coco", True),
    "unseen91": ("negation_unseen91.jsonl", "coco", False),
    "unseen92": ("negation_unseen92.jsonl", "coco", True),
    "held-out86": ("negation_heldout86.jsonl", "coco", False),
    "held-out87": ("negation_heldout87.jsonl", "coco", True),
    "unseen93": ("negation_unseen93.jsonl", "coco", False),
    "unseen94": ("negation_unseen94.jsonl", "coco", True),
    "unseen95": ("negation_unseen95.jsonl", "coco", False),
    "unseen96": ("negation_unseen96.jsonl", "coco", True),
    "held-out88": ("negation_heldout88.jsonl", "coco", False),
    "unseen97": ("negation_unseen97.jsonl", "coco", False),
    "unseen98": ("negation_unseen98.jsonl", "coco", False),
    "held-out89": ("negation_heldout89.jsonl", "coco", True),
    "unseen99": ("negation_unseen99.jsonl", "coco", True),
    "unseen100": ("negation_unseen100.jsonl", "coco", True),
    "held-out90": ("negation_heldout90.jsonl", "coco", True),
    "unseen101": ("negation_unseen101.jsonl", "coco", True),
    "unseen102": ("negation_unseen102.jsonl", "coco", True),
    "held-out91": ("negation_heldout91.jsonl", "coco", False),
    "unseen103": ("negation_unseen103.jsonl", "coco", False),
    "unseen104": ("negation_unseen104.jsonl", "coco", False),
    "held-out92": ("negation_heldout92.jsonl", "coco", False),
    "unseen105": ("negation_unseen105.jsonl", "coco", False),
    "unseen106": ("negation_unseen106.jsonl", "coco", False),
    "held-out93": ("negation_heldout93.jsonl", "coco", True),
    "unseen107": ("negation_unseen107.jsonl", "coco", True),
    "unseen108": ("negation_unseen108.jsonl", "coco", True),
    "held-out94": ("negation_heldout94.jsonl", "coco", False),
    "unseen109": ("negation_unseen109.jsonl", "coco", False),
    "unseen110": ("negation_unseen110.jsonl", "coco", False),
    "unseen111": ("negation_unseen111.jsonl", "coco", True),
    "unseen112": ("negation_unseen112.jsonl", "coco", True),
    "unseen113": ("negation_unseen113.jsonl", "coco", True),
    "unseen114": ("negation_unseen114.jsonl", "coco", True),
    "unseen115": ("negation_unseen115.jsonl", "coco", True),
    "unseen118": ("negation_unseen118.jsonl", "coco", True),
    "unseen119": ("negation_unseen119.jsonl", "coco", True),
    "unseen120": ("negation_unseen120.jsonl", "coco", True),
    "unseen121": ("negation_unseen121.jsonl", "coco", True),
    "held-out96": ("negation_heldout96.jsonl", "coco", False),
    "unseen122": ("negation_unseen122.jsonl", "coco", False),
    "unseen123": ("negation_unseen123.jsonl", "coco", False),
    "held-out95": ("negation_heldout95.jsonl", "coco", False),
    "unseen116": ("negation_unseen116.jsonl", "coco", False),
    "unseen117": ("negation_unseen117.jsonl", "coco", False),
    "held-out97": ("negation_heldout97.jsonl", "coco", False),
    "unseen124": ("negation_unseen124.jsonl", "coco", False),
    "unseen125": ("negation_unseen125.jsonl", "coco", False),
    "unseen126": ("negation_unseen126.jsonl", "coco", True),
    "unseen127": ("negation_unseen127.jsonl", "coco", True),
    "unseen128": ("negation_unseen128.jsonl", "coco", True),
    "unseen129": ("negation_unseen129.jsonl", "coco", True),
    "held-out98": ("negation_heldout98.jsonl", "coco", False),
    "unseen130": ("negation_unseen130.jsonl", "coco", False),
    "unseen131": ("negation_unseen131.jsonl", "coco", False),
    "unseen132": ("negation_unseen132.jsonl", "coco", True),
    "unseen133": ("negation_unseen133.jsonl", "coco", True),
    "held-out99": ("negation_heldout99.jsonl", "coco", False),
    "unseen134": ("negation_unseen134.jsonl", "coco", False),
    "unseen135": ("negation_unseen135.jsonl", "coco", False),
    "unseen136": ("negation_unseen136.jsonl", "coco", True),
    "unseen137": ("negation_unseen137.jsonl", "coco", True),
    "held-out100": ("negation_heldout100.jsonl", "coco", False),
    "unseen138": ("negation_unseen138.jsonl", "coco", False),
    "unseen139": ("negation_unseen139.jsonl", "coco", False),
    "unseen140": ("negation_unseen140.jsonl", "coco", True),
    "unseen141": ("negation_unseen141.jsonl", "coco", True),
    "held-out101": ("negation_heldout101.jsonl", "coco", False),
    "unseen142": ("negation_unseen142.jsonl", "coco", False),
    "unseen143": ("negation_unseen143.jsonl", "coco", False),
    "held-out102": ("negation_heldout102.jsonl", "coco", False),
    "unseen144": ("negation_unseen144.jsonl", "coco", False),
    "unseen145": ("negation_unseen145.jsonl", "coco", False),
    "unseen146": ("negation_unseen146.jsonl", "coco", True),
    "unseen147": ("negation_unseen147.jsonl", "coco", True),
    "unseen148": ("negation_unseen148.jsonl", "coco", True),
    "unseen149": ("negation_unseen149.jsonl", "coco", True),
    "unseen150": ("negation_unseen150.jsonl", "coco", True),
    "unseen151": ("negation_unseen151.jsonl", "coco", True),
    "unseen152": ("negation_unseen152.jsonl", "coco", True),
    "unseen153": ("negation_unseen153.jsonl", "coco", True),
    "unseen154": ("negation_unseen154.jsonl", "coco", True),
    "held-out103": ("negation_heldout103.jsonl", "coco", False),
    "unseen155": ("negation_unseen155.jsonl", "coco", False),
    "unseen156": ("negation_unseen156.jsonl", "coco", False),
    "unseen157": ("negation_unseen157.jsonl", "coco", True),
    "unseen158": ("negation_unseen158.jsonl", "coco", True),
    "unseen159": ("negation_unseen159.jsonl", "coco", True),
    "unseen160": ("negation_unseen160.jsonl", "coco", True),
    "unseen161": ("negation_unseen161.jsonl", "coco", True),
    "unseen162": ("negation_unseen162.jsonl", "coco", True),
    "unseen163": ("negation_unseen163.jsonl", "coco", True),
    "unseen164": ("negation_unseen164.jsonl", "coco", True),
    "held-out104": ("negation_heldout104.jsonl", "coco", False),
    "unseen165": ("negation_unseen165.jsonl", "coco", False),
    "unseen166": ("negation_unseen166.jsonl", "coco", False),
    "unseen167": ("negation_unseen167.jsonl", "coco", True),
    "unseen168": ("negation_unseen168.jsonl", "coco", True),
    "unseen169": ("negation_unseen169.jsonl", "coco", True),
    "unseen170": ("negation_unseen170.jsonl", "coco", True),
    "held-out105": ("negation_heldout105.jsonl", "coco", False),
    "unseen171": ("negation_unseen171.jsonl", "coco", False),
    "unseen172": ("negation_unseen172.jsonl", "coco", False),
    "unseen173": ("negation_unseen173.jsonl", "coco", True),
    "unseen174": ("negation_unseen174.jsonl", "coco", True),
    "unseen175": ("negation_unseen175.jsonl", "coco", True),
    "unseen176": ("negation_unseen176.jsonl", "coco", True),
    "held-out106": ("negation_heldout106.jsonl", "coco", False),
    "unseen177": ("negation_unseen177.jsonl", "coco", False),
    "unseen178": ("negation_unseen178.jsonl", "coco", False),
    "unseen179": ("negation_unseen179.jsonl", "coco", True),
    "unseen180": ("negation_unseen180.jsonl", "coco", True),
    "unseen181": ("negation_unseen181.jsonl", "coco", True),
    "unseen182": ("negation_unseen182.jsonl", "coco", True),
    "unseen183": ("negation_unseen183.jsonl", "coco", True),
    "held-out107": ("negation_heldout107.jsonl", "coco", False),
    "unseen184": ("negation_unseen184.jsonl", "coco", False),
    "unseen185": ("negation_unseen185.jsonl", "coco", False),
    "unseen186": ("negation_unseen186.jsonl", "coco", True),
    "unseen187": ("negation_unseen187.jsonl", "coco", True),
    "unseen188": ("negation_unseen188.jsonl", "coco", True),
    "unseen189": ("negation_unseen189.jsonl", "coco", True),
    "unseen190": ("negation_unseen190.jsonl", "coco", True),
    "held-out108": ("negation_heldout108.jsonl", "coco", False),
    "unseen191": ("negation_unseen191.jsonl", "coco", False),
    "unseen192": ("negation_unseen192.jsonl", "coco", False),
    "unseen193": ("negation_unseen193.jsonl", "coco", True),
    "unseen194": ("negation_unseen194.jsonl", "coco", True),
    "unseen195": ("negation_unseen195.jsonl", "coco", True),
    "unseen196": ("negation_unseen196.jsonl", "coco", True),
    "unseen197": ("negation_unseen197.jsonl", "coco", True),
    "held-out109": ("negation_heldout109.jsonl", "coco", False),
    "unseen198": ("negation_unseen198.jsonl", "coco", False),
    "unseen199": ("negation_unseen199.jsonl", "coco", False),
    "held-out110": ("negation_heldout110.jsonl", "coco", False),
    "unseen200": ("negation_unseen200.jsonl", "coco", False),
    "unseen201": ("negation_unseen201.jsonl", "coco", False),
    "unseen202": ("negation_unseen202.jsonl", "coco", True),
    "unseen203": ("negation_unseen203.jsonl", "coco", True),
    "unseen204": ("negation_unseen204.jsonl", "coco", True),
    "unseen205": ("negation_unseen205.jsonl", "coco", True),
    "held-out111": ("negation_heldout111.jsonl", "coco", False),
    "unseen206": ("negation_unseen206.jsonl", "coco", False),
    "unseen207": ("negation_unseen207.jsonl", "coco", False),
    "unseen208": ("negation_unseen208.jsonl", "coco", True),
    "unseen209": ("negation_unseen209.jsonl", "coco", True),
    "unseen210": ("negation_unseen210.jsonl", "coco", True),
    "unseen211": ("negation_unseen211.jsonl", "coco", True),
    "held-out112": ("negation_heldout112.jsonl", "coco", False),
    "unseen212": ("negation_unseen212.jsonl", "coco", False),
    "unseen213": ("negation_unseen213.jsonl", "coco", False),
    "unseen214": ("negation_unseen214.jsonl", "coco", True),
    "unseen215": ("negation_unseen215.jsonl", "coco", True),
    "unseen216": ("negation_unseen216.jsonl", "coco", True),
    "unseen217": ("negation_unseen217.jsonl", "coco", True),
    "held-out113": ("negation_heldout113.jsonl", "coco", False),
    "unseen218": ("negation_unseen218.jsonl", "coco", False),
    "unseen219": ("negation_unseen219.jsonl", "coco", False),
    "unseen220": ("negation_unseen220.jsonl", "coco", True),
    "unseen221": ("negation_unseen221.jsonl", "coco", True),
    "unseen222": ("negation_unseen222.jsonl", "coco", True),
    "unseen223": ("negation_unseen223.jsonl", "coco", True),
    "held-out114": ("negation_heldout114.jsonl", "coco", False),
    "unseen224": ("negation_unseen224.jsonl", "coco", False),
    "unseen225": ("negation_unseen225.jsonl", "coco", False),
    "unseen226": ("negation_unseen226.jsonl", "coco", True),
    "unseen227": ("negation_unseen227.jsonl", "coco", True),
    "unseen228": ("negation_unseen228.jsonl", "coco", True),
    "unseen229": ("negation_unseen229.jsonl", "coco", True),
    "held-out115": ("negation_heldout115.jsonl", "coco", False),
    "unseen230": ("negation_unseen230.jsonl", "coco", False),
    "unseen231": ("negation_unseen231.jsonl", "coco", False),
    "unseen232": ("negation_unseen232.jsonl", "coco", False),
    "unseen233": ("negation_unseen233.jsonl", "coco", False),
    "held-out116": ("negation_heldout116.jsonl", "coco", False),
    "unseen234": ("negation_unseen234.jsonl", "coco", False),
    "unseen235": ("negation_unseen235.jsonl", "coco", False),
    "unseen236": ("negation_unseen236.jsonl", "coco", True),
    "unseen237": ("negation_unseen237.jsonl", "coco", True),
    "unseen238": ("negation_unseen238.jsonl", "coco", True),
    "unseen239": ("negation_unseen239.jsonl", "coco", True),
    "held-out117": ("negation_heldout117.jsonl", "coco", False),
    "unseen240": ("negation_unseen240.jsonl", "coco", False),
    "unseen241": ("negation_unseen241.jsonl", "coco", False),
    "unseen242": ("negation_unseen242.jsonl", "coco", True),
    "unseen243": ("negation_unseen243.jsonl", "coco", True),
    "unseen244": ("negation_unseen244.jsonl", "coco", True),
    "unseen245": ("negation_unseen245.jsonl", "coco", True),
    "held-out118": ("negation_heldout118.jsonl", "coco", False),
    "unseen246": ("negation_unseen246.jsonl", "coco", False),
    "unseen247": ("negation_unseen247.jsonl", "coco", False),
    "unseen248": ("negation_unseen248.jsonl", "coco", False),
    "unseen249": ("negation_unseen249.jsonl", "coco", False),
    "unseen250": ("negation_unseen250.jsonl", "coco", True),
    "unseen251": ("negation_unseen251.jsonl", "coco", True),
    "unseen252": ("negation_unseen252.jsonl", "coco", True),
    "unseen253": ("negation_unseen253.jsonl", "coco", True),
    "held-out119": ("negation_heldout119.jsonl", "coco", True),
    "unseen254": ("negation_unseen254.jsonl", "coco", True),
    "unseen255": ("negation_unseen255.jsonl", "coco", True),
    "unseen256": ("negation_unseen256.jsonl", "coco", True),
    "unseen257": ("negation_unseen257.jsonl", "coco", True),
    "unseen258": ("negation_unseen258.jsonl", "coco", True),
    "unseen259": ("negation_unseen259.jsonl", "coco", True),
    "unseen260": ("negation_unseen260.jsonl", "coco", True),
    "unseen261": ("negation_unseen261.jsonl", "coco", True),
    "unseen262": ("negation_unseen262.jsonl", "coco", True),
    "held-out120": ("negation_heldout120.jsonl", "coco", False),
    "unseen263": ("negation_unseen263.jsonl", "coco", False),
    "unseen264": ("negation_unseen264.jsonl", "coco", False),
    "unseen265": ("negation_unseen265.jsonl", "coco", False),
    "unseen266": ("negation_unseen266.jsonl", "coco", False),
}
# Labelled questions through ``mcq_gate`` (``validate.audit_mcq``).
MCQ_SETS: dict[str, tuple[str, VocabularyName, bool]] = {
    "mcq": ("mcq_paraphrase.jsonl", "coco", False),
    "mcq-dev": ("mcq_dev.jsonl", "coco", True),
    "mcq-dev2": ("mcq_dev2.jsonl", "coco", True),
    "mcq-dev3": ("mcq_dev3.jsonl", "coco", True),
    "mcq-dev4": ("mcq_dev4.jsonl", "coco", True),
    "mcq-dev5": ("mcq_dev5.jsonl", "coco", True),
}
IMPLICIT = "implicit"
# Explicit negations that name something nothing checks ("a lamp"): ``unaccounted_noun``.
UNCHECKED = "unchecked"


@dataclass
class Audit:
    """One set's tally."""

    name: str
    tuned: bool
    true: Counter[str] = field(default_factory=Counter)  # explicit / implicit
    published: Counter[str] = field(default_factory=Counter)
    refused: Counter[str] = field(default_factory=Counter)  # reasons, true captions
    false: int = 0
    false_published: int = 0
    examples: list[str] = field(default_factory=list)  # false statements that were published

    def yield_of(self, kind: str) -> float | None:
        return self.published[kind] / self.true[kind] if self.true[kind] else None

    @property
    def false_per_1000(self) -> float | None:
        return 1000 * self.false_published / self.false if self.false else None


def _evidence(key: str, present: set[str], counts: Mapping[str, int], lexicon: Lexicon) -> Evidence:
    """Labels-only evidence, as a detector scores every label: ``present`` with ``counts`` boxes
    (label -> how many), every other label of the vocabulary absent."""
    counted = {label: counts.get(label, 0) for label in present}
    return known_evidence(key, counted, lexicon.vocabulary, "labels")


def _row(key: str, text: str, negated: str) -> CaptionRecord:
    return CaptionRecord(
        key=key,
        image_key=key,
        caption=text,
        negated=negated,
        negated_label=negated,
        style="affirmation_first",
        generator="llm",
        original_caption="",
        affirmed=[],
        prompt=None,
        model=None,
        config_hash="audit",
    )


def _cases(path: Path) -> Iterator[dict[str, object]]:
    for line in path.read_text().splitlines():
        if line.strip():
            yield json.loads(line)


Flip = tuple[set[str], dict[str, int]]  # present, box counts


def _boxes(case: Mapping[str, object]) -> dict[str, int]:
    """Boxes per present label: the count the caption states, else its vague amount's."""
    amounts: dict[str, int] = case.get("amounts", {})  # type: ignore[assignment]
    exact: dict[str, int] = case.get("counts", {})  # type: ignore[assignment]
    return {**amounts, **exact}


def _shown(case: Mapping[str, object]) -> set[str]:
    """What a true photo also shows, whatever the caption calls it (never flipped)."""
    shown: list[str] = case.get("also_present", [])  # type: ignore[assignment]
    return set(shown)


def _flips(
    case: Mapping[str, object], affirmed: set[str], others: set[str], counts: dict[str, int]
) -> Iterator[Flip]:
    """Evidence that makes the caption false, one change at a time."""
    objects: dict[str, str] = case["objects"]  # type: ignore[assignment]
    for label in sorted(affirmed - _shown(case)):
        yield affirmed - {label}, counts
    made_present = [n for n in sorted(others) if objects[n] == "negated"]
    if case.get("exclusive"):  # "only a cat": anything else there makes it false
        made_present += [n for n in sorted(others) if objects[n] == "unmentioned"]
    for label in made_present:
        yield affirmed | {label}, counts
    exact: dict[str, int] = case.get("counts", {})  # type: ignore[assignment]
    for label, n in sorted(exact.items()):  # "two dogs" where there are three
        if label in affirmed:  # "zero cats": one cat is the flip that makes it present
            yield affirmed, {**counts, label: n + 1}


def audit_set(
    name: str, path: Path, vocabulary: VocabularyName, tuned: bool, readers_agree: bool = False
) -> Audit:
    gate = CaptionGate(audit_config(vocabulary, readers_agree), lexicon_for(vocabulary))
    found = Audit(name, tuned)
    for case in _cases(path):
        objects: dict[str, str] = case["objects"]  # type: ignore[assignment]
        affirmed = {label for label, pol in objects.items() if pol == "affirmed"}
        others = set(objects) - affirmed
        affirmed |= _shown(case)
        text = str(case["text"])
        kind = _kind(str(case["construction"]), text, gate.lexicon, affirmed)
        counts = _boxes(case)
        for negated in sorted(label for label, pol in objects.items() if pol == "negated"):
            key = f"{case['id']}:{negated}"
            row = _row(key, text, negated)
            reason = gate.check(row, _evidence(key, affirmed, counts, gate.lexicon))
            found.true[kind] += 1
            found.published[kind] += reason is None
            if reason is not None:
                found.refused[reason] += 1
            for i, (present, boxes) in enumerate(_flips(case, affirmed, others, counts)):
                found.false += 1
                flipped = _evidence(f"{key}:{i}", present, boxes, gate.lexicon)
                if gate.check(_row(f"{key}:{i}", text, negated), flipped) is None:
                    found.false_published += 1
                    found.examples.append(f"{case['id']}: {text} (present: {sorted(present)})")
    return found


def _kind(construction: str, text: str, lexicon: Lexicon, shown: set[str] | None = None) -> str:
    """Implicit, unchecked (a noun nothing checks, or, given the labels ``shown``, a kind
    affirmed of which none is shown: "a chef slices vegetables", onions perhaps), or
    explicit."""
    if construction == IMPLICIT:
        return IMPLICIT
    if unaccounted_nouns(text, "", lexicon):
        return UNCHECKED
    if shown is None:
        return "explicit"
    kinds = (
        lexicon.members(n)
        for n, pol in analyze(text, lexicon).items()
        if pol == "affirmed" and lexicon.members(n) != {n}
    )
    return UNCHECKED if any(members.isdisjoint(shown) for members in kinds) else "explicit"


def report(audits: list[Audit]) -> str:
    lines = [
        f"{'set':<11}{'tuned':<7}{'captions':>9}{'yield':>7}{'unchecked':>10}{'implicit':>9}"
        f"{'false':>7}{'published':>10}{'per 1,000':>10}"
    ]
    for a in audits:
        lines.append(
            f"{a.name:<11}{'yes' if a.tuned else 'never':<7}{sum(a.true.values()):>9}"
            f"{figure(a.yield_of('explicit')):>7}{figure(a.yield_of(UNCHECKED)):>10}"
            f"{figure(a.yield_of(IMPLICIT)):>9}"
            f"{a.false:>7}{a.false_published:>10}{figure(a.false_per_1000, 2):>10}"
        )
    for a in audits:
        reasons = ", ".join(f"{r} {n}" for r, n in a.refused.most_common(6))
        lines.append(f"{a.name}: true captions refused: {reasons or 'none'}")
        lines += [f"  published though false: {e}" for e in a.examples[:5]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    every = {**SETS, **MCQ_SETS, **EXCLUSIVE_SETS}
    parser.add_argument("sets", nargs="*", help=f"of {', '.join(every)} (default: all)")
    parser.add_argument(
        "--readers-agree",
        action="store_true",
        help="gate as compose.readers_agree does: the parse-based reader must agree",
    )
    args = parser.parse_args(argv)
    unknown = sorted(set(args.sets) - set(every))
    if unknown:
        parser.error(f"no such set: {', '.join(unknown)} (choose from {', '.join(every)})")
    chosen = args.sets or list(every)
    audits = [audit_set(name, DATA / SETS[name][0], *SETS[name][1:], args.readers_agree)
              for name in chosen if name in SETS]  # fmt: skip
    questions = [
        audit_mcqs(name, DATA / MCQ_SETS[name][0], *MCQ_SETS[name][1:])
        for name in chosen
        if name in MCQ_SETS
    ]
    claims = [
        audit_exclusive(name, DATA / EXCLUSIVE_SETS[name][0], EXCLUSIVE_SETS[name][1])
        for name in chosen
        if name in EXCLUSIVE_SETS
    ]
    reports = (
        audits and report(audits),
        questions and mcq_report(questions),
        claims and exclusive_report(claims),
    )
    print("\n\n".join(r for r in reports if r))


if __name__ == "__main__":
    main()
