"""What `phanthy doctor` is made of: one check's verdict, and a read-only view of a parameter
file's node sections that every package's checks share. No ROS.

Each package checks what it owns (phanthy_perception.selfcheck: the listening models and the
microphone; phanthy_drivers.selfcheck: the voice and the loudspeaker; phanthy_agent.doctor:
Python, ROS, DDS, the config file, the language model); the `phanthy doctor` command runs them.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, List, Mapping

GLOBAL_SECTIONS = ("/**", "**")


@dataclasses.dataclass(frozen=True)
class Check:
    """One line of the doctor's report: OK, PROBLEM (with how to fix it) or SKIP (this
    configuration does not need it)."""
    name: str
    ok: bool
    detail: str
    fix: str = ""
    skipped: bool = False

    @property
    def status(self) -> str:
        return "SKIP" if self.skipped else ("OK" if self.ok else "PROBLEM")

    @classmethod
    def skip(cls, name: str, detail: str) -> "Check":
        return cls(name, True, detail, skipped=True)


Probe = Callable[[], List[Check]]  # a check that may take a while (a model load): run in parallel


def flatten(params: Mapping[str, Any], prefix: str = "") -> Dict[str, Any]:
    """{"voice": {"model": "x"}} -> {"voice.model": "x"} (ROS 2's dotted parameter names)."""
    out: Dict[str, Any] = {}
    for key, value in params.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(flatten(value, name + "."))
        else:
            out[name] = value
    return out


class ConfigView:
    """The node sections of a ROS 2 parameter file: `view.get("speaker", "engine", "sim")`.
    Keys may be `name`, `/name`, `/ns/name` or `/**/name`; `/**` applies to every node."""

    def __init__(self, data: Mapping[str, Any]):
        shared: Dict[str, Any] = {}
        self.sections: Dict[str, Dict[str, Any]] = {}
        for key, section in data.items():
            params = (section or {}).get("ros__parameters", {}) if isinstance(section, Mapping) else {}
            flat = flatten(params if isinstance(params, Mapping) else {})
            if key in GLOBAL_SECTIONS:
                shared.update(flat)
            else:
                self.sections.setdefault(str(key).strip("/").split("/")[-1], {}).update(flat)
        for name in self.sections:
            self.sections[name] = {**shared, **self.sections[name]}

    def has(self, node: str) -> bool:
        return node in self.sections

    def get(self, node: str, key: str, default: Any = None) -> Any:
        return self.sections.get(node, {}).get(key, default)


def device_check(name: str, devices, channels: int, wanted: str, setting: str, none_fix: str) -> Check:
    """An audio device among PortAudio's (index, name, max in, max out, default rate):
    `channels` 2 for inputs, 3 for outputs; `wanted` a name part or an index ("" = any);
    `devices` may be the exception that says why there is no list."""
    if isinstance(devices, Exception):
        return Check(name, False, str(devices), "install PortAudio (apt-get install libportaudio2) and check "
                     "that the user may open the sound card")
    found = [d for d in devices if d[channels] > 0]
    kind = "input" if channels == 2 else "output"
    if not found:
        return Check(name, False, f"no audio {kind} device (no sound card, or no access to it)", none_fix)
    match = [d for d in found if not wanted or str(d[0]) == wanted or wanted.lower() in d[1].lower()]
    if not match:
        return Check(name, False, f"no {kind} device {wanted!r}; {kind}s: "
                     + "; ".join(f"[{d[0]}] {d[1]}" for d in found),
                     f"set {setting} to one of these (index or part of the name)")
    d = match[0]
    return Check(name, True, f"[{d[0]}] {d[1]}: {d[channels]} channel(s), {d[4]:.0f} Hz by default")
