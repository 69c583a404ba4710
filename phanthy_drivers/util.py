"""Small helpers shared by the drivers."""

from std_msgs.msg import Header


def stamp_now(node, frame_id: str = "") -> Header:
    return Header(stamp=node.get_clock().now().to_msg(), frame_id=frame_id)
