"""Hook dispatch: fire a named hook at every driver that declared it (x-hooks)."""

from __future__ import annotations

import logging
from typing import Callable, List

from .tools import HookTarget, ToolRegistry

log = logging.getLogger(__name__)


class HookDispatcher:
    def __init__(self, registry: ToolRegistry, fire: Callable[[HookTarget, str], None]):
        self._registry = registry
        self._fire = fire

    def fire(self, *hooks: str) -> List[HookTarget]:
        """Fire each hook at its targets; returns what was fired. Never blocks, never raises."""
        fired: List[HookTarget] = []
        for hook in hooks:
            for target in self._registry.hook_targets(hook):
                try:
                    self._fire(target, hook)
                    fired.append(target)
                except Exception:  # a broken hook must not break the turn
                    log.exception("hook %s -> %s/%s failed to fire", hook, target.driver, target.action)
        return fired
