"""One console view of a fleet, in headless Chromium over real DDS: two robots in one domain,
/robot_a and /robot_b, each with its peers driver announcing its live agent state on
/phanthy/peers. Robot A's console lists robot B with B's description, state and how long ago it
was heard, linked to B's console (and A's list_peers gives the model B's state); B's row follows
B's agent through a turn; when B falls silent its row shows it gone after its ttl, then it is
dropped."""

import json

import pytest
from rclpy.action import ActionClient

from phanthy.action import Tool
from support.fleet_probe import call
from support.ros_harness import wait_for
from test_console import console_page

REPLY = "The cafe is on the ground floor, next to the shop."
B_CONSOLE = "http://robot-b.local:8765/console"


@pytest.fixture
def fleet(graph_factory):
    robot_b = graph_factory([{"content": REPLY}], nodes=("collector", "agent", "speaker", "peers"), ns="/robot_b",
                            params={"agent": {"peers.self_id": "robot-b"}, "speaker": {"sim.ms_per_char": 60.0},
                                    "peers": {"peer_id": "robot-b", "description": "guide at the cafe",
                                              "announce_period_s": 0.5, "ttl_s": 2.0, "console_url": B_CONSOLE}})
    robot_a = graph_factory(None, nodes=("collector", "chat_web", "peers"), ns="/robot_a",
                            params={"chat_web": {"port": 0, "peers.self_id": "robot-a", "console.peers_gone_s": 3.0},
                                    "peers": {"peer_id": "robot-a", "description": "guide at the door",
                                              "announce_period_s": 0.5, "ttl_s": 2.0}})
    with console_page(robot_a) as page:
        yield robot_a, robot_b, page


def test_robot_a_console_shows_robot_b_live_state_until_b_falls_silent(fleet):
    robot_a, robot_b, page = fleet
    b_row = "#fleet tr[data-peer=robot-b]"
    row = page.wait_for_selector(f"{b_row}[data-status=online][data-agent-state=idle]", timeout=20_000)
    assert "guide at the cafe" in row.inner_text() and "s ago" in row.inner_text()
    assert page.get_attribute(f"{b_row} a", "href") == B_CONSOLE, "B's name links to B's console"
    mine = page.wait_for_selector("#fleet tr[data-peer=robot-a]", timeout=20_000)
    assert "robot-a (this robot)" in mine.inner_text() and mine.query_selector("a") is None

    list_peers = ActionClient(robot_a.probe, Tool, "peers/list_peers")

    def a_lists():
        result = call(robot_a.probe, list_peers, {})
        return json.loads(result.result_json)["peers"] if result is not None else None
    wait_for(lambda: a_lists() == [{"peer_id": "robot-b", "description": "guide at the cafe", "state": "idle"}],
             20, lambda: f"robot A's list_peers to show robot B idle (it shows {a_lists()})")

    robot_b.say("where is the cafe?")
    page.wait_for_selector(f"{b_row}[data-agent-state=speaking]", timeout=20_000)
    assert "speaking / STOPPED" in page.inner_text(b_row), "with B's voice state (typed words: no voice turn)"
    robot_b.wait_turns(1)
    page.wait_for_selector(f"{b_row}[data-status=online][data-agent-state=idle]", timeout=20_000)

    robot_b.close()  # robot B's nodes stop: it announces no more
    page.wait_for_selector(f"{b_row}[data-status=gone]", timeout=20_000)
    assert "gone" in page.inner_text(b_row)
    page.wait_for_selector(b_row, state="detached", timeout=20_000)
    assert page.get_attribute("#fleet tr[data-peer=robot-a]", "data-status") == "online", "A itself stays"
