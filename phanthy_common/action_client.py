"""An rclpy ActionClient that may be created while its node spins.

rclpy's ActionClient registers itself with the node before it creates its lock, so an executor
thread walking the node's waitables in between dies with AttributeError ("no attribute
'_lock'"; seen here: the whole node stopped spinning, or a test's probe died). Every phanthy
client is created through this class, whether or not its node already spins."""

from __future__ import annotations

import threading

from rclpy.action import ActionClient


class SpinSafeActionClient(ActionClient):
    def __init__(self, *args, **kwargs):
        self._lock = threading.Lock()  # before the node can see this waitable
        super().__init__(*args, **kwargs)
