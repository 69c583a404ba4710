"""The whole graph over real DDS: collector -> agent -> simulated drivers, scripted brain."""

import json
import time

from std_msgs.msg import String

from phanthy.msg import Event as EventMsg, ToolManifest
from phanthy_common.sdk import MANIFEST_QOS, DriverNode, ToolCall
from support.graph import RELIABLE, calls
from support.ros_harness import Collect, spin, wait_for


def tc(name, **args):
    return {"name": name, "arguments": args}


def test_take_me_to_the_dinosaur_hall_speaks_walks_and_ends_when_arrived(graph_factory):
    g = graph_factory([{"tool_calls": [tc("speak", text="Certainly, follow me."),
                                       tc("navigate_to", place="dinosaur_hall"), tc("finish")]}],
                      params={"base": {"speed_mps": 10.0}})
    face = Collect(g.probe, String, "face/state", 10)
    g.say("take me to the dinosaur hall")
    [turn] = g.wait_turns(1)
    assert turn.end_reason == "finished" and turn.inputs == ["take me to the dinosaur hall"]
    speak, nav = calls(turn)
    assert (speak["tool"], speak["status"]) == ("speak", "succeeded")
    assert (nav["tool"], nav["status"]) == ("navigate_to", "succeeded")
    assert nav["t_start"] >= speak["t_end"] - 0.05, "the walk starts after the speech ended"
    assert turn.t_end >= nav["t_end"] - 0.05, "the turn ends when the walk ended"
    assert turn.reply == "Certainly, follow me." and turn.brain == "scripted"
    assert turn.t_trigger <= turn.t_first_token <= turn.t_first_audio <= turn.t_end
    states = [s.state for s in g.states.snapshot()]
    assert {"thinking", "speaking", "acting", "idle"} <= set(states)
    shown = [m.data for m in face.wait(lambda ms: "idle" in [m.data for m in ms], what="face back to idle")]
    assert "thinking" in shown and "speaking" in shown


def test_the_backchannel_filter_reads_the_duration_perception_writes(graph_factory):
    # The reference implementation's filter never fired: it read a field nobody wrote. Here the
    # typed Transcript.audio_duration_ms travels through the collector into the agent's decision.
    long_text = "Fossils form when " + " ".join(["sediment"] * 60)
    g = graph_factory([{"tool_calls": [tc("speak", text=long_text), tc("finish")]}])
    g.say("tell me about fossils")
    g.states.wait(lambda ms: ms[-1].state == "speaking", what="speaking")
    g.say("mm-hm", duration_ms=300)
    wait_for(lambda: any("backchannel: 300 ms" in e.text for e in g.agent_events("dropped")),
             20, "the backchannel to be dropped")
    assert not g.turns.snapshot(), "a backchannel does not end the turn"
    g.say("wait, where is the cafe", duration_ms=900)
    first, second = g.wait_turns(2)
    assert first.end_reason == "interrupted" and second.inputs == ["wait, where is the cafe"]


def test_speaking_over_the_robot_stops_it_and_the_reply_is_what_was_heard(graph_factory):
    words = [f"word{i}" for i in range(80)]
    g = graph_factory([{"tool_calls": [tc("speak", text=" ".join(words)), tc("finish")]},
                       {"tool_calls": [tc("finish")]}])
    g.say("tell me everything")
    g.playback.wait(lambda ms: any(m.heard_text.count(" ") >= 3 for m in ms), what="a few words played")
    g.say("actually where is the gift shop")
    first, second = g.wait_turns(2)
    assert first.end_reason == "interrupted"
    heard = first.reply.split()
    assert 3 <= len(heard) < len(words) and heard == words[:len(heard)]
    assert calls(first)[0]["status"] == "cancelled", "an interrupted speech is cancelled, not succeeded"
    assert any(m.state == "stopped" for m in g.playback.snapshot())
    assert second.inputs == ["actually where is the gift shop"]


def test_a_correction_while_thinking_joins_the_running_turn(graph_factory):
    g = graph_factory([{"delay_s": 1.5, "tool_calls": [tc("speak", text="To the second floor.")]},
                       {"tool_calls": [tc("speak", text="Stairs it is."), tc("finish")]}])
    g.say("go to the second floor")
    g.states.wait(lambda ms: ms[-1].state == "thinking", what="thinking")
    g.say("take the stairs, not the lift")
    [turn] = g.wait_turns(1)
    assert turn.inputs == ["go to the second floor", "take the stairs, not the lift"]
    # the stale first answer is not acted on: the model re-plans with the correction first
    assert turn.end_reason == "finished" and turn.reply == "Stairs it is."
    skipped = json.loads(g.requests()[1]["messages"][-2]["content"])
    assert skipped["status"] == "skipped"
    assert len(g.agent_events("steering")) == 1


class Stubborn(DriverNode):
    """A driver that accepts a goal and then never answers (its process hangs)."""

    def __init__(self, namespace):
        super().__init__("stubborn", namespace=namespace)
        self.add_tool(self.hang, "Do something slowly.", acting=True, timeout_s=2.0)

    def hang(self, call: ToolCall) -> dict:
        call.wait(8.0)
        time.sleep(8.0 if call.cancelled else 0.0)  # ignores the cancel too, for a while
        return {}


def test_a_driver_that_never_answers_yields_timeout_not_a_hang(graph_factory):
    g = graph_factory([{"tool_calls": [tc("hang"), tc("finish")]}, {"tool_calls": [tc("finish")]}],
                      nodes=("collector", "agent"),
                      params={"agent": {"agent.cancel_confirm_timeout_s": 0.5}})
    stubborn = Stubborn(g.ns)
    group = spin(stubborn)
    try:
        agent = g.nodes["agent"]
        wait_for(lambda: "stubborn" in agent.call_in_core(agent.core.registry.drivers), 30, "stubborn manifest")
        g.say("do the slow thing")
        [turn] = g.wait_turns(1, timeout=60)
        [call] = calls(turn)
        assert call["status"] == "timeout"
        assert turn.end_reason == "finished" and turn.t_end - turn.t_trigger < 10
        notices = [m["content"] for m in g.requests()[1]["messages"] if "[action updates]" in m["content"]]
        assert notices and "timeout" in notices[-1], "the timeout reached the model"
    finally:
        group.stop()


def test_the_prefix_stays_byte_identical_across_turns_and_peers(graph_factory):
    from phanthy.msg import PeerAnnounce
    g = graph_factory([{"tool_calls": [tc("finish")]}] * 3,
                      nodes=("collector", "agent", "speaker", "base", "peers"),
                      params={"peers": {"peer_id": "guide-1"}, "agent": {"peers.self_id": "guide-1"}})
    announce = g.probe.create_publisher(PeerAnnounce, "/phanthy/peers", RELIABLE)
    g.say("hello")
    g.wait_turns(1)
    for _ in range(3):
        announce.publish(PeerAnnounce(peer_id="guide-2", description="cafe robot", ttl_s=1.5))
    agent = g.nodes["agent"]
    wait_for(lambda: any(p[0] == "guide-2" for p in agent.call_in_core(lambda: agent.core.peers)), 20, "peer")
    g.say("who else is here")
    g.wait_turns(2)
    wait_for(lambda: not agent.call_in_core(lambda: agent.core.peers), 20,
             lambda: f"the peer to expire (the agent still knows {agent.call_in_core(lambda: agent.core.peers)})")
    g.say("and now")
    g.wait_turns(3)
    requests = g.requests()
    systems = {r["messages"][0]["content"] for r in requests}
    tools = {json.dumps(r["tools"], sort_keys=True) for r in requests}
    assert len(requests) == 3 and len(systems) == 1 and len(tools) == 1
    names = [t["function"]["name"] for t in requests[0]["tools"]]
    assert "list_peers" in names and "send_to_peer" in names and "guide-2" not in requests[1]["tools"].__repr__()
    statuses = [r["messages"][1]["content"] for r in requests]
    assert "guide-2" not in statuses[0] and "guide-2 (cafe robot)" in statuses[1] and "guide-2" not in statuses[2]
    assert not any("guide-1" in status for status in statuses), "the robot never lists itself as a peer"


def test_a_sensor_flood_never_reaches_the_agent_and_does_not_hold_up_speech(graph_factory):
    from sensor_msgs.msg import BatteryState
    g = graph_factory([{"tool_calls": [tc("finish")]}] * 3, nodes=("collector", "agent"),
                      params={"collector": {
                          "sources.speech.topic": "voice/transcript", "sources.speech.type": "phanthy/msg/Transcript",
                          "sources.speech.priority": 10,
                          "sources.battery.topic": "battery", "sources.battery.type": "sensor_msgs/msg/BatteryState",
                          "sources.battery.priority": 0, "sources.battery.status": "battery {percentage:.0%}",
                          "sources.battery.alerts.low.when": "percentage < 0.2",
                          "sources.battery.alerts.low.text": "Battery low ({percentage:.0%})"}})
    battery = g.probe.create_publisher(BatteryState, "battery", 10)
    wait_for(lambda: battery.get_subscription_count() > 0, 20, "collector battery subscription")
    for i in range(3000):
        battery.publish(BatteryState(percentage=0.8))
    g.say("hello there")
    [turn] = g.wait_turns(1)
    assert turn.inputs == ["hello there"] and turn.trigger_source == "speech"
    for i in range(5):
        battery.publish(BatteryState(percentage=0.1))
        time.sleep(0.3)
    second = g.wait_turns(2)[1]
    assert second.trigger_source == "battery" and second.inputs == ["Battery low (10%)"]
    assert len(g.agent_events("accepted")) == 2, "only the alert reached the agent, not the readings"
    # the readings stay queryable through the collector's tool
    agent = g.nodes["agent"]
    assert "battery" in agent.call_in_core(lambda: agent.core.robot_status[0])


def test_bad_input_is_logged_and_nothing_stops(graph_factory):
    g = graph_factory([{"tool_calls": [{"name": "navigate_to", "arguments": "{not json"},
                                       {"name": "teleport", "arguments": {}},
                                       tc("navigate_to", place="atlantis"), tc("finish")]},
                       {"tool_calls": [tc("finish")]}],
                      nodes=("collector", "agent", "base"))
    bad = g.probe.create_publisher(ToolManifest, "phanthy/tools", MANIFEST_QOS)
    bad.publish(ToolManifest(driver="broken", tools_json="[{\"name\": 42}"))
    inbox = g.probe.create_publisher(EventMsg, "phanthy/events", RELIABLE)
    inbox.publish(EventMsg(source="x", priority=0, text="p0 must never reach the agent"))
    g.say("x" * 100_000)
    [turn] = g.wait_turns(1)
    assert turn.end_reason == "finished" and len(turn.inputs[0]) == 8000
    assert [(c["status"], c["action_id"]) for c in calls(turn)] == [("rejected", "")] * 3, \
        "no invalid call reached a driver, and the record shows each one"
    g.say("are you still there")
    g.wait_turns(2)
    history = g.requests()[1]["messages"]
    errors = [json.loads(m["content"]).get("error", m["content"]) for m in history if m["role"] == "tool"][:3]
    assert "not valid JSON" in errors[0]
    assert "unknown tool 'teleport'" in errors[1]
    assert "invalid arguments for navigate_to" in errors[2] and "atlantis" in errors[2]


def test_the_model_can_query_sensor_readings_it_never_receives(graph_factory):
    from sensor_msgs.msg import BatteryState
    g = graph_factory([{"tool_calls": [tc("query_events", source="battery", limit=2)]},
                       {"tool_calls": [tc("finish")]}],
                      nodes=("collector", "agent"),
                      params={"collector": {
                          "sources.speech.topic": "voice/transcript", "sources.speech.type": "phanthy/msg/Transcript",
                          "sources.speech.priority": 10, "sources.battery.topic": "battery",
                          "sources.battery.type": "sensor_msgs/msg/BatteryState", "sources.battery.priority": 0}})
    battery = g.probe.create_publisher(BatteryState, "battery", 10)
    wait_for(lambda: battery.get_subscription_count() > 0, 20, "collector battery subscription")
    collector = g.nodes["collector"]
    for level in (0.7, 0.6, 0.5):
        battery.publish(BatteryState(percentage=level))
    wait_for(lambda: collector.core.store.count("battery") >= 3, 20, "three readings buffered")
    g.say("how is your battery")
    g.wait_turns(1)
    [result] = [json.loads(m["content"]) for m in g.requests()[1]["messages"] if m["role"] == "tool"]
    assert result["status"] == "succeeded"
    events = result["result"]["events"]
    assert [round(e["data"]["percentage"], 2) for e in events] == [0.6, 0.5]
