"""The counts a sentence states, read from its words and checked against the boxes.

A count ("a person", "two dogs", "a lone cat", "several cars") is checked against the boxes
where the evidence has them (``count_problem``). Where it has none (a label oracle), an article
("a bench") is taken as grammar, not as a count, but a number or "lone" cannot be backed and is
refused. Counts said together add up ("a man and a woman", "a mother with three children"),
and one said again does not ("two people, a man and a woman").

``read`` reads the counts, with ``alone``, ``kin`` and ``bound`` for the ways of saying one
that need more than a count word; ``groups`` says which add up; ``check`` holds them to the
boxes; ``words`` has the count words and the tokenizer they share.
"""

from negdata.validate.counts.check import CountProblem, count_problem
from negdata.validate.counts.read import counts, seats_taken
from negdata.validate.counts.words import TOKEN

__all__ = ["TOKEN", "CountProblem", "count_problem", "counts", "seats_taken"]
