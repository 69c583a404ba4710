"""A piper voice with its alignment output, patched once and kept on disk.

piper-tts[alignment] can patch a voice in memory at every load (the `onnx` package loads the
graph, adds the phoneme-duration output and hands the bytes to onnxruntime), but that keeps
far more memory resident for the life of the speaker (`bench/speech_facts.py piper_memory`,
figures in bench/README.md). Patching once, in a short-lived child process, into the user's cache and loading
that file gives the same alignments at the plain model's cost.
"""

from __future__ import annotations

import hashlib
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Optional

log = logging.getLogger(__name__)

NO_ALIGNMENT_TENSOR = 3  # the child's exit code when the graph has nothing to patch

_PATCH = """
import sys
import onnx
from piper.patch_voice_with_alignment import add_alignment_output
model = onnx.load(sys.argv[1])
try:
    add_alignment_output(model)
except ValueError as exc:  # no such tensor, or already patched
    print(exc)
    sys.exit(3)
onnx.save(model, sys.argv[2])
"""


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "phanthy" / "piper"


def aligned_model(model_path: str, timeout_s: float = 120.0) -> Optional[str]:
    """The path of `model_path` patched with the alignment output (made on first use), or None
    when it cannot be (no such tensor, no `onnx` package, cache not writable): the caller then
    loads the voice as it is."""
    source = Path(model_path).resolve()
    stat = source.stat()
    key = hashlib.sha1(f"{source}:{stat.st_size}:{stat.st_mtime_ns}".encode()).hexdigest()[:12]
    target = cache_dir() / f"{source.stem}-{key}-aligned.onnx"
    if target.is_file():
        return str(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial = target.with_name(f"{target.name}.{os.getpid()}.part")
        done = subprocess.run([sys.executable, "-c", _PATCH, str(source), str(partial)],
                              capture_output=True, text=True, timeout=timeout_s)
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("could not patch %s for word alignments (%s): loading it as it is", source, exc)
        return None
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        why = done.stdout.strip() if done.returncode == NO_ALIGNMENT_TENSOR else done.stderr.strip()[-300:]
        log.warning("no word alignments from %s (%s): word timing will be estimated", source, why)
        return None
    os.replace(partial, target)  # atomic: a concurrent start sees the whole file or none
    log.info("patched %s for word alignments into %s", source, target)
    return str(target)
