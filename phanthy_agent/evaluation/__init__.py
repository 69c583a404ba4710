"""`phanthy eval`: whole conversations graded on what the robot said and did (README, "Evaluation").

scenario.py (the file format), trace.py (the joint trace), assertions.py (grading),
visitor.py (scripted and goal-driven visitors), voice.py (the visitor's synthesized voice),
probe.py (the ROS node that plays the visitor and records the trace), run_one.py (one run in
its own process and ROS domain), runner.py (repeats, jobs, verdicts), report.py (report.json,
report.html, JUnit XML), judge.py (optional LLM-graded assertions).
"""
