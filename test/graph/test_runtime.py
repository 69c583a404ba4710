"""The runtime's executors: nodes taking the 50 Hz microphone stream spin on rclpy's events
executor, and still get every message, timer tick and parameter request; a callback that
raises still ends the process loudly; stopping is prompt; the executor threads carry their
names at the OS level."""

import os
import uuid

import pytest
from rcl_interfaces.srv import GetParameters
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node
from std_msgs.msg import String

from phanthy_drivers import runtime
from support.ros_harness import wait_for


class Listener(Node):
    events_executor = True

    def __init__(self, topic: str, fail_on: str = ""):
        super().__init__(f"listener_{uuid.uuid4().hex[:6]}")
        self.declare_parameter("threshold", 0.5)
        self.heard, self.ticks, self.fail_on = [], 0, fail_on
        self.create_subscription(String, topic, self._on, 500)
        self.create_timer(0.05, self._tick)

    def _on(self, msg: String) -> None:
        if msg.data == self.fail_on:
            raise RuntimeError("a broken callback")
        self.heard.append(msg.data)

    def _tick(self) -> None:
        self.ticks += 1


@pytest.fixture
def topic():
    return f"runtime_{uuid.uuid4().hex[:6]}"


def talker():
    return Node(f"talker_{uuid.uuid4().hex[:6]}")


@pytest.mark.skipif(runtime.EventsExecutor is None, reason="this rclpy has no events executor")
def test_an_audio_node_gets_every_message_tick_and_parameter_request_on_the_events_executor(ros, topic):
    listener, other = Listener(topic), talker()
    group = runtime.NodeGroup([listener, other]).start()
    try:
        assert not isinstance(group.executors[0], SingleThreadedExecutor)
        assert isinstance(group.executors[1], SingleThreadedExecutor)  # the others as before
        pub = other.create_publisher(String, topic, 500)
        wait_for(lambda: pub.get_subscription_count() >= 1, 20, "the listener's subscription")
        for i in range(200):
            pub.publish(String(data=str(i)))
        wait_for(lambda: len(listener.heard) == 200, 20, "200 messages")
        assert listener.heard == [str(i) for i in range(200)]
        ticks = listener.ticks
        wait_for(lambda: listener.ticks >= ticks + 3, 20, "the timer")
        client = other.create_client(GetParameters, f"/{listener.get_name()}/get_parameters")
        assert client.wait_for_service(timeout_sec=20)
        future = client.call_async(GetParameters.Request(names=["threshold"]))
        wait_for(future.done, 20, "the parameter service")
        assert future.result().values[0].double_value == 0.5
        names = {open(f"/proc/self/task/{tid}/comm").read().strip() for tid in os.listdir("/proc/self/task")}
        assert f"ros-{listener.get_name()}"[:15] in names  # top -H / ps -L tell the nodes apart
    finally:
        group.stop()
    assert not any(t.is_alive() for t in group._threads)  # stop() joined them (3 s each at most)


def test_the_standard_executor_can_be_chosen_for_audio_nodes(ros, topic, monkeypatch):
    monkeypatch.setenv(runtime.EXECUTOR_ENV, "standard")
    listener = Listener(topic)
    try:
        assert isinstance(runtime.executor_for(listener), SingleThreadedExecutor)
    finally:
        listener.destroy_node()


def test_a_callback_that_raises_on_the_events_executor_is_a_crash_not_a_deaf_node(ros, topic):
    crashed = []
    listener, other = Listener(topic, fail_on="boom"), talker()
    group = runtime.NodeGroup([listener, other], on_crash=lambda: crashed.append(True)).start()
    try:
        pub = other.create_publisher(String, topic, 500)
        wait_for(lambda: pub.get_subscription_count() >= 1, 20, "the listener's subscription")
        pub.publish(String(data="boom"))
        wait_for(lambda: crashed, 20, "the crash report")
        assert group.crashed
    finally:
        group.stop()
