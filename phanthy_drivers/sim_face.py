"""Simulated face / LED ring: shows the agent's state through x-hooks (on_hearing,
on_thinking, on_speaking, on_idle, ...), published on <name>/state."""

from __future__ import annotations

from std_msgs.msg import String
from rclpy.qos import DurabilityPolicy, QoSProfile

from phanthy_common.params import Params

from .sdk import DriverNode, ToolCall

FACE_STATES = {"on_wake": "attentive", "on_hearing": "listening", "on_thinking": "thinking",
               "on_speaking": "speaking", "on_idle": "idle", "on_error": "confused",
               "on_interrupt_all": "listening", "on_hand_raise": "hand_raised", "on_hand_lower": "idle"}
LED_COLORS = {"on_wake": "white", "on_hearing": "blue", "on_thinking": "amber",
              "on_speaking": "green", "on_idle": "off", "on_error": "red",
              "on_interrupt_all": "blue", "on_hand_raise": "purple", "on_hand_lower": "off"}


class SimStateDisplay(DriverNode):
    needs_threads = False  # its tools answer at once: a single-threaded executor is enough
    def __init__(self, name: str = "face", states=None, **kwargs):
        super().__init__(name, automatically_declare_parameters_from_overrides=True, **kwargs)
        self.params = Params(self)
        self.params.warn_unknown()
        states = dict(states or (LED_COLORS if name == "led" else FACE_STATES))
        self.shown = "idle"
        self._pub = self.create_publisher(String, f"{name}/state",
                                          QoSProfile(depth=1, durability=DurabilityPolicy.TRANSIENT_LOCAL))
        self.add_tool(self.show, "Show a state.",
                      {"type": "object", "properties": {"state": {"type": "string"}}, "required": ["state"]},
                      hidden=True, timeout_s=2.0,
                      hooks={hook: {"action": "show", "params": {"state": value}} for hook, value in states.items()})

    def show(self, call: ToolCall) -> dict:
        self.shown = call.args["state"]
        self._pub.publish(String(data=self.shown))
        return {"shown": self.shown}


def make_face(**kwargs) -> SimStateDisplay:
    return SimStateDisplay("face", **kwargs)


def make_led(**kwargs) -> SimStateDisplay:
    return SimStateDisplay("led", **kwargs)
