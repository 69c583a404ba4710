"""A probe on one robot of a fleet (run on that robot's host, in its namespace), printing one
JSON line per thing it saw:

    fleet_probe.py call --ns /robot_a --peer robot-b --messages 5    # list_peers until the peer
                                                                     # shows, then send_to_peer
    fleet_probe.py listen --ns /robot_b --peer robot-a --messages 5  # its inbox and the wire

Lines: {"peers": [...]} (what list_peers answered), {"sent": i, "status": ..., "t": ...},
{"inbox": text, "t": ...} (the event the peers driver put on phanthy/inbox),
{"wire": text, "from": ..., "latency_s": ...} (the PeerMessage itself, against its stamp).
"""

import argparse
import json
import sys
import threading
import time

import rclpy
from rclpy.action import ActionClient

from phanthy_common.action_client import SpinSafeActionClient
from rclpy.executors import MultiThreadedExecutor

from phanthy.action import Tool
from phanthy.msg import Event, PeerMessage
from phanthy_common.convert import from_time


def say(**line) -> None:
    print(json.dumps(line), flush=True)


def call(node, client: ActionClient, args: dict, timeout: float = 10.0):
    if not client.wait_for_server(timeout_sec=timeout):
        return None
    send = client.send_goal_async(Tool.Goal(args_json=json.dumps(args)))
    deadline = time.monotonic() + timeout
    while not send.done() and time.monotonic() < deadline:
        time.sleep(0.005)
    if not send.done() or not send.result().accepted:
        return None
    result = send.result().get_result_async()
    while not result.done() and time.monotonic() < deadline:
        time.sleep(0.005)
    return result.result().result if result.done() else None


def wait_for_peer(node, peer: str, timeout: float) -> list:
    client = SpinSafeActionClient(node, Tool, "peers/list_peers")
    deadline = time.monotonic() + timeout
    peers: list = []
    while time.monotonic() < deadline:
        result = call(node, client, {})
        if result is not None and result.status == "succeeded":
            peers = [p["peer_id"] for p in json.loads(result.result_json)["peers"]]
            if peer in peers:
                break
        time.sleep(0.2)
    say(peers=peers)
    return peers


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["call", "listen"])
    parser.add_argument("--ns", required=True)
    parser.add_argument("--peer", required=True)
    parser.add_argument("--messages", type=int, default=5)
    parser.add_argument("--interval", type=float, default=0.2)
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    rclpy.init()
    node = rclpy.create_node(f"fleet_probe_{args.mode}", namespace=args.ns)
    executor = MultiThreadedExecutor()
    executor.add_node(node)
    spinner = threading.Thread(target=executor.spin, daemon=True)
    spinner.start()
    try:
        if args.mode == "call":
            if args.peer not in wait_for_peer(node, args.peer, args.timeout):
                return 1
            sender = SpinSafeActionClient(node, Tool, "peers/send_to_peer")
            for i in range(args.messages):
                t = time.time()
                result = call(node, sender, {"peer_id": args.peer, "text": f"message {i} sent at {t:.6f}"})
                say(sent=i, status=result.status if result else "no answer", t=t)
                time.sleep(args.interval)
            return 0
        inbox, done = [], threading.Event()

        def on_inbox(msg: Event) -> None:
            inbox.append(msg.text)
            say(inbox=msg.text, t=time.time())
            if len(inbox) >= args.messages:
                done.set()

        def on_wire(msg: PeerMessage) -> None:
            say(wire=msg.text, **{"from": msg.from_peer}, latency_s=time.time() - from_time(msg.header.stamp))

        node.create_subscription(Event, "phanthy/inbox", on_inbox, 50)
        node.create_subscription(PeerMessage, "/phanthy/peer_messages", on_wire, 50)
        say(listening=True)
        wait_for_peer(node, args.peer, args.timeout)
        return 0 if done.wait(args.timeout) else 1
    finally:
        executor.shutdown(timeout_sec=2.0)
        spinner.join(timeout=2.0)
        node.destroy_node()
        rclpy.try_shutdown()


if __name__ == "__main__":
    sys.exit(main())
