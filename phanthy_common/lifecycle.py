"""Managed (lifecycle) nodes and their diagnostics: the base every phanthy node runs on.

Every node is an rclpy lifecycle node (`ros2 lifecycle get /vad`, `ros2 lifecycle set /vad
deactivate`, nav2's lifecycle manager all work) and publishes its health on `/diagnostics`
(diagnostic_msgs/DiagnosticArray, once a second: the lifecycle state plus what the node reports
in `diagnostics()`), which is also its heartbeat for the watchdog (phanthy_agent/ros/health_node.py).

A node says what each transition does by overriding `configure()` (read parameters, load
models, create its interfaces; raise ValueError with the reason to refuse), `activate()` (start:
take audio, open the sound card), `deactivate()` and `cleanup()` (drop what configure loaded;
the interfaces configure created are destroyed here for it). Nodes that still do their work in
`__init__` (`reconfigurable = False`) are configured once: their cleanup is refused, so
`ros2 lifecycle` reports the truth instead of pretending to unload.

Built plainly (`VadNode()`, as tests and drivers do), a node configures and activates itself
when its constructor returns, and a refused configure raises the node's ValueError there, as
before. `autostart=False` leaves it unconfigured for a manager (`bring_up()`: `phanthy run`
configures every node first, models loading, then activates them all).
"""

from __future__ import annotations

import logging
from typing import Iterable, List, Optional, Sequence

from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue
from rclpy.lifecycle import LifecycleNodeMixin, LifecycleState, TransitionCallbackReturn
from rclpy.node import Node

from .convert import header
from .health import OK, WARN, Status

log = logging.getLogger(__name__)

DIAGNOSTICS_TOPIC = "/diagnostics"
ENTITY_KINDS = ("publishers", "subscriptions", "timers", "clients", "services", "waitables")


class ConfigureFailed(RuntimeError):
    """A node refused its configuration (the message is its reason)."""


class _StartsWhenBuilt(type):
    """Runs the transitions once the whole constructor chain (the subclass's too) has returned."""

    def __call__(cls, *args, autostart: bool = True, **kwargs):
        node = super().__call__(*args, **kwargs)
        if autostart:
            node.bring_up()
        return node


class ManagedNode(LifecycleNodeMixin, Node, metaclass=_StartsWhenBuilt):
    reconfigurable = False  # True: configure() does the work and cleanup() undoes it
    diagnostics_period_s = 1.0

    def __init__(self, node_name: str, **kwargs):
        Node.__init__(self, node_name, **kwargs)
        LifecycleNodeMixin.__init__(self, enable_communication_interface=True)
        self._transition_error: Optional[BaseException] = None
        self._configured_entities: dict = {}
        self._diagnostics_pub = self.create_publisher(DiagnosticArray, DIAGNOSTICS_TOPIC, 10)
        self._diagnostics_timer = self.create_timer(self.diagnostics_period_s, self.publish_diagnostics)

    # --- what a node overrides ---------------------------------------------------------------
    def configure(self) -> None:
        """Read parameters, load models, create interfaces; ValueError refuses."""

    def activate(self) -> None:
        """Start the work (audio in, sound card open)."""

    def deactivate(self) -> None:
        """Stop the work; stay configured."""

    def cleanup(self) -> None:
        """Drop what configure() loaded (its interfaces are destroyed by the base)."""

    def diagnostics(self) -> List[Status]:
        """What this node reports on /diagnostics besides its lifecycle state."""
        return []

    # --- state ---------------------------------------------------------------------------------
    @property
    def lifecycle_state(self) -> str:
        return self._state_machine.current_state[1]

    @property
    def is_active(self) -> bool:
        return self.lifecycle_state == "active"

    def bring_up(self, activate: bool = True) -> None:
        """Configure, then activate; a refusal destroys the node and raises the node's own
        exception (ValueError, AudioDeviceError, ...; else ConfigureFailed). Steps already
        done are skipped."""
        for step, wanted in ((self.trigger_configure, "unconfigured"), (self.trigger_activate, "inactive")):
            if step is self.trigger_activate and not activate:
                break
            if self.lifecycle_state == wanted and step() != TransitionCallbackReturn.SUCCESS:
                error, name = self._transition_error, self.get_name()
                self.destroy_node()
                if error is not None:
                    raise error  # the node's own reason (ValueError, AudioDeviceError, ...)
                raise ConfigureFailed(f"{name}: {step.__name__[len('trigger_'):]} failed")

    def bring_down(self) -> None:
        """Deactivate and shut down (finalized), whatever the state."""
        try:
            if self.is_active:
                self.trigger_deactivate()
            if self.lifecycle_state in ("unconfigured", "inactive", "active"):
                self.trigger_shutdown()
        except Exception:  # a node already half destroyed: shutdown goes on
            log.debug("%s: lifecycle shutdown failed", self.get_name(), exc_info=True)

    # --- transitions (rclpy's callbacks) --------------------------------------------------------
    def on_configure(self, state: LifecycleState) -> TransitionCallbackReturn:
        before = self._lifecycle_entities()
        try:
            self.configure()
        except Exception as exc:  # refused (ValueError) or broken: no half-configured node
            self._transition_error = exc
            self.get_logger().error(f"configure failed: {exc}")
            self._destroy_entities_since(before)
            return TransitionCallbackReturn.FAILURE
        self._transition_error = None
        self._configured_entities = {kind: [e for e in getattr(self, kind) if e not in before[kind]]
                                     for kind in ENTITY_KINDS}
        return super().on_configure(state)

    def on_activate(self, state: LifecycleState) -> TransitionCallbackReturn:
        return self._lifecycle_step("activate", self.activate) or super().on_activate(state)

    def on_deactivate(self, state: LifecycleState) -> TransitionCallbackReturn:
        return self._lifecycle_step("deactivate", self.deactivate) or super().on_deactivate(state)

    def on_cleanup(self, state: LifecycleState) -> TransitionCallbackReturn:
        if not self.reconfigurable:
            self.get_logger().error(f"{self.get_name()} configures at start only: cleanup refused "
                                    f"(shut it down and start it again instead)")
            return TransitionCallbackReturn.FAILURE
        failed = self._lifecycle_step("cleanup", self.cleanup)
        self._destroy_entities(self._configured_entities)
        self._configured_entities = {}
        return failed or super().on_cleanup(state)

    def on_shutdown(self, state: LifecycleState) -> TransitionCallbackReturn:
        if state.label == "active":
            self._lifecycle_step("deactivate", self.deactivate)
        return super().on_shutdown(state)

    def _lifecycle_step(self, what: str, step) -> Optional[TransitionCallbackReturn]:
        try:
            step()
        except Exception as exc:  # a failed transition leaves the node where it was
            self._transition_error = exc
            self.get_logger().error(f"{what} failed: {exc}")
            return TransitionCallbackReturn.FAILURE
        self._transition_error = None
        return None

    # --- the interfaces configure() created ----------------------------------------------------
    def _lifecycle_entities(self) -> dict:
        return {kind: list(getattr(self, kind)) for kind in ENTITY_KINDS}

    def _destroy_entities_since(self, before: dict) -> None:
        self._destroy_entities({kind: [e for e in getattr(self, kind) if e not in before[kind]]
                                for kind in ENTITY_KINDS})

    def _destroy_entities(self, entities: dict) -> None:
        for timer in entities.get("timers", ()):
            self.destroy_timer(timer)
        for sub in entities.get("subscriptions", ()):
            self.destroy_subscription(sub)
        for pub in entities.get("publishers", ()):
            self.destroy_publisher(pub)
        for client in entities.get("clients", ()):
            self.destroy_client(client)
        for service in entities.get("services", ()):
            self.destroy_service(service)
        for waitable in entities.get("waitables", ()):  # action servers and clients
            destroy = getattr(waitable, "destroy", None)
            if destroy is not None:
                destroy()

    # --- /diagnostics --------------------------------------------------------------------------
    def health(self) -> List[Status]:
        state = self.lifecycle_state
        statuses = [Status.of("lifecycle", OK if state == "active" else WARN, state, state=state)]
        try:
            statuses += self.diagnostics()
        except Exception as exc:  # a report's bug must not stop the heartbeat
            statuses.append(Status.of("diagnostics", WARN, f"report failed: {type(exc).__name__}: {exc}"))
        return statuses

    def publish_diagnostics(self) -> None:
        self._diagnostics_pub.publish(diagnostic_array(self.get_fully_qualified_name(), self.health(),
                                                       self.get_clock().now().nanoseconds * 1e-9))


def diagnostic_array(hardware_id: str, statuses: Sequence[Status], stamp: float) -> DiagnosticArray:
    """Statuses as diagnostic_msgs, named "<node>: <component>" (diagnostic_updater's way)."""
    return DiagnosticArray(header=header(stamp), status=[
        DiagnosticStatus(level=bytes([s.level]), name=f"{hardware_id}: {s.name}", message=s.message[:500],
                         hardware_id=hardware_id, values=[KeyValue(key=k, value=v[:200]) for k, v in s.values])
        for s in statuses])


def bring_up_all(nodes: Iterable[Node], activate: bool = True) -> None:
    """Configure every managed node (in order: models load first), then activate them all."""
    managed = [n for n in nodes if isinstance(n, ManagedNode)]
    for node in managed:
        node.bring_up(activate=False)
    if activate:
        for node in managed:
            node.bring_up(activate=True)
