"""Prompt tokens per turn with and without progressive skill disclosure, for 20 skills.

    .venv/bin/python bench/skills_tokens.py [--skills 20] [--turns 20] [--skill-every 4]

Builds the real system prefix (identity, the museum environment, the simulated robot's tools)
with ContextBuilder and 20 generated skills of realistic length (120-400 words each), then a
conversation of `--turns` turns in which every `--skill-every`-th turn needs one skill. Per
turn, the prompt is everything the model reads at each step: with progressive disclosure a
turn that needs a skill takes one more step (load_skill), whose prompt also carries the
skill's text; without it every skill is inlined in the prefix of every step.
History is left out (it is the same either way).

Tokens are counted with a GPT-2-family BPE (the `tokenizer.json` of the bundled Whisper
tiny.en model, through the `tokenizers` package): close to, not identical with, any given
chat model's count.
"""

import argparse
import json
import random
import statistics

from tokenizers import Tokenizer

from phanthy_agent.core.context import ContextBuilder, StatusSnapshot
from phanthy_agent.core.skills import Skill, SkillLibrary
from phanthy_agent.core.tools import LOAD_SKILL, ToolRegistry
from phanthy_common.params import resolve_config
from phanthy_perception.asr import resolve_model

TOOLS = {
    "speaker": [{"name": "speak", "description": "Say a sentence aloud.", "acting": True,
                 "parameters": {"type": "object", "properties": {"text": {"type": "string"}}}}],
    "base": [{"name": "navigate_to", "description": "Walk to a named place of the museum.", "acting": True,
              "parameters": {"type": "object", "properties": {"place": {"type": "string"}}}}],
    "face": [{"name": "show", "description": "Show an expression on the face screen.",
              "parameters": {"type": "object", "properties": {"state": {"type": "string"}}}}],
}
TOPICS = ["guided tour", "lost child", "ticket prices", "school groups", "wheelchair access",
          "cafe menu", "gift shop returns", "dinosaur facts", "planetarium shows", "first aid",
          "lockers", "photography rules", "membership", "events calendar", "audio guides",
          "birthday parties", "lost and found", "accessibility tours", "volunteering", "closing time"]
WORDS = ("visitor museum hall walk ask answer show place floor minutes child staff desk "
         "ticket price guide tour open close safety calm friendly explain offer wait").split()


def make_skills(n: int, rng: random.Random):
    skills = []
    for i in range(n):
        topic = TOPICS[i % len(TOPICS)]
        steps = []
        for step in range(rng.randint(6, 16)):
            steps.append(f"{step + 1}. " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(12, 24))) + ".")
        skills.append(Skill(topic.replace(" ", "_"), f"How to help with {topic}.", "\n".join(steps),
                            tools=("speak",)))
    return skills


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--skills", type=int, default=20)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--skill-every", type=int, default=4)
    args = parser.parse_args()
    tokenizer = Tokenizer.from_file(f"{resolve_model('')}/tokenizer.json")

    def tokens(text: str) -> int:
        return len(tokenizer.encode(text).ids)

    rng = random.Random(1)
    library = SkillLibrary(make_skills(args.skills, rng))
    environment = resolve_config("museum.md").read_text(encoding="utf-8")
    status = StatusSnapshot(wall_time=1_800_000_000.0, agent_state="thinking")
    results = {}
    for progressive in (True, False):
        registry = ToolRegistry()
        if progressive:
            registry.add_builtin(LOAD_SKILL)
        for driver, decls in TOOLS.items():
            registry.update_manifest(driver, json.dumps(decls))
        tools = registry.visible_tools()
        context = ContextBuilder(environment=environment, skills=library, progressive_skills=progressive)
        prefix = context.system_prefix(tools)
        tool_specs = json.dumps([t.spec() for t in tools])
        base = tokens(prefix) + tokens(tool_specs) + tokens(context.status_text(status))
        per_turn = []
        for turn in range(args.turns):
            user = tokens("Could you help me with something, please?")
            steps = 2  # act (speak), finish
            prompt = steps * (base + user)
            if progressive and turn % args.skill_every == 0:
                skill = list(library.skills.values())[turn % len(library)]
                loaded = tokens(json.dumps(library.load(skill.name, [t.visible_name for t in tools])))
                prompt += base + user + 2 * loaded + 20  # the load_skill step; its result read after
            per_turn.append(prompt)
        results[progressive] = (tokens(prefix), statistics.mean(per_turn))
    skill_tokens = [tokens(s.body) for s in library.skills.values()]
    print(f"{args.skills} skills, {min(skill_tokens)}-{max(skill_tokens)} tokens each "
          f"({sum(skill_tokens)} in all); {args.turns} turns, one skill every {args.skill_every}")
    for progressive, (prefix, mean) in results.items():
        label = "progressive disclosure" if progressive else "all skills inlined   "
        print(f"{label}: system prefix {prefix} tokens, prompt tokens per turn (all steps) {mean:.0f}")
    saved = 1 - results[True][1] / results[False][1]
    print(f"progressive disclosure reads {saved:.0%} fewer prompt tokens per turn")


if __name__ == "__main__":
    main()
