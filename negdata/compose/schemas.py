"""The JSON schemas the LLM must answer in (sent as OpenAI ``json_schema`` response formats)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Noun = Annotated[str, StringConstraints(min_length=1, max_length=40)]


class PlanOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mentioned: Annotated[list[Noun], Field(max_length=8)]
    absent_candidates: Annotated[list[Noun], Field(max_length=8)]


class ComposedCaption(BaseModel):
    model_config = ConfigDict(extra="forbid")

    negated: Noun
    style: Literal["affirmation_first", "negation_first"]
    text: Annotated[str, StringConstraints(min_length=1, max_length=300)]


class ParaphraseOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    options: Annotated[
        list[Annotated[str, StringConstraints(min_length=1, max_length=200)]],
        Field(min_length=4, max_length=4),
    ]


class ComposeOutput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    captions: Annotated[list[ComposedCaption], Field(min_length=1, max_length=8)]


class PairCaptionsOutput(BaseModel):
    """A NegPair's two captions: image A shows the object, image B does not."""

    model_config = ConfigDict(extra="forbid")

    with_object: Annotated[str, StringConstraints(min_length=1, max_length=300)]
    without_object: Annotated[str, StringConstraints(min_length=1, max_length=300)]
