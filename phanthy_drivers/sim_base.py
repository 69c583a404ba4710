"""Simulated mobile base: `navigate_to` a named place from config (takes seconds, reports
progress, cancellable, stops where it is), `stop` (hidden) bound to on_interrupt_motion,
`where_am_i`, and a battery (sensor_msgs/BatteryState on `battery`) that drains as it drives:
a priority-0 stream for the collector."""

from __future__ import annotations

import math
import threading
from typing import Dict, Tuple

from sensor_msgs.msg import BatteryState

from phanthy_common.params import Params

from .sdk import DriverNode, ToolCall, ToolFailed
from .util import stamp_now

DEFAULT_PLACES = {
    "entrance": {"x": 0.0, "y": 0.0, "label": "main entrance"},
    "dinosaur_hall": {"x": 12.0, "y": 4.0, "label": "dinosaur hall"},
    "gift_shop": {"x": -6.0, "y": 2.0, "label": "gift shop"},
    "cafe": {"x": -4.0, "y": 9.0, "label": "cafe"},
    "toilets": {"x": 3.0, "y": -5.0, "label": "toilets"},
    "second_floor": {"x": 8.0, "y": -8.0, "label": "second floor (stairs and lift)"},
    "space_gallery": {"x": 18.0, "y": -2.0, "label": "space gallery"},
}
STEP_S = 0.1


class SimBase(DriverNode):
    def __init__(self, **kwargs):
        super().__init__("base", automatically_declare_parameters_from_overrides=True, **kwargs)
        p = self.params = Params(self)
        places = p.nested("places") or DEFAULT_PLACES
        self.places: Dict[str, Tuple[float, float, str]] = {
            key: (float(v.get("x", 0.0)), float(v.get("y", 0.0)), str(v.get("label", key.replace("_", " "))))
            for key, v in places.items()}
        self.speed = p.get("speed_mps", 1.0, "simulated driving speed")
        start = p.get("start_place", "entrance", "where the robot starts")
        self.blocked = set(p.get("blocked_places", [""], "places whose path is blocked (navigate_to fails)"))
        self.battery = p.get("battery.start", 0.9, "initial charge (0..1)")
        self.drain_per_m = p.get("battery.drain_per_m", 0.002, "charge used per metre")
        battery_hz = p.get("battery.rate_hz", 2.0, "battery publish rate")
        p.warn_unknown()
        self.x, self.y, _ = self.places.get(start, (0.0, 0.0, start))
        self.at = start if start in self.places else ""
        self._pose_lock = threading.Lock()
        self._battery_pub = self.create_publisher(BatteryState, "battery", 10)
        self.create_timer(1.0 / max(0.1, battery_hz), self._publish_battery)
        keys = sorted(self.places)
        self.add_tool(self.navigate_to,
                      "Walk to a named place; the visitor can follow. Places: "
                      + ", ".join(f"{k} ({self.places[k][2]})" for k in keys) + ".",
                      {"type": "object", "properties": {"place": {"type": "string", "enum": keys}},
                       "required": ["place"]},
                      acting=True, timeout_s=120.0, hooks={"on_interrupt_motion": "stop"})
        self.add_tool(self.stop, "Stop moving now.", hidden=True)
        self.add_tool(self.where_am_i, "Where the robot is now (nearest named place).")

    def navigate_to(self, call: ToolCall) -> dict:
        place = call.args["place"]
        if place in self.blocked:
            raise ToolFailed(f"the path to {place} is blocked")
        tx, ty, label = self.places[place]
        for other in self.running_calls("navigate_to"):
            if other is not call:
                other.request_cancel()  # a new goal replaces the old one
        while True:
            with self._pose_lock:
                dx, dy = tx - self.x, ty - self.y
                remaining = math.hypot(dx, dy)
                if remaining < 1e-6:
                    self.at = place
                    return {"arrived": place, "label": label}
                step = min(remaining, self.speed * STEP_S)
                self.x += dx / remaining * step
                self.y += dy / remaining * step
                self.battery = max(0.0, self.battery - step * self.drain_per_m)
                self.at = ""
            call.feedback({"place": place, "remaining_m": round(remaining - step, 2),
                           "eta_s": round((remaining - step) / self.speed, 1)})
            if not call.wait(STEP_S):
                return {"arrived": None, "stopped_at": self._nearest(), "position": [round(self.x, 2), round(self.y, 2)]}

    def stop(self, call: ToolCall) -> dict:
        return {"stopped": self.cancel_running("navigate_to")}

    def where_am_i(self, call: ToolCall) -> dict:
        return {"at": self.at or None, "nearest": self._nearest(),
                "position": [round(self.x, 2), round(self.y, 2)]}

    def _nearest(self) -> str:
        return min(self.places, key=lambda k: math.hypot(self.places[k][0] - self.x, self.places[k][1] - self.y))

    def _publish_battery(self) -> None:
        self._battery_pub.publish(BatteryState(header=stamp_now(self), percentage=float(self.battery),
                                               voltage=float(22.0 + 3.0 * self.battery), present=True))
