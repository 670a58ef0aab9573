"""Cue phrases as patterns: post-nominal predicates of absence ("X is missing", "X has left",
"X is not in the picture") and report phrasing ("negative for", "no evidence of")."""

from __future__ import annotations

import re

from negdata.validate.negation.words import FRAME_WORDS

POST = re.compile(
    r"^(?:(?:is|are|was|were|be|been|has|have|had|remains?|seems?|now|still|also|completely|entirely|"
    r"noticeably|conspicuously|usually|today|sadly|currently|can|could|will|would|may|might|"
    r"just|since|recently|apparently|clearly|all) )*"
    r"(?:missing|absent|nowhere|gone|disappeared|vanished|ruled out|"
    r"(?:has|have|had) (?:already |just |long |all )?(?:left|departed|flown|driven|sailed|"
    r"moved on|gone away|run off|run away)|(?:not|yet to) (?:arrived?|come|shown up|turned up)|"
    r"(?:left|departed)(?= (?:an? |some |many |several |a few )?[a-z]+s? ago| early| already)|"
    r"(?:flew|drove|sailed|ran) (?:away|off)|"
    r"(?:been |was |were )(?:eaten|sold|towed|demolished|taken away|put away|cleared away|stolen|"
    r"left behind|picked|replaced|thrown (?:away|out)|given away|adopted|relocated|discharged|"
    r"(?:led|hauled|carried|driven|towed|rolled|wheeled) (?:away|off)|taken(?= ,|$| for\b| by\b)|"
    r"taken (?:down|off)|lost|packed (?:up|for)|moved (?:indoors|inside|outdoors|outside|away|out)|"
    r"moved out|(?:kept|shut|locked) (?:out|outside|away|indoors|inside)(?! (?:an?|the|its|his|"
    r"her|their)\b))|"
    r"(?:had |has |have )?(?:evidently |apparently |already )?(?:sold|run) out\b|"
    r"(?:had |has |have )?(?:just )?stepped (?:out|away)|(?:has |had )?died\b|"
    r"(?:got|went) (?:lost|missing)\b|used to (?:be|hang|stand|sit)\b|"
    r"(?:rolled|wheeled) (?:away|off)|stayed (?:indoors|inside)\b|"
    r"(?:already |just )?(?:discharged|adopted|relocated|evacuated|(?:led|carried|hauled) "
    r"(?:away|off))\b|"
    r"(?:is|are|was|were) (?:all )?(?:off |away )?(?:on|at) (?:a |an |the |their |his |her )?"
    r"(?:field trip|vacation|holiday|lunch|break|recess|school|work)\b|"
    r"(?:entirely |completely )hidden|hidden (?:entirely|completely)|"
    r"never (?:comes?|came)\b|(?:deliberately |intentionally )?left out(?! of\b)|"
    r"(?:is |are )?(?:sold|ships?|shipped) separately|(?:is|are|was|were) not part of\b|"
    r"(?:is |are )?(?:put|packed|cleared|tucked|stored) away|"
    # elsewhere: "the cows are away", "the cat is out", "the laptop is in the other room"
    r"(?:is|are|was|were) (?:all |now |still |currently |today )?(?:away|elsewhere|"
    r"out(?= ,|$| and\b)|not (?:at )?home|(?:in|at) (?:the |an )?(?:other|another|next) room)|"
    r"stayed (?:at )?home|stayed behind|(?:beyond|outside) (?:the |this )?(?:frame|picture|shot)|"
    r"out of (?:the )?(?:frame|picture|shot|view|sight)|off (?:camera|screen)|"
    r"none(?: at all| whatsoever)?(?= (?:in|on|at|here|there|today|anywhere|around)\b)|"
    r"(?:(?:none(?: at all| whatsoever)?|no|nope|zero|nil|negative|undetected|unseen|sold out|"
    r"removed|excluded)(?= ,|$))|(?:removed|excluded)(?= from\b)|"
    r"none (?:visible|seen|present|observed|found|detected|noted|identified|pictured|shown|"
    r"to be (?:seen|found)|in (?:sight|view))|"
    r"(?:cropped|cut|edited) out(?! of)|"
    r"(?:(?:does |do |did )?not|never) (?:appears?|appeared|show(?:s|ed)? up|turn(?:s|ed)? up|"
    r"arrived?|came)\b|"
    r"(?:(?:is|are|was|were|been|being) (?:removed|excluded|taken (?:away|down|out)))|"
    r"(?:does |do |did )?not$|no longer (?:seen|visible|available|present|there|here)|"
    r"not (?:be )?(?:present|visible|pictured|here|there|around|anywhere|seen|identified|"
    r"detected|noted|observed|found|shown|spotted|evident|visualized|visualised|appreciated|"
    r"demonstrated|depicted|included|featured|captured|in (?:view|sight)|"
    r"(?:in|within) (?:the |this )?(?:[a-z]+ )?(?:" + "|".join(FRAME_WORDS) + r")))\b"
)
CLINICAL_PRE = re.compile(
    r"\b(?:negative for|(?:the |a )?(?:absence|removal|lack|resolution) of|no presence of|"
    r"no (?:interval |new )?(?:development|appearance) of|"
    r"(?:no|not an?|not a single|not one|without|lacking|lacks?) (?:any )?"
    r"(?:visible |obvious |clear )?(?:evidence|signs?|traces?|indications?|hints?)"
    r"(?: whatsoever| at all)? (?:of|that))"
    r"(?: (?:any))?\b"
)
