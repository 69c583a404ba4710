"""Optional `judge:` assertions: natural-language checks graded by an LLM over the same trace
(`phanthy eval --judge`). Never the only grader: a run's verdict comes from the deterministic
assertions, and the summary reports how often the judge agreed with them where a scenario has
both. The endpoint: PHANTHY_JUDGE_BASE_URL (default http://127.0.0.1:8080/v1),
PHANTHY_JUDGE_MODEL (default "default"), the key in OPENAI_API_KEY."""

from __future__ import annotations

import json
import logging
import os
from typing import Callable, List

from .assertions import Verdict
from .scenario import Scenario
from .trace import Trace

log = logging.getLogger(__name__)

PROMPT = ("You grade a conversation between a museum visitor and a robot. Below is the joint trace "
          "(what each said, the robot's tool calls with arguments and results). Answer with PASS or FAIL "
          "on the first line, then one sentence why.\nAssertion: {assertion}\nTrace:\n{trace}")
MAX_TRACE_CHARS = 12000


def _trace_text(trace: Trace) -> str:
    lines = []
    for e in trace.events:
        if e["kind"] == "visitor_said":
            lines.append(f"[{e['t']:.1f}s] visitor: {e['text']}")
        elif e["kind"] == "robot_said":
            lines.append(f"[{e['t']:.1f}s] robot ({e.get('status')}): {e.get('text')}")
        elif e["kind"] == "tool_call" and e.get("tool") != "speak":
            lines.append(f"[{e['t']:.1f}s] tool {e['tool']}({json.dumps(e.get('args'), ensure_ascii=False)}) -> "
                         f"{e.get('status')} {json.dumps(e.get('result'), ensure_ascii=False)[:400]} {e.get('error') or ''}")
    return "\n".join(lines)[:MAX_TRACE_CHARS]


def make_judge() -> Callable[[Scenario, Trace], List[Verdict]]:
    import openai
    client = openai.OpenAI(base_url=os.environ.get("PHANTHY_JUDGE_BASE_URL", "http://127.0.0.1:8080/v1"),
                           api_key=os.environ.get("OPENAI_API_KEY", "none"), timeout=60.0, max_retries=1)
    model = os.environ.get("PHANTHY_JUDGE_MODEL", "default")

    def judge(scenario: Scenario, trace: Trace) -> List[Verdict]:
        verdicts = []
        for index, assertion in enumerate(scenario.expect):
            if assertion.kind != "judge":
                continue
            try:
                reply = client.chat.completions.create(model=model, temperature=0.0, messages=[
                    {"role": "user", "content": PROMPT.format(assertion=assertion.judge, trace=_trace_text(trace))}])
                text = (reply.choices[0].message.content or "").strip()
                passed = text.upper().startswith("PASS")
            except Exception as exc:  # the judge is down: not graded, said so
                log.error("judge failed: %s", exc)
                text, passed = f"judge unavailable: {exc}", None
            verdicts.append(Verdict(index, "judge", assertion.judge, passed, assertion.judge, text[:500]))
        return verdicts

    return judge


def agreement(results) -> tuple:
    """(agreeing, compared): runs with both judge and deterministic assertions whose verdicts agree."""
    compared = [r for r in results if r.judge and any(v.kind != "judge" for v in r.verdicts)
                and all(v.passed is not None for v in r.judge)]
    agree = sum(all(v.passed for v in r.judge) == r.passed for r in compared)
    return agree, len(compared)
