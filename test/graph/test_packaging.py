"""The ROS 2 package stays valid for colcon and the launch files name only what exists.

`ros2 launch` cannot be installed on these machines (launch/launch_ros are not on PyPI), so the
launch files are parsed, not run: every package, executable and parameter they name must exist
and be declared by the node that reads it."""

import ast
import pathlib
import re
import uuid

import pytest
import yaml
from catkin_pkg.package import parse_package

from phanthy_agent.cli import NODES, node_factory
from phanthy_common.params import SHARED_PREFIXES
from support.graph import overrides

ROOT = pathlib.Path(__file__).resolve().parents[2]
LAUNCH_FILES = sorted((ROOT / "launch").glob("*.launch.py"))


def is_parameter_file(path):
    data = yaml.safe_load(path.read_text())
    return isinstance(data, dict) and data and all(
        isinstance(v, dict) and "ros__parameters" in v for v in data.values())


PARAM_FILES = [p for p in sorted((ROOT / "config").glob("*.yaml")) if is_parameter_file(p)]


def test_package_xml_is_format_3_ament_cmake_and_an_interface_package():
    package = parse_package(str(ROOT / "package.xml"))
    assert package.package_format == 3 and package.name == "phanthy"
    assert package.get_build_type() == "ament_cmake"
    assert "rosidl_interface_packages" in [g.name for g in package.member_of_groups]
    assert {"rclpy", "launch", "launch_ros"} <= {d.name for d in package.exec_depends}


def test_cmake_generates_every_interface_and_installs_launch_config_and_executables():
    cmake = (ROOT / "CMakeLists.txt").read_text()
    for path in sorted((ROOT / "msg").glob("*.msg")) + sorted((ROOT / "action").glob("*.action")):
        assert f'"{path.parent.name}/{path.name}"' in cmake, f"{path.name} is not generated"
    assert "install(DIRECTORY launch config DESTINATION share/${PROJECT_NAME})" in cmake
    assert "DESTINATION lib/${PROJECT_NAME}" in cmake and "scripts/nodes" in cmake
    for name in ("phanthy_agent", "phanthy_perception", "phanthy_drivers"):
        assert f"ament_python_install_package({name})" in cmake


def launch_nodes(path):
    tree = ast.parse(path.read_text())
    names = next(node.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 and any(getattr(t, "id", "") == "NODES" for t in node.targets))
    package = next(node.value.value for node in ast.walk(tree) if isinstance(node, ast.Assign)
                   and any(getattr(t, "id", "") == "PACKAGE" for t in node.targets))
    return package, [elt.value for elt in names.elts]


@pytest.mark.parametrize("path", LAUNCH_FILES, ids=lambda p: p.name)
def test_launch_files_start_only_existing_executables(path):
    package, names = launch_nodes(path)
    assert package == "phanthy" and names
    for name in names:
        script = ROOT / "scripts" / "nodes" / name
        assert script.exists() and script.stat().st_mode & 0o111, f"no ros2 run executable {name}"
        assert f'node_main("{name}")' in script.read_text()
        assert name in NODES
    assert re.search(r'"config", "sim.yaml"', path.read_text())
    assert (ROOT / "config" / "sim.yaml").exists()


def flatten(tree, prefix=""):
    for key, value in tree.items():
        if isinstance(value, dict) and value:
            yield from flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


@pytest.mark.parametrize("path", PARAM_FILES, ids=lambda p: p.name)
def test_every_parameter_in_the_shipped_configs_is_declared_by_its_node(ros, path):
    data = yaml.safe_load(path.read_text())
    shared = {k: v for k, v in flatten(data.get("/**", {}).get("ros__parameters", {}))}
    assert all(k.split(".")[0] in SHARED_PREFIXES for k in shared), f"{path.name}: /** holds only shared parameters"
    for section, body in data.items():
        name = section.strip("/").split("/")[-1]
        if name == "**":
            continue
        assert name in NODES, f"{path.name}: unknown node {section}"
        params = dict(flatten(body["ros__parameters"]))
        params = {k: v for k, v in params.items() if v != {}}
        if name in ("agent", "speaker"):  # the nodes that read the shared interruption policy
            params.update(shared)
        # this machine has no sound card and no visitor.wav: check the names, not the devices
        params.update({"audio_capture": {"source": "none"}, "speaker": {"output": "none"}}.get(name, {}))
        node = node_factory(name)(namespace=f"/p{uuid.uuid4().hex[:6]}", parameter_overrides=overrides(params))
        try:
            assert node.params.unknown() == [], f"{path.name}: {name} does not declare these"
            if name in ("agent", "speaker"):
                assert set(shared) <= node.params.declared, f"{name} reads the shared interruption policy"
        finally:
            if hasattr(node, "close"):
                node.close()
            node.destroy_node()
