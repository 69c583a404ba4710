"""The agent's state comes from facts (the model thinking, actions running, the speech tool's
action among them) and is published only when it changed, with the new state's hook."""

import json

from phanthy_agent.core.action_tracker import TrackedAction
from phanthy_agent.core.agent_status import AgentStatus, StatusPublisher, state_of
from phanthy_agent.core.tools import ToolRegistry

SPEAK = {"name": "speak", "description": "Say text.", "acting": True,
         "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}


def action(tool, driver):
    return TrackedAction("a-" + tool, tool, driver, {}, True, 100.0, 130.0)


def speech_tool():
    registry = ToolRegistry("speak")
    assert registry.update_manifest("speaker", json.dumps([SPEAK])) == []
    return registry.speech_tool()


def test_the_robot_is_speaking_while_the_speech_tools_action_runs_and_acting_for_any_other():
    speech = speech_tool()
    assert speech is not None
    assert state_of(False, True, [action("speak", "speaker"), action("navigate_to", "base")], speech) == "speaking"
    assert state_of(False, True, [action("navigate_to", "base")], speech) == "acting"
    assert state_of(False, False, [action("speak", "other_driver")], speech) == "acting"


def test_the_model_thinking_wins_and_a_turn_with_nothing_running_is_thinking_too():
    assert state_of(True, True, [action("navigate_to", "base")], None) == "thinking"
    assert state_of(False, True, [], None) == "thinking"
    assert state_of(False, False, [], None) == "idle"


def test_a_status_is_published_when_it_changes_and_the_hook_fires_when_the_state_does():
    sent, hooks = [], []
    publisher = StatusPublisher(sent.append, hooks.append)
    idle = AgentStatus("idle", "listening", "main", 0, "")
    publisher.publish(idle)
    publisher.publish(AgentStatus("idle", "listening", "main", 0, ""))
    publisher.publish(AgentStatus("idle", "stopped", "main", 0, ""))
    publisher.publish(AgentStatus("acting", "stopped", "main", 1, ""))
    publisher.publish(AgentStatus("speaking", "stopped", "main", 1, ""))
    assert [s.state for s in sent] == ["idle", "idle", "acting", "speaking"]
    assert hooks == ["on_idle", "on_speaking"], "acting has no hook; an unchanged state fires none"
