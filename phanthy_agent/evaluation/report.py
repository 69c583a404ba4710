"""The reports of `phanthy eval`: `report.json` (every run's trace and verdicts), `report.html`
(one self-contained page: the pass table by tag, each run's timeline as SVG — who spoke when,
tool calls as bars, where it went wrong — and a plot of the turn latencies) and JUnit XML
(one testcase per scenario and run)."""

from __future__ import annotations

import html
import json
import pathlib
import xml.etree.ElementTree as ET
from typing import Dict, List

from .runner import RunResult, by_tag, suite_rates

LANES = ("visitor", "robot", "tools", "agent")
LANE_H, LEFT, WIDTH = 26, 70, 900
STATE_COLORS = {"thinking": "#f0c36d", "acting": "#8fb3e0", "speaking": "#8fd19e", "idle": "#eeeeee"}


def write_json(results: List[RunResult], path: pathlib.Path, meta: Dict) -> None:
    data = {"meta": meta, "runs": [r.to_dict() for r in results]}
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1, default=str), encoding="utf-8")


def write_junit(results: List[RunResult], path: pathlib.Path, wall_s: float) -> None:
    suite = ET.Element("testsuite", name="phanthy eval", tests=str(len(results)),
                       failures=str(sum(not r.passed for r in results)), time=f"{wall_s:.3f}")
    for r in results:
        case = ET.SubElement(suite, "testcase", classname=pathlib.Path(r.scenario.path or "").stem or "scenario",
                             name=f"{r.scenario.name} [run {r.run + 1}]", time=f"{r.trace.duration_s:.3f}")
        if not r.passed:
            failure = ET.SubElement(case, "failure", message=r.failure[:1000])
            failure.text = "\n".join(v.message for v in r.verdicts if v.passed is False) or r.failure
        ET.SubElement(case, "system-out").text = r.trace.said()[:4000]
    ET.ElementTree(suite).write(path, encoding="utf-8", xml_declaration=True)


# --- HTML -------------------------------------------------------------------------------------
def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def _timeline(result: RunResult) -> str:
    trace = result.trace
    end = max([trace.duration_s] + [e.get("t_end") or e["t"] for e in trace.events] + [1.0])
    scale = (WIDTH - LEFT - 10) / end
    x = lambda t: LEFT + max(0.0, t) * scale  # noqa: E731
    lane_y = {name: 10 + i * LANE_H for i, name in enumerate(LANES)}
    parts = [f'<text x="4" y="{lane_y[n] + 15}" class="lane">{n}</text>' for n in LANES]
    for e in trace.events:
        kind, t = e["kind"], e["t"]
        if kind == "visitor_said":
            t1 = max(e.get("t_end") or t, t + 0.25)
            parts.append(_bar(x(t), x(t1), lane_y["visitor"], "#7aa6d8", f'visitor: {e["text"]}'))
        elif kind == "robot_said":
            t1 = e.get("t_end") or end
            color = "#5cb85c" if e.get("status") == "completed" else "#e0a030"
            parts.append(_bar(x(t), x(t1), lane_y["robot"], color, f'robot ({e.get("status")}): {e.get("text")}'))
        elif kind == "tool_call":
            t1 = max(e.get("t_end") or t, t + 0.1)
            bad = e.get("status") not in ("succeeded", "started", "running")
            parts.append(_bar(x(t), x(t1), lane_y["tools"], "#d9534f" if bad else "#9b7fd1",
                              f'{e["tool"]} {json.dumps(e.get("args"), ensure_ascii=False)} -> {e.get("status")}',
                              label=e["tool"], cls="tool"))
        elif kind == "turn":
            parts.append(f'<line x1="{x(t):.1f}" x2="{x(t):.1f}" y1="6" y2="{10 + len(LANES) * LANE_H}" '
                         f'class="turn"><title>turn {e.get("index")}: {_esc(e.get("end_reason"))}</title></line>')
        elif kind == "note":
            parts.append(f'<circle cx="{x(t):.1f}" cy="6" r="3" fill="#888"><title>{_esc(e["text"])}</title></circle>')
    states = trace.of("state")
    for a, b in zip(states, states[1:] + [{"t": end}]):
        parts.append(_bar(x(a["t"]), x(b["t"]), lane_y["agent"], STATE_COLORS.get(a.get("state"), "#ccc"),
                          f'{a.get("state")} ({a.get("outstanding_actions", 0)} running)'))
    height = 20 + len(LANES) * LANE_H
    ticks = "".join(f'<text x="{x(s):.1f}" y="{height}" class="tick">{s:.0f}s</text>'
                    for s in range(0, int(end) + 1, max(1, int(end) // 10)))
    return (f'<svg class="timeline" width="{WIDTH}" height="{height + 4}" role="img" '
            f'aria-label="timeline of {_esc(result.scenario.name)}">{"".join(parts)}{ticks}</svg>')


def _bar(x0: float, x1: float, y: int, color: str, title: str, label: str = "", cls: str = "") -> str:
    text = f'<text x="{x0 + 2:.1f}" y="{y + 15}" class="bar-label">{_esc(label)}</text>' if label else ""
    return (f'<g class="{cls}"><rect x="{x0:.1f}" y="{y}" width="{max(2.0, x1 - x0):.1f}" height="{LANE_H - 6}" '
            f'fill="{color}"><title>{_esc(title)}</title></rect>{text}</g>')


def _latencies(results: List[RunResult]) -> str:
    """Trigger -> first audio of every turn with speech, as dots per run."""
    points = []
    for i, r in enumerate(results):
        for turn in r.trace.of("turn"):
            if turn.get("t_first_audio") and turn.get("t_trigger"):
                points.append((i, turn["t_first_audio"] - turn["t_trigger"], r.scenario.name))
    if not points:
        return "<p>No turn with speech.</p>"
    top = max(p[1] for p in points) or 1.0
    w, h = WIDTH, 160
    dots = "".join(f'<circle cx="{LEFT + (i + 0.5) * (w - LEFT - 10) / len(results):.1f}" '
                   f'cy="{h - 20 - (v / top) * (h - 40):.1f}" r="3" fill="#337ab7">'
                   f'<title>{_esc(name)}: {v * 1000:.0f} ms</title></circle>' for i, v, name in points)
    return (f'<svg width="{w}" height="{h}" role="img" aria-label="latencies">'
            f'<text x="4" y="14" class="lane">{top * 1000:.0f} ms</text><text x="4" y="{h - 20}" class="lane">0</text>'
            f'<line x1="{LEFT}" x2="{w}" y1="{h - 20}" y2="{h - 20}" stroke="#999"/>{dots}</svg>')


CSS = """body{font:14px system-ui,sans-serif;margin:1.5em;color:#222}table{border-collapse:collapse}
td,th{border:1px solid #ccc;padding:3px 8px;text-align:left}.pass{color:#2b7a2b}.fail{color:#b52b27}
.lane,.tick{font-size:11px;fill:#555}.bar-label{font-size:10px;fill:#fff}.turn{stroke:#333;stroke-dasharray:2,2}
section{margin:1.2em 0;border-top:1px solid #ddd}details{margin:.3em 0}"""


def write_html(results: List[RunResult], path: pathlib.Path, repeat: int, wall_s: float) -> None:
    mean, se = suite_rates(results, repeat)
    tag_rows = "".join(f"<tr><td>{_esc(t)}</td><td>{k}/{n}</td><td>{100 * k / n:.0f} %</td></tr>"
                       for t, (k, n) in by_tag(results).items())
    scenario_rows, sections = [], []
    for i, r in enumerate(results):
        cls = "pass" if r.passed else "fail"
        anchor = f"run-{i}"
        scenario_rows.append(
            f'<tr><td><a href="#{anchor}">{_esc(r.scenario.name)}</a></td><td>{r.run + 1}</td>'
            f'<td>{_esc(", ".join(r.scenario.tags))}</td><td class="{cls}">{"PASS" if r.passed else "FAIL"}</td>'
            f'<td>{_esc(r.failure)}</td><td>{r.trace.duration_s:.1f} s</td></tr>')
        verdicts = "".join(
            f'<li class="{"pass" if v.passed else "fail" if v.passed is False else ""}">'
            f'{_esc(v.kind)}: expected {_esc(v.expected)}; found {_esc(v.found)}</li>' for v in r.verdicts + r.judge)
        events = _esc(json.dumps(r.trace.to_dict()["events"], ensure_ascii=False, indent=1, default=str))
        sections.append(
            f'<section id="{anchor}"><h3 class="{cls}">{_esc(r.scenario.name)} — run {r.run + 1}: '
            f'{"PASS" if r.passed else "FAIL"}</h3><p>{_esc(r.scenario.description)}</p>{_timeline(r)}'
            f'<ul>{verdicts}</ul><details><summary>trace</summary><pre>{events}</pre></details></section>')
    page = f"""<!doctype html><html lang="en"><head><meta charset="utf-8"><title>phanthy eval</title>
<style>{CSS}</style></head><body><h1>phanthy eval</h1>
<p id="summary">{sum(r.passed for r in results)}/{len(results)} runs passed; completion {100 * mean:.1f} %
{f"± {100 * se:.1f} (SE over {repeat} repeats)" if repeat > 1 else ""}; {wall_s:.1f} s.</p>
<h2>By tag</h2><table id="tags"><tr><th>tag</th><th>runs passed</th><th>completion</th></tr>{tag_rows}</table>
<h2>Runs</h2><table id="runs"><tr><th>scenario</th><th>run</th><th>tags</th><th>verdict</th><th>first failure</th>
<th>wall time</th></tr>{"".join(scenario_rows)}</table>
<h2>Latency: trigger to first audio, per turn</h2>{_latencies(results)}
<h2>Timelines</h2>{"".join(sections)}</body></html>"""
    path.write_text(page, encoding="utf-8")
