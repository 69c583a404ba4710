"""The machine's checks of `phanthy doctor`: Python and its ABI, the ROS 2 wheels and the
interfaces, DDS discovery on this domain, the language model endpoint."""

from __future__ import annotations

import importlib
import os
import platform
import sys
import time
import uuid
from typing import List

from phanthy_common.selfcheck import Check, ConfigView

ROS_ABI = (3, 11)  # the ROS 2 Kilted wheels on PyPI are cp311
INTERFACES = ("phanthy.msg", "phanthy.action", "diagnostic_msgs.msg", "lifecycle_msgs.msg", "hri_msgs.msg")
SETUP_FIX = "run the setup command in the repository: bash scripts/setup.sh (then source .venv/bin/activate)"


def python_check() -> Check:
    version = sys.version_info
    detail = f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}"
    if platform.python_implementation() != "CPython" or tuple(version[:2]) != ROS_ABI:
        return Check("python", False, f"{detail}: the ROS 2 wheels need CPython {ROS_ABI[0]}.{ROS_ABI[1]}",
                     f"create the venv with CPython 3.11: PYTHON=python3.11 bash scripts/setup.sh")
    return Check("python", True, f"{detail} (the ROS 2 wheels' ABI)")


def ros_check() -> Check:
    try:
        import rclpy  # noqa: F401
        from rclpy.utilities import get_rmw_implementation_identifier
    except Exception as exc:  # ImportError, or a shared library the loader cannot find
        return Check("ros", False, f"rclpy does not import: {exc}", SETUP_FIX)
    missing = []
    for module in INTERFACES:
        try:
            importlib.import_module(module)
        except Exception as exc:  # ImportError, or a generated library that does not load
            missing.append(f"{module} ({exc})")
    if missing:
        return Check("ros", False, "interfaces do not import: " + "; ".join(missing), SETUP_FIX)
    try:
        from importlib.metadata import version
        rclpy_version = version("ros-rclpy")
    except Exception:  # a distro install (no wheel metadata)
        rclpy_version = "(distro)"
    return Check("ros", True, f"rclpy {rclpy_version} on {get_rmw_implementation_identifier()}; "
                 f"{', '.join(m.split('.')[0] + '.' + m.split('.')[1] for m in INTERFACES)} import")


# The other participant: a separate process, so discovery goes through the network stack as
# between two nodes of the robot (two participants of one process would meet in-process).
PEER = """
import sys, rclpy
from std_msgs.msg import String
rclpy.init(domain_id=int(sys.argv[2]))
node = rclpy.create_node("doctor_listener")
node.create_subscription(String, sys.argv[1], lambda m: (print("heard", flush=True), sys.exit(0)), 10)
print("ready", flush=True)
rclpy.spin(node)
"""


def dds_check(timeout_s: float = 4.0) -> Check:
    """A participant in this process and one in a child process, on this ROS domain, must
    discover each other and pass a message: what two nodes of the robot, or two robots, need."""
    import subprocess

    import rclpy
    from std_msgs.msg import String

    domain = int(os.environ.get("ROS_DOMAIN_ID", "0") or 0)
    scope = os.environ.get("ROS_AUTOMATIC_DISCOVERY_RANGE", "") or "SUBNET (default)"
    fix = ("check ROS_DOMAIN_ID (0-101 on Linux) and ROS_AUTOMATIC_DISCOVERY_RANGE; a firewall must let "
           "UDP 7400-7600 through on loopback; ROS_STATIC_PEERS for networks without multicast")
    topic = f"phanthy_doctor_{uuid.uuid4().hex[:8]}"
    peer = subprocess.Popen([sys.executable, "-c", PEER, topic, str(domain)], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    context = rclpy.Context()
    node = None
    matched = heard = None
    try:
        rclpy.init(context=context, domain_id=domain)
        node = rclpy.create_node("doctor_talker", context=context)
        pub = node.create_publisher(String, topic, 10)
        start = time.monotonic()
        while time.monotonic() - start < timeout_s and peer.poll() is None:
            if pub.get_subscription_count() > 0:
                matched = matched or time.monotonic() - start
                pub.publish(String(data="ping"))
            time.sleep(0.01)
        if peer.poll() == 0 and "heard" in (peer.stdout.read() or ""):
            heard = time.monotonic() - start
        others = sorted({n for n, _ in node.get_node_names_and_namespaces()} - {"doctor_talker", "doctor_listener"})
    except Exception as exc:  # rcl errors: a bad domain id, no network interface
        return Check("dds", False, f"DDS failed on domain {domain}: {exc}", fix)
    finally:
        if peer.poll() is None:
            peer.kill()
        peer.wait()
        if node is not None:
            node.destroy_node()
        context.try_shutdown()
    if heard is None:
        return Check("dds", False, f"two processes on domain {domain} did not "
                     f"{'exchange a message' if matched else 'discover each other'} within {timeout_s:.0f} s "
                     f"(discovery range {scope})", fix)
    seen = f"; {len(others)} other node(s) on this domain: {', '.join(others[:8])}" if others else \
        "; no other node on this domain"
    return Check("dds", True, f"domain {domain}: another process discovered in {matched:.2f} s, a message "
                 f"through in {heard:.2f} s (discovery range {scope}){seen}")


def llm_check(config: ConfigView, timeout_s: float = 3.0) -> List[Check]:
    """The agent's endpoint when it uses one: reachable, knows the model, calls tools."""
    if config is None or not config.has("agent"):
        return [Check.skip("llm", "no agent in this configuration")]
    brains = {config.get("agent", "agent.brain", "offline"), config.get("agent", "agent.fallback_brain", "offline")}
    if "openai" not in brains:
        return [Check.skip("llm", f"agent.brain is {config.get('agent', 'agent.brain', 'offline')}: no language model")]
    import openai

    base_url = str(config.get("agent", "llm.base_url", "http://127.0.0.1:8080/v1"))
    model = str(config.get("agent", "llm.model", "default"))
    key_env = str(config.get("agent", "llm.api_key_env", "OPENAI_API_KEY"))
    client = openai.OpenAI(base_url=base_url, api_key=os.environ.get(key_env) or "sk-no-key",
                           timeout=timeout_s, max_retries=0)
    try:
        start = time.monotonic()
        reply = client.chat.completions.create(
            model=model, max_tokens=32, temperature=0,
            messages=[{"role": "user", "content": "Call the ping tool now."}],
            tools=[{"type": "function", "function": {
                "name": "ping", "description": "Answer a health check.",
                "parameters": {"type": "object", "properties": {}}}}])
        elapsed = time.monotonic() - start
    except openai.APIConnectionError as exc:
        return [Check("llm", False, f"{base_url} unreachable: {exc.__cause__ or exc}",
                      "start the server, or set agent llm.base_url; the offline brain answers meanwhile "
                      "(agent.fallback_brain)")]
    except openai.AuthenticationError:
        return [Check("llm", False, f"{base_url} refused the key in ${key_env}",
                      f"export {key_env}=<your key> (or set llm.api_key_env)")]
    except openai.NotFoundError as exc:
        return [Check("llm", False, f"{base_url}: model {model!r} not found ({exc.message})",
                      "set llm.model to a model the server serves")]
    except openai.APIError as exc:
        return [Check("llm", False, f"{base_url} answered with an error: {exc}", "check the server's log")]
    message = reply.choices[0].message if reply.choices else None
    if message is None or not message.tool_calls:
        return [Check("llm", False, f"{base_url} ({model}) answered in {elapsed:.2f} s but called no tool: "
                      "function calling looks unsupported", "use a model and server with function calling "
                      "(llama.cpp: --jinja; vLLM: --enable-auto-tool-choice)")]
    return [Check("llm", True, f"{base_url} ({model}) answered in {elapsed:.2f} s and called a tool "
                  "(function calling works)")]
