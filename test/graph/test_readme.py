"""The README stays true: its driver example runs and the agent uses it; its commands exist."""

import pathlib
import re


from support.graph import Graph, calls
from support.ros_harness import spin, wait_for

ROOT = pathlib.Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()


def driver_example() -> str:
    section = README.split("## Writing a driver", 1)[1]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_readme_has_exactly_one_setup_and_one_test_command():
    setup = README.split("## Setup (one command)", 1)[1].split("##", 1)[0]
    tests = README.split("## Tests (one command)", 1)[1].split("##", 1)[0]
    assert re.findall(r"```bash\n(.*?)\n```", setup, re.S) == ["bash scripts/setup.sh"]
    assert re.findall(r"```bash\n(.*?)\n```", tests, re.S) == [".venv/bin/python -m pytest"]
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bash scripts/setup.sh" in ci and ".venv/bin/python -m pytest" in ci


def test_the_driver_example_is_discovered_and_called_by_the_agent(ros, tmp_path):
    namespace = {"__name__": "arm_example"}
    exec(compile(driver_example(), "README.md", "exec"), namespace)  # noqa: S102 - our own README
    g = Graph(tmp_path, [{"tool_calls": [{"name": "wave", "arguments": {"times": 2}}, {"name": "finish"}]},
                         {"tool_calls": [{"name": "finish"}]}], nodes=("collector", "agent"))
    arm = namespace["ArmDriver"](namespace=g.ns)
    group = spin(arm)
    try:
        agent = g.nodes["agent"]
        wait_for(lambda: "arm" in agent.call_in_core(agent.core.registry.drivers), 30, "the arm's manifest")
        visible = agent.call_in_core(lambda: [t.visible_name for t in agent.core.registry.visible_tools()])
        assert "wave" in visible and "stop" not in visible
        g.say("wave at me twice")
        [turn] = g.wait_turns(1)
        [wave] = calls(turn)
        assert wave["status"] == "succeeded" and wave["t_end"] - wave["t_start"] >= 1.9
    finally:
        group.stop()
        g.close()
