"""The `hri` node: phanthy in the ROS4HRI (REP-155) shape, so other HRI packages can sit next
to it.

Out (relative names: `/humans/...` in the root namespace, `/<robot>/humans/...` in a robot's):
- `humans/voices/tracked` (hri_msgs/IdsList): the voices heard in the last `voices.ttl_s`
  seconds, on every change and once a second;
- `humans/voices/<id>/speech` (hri_msgs/LiveSpeech): what each voice said, `incremental`
  for partial transcripts, `final` for final ones, with confidence and locale ("en_US");
- `humans/voices/<id>/is_speaking` (std_msgs/Bool): from the VAD's onsets and offsets.
The voice ids are the transcripts' speaker ids (`anonymous_speaker`, `speaker_1`, an enrolled
name), made topic-safe (phanthy_drivers/hri_voices.py).

Action `skill/say` (phanthy/action/Say, in the spirit of PAL's communication skills):
the text goes to the speech tool (`say.tool`, default `speaker/speak`) as a Tool goal; its
feedback (heard text) and outcome come back; a cancel of the say cancels the speech.

Parameters: `voices.ttl_s` (30), `voices.max` (64), `say.tool` (speaker/speak),
`say.server_wait_s` (2).
"""

from __future__ import annotations

import json
import threading
import time
from typing import Dict, Tuple

from hri_msgs.msg import IdsList, LiveSpeech
from rclpy.action import ActionServer, CancelResponse, GoalResponse
from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_msgs.msg import Bool

from phanthy.action import Say, Tool
from phanthy.msg import Transcript, VoiceActivity
from phanthy_common.action_client import SpinSafeActionClient
from phanthy_common.convert import clean_text, header
from phanthy_common.health import OK, Status
from phanthy_common.lifecycle import ManagedNode
from phanthy_common.params import Params
from phanthy_common.sdk import end_goal

from .hri_voices import HumanVoices, Speaking, Speech, Update

RELIABLE = QoSProfile(depth=50, reliability=ReliabilityPolicy.RELIABLE)
TRACKED_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
# A voice's topics appear when it first speaks, before anyone has discovered them: its last
# messages are kept for late joiners (volatile subscribers, libhri's default, match too).
VOICE_QOS = QoSProfile(depth=10, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
MAX_SAY_CHARS = 4000


class HriNode(ManagedNode):
    """Configured at construction; /diagnostics: voices tracked, says served."""
    needs_threads = True  # a say waits for its speech on an executor thread

    def __init__(self, **kwargs):
        super().__init__("hri", automatically_declare_parameters_from_overrides=True, **kwargs)
        p = self.params = Params(self)
        self.voices = HumanVoices(self._now, p.get("voices.ttl_s", 30.0, "a voice not heard this long is no longer tracked"),
                                  p.get("voices.max", 64, "bound on distinct voices (topics) at a time"))
        driver_tool = p.get("say.tool", "speaker/speak", "the speech tool a say goal goes to (driver/tool)")
        self.server_wait_s = p.get("say.server_wait_s", 2.0, "how long a say waits for the speech tool's server")
        p.warn_unknown()
        self._lock = threading.Lock()
        self._voice_pubs: Dict[str, Tuple[object, object]] = {}
        self._last_tracked: list = []
        self.says = {"succeeded": 0, "failed": 0, "cancelled": 0, "timeout": 0}
        group = ReentrantCallbackGroup()  # a say waits for its speech while others are served
        # words and activity one at a time, in arrival order: run side by side, a partial could
        # be published after its own final
        voices = MutuallyExclusiveCallbackGroup()
        self._tracked_pub = self.create_publisher(IdsList, "humans/voices/tracked", TRACKED_QOS)
        self.create_subscription(Transcript, "voice/transcript", self._on_transcript, RELIABLE, callback_group=voices)
        self.create_subscription(VoiceActivity, "voice/activity", self._on_activity, RELIABLE, callback_group=voices)
        self.create_timer(1.0, lambda: self._publish_tracked(force=True), callback_group=voices)
        self._speak = SpinSafeActionClient(self, Tool, driver_tool, callback_group=group)
        self._say = ActionServer(self, Say, "skill/say", execute_callback=self._execute_say,
                                 goal_callback=lambda goal: GoalResponse.ACCEPT,
                                 cancel_callback=lambda goal: CancelResponse.ACCEPT, callback_group=group)
        self.say_tool = driver_tool

    def _now(self) -> float:
        return self.get_clock().now().nanoseconds * 1e-9

    # --- voices --------------------------------------------------------------------------------
    def _on_transcript(self, msg: Transcript) -> None:
        if msg.error or not msg.text.strip():
            return
        with self._lock:
            updates = self.voices.transcript(msg.speaker_id, clean_text(msg.text)[:4000], msg.is_final,
                                             msg.confidence, msg.language)
        self._publish(updates)

    def _on_activity(self, msg: VoiceActivity) -> None:
        if msg.event not in ("onset", "resume", "offset", ""):  # pause: still speech; candidate: not yet
            return
        with self._lock:
            updates = self.voices.activity(bool(msg.speaking))
        self._publish(updates)

    def _voice_topics(self, voice: str):
        if voice not in self._voice_pubs:
            base = f"humans/voices/{voice}"
            self._voice_pubs[voice] = (self.create_publisher(LiveSpeech, f"{base}/speech", VOICE_QOS),
                                       self.create_publisher(Bool, f"{base}/is_speaking", VOICE_QOS))
        return self._voice_pubs[voice]

    def _publish(self, updates: list[Update]) -> None:
        for update in updates:
            speech_pub, speaking_pub = self._voice_topics(update.voice)
            if isinstance(update, Speech):
                speech_pub.publish(LiveSpeech(header=header(time.time()), incremental=update.incremental,
                                              final=update.final, confidence=update.confidence,
                                              locale=update.locale))
            elif isinstance(update, Speaking):
                speaking_pub.publish(Bool(data=update.speaking))
        self._publish_tracked()

    def _publish_tracked(self, force: bool = False) -> None:
        with self._lock:
            tracked = self.voices.tracked()
            changed, self._last_tracked = tracked != self._last_tracked, tracked
        if changed or force:
            self._tracked_pub.publish(IdsList(header=header(time.time()), ids=tracked))

    # --- say -----------------------------------------------------------------------------------
    def _execute_say(self, goal_handle) -> Say.Result:
        text, caller = goal_handle.request.input.strip(), goal_handle.request.caller
        self.get_logger().info(f"say for {caller or 'someone'}: {text[:80]!r}")
        if not text or len(text) > MAX_SAY_CHARS:
            return self._say_end(goal_handle, "failed", "", f"input must be 1-{MAX_SAY_CHARS} characters")
        if not self._speak.wait_for_server(timeout_sec=self.server_wait_s):
            return self._say_end(goal_handle, "failed", "", f"the speech tool {self.say_tool} is not available")

        def feedback(msg) -> None:
            try:
                heard = json.loads(msg.feedback.progress_json or "{}").get("heard_text", "")
            except ValueError:
                return
            goal_handle.publish_feedback(Say.Feedback(heard_text=str(heard)))

        send = self._speak.send_goal_async(Tool.Goal(args_json=json.dumps({"text": text})), feedback_callback=feedback)
        if not _wait(send, 5.0) or not send.result().accepted:
            return self._say_end(goal_handle, "failed", "", f"{self.say_tool} did not accept the speech")
        speech = send.result()
        outcome = speech.get_result_async()
        cancel_sent = False
        while not outcome.done():
            if goal_handle.is_cancel_requested and not cancel_sent:
                speech.cancel_goal_async()
                cancel_sent = True
            time.sleep(0.02)
        result = outcome.result().result
        try:
            heard = json.loads(result.result_json or "{}").get("heard_text", "")
        except ValueError:
            heard = ""
        return self._say_end(goal_handle, result.status, str(heard), result.error)

    def _say_end(self, goal_handle, status: str, heard: str, error: str) -> Say.Result:
        self.says[status] = self.says.get(status, 0) + 1
        end_goal(goal_handle, status)
        return Say.Result(status=status, heard_text=heard, error_msg=error)

    def diagnostics(self):
        with self._lock:
            tracked = self.voices.tracked()
        return [Status.of("voices", OK, f"{len(tracked)} voice(s) tracked", tracked=",".join(tracked)),
                Status.of("say", OK, f"say goals: {sum(self.says.values())}", **self.says)]


def _wait(future, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while not future.done() and time.monotonic() < deadline:
        time.sleep(0.01)
    return future.done()
