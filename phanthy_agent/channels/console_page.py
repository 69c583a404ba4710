"""The operator's console page: one HTML file, no build step, no library (kept in Python so it
installs with the package). It draws what /console/ws sends (phanthy_agent/channels/console.py).

Keys: Escape stops the robot, `/` goes to the visitor's input, Enter sends, Tab reaches every
button (each finished turn's Replay too)."""

CONSOLE_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>phanthy console</title>
<link rel="icon" href="data:,">
<style>
  :root { --ok: #17803d; --warn: #b36b00; --err: #c62828; --muted: #667; --line: #dde; }
  body { font: 14px/1.35 system-ui, sans-serif; margin: 0; color: #123; background: #f6f7fb; }
  header { display: flex; gap: 1rem; align-items: center; padding: .5rem 1rem; background: #123; color: #fff; }
  header h1 { font-size: 1.1rem; margin: 0; flex: 1; }
  button { font: inherit; padding: .35rem .8rem; border-radius: 5px; border: 1px solid #889; background: #fff; cursor: pointer; }
  button:focus-visible, input:focus-visible { outline: 3px solid #3a7bd5; outline-offset: 1px; }
  #stop { background: var(--err); color: #fff; border-color: #900; font-weight: 600; }
  main { display: grid; grid-template-columns: repeat(auto-fit, minmax(340px, 1fr)); gap: .7rem; padding: .7rem; }
  section { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: .5rem .7rem; min-width: 0; }
  h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 0 0 .4rem; }
  .machine { display: flex; gap: .25rem; flex-wrap: wrap; }
  .machine span { padding: .2rem .45rem; border-radius: 4px; border: 1px solid var(--line); color: var(--muted); font-size: .8rem; }
  .machine span.current { background: #123; color: #fff; border-color: #123; }
  .kv { display: grid; grid-template-columns: max-content 1fr; gap: .1rem .6rem; margin-top: .4rem; }
  .kv dt { color: var(--muted); } .kv dd { margin: 0; }
  #vad[data-speaking=true] { color: var(--ok); font-weight: 600; }
  .list { max-height: 14rem; overflow-y: auto; margin: 0; padding: 0; list-style: none; }
  .list li { padding: .15rem 0; border-bottom: 1px solid #f0f0f4; }
  .partial { color: var(--muted); font-style: italic; }
  .who { font-size: .75rem; color: var(--muted); margin-right: .3rem; }
  .heard { background: #e3f4e8; } .rest { color: var(--muted); }
  .timeline { position: relative; }
  .row { display: grid; grid-template-columns: 8.5rem 1fr; gap: .4rem; align-items: center; font-size: .8rem; margin: .1rem 0; }
  .track { position: relative; height: .9rem; background: #f3f4f8; border-radius: 3px; }
  .bar { position: absolute; top: 0; bottom: 0; border-radius: 3px; background: #6b8fd6; min-width: 3px; }
  .bar.succeeded { background: var(--ok); } .bar.failed, .bar.timeout { background: var(--err); }
  .bar.cancelled { background: var(--warn); } .bar.running { background: #6b8fd6; opacity: .6; }
  .log { font-size: .75rem; color: var(--muted); max-height: 8rem; overflow-y: auto; }
  .level-OK { color: var(--ok); } .level-WARN { color: var(--warn); } .level-ERROR, .level-STALE { color: var(--err); font-weight: 600; }
  table { border-collapse: collapse; width: 100%; font-size: .8rem; } td, th { text-align: left; padding: .1rem .3rem; border-bottom: 1px solid #f0f0f4; }
  .spark { display: grid; grid-template-columns: 7rem 1fr 4.5rem; align-items: center; gap: .4rem; font-size: .8rem; }
  .spark svg { width: 100%; height: 22px; } .spark polyline { fill: none; stroke: #3a7bd5; stroke-width: 1.5; }
  .evidence { font-size: .8rem; color: #345; border-left: 3px solid var(--line); padding-left: .4rem; margin: .2rem 0; }
  form { display: flex; gap: .4rem; } form input { flex: 1; padding: .35rem; font: inherit; }
  .sr { position: absolute; left: -9999px; }
  #fleet tr[data-status=gone] { color: var(--muted); text-decoration: line-through; }
  #fleet .what { display: block; font-size: .75rem; color: var(--muted); } #fleet .peer-heard { white-space: nowrap; }
</style>
</head>
<body>
<header>
  <h1>phanthy console</h1>
  <span id="conn" data-state="connecting">connecting...</span>
  <button id="stop" title="Escape" aria-keyshortcuts="Escape">Stop the robot</button>
</header>
<main>
  <section id="states" aria-label="states">
    <h2>Voice and agent</h2>
    <div class="machine" id="machine"></div>
    <dl class="kv">
      <dt>agent</dt><dd id="agent-state">-</dd>
      <dt>session</dt><dd id="session">-</dd>
      <dt>brain</dt><dd id="brain">-</dd>
      <dt>running actions</dt><dd id="outstanding">0</dd>
      <dt>voice activity</dt><dd id="vad" data-speaking="false">silent</dd>
      <dt>speaker</dt><dd id="speaker">-</dd>
      <dt>wake word</dt><dd id="wake">-</dd>
    </dl>
  </section>
  <section aria-label="visitor">
    <h2>Hearing</h2>
    <ul class="list" id="hearing" aria-live="polite"></ul>
    <p class="partial" id="partial"></p>
    <form id="visitor"><label class="sr" for="say">Type as a visitor</label>
      <input id="say" autocomplete="off" placeholder="Type as a visitor ( / )" aria-keyshortcuts="/">
      <button id="send" type="submit">Send</button></form>
  </section>
  <section aria-label="robot speech">
    <h2>Robot says (as heard)</h2>
    <p id="saying"><span class="heard" id="said"></span><span class="rest" id="unsaid"></span></p>
    <p class="who" id="playback-state">idle</p>
  </section>
  <section aria-label="turn timeline">
    <h2>Turn <span id="turn-id"></span></h2>
    <div class="timeline" id="timeline"></div>
    <div class="log" id="turn-log"></div>
  </section>
  <section aria-label="finished turns">
    <h2>Finished turns</h2>
    <ul class="list" id="turns"></ul>
  </section>
  <section aria-label="latencies">
    <h2>Latencies (last turns, ms)</h2>
    <div id="latency"></div>
  </section>
  <section aria-label="interventions">
    <h2>Interventions</h2>
    <ul class="list" id="interventions"></ul>
  </section>
  <section aria-label="health">
    <h2>Nodes</h2>
    <table><thead><tr><th>node</th><th>state</th><th>health</th></tr></thead><tbody id="health"></tbody></table>
  </section>
  <section aria-label="fleet">
    <h2>Fleet</h2>
    <table><thead><tr><th>robot</th><th>state</th><th>heard</th></tr></thead><tbody id="fleet"></tbody></table>
  </section>
</main>
<script>
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; };
const STATES = ["STOPPED", "LISTENING", "RECOGNIZING", "THINKING", "PLAYING"];
const STAGES = [["voice_to_voice_ms", "voice to voice"], ["asr_ms", "recognizer"], ["agent_ms", "agent"], ["speech_ms", "speech"], ["turn_ms", "whole turn"]];
const RANK = {OK: 0, WARN: 1, ERROR: 2, STALE: 3};
const S = {live: false, events: {}, turns: [], timings: {}, latency: {}, nodes: {}, rows: {}, stale: {}, fleet: {}, current: "", replaying: null, dirty: false};
window.__console = {stateLatency: [], messages: 0};
STATES.forEach((s) => $("machine").appendChild(el("span", "", s)));

function onState(d, stamp) {
  for (const span of $("machine").children) span.classList.toggle("current", span.textContent === d.voice_state);
  $("agent-state").textContent = d.state; $("session").textContent = d.session || "-";
  $("brain").textContent = d.brain || "-"; $("outstanding").textContent = d.outstanding_actions;
  document.body.dataset.agentState = d.state; document.body.dataset.voiceState = d.voice_state;
  if (S.live) window.__console.stateLatency.push(Date.now() - stamp * 1000);
}
function onActivity(d) {
  if (!["onset", "resume", "offset", ""].includes(d.event)) return;
  $("vad").dataset.speaking = d.speaking; $("vad").textContent = d.speaking ? "speaking" : "silent";
}
function onTranscript(d) {
  const who = (d.speaker_id || "anonymous_speaker") + (d.speaker_confidence > 0 ? " (" + d.speaker_confidence.toFixed(2) + ")" : "");
  $("speaker").textContent = who;
  if (!d.is_final) { $("partial").textContent = who + ": " + d.text + " ..."; return; }
  $("partial").textContent = "";
  const li = el("li"); li.appendChild(el("span", "who", who + (d.confidence >= 0 ? " " + d.confidence.toFixed(2) : "") + " [" + d.source + "]"));
  li.appendChild(document.createTextNode(d.error ? "(not recognized: " + d.error + ")" : d.text));
  $("hearing").appendChild(li); $("hearing").scrollTop = 1e9;
}
function onPlayback(d) {
  const heard = d.heard_text || ""; $("said").textContent = heard;
  $("unsaid").textContent = d.text && d.text.startsWith(heard) ? d.text.slice(heard.length) : "";
  $("playback-state").textContent = d.state + (d.position_ms ? " at " + (d.position_ms / 1000).toFixed(1) + " s" : "");
  document.body.dataset.playback = d.state;
}
function onEvent(m) {
  const d = m.data, id = d.turn_id || "";
  (S.events[id] = S.events[id] || []).push(m);
  if (S.replaying) return;
  S.current = id;
  if (!S.dirty) { S.dirty = true; requestAnimationFrame(() => { S.dirty = false; if (!S.replaying) drawTimeline(S.current, S.events[S.current] || []); }); }
}
function bars(events) {
  // tool_call (no id yet) -> tool_result (the action id; a result at once unless it acts) -> action_done
  const calls = [], pending = {}, byAction = {}; let t0 = Infinity, t1 = -Infinity;
  for (const m of events) {
    const d = m.data; t0 = Math.min(t0, m.stamp); t1 = Math.max(t1, m.stamp);
    if (d.kind === "tool_call") {
      const c = {tool: d.tool, start: m.stamp, end: null, status: "running"};
      calls.push(c); (pending[d.tool] = pending[d.tool] || []).push(c);
    } else if (d.kind === "tool_result") {
      const c = (pending[d.tool] || []).shift(); if (!c) continue;
      if (d.action_id) byAction[d.action_id] = c;
      if (d.status && !["running", "accepted", "started"].includes(d.status)) { c.status = d.status; c.end = m.stamp; }
    } else if (d.kind === "action_done") {  // the reply's own speech has no tool_result
      const c = byAction[d.action_id] || (pending[d.tool] || []).shift(); if (!c) continue;
      c.end = m.stamp; c.status = d.status || "succeeded";
    }
  }
  return {calls, t0, t1};
}
function drawTimeline(id, events) {
  $("turn-id").textContent = id ? id : ""; const box = $("timeline"); box.replaceChildren();
  let {calls, t0, t1} = bars(events);
  const running = !S.replaying && calls.some((c) => c.end === null);
  if (running) { t1 = Math.max(t1, Date.now() / 1000); clearTimeout(S.tick); S.tick = setTimeout(() => drawTimeline(S.current, S.events[S.current] || []), 1000); }
  const span = Math.max(0.5, t1 - t0);
  for (const c of calls) {
    const row = el("div", "row"); row.appendChild(el("span", "", c.tool + " " + c.status));
    const track = el("div", "track"), bar = el("div", "bar " + c.status);
    bar.style.left = (100 * (c.start - t0) / span) + "%";
    bar.style.width = (100 * ((c.end || t1) - c.start) / span) + "%";
    bar.title = c.tool + ": " + c.status; track.appendChild(bar); row.appendChild(track); box.appendChild(row);
  }
  const log = $("turn-log"); log.replaceChildren();
  for (const m of events) { const d = m.data;
    log.appendChild(el("div", "", "+" + (m.stamp - t0).toFixed(2) + " s " + d.kind + (d.tool ? " " + d.tool : "") + (d.status ? " " + d.status : "") + (d.text ? ": " + d.text.slice(0, 120) : ""))); }
}
function replay(id) {
  const events = (S.events[id] || []).slice(); if (!events.length) return;
  const t0 = events[0].stamp, span = events[events.length - 1].stamp - t0, speed = Math.max(1, span / 8);
  S.replaying = id; drawTimeline(id, []); const shown = [];
  events.forEach((m, i) => setTimeout(() => {
    shown.push(m); drawTimeline(id, shown);
    if (i === events.length - 1) { S.replaying = null; document.body.dataset.replayed = id; }
  }, 1000 * (m.stamp - t0) / speed));
}
function onTurn(d) {
  S.turns.push(d); if (S.turns.length > 20) S.turns.shift();
  const li = el("li"); li.dataset.turn = d.turn_id;
  li.appendChild(el("span", "who", (d.t_end - d.t_trigger).toFixed(1) + " s " + d.end_reason + " [" + d.trigger_source + "]"));
  li.appendChild(document.createTextNode((d.inputs || []).join(" / ") + " -> " + (d.reply || "(nothing said)") + " "));
  const b = el("button", "replay", "Replay"); b.setAttribute("aria-label", "Replay turn " + d.turn_id);
  b.onclick = () => replay(d.turn_id); li.appendChild(b); $("turns").appendChild(li); $("turns").scrollTop = 1e9;
  const lat = S.timings[d.turn_id] || {};
  if (d.t_first_token > 0 && !lat.agent_ms) lat.agent_ms = 1000 * (d.t_first_token - d.t_trigger);
  if (d.t_first_audio > 0 && d.t_first_token > 0 && !lat.speech_ms) lat.speech_ms = 1000 * (d.t_first_audio - d.t_first_token);
  lat.turn_ms = 1000 * (d.t_end - d.t_trigger);
  for (const [key] of STAGES) if (lat[key] > 0) (S.latency[key] = S.latency[key] || []).push(lat[key]);
  drawLatency();
}
function drawLatency() {
  const box = $("latency"); box.replaceChildren();
  for (const [key, label] of STAGES) {
    const v = (S.latency[key] || []).slice(-20); if (!v.length) continue;
    const row = el("div", "spark"); row.appendChild(el("span", "", label));
    const max = Math.max(...v, 1), svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 100 22"); svg.setAttribute("preserveAspectRatio", "none");
    const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    line.setAttribute("points", v.map((x, i) => (v.length > 1 ? 100 * i / (v.length - 1) : 50) + "," + (21 - 20 * x / max)).join(" "));
    svg.appendChild(line); row.appendChild(svg); row.appendChild(el("span", "", v[v.length - 1].toFixed(0) + " ms"));
    box.appendChild(row);
  }
}
function onIntervention(d) {
  let li = document.querySelector('#interventions li[data-id="' + CSS.escape(d.id) + '"]');
  if (!li) { li = el("li"); li.dataset.id = d.id; $("interventions").appendChild(li); }
  li.replaceChildren(el("span", "who", d.kind + " - " + d.state + (d.turns_late ? " (" + d.turns_late + " turns late)" : "")));
  li.appendChild(el("div", "", "on: " + d.claim)); li.appendChild(el("div", "", "says: " + d.text));
  (d.evidence || []).forEach((e, i) => li.appendChild(el("div", "evidence", (d.citations[i] || "") + " " + e)));
}
function onHealth(d) {
  S.nodes[d.node] = d.statuses;
  for (const s of d.statuses) if (s.name.startsWith("/")) {
    const was = S.stale[s.name]; if (s.level === "STALE") S.stale[s.name] = s.message; else delete S.stale[s.name];
    if (was !== S.stale[s.name] && S.nodes[s.name]) drawNode(s.name);
  }
  drawNode(d.node);
}
function drawNode(node) {  // one row, touched only when what it shows changed
  const st = S.nodes[node], life = st.find((s) => s.name === "lifecycle");
  let worst = st.reduce((a, s) => RANK[s.level] > RANK[a.level] ? s : a, {level: "OK", message: "ok"});
  if (S.stale[node]) worst = {level: "STALE", name: "watchdog", message: S.stale[node]};
  const shown = [life ? life.message : "?", worst.level, worst.name, worst.message].join("|");
  let tr = S.rows[node];
  if (tr && tr.dataset.shown === shown) return;
  if (!tr) {
    tr = S.rows[node] = el("tr"); tr.dataset.node = node;
    [0, 1, 2].forEach(() => tr.appendChild(el("td")));
    const rows = $("health"), after = Object.keys(S.rows).sort().indexOf(node);
    rows.insertBefore(tr, rows.children[after] || null);
  }
  tr.dataset.shown = shown; tr.dataset.level = worst.level;
  tr.children[0].textContent = node; tr.children[1].textContent = life ? life.message : "?";
  tr.children[2].className = "level-" + worst.level;
  tr.children[2].textContent = worst.level + (worst.level === "OK" ? "" : ": " + (worst.name || "") + " " + worst.message);
  tr.children[2].title = st.map((s) => s.name + ": " + s.level + " " + s.message).join("\\n");
}
function onFleet(d) {  // every robot heard on /phanthy/peers; rows updated in place (a focused link stays)
  const seen = new Set();
  d.peers.forEach((p, i) => {
    seen.add(p.peer_id); let tr = S.fleet[p.peer_id];
    if (!tr) {
      tr = S.fleet[p.peer_id] = el("tr"); tr.dataset.peer = p.peer_id;
      const who = el("td"); who.appendChild(el("span", "name")); who.appendChild(el("span", "what"));
      tr.append(who, el("td", "peer-state"), el("td", "peer-heard"));
    }
    const box = $("fleet"); if (box.children[i] !== tr) box.insertBefore(tr, box.children[i] || null);
    const name = tr.querySelector(".name"), url = /^https?:\\/\\//.test(p.console_url) ? p.console_url : "";
    if (name.dataset.url !== url || name.dataset.id !== p.peer_id) {
      name.dataset.url = url; name.dataset.id = p.peer_id;
      const label = p.peer_id + (p.this_robot ? " (this robot)" : "");
      if (url) { const a = el("a", "", label); a.href = url; a.title = "open " + p.peer_id + "'s console"; name.replaceChildren(a); }
      else name.replaceChildren(document.createTextNode(label));
    }
    tr.querySelector(".what").textContent = p.description;
    tr.dataset.status = p.online ? "online" : "gone"; tr.dataset.agentState = p.agent_state || "";
    tr.querySelector(".peer-state").textContent = p.online ? (p.agent_state || "-") + (p.voice_state ? " / " + p.voice_state : "") : "gone";
    tr.querySelector(".peer-heard").textContent = p.heard_s_ago.toFixed(p.heard_s_ago < 10 ? 1 : 0) + " s ago";
  });
  for (const id of Object.keys(S.fleet)) if (!seen.has(id)) { S.fleet[id].remove(); delete S.fleet[id]; }
}
function handle(m) {
  window.__console.messages++;
  const d = m.data;
  switch (m.type) {
    case "live": S.live = true; break;
    case "state": onState(d, m.stamp); break;
    case "activity": onActivity(d); break;
    case "wake": $("wake").textContent = d.keyword + " (" + (d.score || 0).toFixed(2) + ")"; break;
    case "transcript": onTranscript(d); break;
    case "playback": onPlayback(d); break;
    case "event": onEvent(m); break;
    case "turn": onTurn(d); break;
    case "timing": S.timings[d.turn_id] = d; break;
    case "intervention": onIntervention(d); break;
    case "health": onHealth(d); break;
    case "fleet": onFleet(d); break;
    case "error": $("conn").textContent = m.error; break;
  }
}
const token = new URLSearchParams(location.search).get("token") || "";
let ws;
function connect() {
  ws = new WebSocket((location.protocol === "https:" ? "wss" : "ws") + "://" + location.host + "/console/ws?token=" + encodeURIComponent(token));
  ws.onopen = () => { $("conn").textContent = "live"; $("conn").dataset.state = "open"; };
  ws.onclose = () => { $("conn").textContent = "disconnected, retrying"; $("conn").dataset.state = "closed"; S.live = false; setTimeout(connect, 1000); };
  ws.onmessage = (e) => handle(JSON.parse(e.data));
}
connect();
function stop() { if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({type: "stop"})); }
$("stop").onclick = stop;
$("visitor").onsubmit = (e) => { e.preventDefault(); const t = $("say").value.trim();
  if (t && ws.readyState === WebSocket.OPEN) { ws.send(JSON.stringify({type: "say", text: t})); $("say").value = ""; } };
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") { e.preventDefault(); stop(); }
  else if (e.key === "/" && document.activeElement !== $("say")) { e.preventDefault(); $("say").focus(); }
});
</script>
</body>
</html>
"""
