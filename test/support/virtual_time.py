"""An asyncio loop on virtual time: timers fire in order without real waiting.

Whenever the loop would sleep, its clock jumps to the next timer instead, so a scenario that
spans minutes runs in milliseconds and every run gives the same timestamps. The agent core's
clock is this loop's time(). A wait with no timer and nothing ready is a deadlock: it raises.
"""

import asyncio


class Deadlock(RuntimeError):
    pass


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        super().__init__()
        self._now = 0.0
        real_select = self._selector.select

        def select(timeout=None):
            ready = real_select(0)
            if ready:
                return ready
            if timeout is None:
                raise Deadlock("every task waits and no timer is scheduled")
            self._now += max(0.0, timeout)
            return []

        self._selector.select = select

    def time(self) -> float:
        return self._now


def run(coro_factory, timeout_s: float = 3600.0):
    """Run `coro_factory()` on a fresh virtual-time loop; returns its result."""
    loop = VirtualTimeLoop()
    try:
        asyncio.set_event_loop(loop)
        return loop.run_until_complete(asyncio.wait_for(coro_factory(), timeout_s))
    finally:
        asyncio.set_event_loop(None)
        loop.close()
