"""What the agent, perception and the drivers share. Imports nothing of theirs."""
