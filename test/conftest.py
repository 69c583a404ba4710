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

# What each folder protects, and what it needs (pytest -m "unit", -m "not models", ...):
TIERS = {
    "unit": ("unit",),  # pure cores on fake clocks and virtual time: no ROS, no models (seconds)
    "models": ("models",),  # the real speech models on synthesized speech
    "graph": ("graph", "ros"),  # real rclpy nodes over DDS
    "e2e": ("e2e", "ros", "models"),  # the whole voice stack: models, nodes, a simulated room
}
MODEL_NODES = ("test_speaker_node", "test_lifecycle", "test_vad_node", "test_wake_node", "test_asr_node",
               "test_conversation_graph", "test_asr_speakers",
               "test_group_graph")  # the last: the proactive node's sentence encoder


def pytest_collection_modifyitems(config, items):
    for item in items:
        tier = pathlib.Path(str(item.fspath)).parent.name
        for marker in TIERS.get(tier, ()):
            item.add_marker(marker)
        if pathlib.Path(str(item.fspath)).stem in MODEL_NODES:
            item.add_marker("models")  # a node that runs a speech model


@pytest.fixture(scope="session")
def whisper():
    """faster-whisper tiny.en (bundled, 10 s window), loaded once."""
    from phanthy_perception.asr import WhisperTranscriber
    model = WhisperTranscriber()
    model.warm_up()
    return model


@pytest.fixture(scope="session")
def speaker_encoder():
    """The bundled d-vector speaker encoder, loaded once."""
    from phanthy_perception.speaker_embedding import SpeakerEncoder
    return SpeakerEncoder()


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
