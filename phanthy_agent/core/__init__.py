"""Pure mechanisms of the agent: no ROS import, time from an injected clock."""
