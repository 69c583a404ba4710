"""The offline brain: understanding accuracy on paraphrases, and its cost per step.

    .venv/bin/python bench/offline_brain.py paraphrases [--sweep]
    .venv/bin/python bench/offline_brain.py speed [--repeat 20]

`paraphrases`: every utterance of bench/paraphrases.yaml (written apart from the intents and
FAQ files: 5+ phrasings per intent and FAQ entry, and off-topic requests), understood as the
first words of a conversation with the simulated museum's tools (the base's places, the box
office, speech). In-domain: right when it becomes the expected intent, FAQ entry or tool, with
the expected arguments. Off-topic: accepted when it acts or answers from the FAQ (the honest
fallback and "did you mean ...?" are right). `--sweep` prints both rates for a range of
`accept` thresholds (how the shipped value was chosen).

`speed`: model load in a fresh interpreter (import and first sentence), then the museum
conversations of test/models/test_offline_brain.py run through the agent core (virtual time,
fake drivers) with every brain step timed on the CPU clock, and the process's peak RSS.
"""

import argparse
import asyncio
import json
import pathlib
import resource
import statistics
import subprocess
import sys
import time

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "test"))
sys.path.insert(0, str(ROOT / "bench"))

from stats import summary  # noqa: E402

CONFIG = ROOT / "config"
PLACES = ["entrance", "dinosaur_hall", "gift_shop", "cafe", "second_floor", "toilets", "space_gallery"]


def museum_specs():
    from phanthy_agent.core.tools import ToolRegistry
    from phanthy_drivers.box_office import declarations
    from support.fake_drivers import navigate_tool, speak_tool
    nav = navigate_tool()
    nav.decl["parameters"]["properties"]["place"]["enum"] = list(PLACES)
    registry = ToolRegistry()
    registry.update_manifest("speaker", json.dumps([speak_tool().decl]))
    registry.update_manifest("base", json.dumps([nav.decl]))
    registry.update_manifest("box_office", json.dumps(declarations()))
    return {t.visible_name: t.spec()["function"] for t in registry.visible_tools()}


def label(brain, frame):
    if frame.kind == "faq":
        entry = next(e for e in brain.faq if e.answer.strip() == frame.answer)
        return f"faq:{entry.id}"
    if frame.kind == "act":
        return frame.intent.name
    if frame.kind == "request" and not (frame.unknown and not frame.args):
        return frame.intent.name if frame.intent else frame.tools[0]
    return "off_topic"


def paraphrases(args) -> None:
    from phanthy_agent.brains.offline import OfflineBrain
    brain = OfflineBrain.from_files(CONFIG / "offline_intents.yaml", CONFIG / "faq.yaml")
    specs = museum_specs()
    cases = [(expect, item) for expect, items in yaml.safe_load((ROOT / "bench" / "paraphrases.yaml").read_text()).items()
             for item in items]
    accepts = [brain.cfg.accept] + ([a / 100 for a in range(36, 64, 2)] if args.sweep else [])
    for accept in accepts:
        brain.cfg.accept = accept
        right, wrong, accepted, asked, off = 0, [], [], 0, 0
        for expect, item in cases:
            frame = brain.policy.understand(item["say"], specs)
            got = label(brain, frame)
            if expect == "off_topic":
                off += 1
                if got != "off_topic":
                    accepted.append((item["say"], got))
                continue
            asked += frame.kind == "suggest"
            ok = (got == expect and all(frame.args.get(k) == v for k, v in (item.get("args") or {}).items())) \
                or got == item.get("also")
            right += ok
            if not ok:
                wrong.append((item["say"], expect, got, frame.args))
        n = len(cases) - off
        print(f"accept {accept:.2f}: intent accuracy {right}/{n} = {100 * right / n:.1f} % "
              f"({asked} 'did you mean' among the misses); off-topic accepted {len(accepted)}/{off} = "
              f"{100 * len(accepted) / off:.1f} %")
        if accept == accepts[0]:
            for miss in wrong:
                print("   miss:", miss)
            for hit in accepted:
                print("   off-topic accepted:", hit)
    print(f"{len(cases)} utterances, {len(cases) - off} in domain over "
          f"{len({e for e, _ in cases}) - 1} intents and FAQ entries, {off} off-topic")


class TimedBrain:
    """The offline brain with each step timed (CPU seconds of this process)."""

    def __init__(self, brain):
        self.brain, self.name, self.steps = brain, brain.name, []

    async def step(self, request):
        start = time.process_time()
        reply = await self.brain.step(request)
        self.steps.append((time.process_time() - start) * 1000)
        return reply

    async def close(self):
        pass


def speed(args) -> None:
    code = ("import time; t = time.perf_counter(); from phanthy_common.embedding import shared_encoder; "
            "shared_encoder().encode(['hello']); print(time.perf_counter() - t)")
    loads = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                  cwd=ROOT).stdout) * 1000 for _ in range(5)]
    print(summary("model load in a fresh interpreter (import + first sentence)", loads))
    from phanthy_agent.brains.offline import OfflineBrain
    from phanthy_agent.core.agent import AgentCore  # noqa: F401 (the agent's own imports, for the baseline)
    rss_before = rss_now()
    start = time.perf_counter()
    brain = TimedBrain(OfflineBrain.from_files(CONFIG / "offline_intents.yaml", CONFIG / "faq.yaml"))
    print(f"brain built (files, model, FAQ and intent examples embedded): "
          f"{(time.perf_counter() - start) * 1000:.0f} ms; resident memory +{rss_now() - rss_before:.0f} MiB")
    sys.path.insert(0, str(ROOT / "test" / "models"))
    import test_offline_brain as conversations  # the museum conversations of the models tests
    scripts = [["take me to the dinosaur hall"], ["Hello, what can you do?", "Thanks, goodbye!"],
               ["I'd like to book the highlights tour", "three please", "Marie Curie"],
               [(0.0, "take me to the dinosaur hall"), (4.0, "actually, the gift shop first")],
               ["My name is Ada Lovelace, booking K7P2QD. Can you move us from the three o'clock "
                "to the one o'clock dinosaur tour?", "what time is my tour?"],
               ["what is the capital of France", "is there wifi?", "where can I leave my coat"]]
    for _ in range(args.repeat):
        for lines in scripts:
            conversations.converse(brain, conversations.museum(walk_s=5.0), lines)
    print(summary("brain step (CPU time)", brain.steps))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS of the process {rss:.0f} MiB (agent core imported, before the brain: {rss_before:.0f} MiB)")


def rss_now() -> float:
    """Resident memory now (MiB)."""
    for line in pathlib.Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    p = sub.add_parser("paraphrases")
    p.add_argument("--sweep", action="store_true")
    s = sub.add_parser("speed")
    s.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    {"paraphrases": paraphrases, "speed": speed}[args.what](args)


if __name__ == "__main__":
    asyncio.set_event_loop(asyncio.new_event_loop())
    main()
