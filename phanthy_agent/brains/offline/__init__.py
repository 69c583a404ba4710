"""The `offline` brain (no language model): understanding by meaning, schema-driven slot
filling, a dialogue policy. Modules: values (numbers, times, codes, names, enum values), slots
(a tool's arguments from its JSON Schema), understanding (intents, tools and FAQ ranked by
sentence embeddings + BM25), conversation (the session read back), plan (carrying out a
request), policy (the next move), replies (what it says), config (its files), brain."""

from .brain import OfflineBrain

__all__ = ["OfflineBrain"]
