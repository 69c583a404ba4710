"""phanthy agent: event collector, agent core (turn loop, interrupt modes, action completion
protocol, hooks, layered context), brains, ROS nodes and the `phanthy` command."""

__version__ = "0.1.0"
