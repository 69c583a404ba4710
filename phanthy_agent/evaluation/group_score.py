"""The group-conversation benchmark's runner and scorer, with Jarvis's metrics.

`replay` feeds a generated conversation turn by turn to a backbone, as the proactive node does
in text mode: after each turn the gate is asked, and an intervention it lets through is said
in the opening that follows (the floor itself is tested on its own, floor.py). `score` maps
each intervention to the event whose problem turn it is about (its claim's turn) and counts:
  addressed       gap / wrong / misattribution events with an intervention on them
  correct         it states the gold value and cites the gold sentence (partial: one of the two)
  silent          self-corrections and resolved questions with no intervention on them
  invented        unanswerable questions answered anyway
  within 3 turns  addressed events whose intervention came at most 3 ordinary turns after
  ordinary        interventions about an ordinary turn, per 100 ordinary turns
  resolvable      interventions whose every citation resolves in the documents
"""

from __future__ import annotations

import dataclasses
import statistics
import time
from typing import Callable, Dict, List, Sequence

from phanthy_agent.group.backbone import Backbone, Intervention
from phanthy_agent.group.documents import DocumentLibrary
from phanthy_agent.group.monitor import Turn
from phanthy_agent.group.quantities import extract, same_value

from .group_conversations import SILENT, SPEAK, Conversation, Event

OPENING_S = 1.5  # the opening after a turn, when the robot speaks (text mode)


@dataclasses.dataclass
class Said:
    intervention: Intervention
    after_turn: int  # the conversation turn it followed


@dataclasses.dataclass
class Replay:
    conversation: Conversation
    said: List[Said]
    monitor_ms: List[float]  # time of backbone.hear per ordinary turn (monitor + guard + ledger)


def replay(conversation: Conversation, backbone: Backbone) -> Replay:
    said: List[Said] = []
    times: List[float] = []
    for planned in conversation.turns:
        turn = Turn(planned.index, planned.speaker, planned.text, planned.stamp)
        start = time.perf_counter()
        backbone.hear(turn)
        times.append((time.perf_counter() - start) * 1000.0)
        now = planned.stamp + OPENING_S
        intervention = backbone.next_intervention(now)
        if intervention is not None:
            intervention.state = "delivered"
            said.append(Said(intervention, planned.index))
            backbone.robot_said(Turn(planned.index, "robot", intervention.text, now, robot=True))
    return Replay(conversation, said, times)


def states(value: str, text: str) -> bool:
    gold = extract(value)
    if gold:
        return any(same_value(gold[0], q) for q in extract(text))
    return value.lower() in text.lower()


def grade(event: Event, intervention: Intervention) -> str:
    """correct | partial | incorrect (against the gold value and sentence)."""
    right = states(event.value, intervention.text) if event.value else False
    cited = event.sentence in intervention.citations
    return "correct" if right and cited else ("partial" if right or cited else "incorrect")


def score(replays: Sequence[Replay], library: DocumentLibrary) -> Dict[str, object]:
    per_kind: Dict[str, Dict[str, int]] = {}
    ordinary_turns = ordinary_hits = total = resolvable = within = addressed_all = 0
    grades = {"correct": 0, "partial": 0, "incorrect": 0}
    lateness: List[int] = []
    for run in replays:
        by_turn = {e.turn: e for e in run.conversation.events}
        ordinary_turns += sum(1 for t in run.conversation.turns if t.event < 0)
        hits: Dict[int, List[Said]] = {}
        for said in run.said:
            total += 1
            if library.resolve(said.intervention.citations) is not None and said.intervention.citations:
                resolvable += 1
            event = by_turn.get(said.intervention.problem_turn)
            if event is None:
                ordinary_hits += 1
                continue
            hits.setdefault(event.id, []).append(said)
        for event in run.conversation.events:
            row = per_kind.setdefault(event.kind, {"events": 0, "spoke": 0, "correct": 0, "partial": 0,
                                                   "incorrect": 0, "within_3": 0})
            row["events"] += 1
            on_it = hits.get(event.id, [])
            if not on_it:
                continue
            row["spoke"] += 1
            first = on_it[0]
            if event.kind in SPEAK:
                verdict = grade(event, first.intervention)
                row[verdict] += 1
                grades[verdict] += 1
                addressed_all += 1
                late = first.intervention.turns_late
                lateness.append(late)
                if late <= 3:
                    row["within_3"] += 1
                    within += 1
    def share(a: int, b: int) -> float:
        return round(100.0 * a / b, 2) if b else 0.0
    speak_events = sum(per_kind.get(k, {}).get("events", 0) for k in ("wrong", "misattribution"))
    speak_spoke = sum(per_kind.get(k, {}).get("spoke", 0) for k in ("wrong", "misattribution"))
    silent_events = sum(per_kind.get(k, {}).get("events", 0) for k in ("self_correction", "resolved"))
    silent_spoke = sum(per_kind.get(k, {}).get("spoke", 0) for k in ("self_correction", "resolved"))
    gap = per_kind.get("gap", {"events": 0, "spoke": 0})
    unanswerable = per_kind.get("unanswerable", {"events": 0, "spoke": 0})
    return {
        "events": sum(r["events"] for r in per_kind.values()),
        "ordinary_turns": ordinary_turns,
        "interventions": total,
        "silent_after_self_repair_pct": share(silent_events - silent_spoke, silent_events),
        "self_correction_silent_pct": share(per_kind.get("self_correction", {}).get("events", 0)
                                            - per_kind.get("self_correction", {}).get("spoke", 0),
                                            per_kind.get("self_correction", {}).get("events", 0)),
        "resolved_silent_pct": share(per_kind.get("resolved", {}).get("events", 0)
                                     - per_kind.get("resolved", {}).get("spoke", 0),
                                     per_kind.get("resolved", {}).get("events", 0)),
        "gaps_addressed_pct": share(gap["spoke"], gap["events"]),
        "wrong_addressed_pct": share(speak_spoke, speak_events),
        "number_swaps_addressed_pct": share(per_kind.get("wrong", {}).get("spoke", 0),
                                            per_kind.get("wrong", {}).get("events", 0)),
        "misattributions_addressed_pct": share(per_kind.get("misattribution", {}).get("spoke", 0),
                                               per_kind.get("misattribution", {}).get("events", 0)),
        "correct_or_partial_pct": share(grades["correct"] + grades["partial"], addressed_all),
        "correct_pct": share(grades["correct"], addressed_all),
        "invented_pct": share(unanswerable["spoke"], unanswerable["events"]),
        "within_3_turns_pct": share(within, addressed_all),
        "median_turns_late": statistics.median(lateness) if lateness else None,
        "ordinary_per_100": round(100.0 * ordinary_hits / ordinary_turns, 3) if ordinary_turns else 0.0,
        "citations_resolvable_pct": share(resolvable, total),
        "per_kind": per_kind,
    }


def timing(replays: Sequence[Replay]) -> Dict[str, float]:
    times = sorted(t for r in replays for t in r.monitor_ms)
    if not times:
        return {}
    return {"turns": len(times), "median_ms": round(statistics.median(times), 2),
            "p95_ms": round(times[int(0.95 * (len(times) - 1))], 2), "max_ms": round(times[-1], 2)}


def run_all(conversations: Sequence[Conversation], make_backbone: Callable[[], Backbone]) -> List[Replay]:
    return [replay(conv, make_backbone()) for conv in conversations]


def misses(replays: Sequence[Replay], kinds=SPEAK + SILENT, limit: int = 20) -> List[str]:
    """What went wrong, readable (for tuning): events not handled as they should be, and
    interventions on ordinary turns."""
    out = []
    for run in replays:
        turns = run.conversation.turns
        spoken = {s.intervention.problem_turn: s for s in run.said}
        for event in run.conversation.events:
            if event.kind not in kinds:
                continue
            hit = spoken.get(event.turn)
            if event.kind in SPEAK and hit is not None and grade(event, hit.intervention) != "correct":
                out.append(f"{event.kind:15} {grade(event, hit.intervention).upper():7} {turns[event.turn].text!r}"
                           f" (gold {event.sentence} {event.value!r}) -> {hit.intervention.text!r}")
            if (event.kind in SPEAK) != (hit is not None):
                out.append(f"{event.kind:15} {'MISSED' if hit is None else 'SPOKE '} {turns[event.turn].text!r}"
                           + (f" -> {hit.intervention.text!r}" if hit else ""))
        events = {e.turn for e in run.conversation.events}
        for said in run.said:
            if said.intervention.problem_turn not in events:
                out.append(f"{'ordinary':15} SPOKE  {turns[said.intervention.problem_turn].text!r} -> "
                           f"{said.intervention.text!r}")
    return out[:limit]
