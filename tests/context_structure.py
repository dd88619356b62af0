"""The structure of a ``get_context`` block, parsed strictly: what poisoning tests compare with what the
store holds."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from agentx_memory.retrieval.context_render import HEADER

TITLES: Final = (
    "### Known facts",
    "### Relevant past conversation",
    "### Strategies that worked",
    "### Active goals",
    "### Latest reflection",
    "### People and things",
)
#: A marker of the block's structure that is not escaped: heading marks, fences, tags, role labels
#: other than ``user`` (the renderer writes ``<date> user: `` before a turn), chat-template tokens.
FORGERY_RE: Final = re.compile(
    r"(?<![\\#])#{2,}|(?<![\\`])`{3}|(?<![\\~])~{3}|(?<!\\)\[\s*mem\s*:"
    r"|(?<![\\\w])(?:system|assistant|human|developer|tool|instructions?)\s*:"
    r"|(?<!\\)(?:<\|[^|]*\|>|</?system>|\[INST\]|<<SYS>>)",
    re.IGNORECASE,
)
_ITEM: Final = re.compile(r"- (?P<body>.*) \[mem:(?P<tag>[^\[\]\s]+)\]")


@dataclass
class ContextShape:
    sections: list[str]
    tags: list[str]


def parse_context(text: str) -> ContextShape:
    """Sections and item tags of a block; asserts every line is the header, the profile line, a known
    section title (once each) or one item ending in its only tag, with no forged marker in its body."""
    lines = text.split("\n")
    assert lines[0].startswith(HEADER[:-1]), lines[0]
    body = lines[1:]
    if body and body[0].startswith("About the user: "):
        assert FORGERY_RE.search(body[0]) is None, body[0]
        body = body[1:]
    shape = ContextShape([], [])
    for line in body:
        if line in TITLES:
            assert line not in shape.sections, f"section {line!r} twice"
            shape.sections.append(line)
            continue
        match = _ITEM.fullmatch(line)
        assert match is not None, f"not an item line: {line!r}"
        assert shape.sections, "an item before any section"
        assert re.search(r"(?<!\\)\[mem:", match["body"]) is None, line
        assert FORGERY_RE.search(match["body"]) is None, line
        shape.tags.append(match["tag"])
    return shape
