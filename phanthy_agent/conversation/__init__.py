"""Conversations: sessions, the voice state machine, the dialogue_state contract. Pure (no ROS)."""
