"""Generate the sync modules from their async sources (psycopg's approach, done with tokens).

Every ``agentx_memory/**/*_async.py`` is the source of the module of the same name without ``_async``.
The rewrite is mechanical: ``async def``/``async with``/``async for`` lose ``async``, ``await`` goes,
``AsyncName`` becomes ``Name``, ``module_async`` becomes ``module`` and the names in ``_RENAMES`` are
swapped. The output is formatted with ruff. ``--check`` fails when a generated file is stale (the test
suite runs it), so the twins can never drift apart.

    python tools/async_to_sync.py          # regenerate
    python tools/async_to_sync.py --check  # verify
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import subprocess
import sys
import tempfile
import textwrap
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "agentx_memory"

_RENAMES = {
    "asynccontextmanager": "contextmanager",
    "__aenter__": "__enter__",
    "__aexit__": "__exit__",
    "aclose": "close",
    "aio": "sync",
    "AsyncConnection": "Connection",
    "AbstractAsyncContextManager": "AbstractContextManager",
}
_DOTTED = {"redis.asyncio": "redis", "falkordb.asyncio": "falkordb"}
_ASYNC_NAME = re.compile(r"^(_?)Async([A-Z]\w*)$")
_ASYNC_MODULE = re.compile(r"^(\w+)_async$")
#: The sentence of a source's module docstring that names it the source of its twin, in every wording
#: the sources use ("Async source of ``x.py``.", "Source of …", "This file is the async source; …").
_SOURCE_SENTENCE = re.compile(
    r"This file is the async source;.*?generated\s+from\s+it(?:\s+by\s+``[^`]+``)?\."
    r"|(?:Async\s+)?[Ss]ource\s+of\s+``[^`]+``(?:\s+\([^)]*\))?\.",
    re.DOTALL,
)


def _rename(name: str) -> str:
    if name in _RENAMES:
        return _RENAMES[name]
    if match := _ASYNC_NAME.match(name):
        return match.group(1) + match.group(2)
    if match := _ASYNC_MODULE.match(name):
        return match.group(1)
    return name


def unasync_source(source: str, origin: str) -> str:
    """The sync twin of ``source`` (unformatted): token-level edits applied to the original text."""
    source = _docstring_says_generated(source, origin)
    for dotted, plain in _DOTTED.items():
        source = source.replace(dotted, plain)
    lines = source.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    edits: list[tuple[int, int, str]] = []  # absolute (start, end, replacement)
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        start = starts[token.start[0] - 1] + token.start[1]
        end = starts[token.end[0] - 1] + token.end[1]
        if token.type == tokenize.NAME and token.string in {"async", "await"}:
            while end < len(source) and source[end] == " ":
                end += 1
            edits.append((start, end, ""))
        elif token.type == tokenize.NAME and (renamed := _rename(token.string)) != token.string:
            edits.append((start, end, renamed))
        elif token.type in {tokenize.STRING, tokenize.COMMENT}:
            renamed = re.sub(r"\bAsync([A-Z])", r"\1", token.string)
            if renamed != token.string:
                edits.append((start, end, renamed))
    for start, end, replacement in sorted(edits, reverse=True):
        source = source[:start] + replacement + source[end:]
    header = f"# Generated from {origin} by tools/async_to_sync.py.\n# Edit the source, not this file.\n"
    return header + source


def _docstring_says_generated(source: str, origin: str) -> str:
    """The module docstring with its "source of …" sentence replaced by where the twin comes from (a
    docstring without one gets the sentence appended to its first line)."""
    module = ast.parse(source)
    first = module.body[0] if module.body else None
    if not (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return source
    lines = source.splitlines(keepends=True)
    start, end = first.lineno - 1, first.end_lineno or first.lineno
    text = "".join(lines[start:end])
    docstring, trail = text.rstrip(), text[len(text.rstrip()) :]
    sentence = f"Generated from ``{origin.removeprefix('agentx_memory/')}``: edit that file."
    rewritten, count = _SOURCE_SENTENCE.subn(sentence, docstring, count=1)
    if not count:
        body = docstring.rstrip()
        if "\n" in body:  # after the first line
            head, newline, rest = docstring.partition("\n")
            rewritten = head + " " + sentence + newline + rest
        else:  # a one-line docstring: before its closing quotes
            rewritten = body[:-3] + " " + sentence + body[-3:]
    paragraphs = rewritten.split("\n\n")
    for position, paragraph in enumerate(paragraphs):
        if sentence in paragraph:  # re-wrapped, since the sentence changed its length
            paragraphs[position] = textwrap.fill(
                " ".join(paragraph.split()), width=110, break_long_words=False, break_on_hyphens=False
            )
    rewritten = "\n\n".join(paragraphs) + trail
    return "".join(lines[:start]) + rewritten + "".join(lines[end:])


def _format(texts: dict[Path, str]) -> dict[Path, str]:
    """Each target's text as ruff leaves it (imports sorted and pruned, formatted): every file in one
    ruff run per step, in a scratch copy of the tree under the project's own configuration (one
    subprocess per file and step took ~4 of the check's 5 s)."""
    ruff = [sys.executable, "-m", "ruff"]
    config = ["--config", str(ROOT / "pyproject.toml")]
    with tempfile.TemporaryDirectory(prefix="async_to_sync.") as scratch:
        copies = {target: Path(scratch) / target.relative_to(ROOT) for target in texts}
        for target, copy in copies.items():
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_text(texts[target], encoding="utf-8")
        files = [str(copy) for copy in copies.values()]
        subprocess.run(
            [*ruff, "check", *config, "--select", "I,F401,UP", "--fix-only", "--quiet", *files],
            capture_output=True,
            check=True,
            cwd=ROOT,
        )
        subprocess.run(
            [*ruff, "format", *config, "--quiet", *files], capture_output=True, check=True, cwd=ROOT
        )
        return {target: copy.read_text(encoding="utf-8") for target, copy in copies.items()}


def pairs() -> list[tuple[Path, Path]]:
    """(async source, generated sync target) for every source module."""
    return [
        (src, src.with_name(src.name.removesuffix("_async.py") + ".py"))
        for src in sorted(PACKAGE.rglob("*_async.py"))
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="fail if a generated file is out of date")
    args = parser.parse_args(argv)
    stale: list[str] = []
    sources = {target: source for source, target in pairs()}
    generated = _format(
        {
            target: unasync_source(source.read_text(encoding="utf-8"), source.relative_to(ROOT).as_posix())
            for target, source in sources.items()
        }
    )
    for target, text in generated.items():
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if text == current:
            continue
        if args.check:
            stale.append(target.relative_to(ROOT).as_posix())
        else:
            target.write_text(text, encoding="utf-8")
            print(f"wrote {target.relative_to(ROOT)}")
    if stale:
        print("stale generated files (run `python tools/async_to_sync.py`): " + ", ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
