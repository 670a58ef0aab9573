"""The LLM stand-in: an OpenAI-compatible server on 127.0.0.1 that answers every chat request
from the request alone, in a valid object of the JSON schema it asks for. It stands in for
an 8B model on vLLM on one GPU, which this machine has not got.

Each answer is a pure function of the request body: the same request gets byte-identical
bytes back. The schema (``response_format``, as vLLM or llama.cpp get it) says what is asked:

- ``PlanOutput``: the caption's nouns that name COCO objects or their synonyms as
  "mentioned", and 5 to 8 absent candidates, first the objects of the corpus's scenes that
  share an object with the caption, then the rest of COCO, never one mentioned or detected;
- ``ComposeOutput``: per requested object, one sentence in the requested style that affirms
  the objects "In the image" (with their articles) and negates the requested one;
- ``ParaphraseOutput``: NegBench's four option sentences reworded, each object's polarity kept;
- any other schema: its smallest valid instance.

Usage counts a token per 4 characters of the messages and of the answer. With a pace, each
answer is held until a server generating that many tokens per second, over all requests
together, would have finished it (a queue on one virtual clock); 0 answers at once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sys
from typing import Any

from aiohttp import web

from bench.scale.corpus import SCENES, WORDS
from negdata.detect.vocab import COCO80
from negdata.english import be, join_objects, natural

OWNED_BY = "vllm"  # what negdata's server-kind check reads from /v1/models
CHARS_PER_TOKEN = 4
NOUNS: dict[str, str] = {
    **{label: label for label in COCO80},
    **{word: label for label, words in WORDS.items() for word in words},
}
_NOUN = re.compile(
    r"\b(" + "|".join(sorted(map(re.escape, NOUNS), key=len, reverse=True)) + r")s?\b"
)
AFFIRMING_FIRST = (
    "{Objects} {be_objects} in the picture, but there {be} no {neg}.",
    "A photo of {objects}, with no {neg} in sight.",
    "{Objects} can be seen here, but no {neg}.",
)
NEGATING_FIRST = (
    "There {be} no {neg} here, but {objects} can be seen.",
    "No {neg} can be seen; the picture shows {objects}.",
    "Without any {neg} around, the photo shows {objects}.",
)
NOTHING_ELSE = ("There {be} no {neg} in this picture.", "The photo shows no {neg}.")
_OPTION = re.compile(r"^This image (features|does not feature) (.+?)(?:, but not (.+))?\.$")


def tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


def _digest(body: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def requested_schema(body: dict[str, Any]) -> dict[str, Any]:
    """The JSON schema of ``response_format``: vLLM's ``json_schema`` or llama.cpp's
    ``json_object`` with a ``schema``; ``{}`` when none is given."""
    form = body.get("response_format") or {}
    schema = (form.get("json_schema") or {}).get("schema") or form.get("schema") or {}
    return dict(schema)


def _lines(body: dict[str, Any]) -> dict[str, str]:
    """``Name: value`` lines of the last user message."""
    user = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
    return dict(re.findall(r"^([A-Za-z ]+): (.*)$", user, re.M))


def _mentioned(caption: str) -> list[str]:
    return list(dict.fromkeys(m.group(1) for m in _NOUN.finditer(caption.lower())))[:8]


def plan_answer(body: dict[str, Any], digest: str) -> dict[str, Any]:
    lines = _lines(body)
    mentioned = _mentioned(lines.get("Caption", ""))
    detected = {d.strip() for d in lines.get("Detected", "").split(",")}
    taken = {NOUNS[m] for m in mentioned} | detected
    company = [label for _, objects in SCENES.values() if taken & set(objects) for label in objects]
    rest = sorted(COCO80, key=lambda label: hashlib.sha256(f"{digest}{label}".encode()).digest())
    candidates = [label for label in dict.fromkeys(company + rest) if label not in taken]
    return {"mentioned": mentioned, "absent_candidates": candidates[: 5 + int(digest, 16) % 4]}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def compose_answer(body: dict[str, Any], digest: str) -> dict[str, Any]:
    lines = _lines(body)
    shown = [natural(o) for o in lines.get("In the image", "").split(",") if o.strip()]
    shown = [o for o in shown if not o.startswith("(")][:3]  # "(see caption)": nothing listed
    captions = []
    for i, request in enumerate(json.loads(lines.get("Write", "[]"))):
        neg = natural(request["negated"])
        pick = int(digest[i : i + 8], 16)
        if not shown:
            frame = NOTHING_ELSE[pick % len(NOTHING_ELSE)]
        elif request["style"] == "affirmation_first":
            frame = AFFIRMING_FIRST[pick % len(AFFIRMING_FIRST)]
        else:
            frame = NEGATING_FIRST[pick % len(NEGATING_FIRST)]
        objects = join_objects(shown) if shown else ""
        many = len(shown) > 1 or (bool(shown) and be(shown[0]) == "are")
        text = frame.format(
            neg=neg, be=be(neg), objects=objects, Objects=_sentence(objects),
            be_objects="are" if many else "is",
        )  # fmt: skip
        captions.append({"negated": request["negated"], "style": request["style"], "text": text})
    return {"captions": captions}


def _bare(phrase: str) -> str:
    return re.sub(r"^(a|an) ", "", phrase)


def _reworded(option: str, variant: int) -> str:
    """A NegBench option in other words, its objects' polarities kept; ``variant`` picks one of
    two phrasings."""
    match = _OPTION.match(option)
    if match is None:
        return option
    verb, objects, excluded = match.groups()
    if excluded:
        neg = _bare(excluded)
        return (f"The picture shows {objects}, but there {be(neg)} no {neg}.",
                f"{_sentence(objects)} can be seen, but no {neg}.")[variant]  # fmt: skip
    if verb == "does not feature":
        neg = _bare(objects)
        return (f"There {be(neg)} no {neg} in this picture.", f"No {neg} can be seen here.")[
            variant
        ]
    return (f"The picture shows {objects}.", f"{_sentence(objects)} can be seen here.")[variant]


def paraphrase_answer(body: dict[str, Any], digest: str) -> dict[str, Any]:
    user = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
    options = re.findall(r"^\d\. (.*)$", user, re.M)
    return {"options": [_reworded(o, int(digest[i], 16) % 2) for i, o in enumerate(options)]}


def smallest(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """The smallest instance of a JSON schema (the subset pydantic writes)."""
    if "$ref" in schema:
        return smallest(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return smallest(schema[key][0], defs)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type", "object")
    if kind == "object":
        properties = schema.get("properties", {})
        return {name: smallest(properties[name], defs) for name in schema.get("required", [])}
    if kind == "array":
        return [smallest(schema.get("items", {}), defs) for _ in range(schema.get("minItems", 0))]
    if kind == "string":
        return "x" * max(1, schema.get("minLength", 1))
    if kind in ("integer", "number"):
        return schema.get("minimum", 0)
    return False if kind == "boolean" else None


ANSWERS = {
    "PlanOutput": plan_answer,
    "ComposeOutput": compose_answer,
    "ParaphraseOutput": paraphrase_answer,
}


def answer(body: dict[str, Any]) -> dict[str, Any]:
    """The chat-completions reply to ``body``."""
    digest = _digest(body)
    schema = requested_schema(body)
    title = schema.get("title", "")
    if title in ANSWERS:
        content = ANSWERS[title](body, digest)
    else:
        content = smallest(schema, schema.get("$defs", {}))
    text = json.dumps(content)
    prompt = sum(tokens(m["content"]) for m in body["messages"])
    completion = tokens(text)
    return {
        "id": f"standin-{digest[:24]}",
        "object": "chat.completion",
        "model": body.get("model", ""),
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


class Pace:
    """One virtual clock for all requests: an answer of n tokens is released n / rate seconds
    after the previous one would have been (or now, if the server is idle)."""

    def __init__(self, tokens_per_s: float) -> None:
        self.tokens_per_s = tokens_per_s
        self._free_at = 0.0

    async def hold(self, count: int) -> None:
        if self.tokens_per_s <= 0:
            return
        now = asyncio.get_running_loop().time()
        self._free_at = max(self._free_at, now) + count / self.tokens_per_s
        await asyncio.sleep(self._free_at - now)


def app(pace: Pace, model: str) -> web.Application:
    async def models(request: web.Request) -> web.Response:
        return web.json_response({"object": "list", "data": [{"id": model, "owned_by": OWNED_BY}]})

    async def chat(request: web.Request) -> web.Response:
        reply = answer(await request.json())
        await pace.hold(reply["usage"]["completion_tokens"])
        return web.Response(
            body=json.dumps(reply, sort_keys=True).encode(), content_type="application/json"
        )

    application = web.Application(client_max_size=16 * 1024 * 1024)
    application.router.add_get("/v1/models", models)
    application.router.add_post("/v1/chat/completions", chat)
    return application


async def _serve(tokens_per_s: float, model: str) -> None:
    runner = web.AppRunner(app(Pace(tokens_per_s), model), access_log=None)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0, backlog=1024).start()
    print(json.dumps({"port": runner.addresses[0][1]}), flush=True)
    await asyncio.Event().wait()


def main() -> None:
    """``python -m bench.scale.llm_standin TOKENS_PER_S MODEL``: serve until terminated; the
    first line on stdout is ``{"port": ...}``."""
    tokens_per_s, model = sys.argv[1:]
    asyncio.run(_serve(float(tokens_per_s), model))


if __name__ == "__main__":
    main()
