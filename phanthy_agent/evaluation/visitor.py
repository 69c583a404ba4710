"""Goal-driven simulated visitors: given the robot's last reply, what the visitor says next
(None: the visitor is done). Plain Python; the run (run_one.py) speaks what they decide.

- `RulesVisitor`: scripted rules, `when` (a regex over the robot's reply) -> `say`; the first
  rule that matches and has not been used (rules are `once` by default) wins; `otherwise` is
  said when none does (else the visitor is done). Deterministic.
- `OpenAIVisitor`: any OpenAI-compatible chat model plays the visitor with the private goal;
  it answers "[done]" when the goal is reached or cannot be.
"""

from __future__ import annotations

import logging
import os
import re
from typing import List, Optional

from .scenario import VisitorBrain

log = logging.getLogger(__name__)

DONE = "[done]"
VISITOR_PROMPT = (
    "You are a museum visitor talking to the museum's guide robot. Your goal, which the robot "
    "does not know: {goal}\nSay one short spoken sentence at a time, in plain words, as a visitor "
    "would. Give details (your name, a booking code) only when asked. When your goal is reached, "
    f"or clearly cannot be, answer exactly {DONE}.")


class RulesVisitor:
    def __init__(self, brain: VisitorBrain):
        self._rules = [(re.compile(r.when, re.IGNORECASE), r) for r in brain.rules]
        self._used: set = set()
        self._otherwise = brain.otherwise

    def next(self, robot_reply: str) -> Optional[str]:
        for index, (pattern, rule) in enumerate(self._rules):
            if rule.once and index in self._used:
                continue
            if pattern.search(robot_reply or ""):
                self._used.add(index)
                return rule.say
        return self._otherwise


class OpenAIVisitor:
    def __init__(self, brain: VisitorBrain, goal: str, opening: str, timeout_s: float = 30.0):
        import openai  # the agent's own dependency
        self._client = openai.OpenAI(base_url=brain.base_url, api_key=os.environ.get(brain.api_key_env, "none"),
                                     timeout=timeout_s, max_retries=1)
        self._model = brain.model
        self._messages: List[dict] = [{"role": "system", "content": VISITOR_PROMPT.format(goal=goal)},
                                      {"role": "assistant", "content": opening}]

    def next(self, robot_reply: str) -> Optional[str]:
        # roles swapped: for the visitor's model, the robot is the "user"
        self._messages.append({"role": "user", "content": robot_reply or "(the robot said nothing)"})
        try:
            reply = self._client.chat.completions.create(model=self._model, messages=self._messages,
                                                         temperature=0.0)
        except Exception as exc:  # the visitor's model is down: the visitor stops, the run is graded
            log.error("the visitor's model failed: %s", exc)
            return None
        text = (reply.choices[0].message.content or "").strip()
        self._messages.append({"role": "assistant", "content": text})
        return None if not text or DONE in text else text


def make_visitor(brain: VisitorBrain, goal: str, opening: str):
    return OpenAIVisitor(brain, goal, opening) if brain.kind == "openai" else RulesVisitor(brain)
