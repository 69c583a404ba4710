import os
import random
import sys
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "test"))

# Keep DDS traffic of the test run on this host and away from any other ROS graph running here
# (a `phanthy sim` an operator left open, a parallel CI job).
os.environ.setdefault("ROS_DOMAIN_ID", str(random.Random(os.getpid()).randint(1, 100)))
os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")


import pytest  # noqa: E402


@pytest.fixture(scope="session")
def ros():
    """rclpy initialised once for the session (tests create and destroy their own nodes)."""
    import rclpy
    rclpy.init()
    yield rclpy
    rclpy.shutdown()


@pytest.fixture
def graph_factory(ros, tmp_path):
    """Make whole in-process graphs (support.graph.Graph); all are closed after the test."""
    from support.graph import Graph
    graphs = []

    def make(*args, **kwargs):
        graphs.append(Graph(tmp_path, *args, **kwargs))
        return graphs[-1]
    yield make
    for g in graphs:
        g.close()
