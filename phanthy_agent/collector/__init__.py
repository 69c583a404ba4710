"""The event collector's pure core: which inputs reach the agent, which only the summarizer
reads, and the ring buffers the model can query. No ROS import; time from an injected clock."""

from .config import (AlertConfig, CollectorConfig, ConfigError, SourceConfig, default_sources,
                     parse_sources)
from .fields import Condition, parse_condition
from .ring_buffer import EventStore, identity
from .router import CollectorCore, CollectorStats
from .summarizer import RuleSummarizer

__all__ = ["AlertConfig", "CollectorConfig", "CollectorCore", "CollectorStats", "Condition",
           "ConfigError", "EventStore", "RuleSummarizer", "SourceConfig", "default_sources",
           "identity", "parse_condition", "parse_sources"]
