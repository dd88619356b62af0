"""Which ledger values are encrypted at rest, and the pure codec the Postgres adapter applies to them.

Written values are sealed by statement: :data:`SEALED_PARAMS` names, per named statement, the
parameters (jsonb, a list of jsonb, or a jsonb list of rows) to encrypt for the row's user. Read
values are opened by column: any column in :data:`SEALED_COLUMNS` of any row, and those fields of an
exported row (a ``data`` column), are decrypted when sealed. So every read path that returns these
fields decrypts without knowing about encryption, and plain rows (written without a key) read as
they always did.

What stays plain, so that search works: turn content (full-text and vectors), a turn's
``metadata.speaker`` (part of its full-text column, migration 002), fact text, ids, user ids, channels
and times; audit ``details`` (ids and counts that forgetting matches on).

The other stores' copies of sealed values are sealed too (text properties, :func:`~..crypto.seal_text`):
:data:`GRAPH_SEALED` in the graph, and a turn's metadata in Redis working memory
(:func:`turn_to_cache`). Nothing searches those copies, so there even the speaker is sealed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from psycopg.types.json import Jsonb

from ..crypto import SEALED_KEY, Encryptor, is_envelope, is_sealed, open_json, open_text, seal_json, seal_text
from ..errors import InvalidInputError, StoreError
from ..models import Turn

__all__ = [
    "GRAPH_SEALED",
    "SEALED_COLUMNS",
    "SEALED_PARAMS",
    "TURN_METADATA_PLAIN",
    "FieldCodec",
    "Sealed",
    "open_graph_props",
    "seal_graph_props",
    "turn_from_cache",
    "turn_to_cache",
]

#: Graph properties holding copies of sealed ledger values (JSON text, or an envelope with a key).
GRAPH_SEALED: dict[str, tuple[str, ...]] = {
    "Turn": ("metadata",),
    "ToolInvocation": ("tool_input", "tool_output"),
}

#: Turn metadata keys kept readable beside the sealed value: the full-text column and the speaker
#: boost read ``metadata ->> 'speaker'``.
TURN_METADATA_PLAIN = ("speaker",)


@dataclass(frozen=True, slots=True)
class Sealed:
    """A parameter to seal: ``rows`` when it is a jsonb list of row objects (import) whose ``fields``
    are sealed for each row's own ``user_id``; ``keep`` are top-level keys left plain."""

    param: str
    keep: tuple[str, ...] = ()
    rows: tuple[str, ...] = ()


SEALED_PARAMS: dict[str, tuple[Sealed, ...]] = {
    "insert_conversation": (Sealed("metadata"),),
    "append_turn": (Sealed("metadata", TURN_METADATA_PLAIN), Sealed("audit_payload")),
    "append_turns": (Sealed("metadata", TURN_METADATA_PLAIN), Sealed("audit_payloads")),
    "insert_tool_invocation": (Sealed("tool_input"), Sealed("tool_output")),
    "insert_audit": (Sealed("payload"),),
    "import_conversations": (Sealed("rows", rows=("metadata",)),),
    "import_turns": (Sealed("rows", TURN_METADATA_PLAIN, rows=("metadata",)),),
    "import_tool_invocations": (Sealed("rows", rows=("tool_input", "tool_output")),),
}
SEALED_COLUMNS = ("metadata", "tool_input", "tool_output", "payload")
#: Recall statements that filter turns by metadata containment: only plain keys can match there.
_METADATA_FILTERS = frozenset({"lexical_search_turns", "turn_neighbours", "recall_vector_turns"})


class FieldCodec:
    """Seals a statement's sensitive parameters and opens sensitive columns of its rows; with no
    encryptor it seals nothing, and opening a sealed value raises :class:`EncryptionKeyError`."""

    def __init__(self, encryptor: Encryptor | None) -> None:
        self.encryptor = encryptor

    def seal_params(self, name: str, params: Mapping[str, Any]) -> Mapping[str, Any]:
        encryptor = self.encryptor
        if encryptor is None:
            return params
        if name in _METADATA_FILTERS:
            _check_filter(params.get("metadata"))
        fields = SEALED_PARAMS.get(name)
        if not fields:
            return params
        sealed = dict(params)
        for field in fields:
            value = sealed.get(field.param)
            if field.rows and isinstance(value, Jsonb):
                sealed[field.param] = Jsonb([_seal_row(encryptor, row, field) for row in value.obj])
            elif value is not None:
                sealed[field.param] = _seal_value(encryptor, value, str(params["user_id"]), field.keep)
        return sealed

    def open_rows(self, rows: list[dict[str, Any]], params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """``rows`` with their sealed values decrypted in place (the user is the row's, else the
        statement's ``user_id``). The rows of one statement share their columns: a statement without a
        sensitive column costs one look at its first row (a recall reads ~150 rows, with or without a
        key, and must not pay for encryption it does not use)."""
        if not rows:
            return rows
        columns = [column for column in SEALED_COLUMNS if column in rows[0]]
        exported = "data" in rows[0]
        if columns or exported:
            for row in rows:
                self._open(row, columns, params)
                data = row.get("data") if exported else None
                if isinstance(data, dict):  # an exported row (portability.sql)
                    self._open(data, SEALED_COLUMNS, params)
        return rows

    def open_row(self, row: dict[str, Any], params: Mapping[str, Any]) -> None:
        self.open_rows([row], params)

    def _open(self, row: dict[str, Any], columns: Sequence[str], params: Mapping[str, Any]) -> None:
        for column in columns:
            value = row.get(column)
            if type(value) is dict and SEALED_KEY in value:
                row[column] = open_json(self.encryptor, value, _owner(row, params))


def _owner(row: Mapping[str, Any], params: Mapping[str, Any]) -> str:
    owner = row.get("user_id", params.get("user_id"))
    if owner is None:  # a statement bug, not bad input: every sealed column is read with its user
        raise StoreError("an encrypted column was read without its user_id")
    return str(owner)


def _seal_value(encryptor: Encryptor, value: Any, user_id: str, keep: Sequence[str]) -> Any:
    if isinstance(value, Jsonb) and not is_sealed(value.obj):
        return Jsonb(seal_json(encryptor, value.obj, user_id, keep))
    if isinstance(value, list):  # a jsonb[] parameter (append_turns), element by element
        return [_seal_value(encryptor, item, user_id, keep) for item in value]
    return value


def _seal_row(encryptor: Encryptor, row: Mapping[str, Any], field: Sealed) -> dict[str, Any]:
    sealed = dict(row)
    for column in field.rows:
        if sealed.get(column) is not None and not is_sealed(sealed[column]):
            sealed[column] = seal_json(encryptor, sealed[column], str(row["user_id"]), field.keep)
    return sealed


def _check_filter(metadata: object) -> None:
    value = metadata.obj if isinstance(metadata, Jsonb) else metadata
    if isinstance(value, Mapping) and set(value) - set(TURN_METADATA_PLAIN):
        raise InvalidInputError(
            "turn metadata is encrypted at rest (security.encryption_key): a recall can filter on "
            f"{', '.join(TURN_METADATA_PLAIN)} only, not on {sorted(set(value) - set(TURN_METADATA_PLAIN))}"
        )


def open_graph_props(encryptor: Encryptor | None, label: str, props: dict[str, Any], user_id: str) -> None:
    """A graph node's sealed copies back to plain JSON text, in place (an export holds plain values)."""
    for name in GRAPH_SEALED.get(label, ()):
        if is_envelope(props.get(name)):
            props[name] = json.dumps(open_text(encryptor, props[name], user_id), ensure_ascii=False)


def seal_graph_props(encryptor: Encryptor | None, label: str, props: dict[str, Any], user_id: str) -> None:
    """A graph node's plain JSON text copies sealed, in place (an import into a store with a key)."""
    for name in GRAPH_SEALED.get(label, ()):
        value = props.get(name)
        if encryptor is not None and isinstance(value, str) and not is_envelope(value):
            props[name] = seal_text(encryptor, json.loads(value), user_id)


def turn_to_cache(turn: Turn, encryptor: Encryptor | None) -> str:
    """A turn as Redis working memory holds it: its JSON, the metadata an envelope with a key."""
    if encryptor is None:
        return turn.model_dump_json()
    item = turn.model_dump(mode="json")
    item["metadata"] = seal_text(encryptor, item["metadata"], turn.user_id)
    return json.dumps(item, ensure_ascii=False)


def turn_from_cache(text: str, encryptor: Encryptor | None) -> Turn:
    """A turn read back from Redis working memory (either form)."""
    item = json.loads(text)
    if isinstance(item.get("metadata"), str):
        item["metadata"] = open_text(encryptor, item["metadata"], str(item["user_id"]))
    return Turn.model_validate(item)
