"""The action completion protocol's waits (ACP) for one turn, and its interrupt clean-up.

- `settled(before_acting)`: wait until every outstanding action is terminal and no visitor's
  words are on their way, or until a steering message arrives (`Wait.MESSAGE`).
- `ended(action)`: wait for one action (a non-acting tool's result) until it ends or times out.
- `cancel_all(why)`: the interrupt clean-up: fire the interrupt hooks, cancel what runs, give
  drivers a moment to confirm and end the rest locally.

Deadlines come from each tool's timeout_s (the action tracker's); an action past its deadline
is cancelled at the driver.
"""

from __future__ import annotations

import logging
from enum import Enum

from .action_tracker import CANCELLED, TrackedAction
from .turn_host import TurnHost

log = logging.getLogger(__name__)


class Wait(Enum):
    DONE = "done"  # every outstanding action is terminal
    MESSAGE = "message"  # a steering message arrived first


class ActionWaits:
    def __init__(self, host: TurnHost):
        self.host = host

    async def settled(self, before_acting: bool) -> Wait:
        """Wait until every outstanding action is terminal and no visitor's words are on their
        way (VAD says someone speaks: hold for the transcript). A steering message ends the
        wait: before an acting tool always (the model re-plans first), at finish only while
        something still runs (otherwise the turn is done and the message starts the next)."""
        host = self.host
        while True:
            self.expire()
            running = bool(host.tracker.outstanding())
            steering = host.inbox.has_steering()
            hold = host.words_due_until()
            if steering and (before_acting or running):
                return Wait.MESSAGE
            if not running and (not hold or steering):
                return Wait.DONE
            deadlines = [d for d in (host.tracker.next_deadline(), hold) if d]
            await host.wait_for_change(min(deadlines) if deadlines else None)

    async def ended(self, action: TrackedAction) -> None:
        while not action.terminal:
            self.expire()
            if action.terminal:
                break
            await self.host.wait_for_change(action.deadline)

    def expire(self) -> None:
        for action in self.host.tracker.expire():
            log.warning("action %s (%s) timed out: cancelling it", action.action_id, action.tool)
            self.host.executor.cancel(action.action_id)

    async def cancel_all(self, why: str) -> None:
        """The turn stops (interrupted, cancelled, failed): everything it started stops too."""
        self._stop_everything(why)
        await self._confirm_cancels()

    def _stop_everything(self, why: str) -> None:
        """Fire on_interrupt_all and the specific hooks, cancel outstanding actions."""
        host = self.host
        host.hooks.fire("on_interrupt_all", *host.config.interrupt_hooks)
        for action in host.tracker.outstanding(acting_only=False):
            log.info("cancelling %s %s (%s)", action.tool, action.action_id, why)
            host.executor.cancel(action.action_id)

    async def _confirm_cancels(self) -> None:
        """Give drivers a moment to confirm cancellation; end the rest locally."""
        host = self.host
        timeout_s = host.config.cancel_confirm_timeout_s
        deadline = host.clock() + timeout_s
        while host.tracker.outstanding(acting_only=False) and host.clock() < deadline:
            await host.wait_for_change(deadline)
        for action in host.tracker.outstanding(acting_only=False):
            log.warning("driver %s did not confirm cancelling %s in %.1f s", action.driver,
                        action.action_id, timeout_s)
            host.tracker.abandon(action.action_id, CANCELLED, "cancel not confirmed by the driver")
