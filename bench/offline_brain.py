"""The offline brain: understanding accuracy on paraphrases, and its cost per step.

    .venv/bin/python bench/offline_brain.py paraphrases [--set all|original|heldout|fresh|final|blind5|blind6|blind7] [--sweep] [--rules-only]
    .venv/bin/python bench/offline_brain.py speed [--repeat 20]

`paraphrases`: every utterance of a paraphrase set, understood as the first words of a
conversation with the simulated museum's tools (the base's places, the box office, speech).
Each set is reported on its own (`--set` picks one; both by default): `original`,
bench/paraphrases.yaml, written apart from the intents and FAQ files (5+ phrasings per intent
and FAQ entry, and off-topic requests), and looked at while the brain was tuned; `heldout`,
bench/paraphrases_heldout.yaml, written without reading the brain's files and kept out of its
files (its outcomes mapped onto the brain's names by bench/paraphrase_sets.py); `fresh`,
`final`, `blind5`, three more written the same way (bench/README.md says which were read). Per set: the
accuracy, the off-topic false-accept rate, and right / all per kind of request with each miss. In-domain: right when it becomes the expected intent, FAQ entry or
tool, with the expected arguments. Off-topic: accepted when it acts or answers from the FAQ (the
honest fallback, "did you mean ...?" and "I don't know a place called ..." are right). `--sweep`
prints both rates for a range of `accept` thresholds (how the shipped value was chosen). A set
the example memory holds (bench/example_memory.py) is measured with that set left out of it;
`--rules-only` measures without the memory.

`speed`: model load in a fresh interpreter (import and first sentence), then the museum
conversations of test/models/test_offline_brain.py run through the agent core (virtual time,
fake drivers) with every brain step timed on the CPU clock, and the process's peak RSS.
"""

import argparse
import asyncio
import collections
import json
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "test"))
sys.path.insert(0, str(ROOT / "bench"))

from paraphrase_sets import heldout_cases, original_cases  # noqa: E402
from phanthy_drivers.box_office import MAX_TICKETS  # noqa: E402
from phanthy_drivers.box_office_db import norm_name  # noqa: E402
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
    name = (frame.intent.name if frame.intent else frame.tools[0]) if frame.kind == "request" else ""
    if name and frame.unknown and not frame.args:
        return f"unknown:{name}"  # "I don't know a place called ...": honest, not an action
    return name or "off_topic"


def accepted(got):
    """An off-topic utterance is accepted when the brain acts or answers from the FAQ."""
    return got != "off_topic" and not got.startswith("unknown:")


def right(case, got, frame):
    """The expected outcome with the expected arguments; a count over the box office's limit is
    right when the brain read it and told the limit (frame.problems), as the driver would."""
    def matches(k, v):
        return same(k, frame.args.get(k), v) or (k == "tickets" and isinstance(v, int) and v > MAX_TICKETS
                                                  and k in frame.problems)
    return any(got == want and all(matches(k, v) for k, v in args.items())
               for want, args in [(case.expect, case.args)] + case.also)


def same(key, got, want) -> bool:
    """A code or id is the same but for case, spaces and dashes (bench/paraphrase_sets.py); a
    name as the box office compares it (case and a title aside: "garcia" is "Garcia", "Mr
    Okafor" is "Okafor")."""
    if key in ("code", "member_id") and isinstance(got, str) and isinstance(want, str):
        return re.sub(r"[\s-]", "", got).upper() == re.sub(r"[\s-]", "", want).upper()
    if key == "name" and isinstance(got, str) and isinstance(want, str):
        return norm_name(got) == norm_name(want)
    return got == want


SETS = {"original": "paraphrases.yaml", "heldout": "paraphrases_heldout.yaml", "fresh": "paraphrases_fresh.yaml",
        "final": "paraphrases_final.yaml", "blind5": "paraphrases_blind5.yaml", "blind6": "paraphrases_blind6.yaml",
        "blind7": "paraphrases_blind7.yaml", "blind8": "paraphrases_blind8.yaml", "blind9": "paraphrases_blind9.yaml",
        "blind10": "paraphrases_blind10.yaml", "blind11": "paraphrases_blind11.yaml", "blind12": "paraphrases_blind12.yaml",
        "blind13": "paraphrases_blind13.yaml", "blind14": "paraphrases_blind14.yaml", "blind15": "paraphrases_blind15.yaml",
        "blind16": "paraphrases_blind16.yaml", "blind17": "paraphrases_blind17.yaml", "blind18": "paraphrases_blind18.yaml",
        "blind19": "paraphrases_blind19.yaml", "blind20": "paraphrases_blind20.yaml", "blind21": "paraphrases_blind21.yaml",
        "blind22": "paraphrases_blind22.yaml", "blind23": "paraphrases_blind23.yaml",
        "blind24": "paraphrases_blind24.yaml", "blind25": "paraphrases_blind25.yaml",
        "blind26": "paraphrases_blind26.yaml", "blind27": "paraphrases_blind27.yaml",
        "blind28": "paraphrases_blind28.yaml", "blind29": "paraphrases_blind29.yaml",
        "blind30": "paraphrases_blind30.yaml", "blind31": "paraphrases_blind31.yaml",
        "blind32": "paraphrases_blind32.yaml", "blind33": "paraphrases_blind33.yaml",
        "blind34": "paraphrases_blind34.yaml", "blind35": "paraphrases_blind35.yaml",
        "blind36": "paraphrases_blind36.yaml", "blind37": "paraphrases_blind37.yaml",
        "blind38": "paraphrases_blind38.yaml", "blind39": "paraphrases_blind39.yaml",
        "blind40": "paraphrases_blind40.yaml",
        "blind41": "paraphrases_blind41.yaml",
        "blind42": "paraphrases_blind42.yaml",
        "blind43": "paraphrases_blind43.yaml",
        "blind44": "paraphrases_blind44.yaml",
        "blind45": "paraphrases_blind45.yaml",
        "blind46": "paraphrases_blind46.yaml",
        "blind47": "paraphrases_blind47.yaml",
        "blind48": "paraphrases_blind48.yaml",
        "blind49": "paraphrases_blind49.yaml",
        "blind50": "paraphrases_blind50.yaml",
        "blind51": "paraphrases_blind51.yaml",
        "blind52": "paraphrases_blind52.yaml",
        "blind53": "paraphrases_blind53.yaml",
        "blind54": "paraphrases_blind54.yaml",
        "blind55": "paraphrases_blind55.yaml",
        "blind56": "paraphrases_blind56.yaml",
        "blind57": "paraphrases_blind57.yaml",
        "blind58": "paraphrases_blind58.yaml",
        "blind59": "paraphrases_blind59.yaml",
        "blind60": "paraphrases_blind60.yaml",
        "blind61": "paraphrases_blind61.yaml",
        "blind62": "paraphrases_blind62.yaml",
        "blind63": "paraphrases_blind63.yaml",
        "blind64": "paraphrases_blind64.yaml",
        "blind65": "paraphrases_blind65.yaml",
        "blind66": "paraphrases_blind66.yaml",
        "blind67": "paraphrases_blind67.yaml",
        "blind68": "paraphrases_blind68.yaml",
        "blind69": "paraphrases_blind69.yaml",
        "blind70": "paraphrases_blind70.yaml",
        "blind71": "paraphrases_blind71.yaml",
        "blind72": "paraphrases_blind72.yaml",
        "blind73": "paraphrases_blind73.yaml",
        "blind74": "paraphrases_blind74.yaml",
        "blind75": "paraphrases_blind75.yaml",
        "blind76": "paraphrases_blind76.yaml",
        "blind77": "paraphrases_blind77.yaml",
        "blind78": "paraphrases_blind78.yaml",
        "blind79": "paraphrases_blind79.yaml",
        "blind80": "paraphrases_blind80.yaml",
        "blind81": "paraphrases_blind81.yaml",
        "blind82": "paraphrases_blind82.yaml",
        "blind83": "paraphrases_blind83.yaml",
        "blind84": "paraphrases_blind84.yaml",
        "blind85": "paraphrases_blind85.yaml",
        "blind86": "paraphrases_blind86.yaml",
        "blind87": "paraphrases_blind87.yaml",
        "blind88": "paraphrases_blind88.yaml",
        "blind89": "paraphrases_blind89.yaml",
        "blind90": "paraphrases_blind90.yaml",
        "blind91": "paraphrases_blind91.yaml",
        "blind92": "paraphrases_blind92.yaml",
        "blind93": "paraphrases_blind93.yaml",
        "blind94": "paraphrases_blind94.yaml",
        "blind95": "paraphrases_blind95.yaml",
        "blind96": "paraphrases_blind96.yaml",
        "blind97": "paraphrases_blind97.yaml",
        "blind98": "paraphrases_blind98.yaml",
        "blind99": "paraphrases_blind99.yaml",
        "blind100": "paraphrases_blind100.yaml",
        "blind101": "paraphrases_blind101.yaml",
        "blind102": "paraphrases_blind102.yaml",
        "blind103": "paraphrases_blind103.yaml",
        "blind104": "paraphrases_blind104.yaml",
        "blind105": "paraphrases_blind105.yaml",
        "blind106": "paraphrases_blind106.yaml",
        "blind107": "paraphrases_blind107.yaml",
        "blind108": "paraphrases_blind108.yaml",
        "blind109": "paraphrases_blind109.yaml",
        "blind110": "paraphrases_blind110.yaml",
        "blind111": "paraphrases_blind111.yaml",
        "blind112": "paraphrases_blind112.yaml",
        "blind113": "paraphrases_blind113.yaml",
        "blind114": "paraphrases_blind114.yaml",
        "blind115": "paraphrases_blind115.yaml",
        "blind116": "paraphrases_blind116.yaml",
        "blind117": "paraphrases_blind117.yaml",
        "blind118": "paraphrases_blind118.yaml",
        "blind119": "paraphrases_blind119.yaml",
        "blind120": "paraphrases_blind120.yaml",
        "blind121": "paraphrases_blind121.yaml",
        "blind122": "paraphrases_blind122.yaml",
        "blind123": "paraphrases_blind123.yaml",
        "blind124": "paraphrases_blind124.yaml",
        "blind125": "paraphrases_blind125.yaml",
        "blind126": "paraphrases_blind126.yaml",
        "blind127": "paraphrases_blind127.yaml",
        "blind128": "paraphrases_blind128.yaml",
        "blind129": "paraphrases_blind129.yaml",
        "blind130": "paraphrases_blind130.yaml",
        "blind131": "paraphrases_blind131.yaml",
        "blind132": "paraphrases_blind132.yaml",
        "blind133": "paraphrases_blind133.yaml",
        "blind134": "paraphrases_blind134.yaml",
        "blind135": "paraphrases_blind135.yaml",
        "blind136": "paraphrases_blind136.yaml",
        "blind137": "paraphrases_blind137.yaml",
        "blind138": "paraphrases_blind138.yaml",
        "blind139": "paraphrases_blind139.yaml",
        "blind140": "paraphrases_blind140.yaml",
        "blind141": "paraphrases_blind141.yaml",
        "blind142": "paraphrases_blind142.yaml",
        "blind143": "paraphrases_blind143.yaml",
        "blind144": "paraphrases_blind144.yaml",
        "blind145": "paraphrases_blind145.yaml",
        "blind146": "paraphrases_blind146.yaml",
        "blind147": "paraphrases_blind147.yaml",
        "blind148": "paraphrases_blind148.yaml",
        "blind149": "paraphrases_blind149.yaml",
        "blind150": "paraphrases_blind150.yaml",
        "blind151": "paraphrases_blind151.yaml",
        "blind152": "paraphrases_blind152.yaml",
        "blind153": "paraphrases_blind153.yaml",
        "blind154": "paraphrases_blind154.yaml",
        "blind155": "paraphrases_blind155.yaml",
        "blind156": "paraphrases_blind156.yaml",
        "blind157": "paraphrases_blind157.yaml",
        "blind158": "paraphrases_blind158.yaml",
        "blind159": "paraphrases_blind159.yaml",
        "blind160": "paraphrases_blind160.yaml",
        "blind161": "paraphrases_blind161.yaml",
        "blind162": "paraphrases_blind162.yaml",
        "blind163": "paraphrases_blind163.yaml",
        "blind164": "paraphrases_blind164.yaml",
        "blind165": "paraphrases_blind165.yaml",
        "blind166": "paraphrases_blind166.yaml",
        "blind167": "paraphrases_blind167.yaml",
        "blind168": "paraphrases_blind168.yaml",
        "blind169": "paraphrases_blind169.yaml",
        "blind170": "paraphrases_blind170.yaml",
        "blind171": "paraphrases_blind171.yaml",
        "blind172": "paraphrases_blind172.yaml",
        "blind173": "paraphrases_blind173.yaml",
        "blind174": "paraphrases_blind174.yaml",
        "blind175": "paraphrases_blind175.yaml",
        "blind176": "paraphrases_blind176.yaml",
        "blind177": "paraphrases_blind177.yaml",
        "blind178": "paraphrases_blind178.yaml",
        "blind179": "paraphrases_blind179.yaml",
        "blind180": "paraphrases_blind180.yaml",
        "blind181": "paraphrases_blind181.yaml",
        "blind182": "paraphrases_blind182.yaml",
        "blind183": "paraphrases_blind183.yaml",
        "blind184": "paraphrases_blind184.yaml",
        "blind185": "paraphrases_blind185.yaml",
        "blind186": "paraphrases_blind186.yaml",
        "blind187": "paraphrases_blind187.yaml",
        "blind188": "paraphrases_blind188.yaml",
        "blind189": "paraphrases_blind189.yaml",
        "blind190": "paraphrases_blind190.yaml",
        "blind191": "paraphrases_blind191.yaml"}


def load_set(name, brain):
    path = ROOT / "bench" / SETS[name]
    return original_cases(path) if name == "original" else heldout_cases(path, [e.id for e in brain.faq])


def score(brain, specs, cases):
    """(in-domain right, in-domain misses, off-topic accepted, 'did you mean' among the misses)."""
    hits, wrong, taken, asked = [], [], [], 0
    for case in cases:
        frame = brain.policy.understand(case.say, specs)
        got = label(brain, frame)
        if case.expect == "off_topic":
            if accepted(got):
                taken.append((case, got, frame.args))
        elif right(case, got, frame):
            hits.append(case)
        else:
            wrong.append((case, got, frame.args))
            asked += frame.kind == "suggest"
    return hits, wrong, taken, asked


def report(name, cases, hits, wrong, taken, asked, accept) -> None:
    n, off = len(hits) + len(wrong), len(cases) - len(hits) - len(wrong)
    print(f"[{name}] accept {accept:.2f}: intent accuracy {len(hits)}/{n} = {100 * len(hits) / n:.1f} % "
          f"({asked} 'did you mean' among the misses); off-topic accepted {len(taken)}/{off} = "
          f"{100 * len(taken) / off:.1f} %")


def breakdown(cases, wrong, taken) -> None:
    """Right / all per kind of request, with each miss: what it became, with which arguments."""
    misses = collections.defaultdict(list)
    for case, got, got_args in wrong + taken:
        misses[case.kind].append((case, got, got_args))
    counts = collections.Counter(c.kind for c in cases)
    for kind, total in sorted(counts.items(), key=lambda kv: (-len(misses[kv[0]]), kv[0])):
        bad = misses[kind]
        verb = "accepted" if kind == "off_topic" else "right"
        shown = len(bad) if kind == "off_topic" else total - len(bad)
        print(f"   {kind:<28} {verb} {shown}/{total}")
        for case, got, got_args in bad:
            want = case.expect + (f" {case.args}" if case.args else "")
            print(f"      {case.say!r}: wanted {want}, got {got}" + (f" {got_args}" if got_args else ""))


def paraphrases(args) -> None:
    from phanthy_agent.brains.offline import OfflineBrain
    brain = OfflineBrain.from_files(CONFIG / "offline_intents.yaml", CONFIG / "faq.yaml")
    specs = museum_specs()
    shipped, memory = brain.cfg.accept, brain.policy.examples
    for name in (list(SETS) if args.set == "all" else [args.set]):
        cases = load_set(name, brain)
        brain.cfg.accept = shipped
        # a set the example memory holds is measured without it (bench/example_memory.py)
        brain.policy.examples = memory.without([name]) if memory is not None and not args.rules_only else None
        hits, wrong, taken, asked = score(brain, specs, cases)
        n = len(hits) + len(wrong)
        print(f"== {name}: bench/{SETS[name]}: {len(cases)} utterances, {n} in domain over "
              f"{len({c.kind for c in cases}) - 1} kinds of request, {len(cases) - n} off-topic")
        report(name, cases, hits, wrong, taken, asked, shipped)
        breakdown(cases, wrong, taken)
        for accept in ([a / 100 for a in range(36, 64, 2)] if args.sweep else []):
            brain.cfg.accept = accept
            report(name, cases, *score(brain, specs, cases), accept)
    brain.cfg.accept = shipped


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
    p.add_argument("--set", choices=("all",) + tuple(SETS), default="all")
    p.add_argument("--sweep", action="store_true")
    p.add_argument("--rules-only", action="store_true", help="without the example memory (the rules alone)")
    s = sub.add_parser("speed")
    s.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    {"paraphrases": paraphrases, "speed": speed}[args.what](args)


if __name__ == "__main__":
    asyncio.set_event_loop(asyncio.new_event_loop())
    main()
