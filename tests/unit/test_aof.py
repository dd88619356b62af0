"""Reading an append-only file command by command (embedded/_aof.py), on bytes written here."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

from agentx_memory.embedded._aof import EFFECT, commands, salvage_directory


def _command(*args: bytes) -> bytes:
    return b"*%d\r\n" % len(args) + b"".join(b"$%d\r\n%s\r\n" % (len(arg), arg) for arg in args)


SET = _command(b"SET", b"key", b"line one\r\nline two")  # a value holding CRLF: read by length
EFFECT_RECORD = _command(EFFECT, b"g", b"\x01\x04\x00\r\n\x00binary")
QUERY = _command(b"graph.query", b"g", b"CREATE (:N)")


def test_commands_come_back_whole_and_in_order() -> None:
    stream = io.BytesIO(SET + EFFECT_RECORD + b"#TS:1732500000\r\n" + QUERY)
    assert list(commands(stream)) == [
        (b"SET", SET),
        (EFFECT, EFFECT_RECORD),
        (b"#", b"#TS:1732500000\r\n"),
        (b"GRAPH.QUERY", QUERY),
    ]


def test_a_truncated_last_command_is_passed_on_as_it_is() -> None:
    cut = QUERY[:-5]
    assert list(commands(io.BytesIO(SET + cut))) == [(b"SET", SET), (b"", cut)]
    assert list(commands(io.BytesIO(SET + b"*2\r\n$3\r\nGE"))) == [(b"SET", SET), (b"", b"*2\r\n$3\r\nGE")]
    assert list(commands(io.BytesIO(b"garbage\r\n" + SET))) == [(b"", b"garbage\r\n" + SET)]


def test_salvage_drops_effect_records_and_keeps_the_original(tmp_path: Path) -> None:
    directory = tmp_path / "appendonlydir"
    directory.mkdir()
    (directory / "appendonly.aof.1.base.rdb").write_bytes(b"REDIS0011" + EFFECT)  # a snapshot: untouched
    (directory / "appendonly.aof.1.incr.aof").write_bytes(SET + EFFECT_RECORD + QUERY + QUERY[:7])
    (directory / "appendonly.aof.manifest").write_bytes(b"file appendonly.aof.1.base.rdb seq 1 type b\n")

    report = salvage_directory(directory, now=datetime(2026, 11, 25, 14, 0, tzinfo=UTC))

    assert (report.kept, report.dropped, report.files) == (2, 1, 1)
    assert report.original == tmp_path / "appendonlydir.before-salvage-20261125T140000Z"
    assert (directory / "appendonly.aof.1.incr.aof").read_bytes() == SET + QUERY + QUERY[:7]
    assert (directory / "appendonly.aof.1.base.rdb").read_bytes() == b"REDIS0011" + EFFECT
    original = (report.original / "appendonly.aof.1.incr.aof").read_bytes()
    assert original == SET + EFFECT_RECORD + QUERY + QUERY[:7]
    assert sorted(path.name for path in directory.iterdir()) == sorted(
        path.name for path in report.original.iterdir()
    )
