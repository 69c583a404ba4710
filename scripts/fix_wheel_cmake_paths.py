"""Rewrite the wheel builder's Python paths in the ROS wheels' exported CMake files.

The PyPI ROS 2 wheels export generated-Python CMake targets (e.g. action_msgs, service_msgs,
rmw_dds_common) whose include directories point at /opt/python/cp311-cp311/..., the machine
the wheels were built on. Any interface package depending on action_msgs (every .action) fails
to generate until they point at this interpreter's headers and numpy. Idempotent.

    python scripts/fix_wheel_cmake_paths.py <venv>
"""

import pathlib
import sys
import sysconfig

import numpy

BUILDER_PYTHON_INCLUDE = "/opt/python/cp311-cp311/include/python3.11"
BUILDER_NUMPY_INCLUDE = "/opt/python/cp311-cp311/lib/python3.11/site-packages/numpy/_core/include"


def main() -> int:
    share = pathlib.Path(sys.argv[1]) / "share"
    replacements = {
        BUILDER_NUMPY_INCLUDE: numpy.get_include(),
        BUILDER_PYTHON_INCLUDE: sysconfig.get_paths()["include"],
    }
    fixed = 0
    for path in share.glob("*/cmake/*.cmake"):
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        if "/opt/python/cp311-cp311" not in text:
            continue
        for old, new in replacements.items():
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8", errors="surrogateescape")
        fixed += 1
    if fixed:
        print(f"[setup] pointed {fixed} exported CMake files at this interpreter")
    return 0


if __name__ == "__main__":
    sys.exit(main())
