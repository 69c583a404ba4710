"""QoS profiles shared by the nodes."""

from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy

# the latest message stays available to late joiners (agent state, robot status)
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
