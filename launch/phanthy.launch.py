"""ros2 launch phanthy phanthy.launch.py [config:=FILE] [namespace:=NS]

Starts, each as its own process, every phanthy node that has a section in the parameter file
(default: the package's config/sim.yaml): the same nodes, from the same YAML, that
`phanthy run --config FILE` starts in one process. The console of `phanthy sim` needs a
terminal and is not started here: publish phanthy/msg/Transcript on voice/transcript instead.
"""

import os
import pathlib

import yaml
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument, OpaqueFunction
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
from phanthy_agent.cli import any_namespace

PACKAGE = "phanthy"
NODES = ("collector", "agent", "speaker", "base", "face", "led", "peers", "box_office", "audio_capture", "vad", "asr",
         "wake_word", "chat_web", "chat_telegram", "proactive", "health", "hri")


def configured_nodes(context):
    config = LaunchConfiguration("config").perform(context)
    with open(config, encoding="utf-8") as f:
        data = yaml.safe_load(f) or {}
    sections = {str(key).strip("/").split("/")[-1] for key in data}
    unknown = sections - set(NODES) - {"**"}
    if unknown:
        raise RuntimeError(f"{config}: unknown node sections {sorted(unknown)}; known: {NODES}")
    # plain keys ("speaker") match only "/speaker": made to match in any namespace, as
    # `phanthy run` does
    params = any_namespace(pathlib.Path(config))
    return [Node(package=PACKAGE, executable=name, name=name,
                 namespace=LaunchConfiguration("namespace"), parameters=[params], output="screen")
            for name in NODES if name in sections]


def generate_launch_description():
    default_config = os.path.join(get_package_share_directory(PACKAGE), "config", "sim.yaml")
    return LaunchDescription([
        DeclareLaunchArgument("config", default_value=default_config,
                              description="ROS 2 parameter file; a node starts if it has a section"),
        DeclareLaunchArgument("namespace", default_value="", description="namespace of every node"),
        OpaqueFunction(function=configured_nodes),
    ])
