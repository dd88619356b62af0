"""The pure encryptor and the ledger's sealing codec: envelopes, user binding, keys, what stays plain."""

from __future__ import annotations

import os

import pytest
from psycopg.types.json import Jsonb

from agentx_memory.crypto import SEALED_KEY, Encryptor, key_id, open_json, seal_json
from agentx_memory.errors import DecryptionError, EncryptionKeyError, InvalidInputError
from agentx_memory.stores.sealing import FieldCodec

KEY, OTHER = os.urandom(32), os.urandom(32)


def test_an_envelope_names_its_key_and_round_trips_any_json_value() -> None:
    encryptor = Encryptor(KEY)
    for value in ({"a": [1, 2.5, None, "é"]}, "text", 3, [True], None):
        envelope = encryptor.encrypt(value, "alice")
        assert envelope.startswith(f"agx1:{key_id(KEY)}:")
        assert encryptor.decrypt(envelope, "alice") == value
    assert encryptor.encrypt("same", "alice") != encryptor.encrypt("same", "alice")  # a fresh nonce each


def test_a_value_is_bound_to_its_user() -> None:
    envelope = Encryptor(KEY).encrypt({"secret": 1}, "alice")
    with pytest.raises(DecryptionError, match="another user"):
        Encryptor(KEY).decrypt(envelope, "bob")


def test_a_damaged_envelope_fails_authentication() -> None:
    envelope = Encryptor(KEY).encrypt({"secret": 1}, "alice")
    damaged = envelope[:-6] + ("A" if envelope[-6] != "A" else "B") + envelope[-5:]
    with pytest.raises(DecryptionError):
        Encryptor(KEY).decrypt(damaged, "alice")


def test_old_keys_decrypt_and_an_unknown_key_is_named() -> None:
    old = Encryptor(OTHER).encrypt("x", "alice")
    assert Encryptor(KEY, [OTHER]).decrypt(old, "alice") == "x"
    with pytest.raises(EncryptionKeyError, match=key_id(OTHER)):
        Encryptor(KEY).decrypt(old, "alice")


def test_sealing_keeps_chosen_keys_plain_and_opening_without_a_key_fails_clearly() -> None:
    encryptor = Encryptor(KEY)
    sealed = seal_json(encryptor, {"speaker": "Ann", "token": "s3cret"}, "alice", keep=("speaker",))
    assert sealed["speaker"] == "Ann"
    assert "s3cret" not in str(sealed)
    assert open_json(encryptor, sealed, "alice") == {"speaker": "Ann", "token": "s3cret"}
    assert open_json(None, {"plain": 1}, "alice") == {"plain": 1}
    with pytest.raises(EncryptionKeyError, match="no key is configured"):
        open_json(None, sealed, "alice")


def test_the_codec_seals_by_statement_and_opens_by_column() -> None:
    codec = FieldCodec(Encryptor(KEY))
    params = {"user_id": "alice", "tool_input": Jsonb({"q": "s3cret"}), "tool_output": None, "tool_name": "t"}
    sealed = codec.seal_params("insert_tool_invocation", params)
    assert SEALED_KEY in sealed["tool_input"].obj
    assert sealed["tool_output"] is None
    assert sealed["tool_name"] == "t"
    assert codec.seal_params("list_audit", params) is params  # a statement that writes nothing sensitive
    row = {"user_id": "alice", "tool_input": sealed["tool_input"].obj, "tool_name": "t"}
    assert codec.open_rows([row], {})[0]["tool_input"] == {"q": "s3cret"}
    assert FieldCodec(None).seal_params("insert_tool_invocation", params) is params


def test_a_recall_filter_on_an_encrypted_metadata_key_is_refused() -> None:
    codec = FieldCodec(Encryptor(KEY))
    codec.seal_params("recall_vector_turns", {"user_id": "a", "metadata": Jsonb({"speaker": "Ann"})})
    with pytest.raises(InvalidInputError, match="filter on speaker only"):
        codec.seal_params("recall_vector_turns", {"user_id": "a", "metadata": Jsonb({"topic": "x"})})


def test_the_sealed_marker_is_reserved_in_values_given_to_store() -> None:
    from agentx_memory.settings import LimitSettings
    from agentx_memory.validation import validate_json_value, validate_metadata

    with pytest.raises(InvalidInputError, match="reserved"):
        validate_metadata({SEALED_KEY: "agx1:x:y"}, LimitSettings())
    with pytest.raises(InvalidInputError, match="reserved"):
        validate_json_value({SEALED_KEY: 1}, LimitSettings(), "tool_output")
    assert validate_metadata({"nested": {SEALED_KEY: 1}}, LimitSettings()) == {"nested": {SEALED_KEY: 1}}
