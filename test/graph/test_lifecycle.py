"""Managed nodes and their health, over real DDS: the transitions (through the lifecycle
services other ROS 2 tools use), what each node reports on /diagnostics, and the watchdog that
reports a node that stopped publishing."""

import array
import socket
import time
import uuid

import pytest
from diagnostic_msgs.msg import DiagnosticArray
from lifecycle_msgs.msg import Transition
from lifecycle_msgs.srv import ChangeState, GetState
from rclpy.node import Node
from rclpy.parameter import Parameter

from phanthy.msg import AudioFrame
from phanthy_agent.ros.tool_client import RosToolExecutor
from phanthy_common.convert import header
from phanthy_drivers.sim_face import make_face
from phanthy_perception.vad_node import VadNode
from support.ros_harness import Collect, LoopThread, spin, wait_for


class LifecycleClient:
    """What `ros2 lifecycle set/get` does: the node's lifecycle services."""

    def __init__(self, probe: Node, node_path: str):
        self.change = probe.create_client(ChangeState, f"{node_path}/change_state")
        self.get = probe.create_client(GetState, f"{node_path}/get_state")

    def _call(self, client, request):
        assert client.wait_for_service(timeout_sec=10.0), f"no service {client.srv_name}"
        future = client.call_async(request)
        wait_for(future.done, 10.0, f"{client.srv_name} to answer")
        return future.result()

    def set(self, transition_id: int) -> bool:
        return self._call(self.change, ChangeState.Request(transition=Transition(id=transition_id))).success

    def state(self) -> str:
        return self._call(self.get, GetState.Request()).current_state.label


@pytest.fixture
def probe(ros):
    node = Node(f"probe_{uuid.uuid4().hex[:6]}")
    yield node
    node.destroy_node()


def silence(stamp: float) -> AudioFrame:
    return AudioFrame(header=header(stamp), sample_rate=16000, channels=1, data=array.array("h", bytes(640)))


def test_vad_loads_its_model_at_configure_and_takes_audio_only_while_active(probe):
    ns = f"/lc{uuid.uuid4().hex[:6]}"
    vad = VadNode(namespace=ns, autostart=False)
    mic = probe.create_publisher(AudioFrame, f"{ns}/audio/in", 200)
    manager = LifecycleClient(probe, f"{ns}/vad")
    group = spin(vad, probe)
    try:
        assert manager.state() == "unconfigured" and not hasattr(vad, "stream")
        assert manager.set(Transition.TRANSITION_CONFIGURE) and manager.state() == "inactive"
        assert vad.stream.model.model_path.endswith(".onnx")  # the model is loaded at configure
        wait_for(lambda: mic.get_subscription_count() == 1, 10, "the vad's subscription")
        for i in range(10):
            mic.publish(silence(time.time() + i * 0.02))
        time.sleep(0.5)  # frames of an inactive node must not be processed: give them time to arrive
        assert vad.frames == 0
        assert manager.set(Transition.TRANSITION_ACTIVATE) and manager.state() == "active"
        for i in range(10):
            mic.publish(silence(time.time() + i * 0.02))
        wait_for(lambda: vad.frames == 10, 10, "the active vad to take the frames")
        assert manager.set(Transition.TRANSITION_DEACTIVATE) and manager.set(Transition.TRANSITION_CLEANUP)
        assert manager.state() == "unconfigured" and vad.stream is None
        wait_for(lambda: mic.get_subscription_count() == 0, 10, "the subscription to go with cleanup")
        assert manager.set(Transition.TRANSITION_CONFIGURE) and manager.set(Transition.TRANSITION_ACTIVATE)
        wait_for(lambda: mic.get_subscription_count() == 1, 10, "one subscription again, not two")
    finally:
        group.stop()
    assert vad.lifecycle_state == "finalized", "the runtime shuts managed nodes down"


def test_a_refused_configuration_leaves_the_node_unconfigured_and_says_why(ros):
    vad = VadNode(namespace=f"/lc{uuid.uuid4().hex[:6]}", autostart=False,
                  parameter_overrides=[Parameter("threshold", value=1.5)])
    try:
        vad.trigger_configure()
        assert vad.lifecycle_state == "unconfigured"
        assert "threshold" in str(vad._transition_error)
        assert not list(vad.subscriptions), "nothing half-built is left behind"
    finally:
        vad.destroy_node()


def test_an_inactive_driver_refuses_calls_and_a_node_configured_at_start_refuses_cleanup(probe):
    ns = f"/lc{uuid.uuid4().hex[:6]}"
    face = make_face(namespace=ns)
    loop = LoopThread()
    done = []
    executor = RosToolExecutor(probe, loop.loop, server_wait_s=10.0)
    executor.bind(lambda *a: done.append(a), lambda *a: None)
    group = spin(face, probe)
    try:
        face.trigger_deactivate()
        started = loop.run(executor.start(f"{ns.strip('/')}/face", "show", {"state": "thinking"}))
        wait_for(lambda: any(d[0] == started.action_id for d in done), 10, "the refusal")
        _, status, _, error = next(d for d in done if d[0] == started.action_id)
        assert status == "failed" and "inactive (lifecycle)" in error and face.shown == "idle"
        face.trigger_cleanup()
        assert face.lifecycle_state == "inactive", "cleanup refused: it configures at start only"
        face.trigger_activate()
        started = loop.run(executor.start(f"{ns.strip('/')}/face", "show", {"state": "thinking"}))
        wait_for(lambda: face.shown == "thinking", 10, "the call once active again")
    finally:
        group.stop()
        loop.stop()


def test_an_inactive_peers_driver_leaves_the_fleet_and_rejoins_when_activated(probe):
    from phanthy.msg import PeerAnnounce
    from phanthy_drivers.peers import FLEET_QOS, PeersDriver
    peer_id = f"lc-{uuid.uuid4().hex[:6]}"
    peers = PeersDriver(namespace=f"/lc{uuid.uuid4().hex[:6]}", parameter_overrides=[
        Parameter("peer_id", value=peer_id), Parameter("announce_period_s", value=0.2)])
    announced = Collect(probe, PeerAnnounce, "/phanthy/peers", FLEET_QOS)
    diagnostics = Collect(probe, DiagnosticArray, "/diagnostics", 50)
    mine = lambda: [m for m in announced.snapshot() if m.peer_id == peer_id]  # noqa: E731
    reports = lambda: sum(1 for a in diagnostics.snapshot()  # noqa: E731
                          if a.status and a.status[0].hardware_id == peers.get_fully_qualified_name())
    group = spin(peers, probe)
    try:
        wait_for(lambda: len(mine()) >= 2, 20, "its announcements")
        peers.trigger_deactivate()
        before, heard = len(mine()), reports()
        # two more health reports of the node (1 s apart): at least five announcement periods
        wait_for(lambda: reports() >= heard + 2, 20, "two health reports of the inactive node")
        assert len(mine()) <= before + 1, "an inactive driver serves no calls, so it does not announce itself"
        peers.trigger_activate()
        wait_for(lambda: len(mine()) >= before + 3, 20, "announcements once active again")
    finally:
        group.stop()


def latest(diagnostics: Collect, name: str):
    for array_msg in reversed(diagnostics.snapshot()):
        for status in array_msg.status:
            if status.name == name:
                return status
    return None


def values(status) -> dict:
    return {kv.key: kv.value for kv in status.values}


def test_the_nodes_report_their_health_and_the_watchdog_reports_a_node_that_stopped(graph_factory, probe):
    with socket.socket() as s:  # an LLM endpoint nobody answers: the offline brain answers instead
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
    g = graph_factory(nodes=("collector", "agent", "speaker", "face", "health"),
                      params={"agent": {"agent.brain": "openai", "agent.fallback_brain": "offline",
                                        "llm.base_url": dead, "llm.timeout_s": 1.0, "llm.max_retries": 0},
                              "health": {"stale_after_s": 2.0}})
    diagnostics = Collect(probe, DiagnosticArray, "/diagnostics", 200)
    probe_group = spin(probe)
    try:
        g.say("when do you close")
        g.wait_turns(1)
        agent, ns = f"{g.ns}/agent", g.ns

        def reported(name, predicate=lambda s: True):
            wait_for(lambda: (s := latest(diagnostics, name)) is not None and predicate(s), 15, name)
            return latest(diagnostics, name)

        brain = reported(f"{agent}: brain", lambda s: values(s).get("llm_failures") not in (None, "0"))
        assert brain.level == bytes([1]) and "cannot reach" in values(brain)["last_error"]
        speaker = reported(f"{agent}: driver speaker")
        assert speaker.level == bytes([0]) and values(speaker)["reachable"] == "True"
        queues = reported(f"{ns}/collector: queues")
        assert int(values(queues)["depth.speech"]) >= 1
        assert reported(f"{ns}/speaker: lifecycle").message == "active"
        reported(f"{ns}/speaker: tools", lambda s: values(s)["succeeded"] != "0")  # the turn's speech
        assert reported(f"{ns}/health: {ns}/face").level == bytes([0])

        # the face dies: its executor stops (no more diagnostics) and its action servers go
        face = g.nodes["face"]
        g.group.executors[list(g.nodes).index("face")].shutdown(timeout_sec=3.0)
        for server in face._servers:
            server.destroy()
        stale = reported(f"{ns}/health: {ns}/face", lambda s: s.level == bytes([3]))
        assert "stopped publishing" in stale.message
        unreachable = reported(f"{agent}: driver face", lambda s: s.level == bytes([2]))
        assert "not reachable" in unreachable.message
    finally:
        probe_group.stop()


def test_the_watchdog_reports_a_watched_topic_that_stays_silent_and_clears_when_it_flows(probe):
    from phanthy_agent.ros.health_node import HealthNode
    ns = f"/lc{uuid.uuid4().hex[:6]}"
    health = HealthNode(namespace=ns, parameter_overrides=[
        Parameter("topics.microphone.topic", value="audio/in"),
        Parameter("topics.microphone.type", value="phanthy/msg/AudioFrame"),
        Parameter("topics.microphone.max_silence_s", value=0.5)])
    mic = probe.create_publisher(AudioFrame, f"{ns}/audio/in", 200)
    group = spin(health, probe)
    source = f"topic {ns}/audio/in"
    try:
        wait_for(lambda: any(s.name == source and s.level == 3 for s in health.diagnostics()), 10, "stale")
        assert "never heard" in next(s.message for s in health.diagnostics() if s.name == source)
        wait_for(lambda: mic.get_subscription_count() == 1, 10, "the watchdog's subscription")

        def flowing():
            mic.publish(silence(time.time()))
            return any(s.name == source and s.level == 0 for s in health.diagnostics())
        wait_for(flowing, 10, "the microphone to count as flowing")
    finally:
        group.stop()
