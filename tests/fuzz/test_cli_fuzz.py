"""The ``agentx-memory`` command line with generated argv and files, through its real (typer) parser.

Only commands that neither start nor stop servers run (``up``, ``down``, ``demo``, ``mcp``,
``worker``, ``reset``, ``reindex``, ``migrate`` and ``jobs run`` are left out). Properties: the CLI
ends with exit code 0, 1 or 2 and never a traceback (an escaped exception); a failed command changes
nothing in the stores; bob's data is untouched and never printed (no generated argv names bob).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from agentx_memory.cli import app
from tests.fuzz.conftest import EXAMPLES, report
from tests.fuzz.strategies import NASTY_TEXTS
from tests.fuzz.world import BOB_MARKER, World
from tests.settings_env import env_of

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)

USERS = ["alice", "carol", "Alice", "a" * 129, "-u", "bob@", "x:y"]  # never bob: reading him is allowed
CHANNELS = ["_global", "proj-a", "PROJ", "a/b", ""]
NUMBERS = ["5", "1", "0", "-1", "99999999999999999999", "1e3", "nan", "five"]
TIMES = [
    "2024-01-01",
    "2024-01-01T10:00:00",
    "2024-13-45T99:00",
    "9999-12-31T23:59:59",
    "0001-01-01",
    "yesterday",
]
KINDS = ["turn", "fact", "entity", "goal", "strategy", "nonsense"]
WHO = {"--user": USERS, "-u": USERS, "--channel": CHANNELS, "-c": CHANNELS, "--json": None}
#: Per command: how many positional arguments it takes, and its options with the values to try (None: a
#: flag). A generated argv mostly pairs options with such values, so that commands run, not only fail
#: to parse; it sometimes carries random tokens too.
COMMANDS: dict[str, tuple[int, dict[str, list[str] | None]]] = {
    "recall": (1, {**WHO, "--limit": NUMBERS, "-n": NUMBERS}),
    "context": (1, {**WHO, "--budget": NUMBERS}),
    "facts": (0, {**WHO, "--limit": NUMBERS, "-n": NUMBERS, "--history": None}),
    "entity": (1, WHO),
    "timeline": (0, {**WHO, "--limit": NUMBERS, "--since": TIMES, "--until": TIMES, "--kind": KINDS}),
    "stats": (0, WHO),
    "export": (0, {"--user": USERS, "--no-embeddings": None}),
    "import": (0, {"--re-embed": None}),
    "ingest": (
        0,
        {"--user": USERS, "--channel": CHANNELS, "--format": ["jsonl", "locomo", "csv"], "--batch": NUMBERS},
    ),
    "doctor": (0, {"--json": None}),
    "jobs list": (0, {}),
    "jobs status": (0, {"--json": None}),
    "metrics": (0, {}),
}
#: Commands whose first argument is a file (the fuzzer writes it).
FILE_COMMANDS = frozenset({"import", "ingest"})
#: Tokens of any kind (a value where an option is expected, an unknown option …).
VALUES = ["alice", "Helix", "5", "--", "-", "--help", "--unknown-option", *NUMBERS[:3], *TIMES[:2]]
_tokens = st.one_of(st.sampled_from(VALUES), st.sampled_from(NASTY_TEXTS[:-2]), st.text(max_size=12))


def _file_contents(world: World) -> st.SearchStrategy[bytes]:
    def jsonl(records: list[Any]) -> bytes:
        return "\n".join(json.dumps(record, default=str) for record in records).encode(
            "utf-8", "surrogatepass"
        )

    turn = st.fixed_dictionaries(
        {
            "role": st.sampled_from(["user", "assistant", "robot"]),
            "content": st.sampled_from(NASTY_TEXTS[:-2]),
        },
        optional={
            "conversation_id": st.sampled_from([*world.bob.conversations, "x"]) | st.uuids().map(str),
            "timestamp": st.sampled_from(["2024-01-01T00:00:00Z", "yesterday", 5]),
            "turn_index": st.integers(-5, 5),
            "metadata": st.sampled_from([{"a": 1}, [], "m", None]),
        },
    )
    return st.one_of(
        st.binary(max_size=64),
        st.sampled_from([b"\xff\xfe\x00bad", b"{", b"[]", b"null", b'{"user_id": "alice"}', b""]),
        st.just(jsonl(world.alice_dump)),
        st.just(jsonl(world.bob_dump)),  # bob's ids, relabelled as alice's: must be refused
        st.lists(turn, max_size=3).map(jsonl),
        st.lists(st.sampled_from(NASTY_TEXTS[:-2]), max_size=3).map(
            lambda lines: "\n".join(lines).encode("utf-8", "surrogatepass")
        ),
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-fuzz")


def _argv(world: World, files: Path) -> st.SearchStrategy[tuple[list[str], bytes | None, str]]:
    counter = itertools.count()

    @st.composite
    def build(draw: st.DrawFn) -> tuple[list[str], bytes | None, str]:
        command = draw(st.sampled_from(sorted(COMMANDS)))
        positional, options = COMMANDS[command]
        tokens = [draw(st.sampled_from(["Helix", "what editor?"]) | _tokens) for _ in range(positional)]
        for option in draw(st.lists(st.sampled_from(sorted(options)), max_size=4)) if options else []:
            values = options[option]
            tokens += [option] if values is None else [option, draw(st.sampled_from(values) | _tokens)]
        if draw(st.integers(0, 3)) == 3:  # now and then, anything anywhere (0 is what hypothesis favours)
            tokens.insert(draw(st.integers(0, len(tokens))), draw(_tokens))
        content = None
        suffix = draw(st.sampled_from([".jsonl", ".json", ""]))
        if command in FILE_COMMANDS:
            content = draw(_file_contents(world))
            path = files / f"input{next(counter)}{suffix}"
            place = draw(st.sampled_from(["file", "file", "missing", "directory"]))
            if place == "directory":
                path = files
            elif place == "missing":
                path = files / "missing.jsonl"
            else:
                path.write_bytes(content)
            tokens = [str(path), *tokens]
        return [*command.split(), *tokens], content, command

    return build()


def _env(world: World) -> dict[str, str]:
    return {
        **env_of(world.settings),
        "AGENTX_LEARNING__AUTO_CONSOLIDATE": "false",
        "AGENTX_AUDIT__LEVEL": "reads",
        "AGENTX_DATA_DIR": str(world.settings.data_dir),
    }


def test_cli_fuzz(world: World, files: Path) -> None:
    runner = CliRunner()
    env = _env(world)
    tried = 0

    @FUZZ
    @given(case=_argv(world, files))
    def run(case: tuple[list[str], bytes | None, str]) -> None:
        nonlocal tried
        tried += 1
        argv, _, command = case
        before = world.snapshot()
        result = runner.invoke(app, argv, env=env, catch_exceptions=True)
        escaped = result.exception if not isinstance(result.exception, SystemExit) else None
        assert escaped is None, f"{argv[:3]} raised {type(escaped).__name__}: {escaped!r}"
        assert result.exit_code in (0, 1, 2), (argv[:3], result.exit_code, result.output[-500:])
        if result.exit_code != 0:
            assert world.snapshot() == before, (
                f"{command} failed ({result.output[-300:]}) but changed the stores"
            )
        assert world.bob_state() == world.bob_baseline, f"{command} changed bob's data"
        assert BOB_MARKER not in result.output, f"{command} printed bob's data"

    failure: BaseException | None = None
    try:
        run()
    except BaseException as exc:
        failure = exc
        raise
    finally:
        report("cli", tried, failure)


def test_import_of_a_file_that_is_not_utf8_is_refused(world: World, files: Path) -> None:
    """Found by this fuzzer: ``import`` let UnicodeDecodeError escape (a traceback, exit code 1)."""
    path = files / "latin1.jsonl"
    path.write_bytes(b"\x80")
    before = world.snapshot()
    result = CliRunner().invoke(app, ["import", str(path)], env=_env(world))
    assert result.exit_code == 2
    assert not isinstance(result.exception, UnicodeDecodeError)
    assert "not UTF-8" in result.output
    assert world.snapshot() == before
