"""Group conversations benchmark (in the style of CHI-180-proactive, on our own exhibits).

    .venv/bin/python bench/proactive.py text  [--seed 15] [--per-exhibit 8] [--misses 30]
        the offline monitor over every generated conversation: Jarvis's metrics against the
        issue's goals, and the time per turn of the monitor (backbone.hear)
    .venv/bin/python bench/proactive.py llm   [--conversations 8]
        the llm monitor's plumbing against the local OpenAI-compatible test server playing a
        model that labels every turn right (from the generator's gold), with faults injected
        (5 % error statuses, 5 % malformed replies): requests, fallbacks, refusals, the metrics
    .venv/bin/python bench/proactive.py audio [--conversations 3]
        a few conversations spoken by several synthesized voices through the real perception
        stack (vad + asr on the audio), the proactive node and the agent: events handled with
        recognition errors (bench/proactive_audio.py)

Documents: config/exhibits/*.md; fact items: bench/group/items/*.yaml.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "test"))

from phanthy_agent.evaluation.group_conversations import Generator, counts, load_exhibits  # noqa: E402
from phanthy_agent.evaluation.group_score import misses, run_all, score, timing  # noqa: E402
from phanthy_agent.group.backbone import Backbone  # noqa: E402
from phanthy_agent.group.documents import DocumentLibrary  # noqa: E402
from phanthy_agent.group.entities import EntityIndex  # noqa: E402
from phanthy_agent.group.offline_monitor import OfflineMonitor  # noqa: E402
from phanthy_agent.group.retrieval import HybridRetriever  # noqa: E402

GOALS = [  # (metric, goal, higher is better, Jarvis on CHI-180-proactive)
    ("silent_after_self_repair_pct", 98.0, True, "96.8-97.4"),
    ("gaps_addressed_pct", 95.0, True, "90.6"),
    ("wrong_addressed_pct", 90.0, True, "76.9"),
    ("correct_or_partial_pct", 98.0, True, "95-97"),
    ("invented_pct", 1.0, False, "2.5"),
    ("within_3_turns_pct", 98.0, True, ">95 within 2"),
    ("ordinary_per_100", 0.5, False, "-"),
    ("citations_resolvable_pct", 100.0, True, "-"),
]


def material(seed: int, per_exhibit: int, resolved: int = 2):
    library = DocumentLibrary.load(sorted((ROOT / "config" / "exhibits").glob("*.md")))
    exhibits = load_exhibits(library, ROOT / "bench" / "group" / "items")
    conversations = Generator(exhibits, seed=seed).conversations(per_exhibit, resolved)
    return library, conversations


def report(result: dict, timed: dict, extra: dict) -> None:
    print(json.dumps({**extra, **{k: v for k, v in result.items() if k != "per_kind"}}, indent=1))
    print(f"\n{'metric':32} {'result':>8} {'goal':>8}  met  Jarvis")
    for name, goal, higher, jarvis in GOALS:
        value = result[name]
        met = value >= goal if higher else value <= goal
        print(f"{name:32} {value:8.2f} {('>=' if higher else '<=') + str(goal):>8}  {'yes' if met else 'NO ':3}  {jarvis}")
    if timed:
        print(f"\nmonitor time per turn: median {timed['median_ms']} ms, p95 {timed['p95_ms']} ms, "
              f"max {timed['max_ms']} ms over {timed['turns']} turns (goal: median < 30 ms)")
    print("\nper kind:", json.dumps(result["per_kind"]))


def cmd_text(args) -> None:
    library, conversations = material(args.seed, args.per_exhibit)
    started = time.perf_counter()
    retriever = HybridRetriever(library, cache_size=4)  # a turn's own searches share its embedding
    entities = EntityIndex(library)
    load_s = time.perf_counter() - started
    replays = run_all(conversations, lambda: Backbone(library, OfflineMonitor(retriever, entities)))
    report(score(replays, library), timing(replays),
           {"seed": args.seed, **counts(conversations), "model_load_s": round(load_s, 2),
            "wall_s": round(time.perf_counter() - started, 1)})
    for line in misses(replays, limit=args.misses):
        print("  ", line)


def oracle_reply(conversation, index: int, library) -> dict:
    """What a model that labels right would answer for turn `index` (the generator's gold)."""
    event = next((e for e in conversation.events if e.turn == index), None)
    reply = {"label": "on_track", "claim": conversation.turns[index].text, "sentence_ids": [],
             "correct_value": "", "said_value": ""}
    if event is None:
        return reply
    if event.kind in ("gap", "resolved"):
        reply.update(label="gap", sentence_ids=[event.sentence], correct_value=event.value)
    elif event.kind in ("wrong", "self_correction", "misattribution"):
        reply.update(label="misattribution" if event.kind == "misattribution" else "wrong",
                     sentence_ids=[event.sentence], correct_value=event.value, said_value=event.wrong)
    elif event.kind == "unanswerable":
        reply.update(label="unanswerable")
    return reply


def cmd_llm(args) -> None:
    from phanthy_agent.group.factory import LlmSettings
    from phanthy_agent.group.llm_monitor import LlmMonitor
    from support.openai_server import OpenAIServer
    library, conversations = material(args.seed, 1, 0)
    conversations = conversations[:args.conversations]
    rng = random.Random(args.seed)
    retriever = HybridRetriever(library, cache_size=4)
    entities = EntityIndex(library)
    replies = []
    for conv in conversations:
        for index in range(len(conv.turns)):
            roll = rng.random()
            if roll < 0.05:
                replies.append({"http_status": 500})
            elif roll < 0.10:
                replies.append({"malformed": True})
            else:
                replies.append({"content": json.dumps(oracle_reply(conv, index, library))})
    monitors = []
    started = time.perf_counter()
    with OpenAIServer(replies) as server:
        settings = LlmSettings(base_url=server.base_url, model="test-model", timeout_s=5.0, max_retries=0)

        def make():
            monitor = LlmMonitor(library, OfflineMonitor(retriever, entities), settings)
            monitors.append(monitor)
            return Backbone(library, monitor)
        replays = run_all(conversations, make)
    stats = {"requests": sum(m.stats.requests for m in monitors), "fallbacks": sum(m.stats.failures for m in monitors),
             "refused_by_checks": sum(m.stats.rejected for m in monitors),
             "conversations": len(conversations), "turns": sum(len(c.turns) for c in conversations),
             "wall_s": round(time.perf_counter() - started, 1)}
    report(score(replays, library), timing(replays), stats)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["text", "llm", "audio"])
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--per-exhibit", type=int, default=8)
    parser.add_argument("--conversations", type=int, default=8)
    parser.add_argument("--misses", type=int, default=30)
    args = parser.parse_args()
    if args.mode == "text":
        cmd_text(args)
    elif args.mode == "llm":
        cmd_llm(args)
    else:
        from proactive_audio import run_audio
        run_audio(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
