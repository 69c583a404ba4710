"""Build the offline brain's example memory (config/offline_examples.npz) from paraphrase sets.

    .venv/bin/python bench/example_memory.py [--out config/offline_examples.npz]

Every utterance of the sets `blind88` to `blind183` (bench/offline_brain.py SETS), embedded with
the shared encoder, labelled as the set's author meant it (bench/paraphrase_sets.py maps the
authors' words onto the brain's names), kept as 128 principal components in int8
(phanthy_agent/brains/offline/examples.py says how the brain reads it). Why these sets: from the
eighty-eighth set on, the authors were told all the venue's answers (parking, the T. rex, the
galleries' contents, upstairs); the earlier authors wrote such questions as off-topic trivia,
which would teach the memory to refuse them. The sets after `blind183` are kept out: they
measure the memory (bench/README.md, sixteenth round). Deterministic: the same sets and
encoder give the same file.
"""

import argparse
import pathlib
import sys
import time
import types

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from offline_brain import CONFIG, SETS, load_set  # noqa: E402
from phanthy_agent.brains.offline.config import load_faq  # noqa: E402
from phanthy_agent.brains.offline.examples import write  # noqa: E402
from phanthy_common.embedding import shared_encoder  # noqa: E402

FIRST, LAST = "blind88", "blind183"
DIMS = 128


def memory_sets():
    names = list(SETS)
    return names[names.index(FIRST):names.index(LAST) + 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=pathlib.Path, default=CONFIG / "offline_examples.npz")
    args = parser.parse_args()
    faq = types.SimpleNamespace(faq=load_faq(CONFIG / "faq.yaml"))
    texts, labels, sets = [], [], []
    for name in memory_sets():
        for case in load_set(name, faq):
            texts.append(case.say)
            labels.append(case.expect)
            sets.append(name)
    encoder = shared_encoder()
    start = time.monotonic()
    vectors = encoder.encode(texts)
    write(args.out, encoder.name, vectors, labels, sets, DIMS)
    print(f"{len(texts)} utterances of {len(set(sets))} sets ({FIRST}..{LAST}), {len(set(labels))} labels, "
          f"embedded in {time.monotonic() - start:.0f} s -> {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
