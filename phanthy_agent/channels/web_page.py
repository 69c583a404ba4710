"""The web chat page (kept in Python so it installs with the package everywhere)."""

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>phanthy chat</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
  #log { border: 1px solid #ccc; border-radius: 6px; height: 60vh; overflow-y: auto; padding: .5rem; }
  .msg { margin: .3rem 0; } .you { text-align: right; } .robot { color: #064; } .system { color: #a00; }
  form { display: flex; gap: .5rem; margin-top: .5rem; } #text { flex: 1; padding: .4rem; }
</style>
</head>
<body>
<h1>Talk to the robot</h1>
<div id="status">connecting...</div>
<div id="log" aria-live="polite"></div>
<form id="form"><input id="text" autocomplete="off" placeholder="Type a message, /new to start over">
<button id="send" type="submit">Send</button></form>
<script>
  const params = new URLSearchParams(location.search);
  let chat = localStorage.getItem("phanthy-chat");
  if (!chat) { chat = Math.random().toString(36).slice(2, 12); localStorage.setItem("phanthy-chat", chat); }
  const log = document.getElementById("log"), status = document.getElementById("status");
  function show(cls, text) {
    const div = document.createElement("div"); div.className = "msg " + cls; div.textContent = text;
    log.appendChild(div); log.scrollTop = log.scrollHeight;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws?chat=${chat}&token=${encodeURIComponent(params.get("token") || "")}`);
  ws.onopen = () => { status.textContent = "connected"; status.dataset.state = "open"; };
  ws.onclose = () => { status.textContent = "disconnected"; status.dataset.state = "closed"; };
  ws.onmessage = (e) => {
    const m = JSON.parse(e.data);
    if (m.error) show("system", m.error); else show(m.from === "robot" ? "robot" : "system", m.text);
  };
  document.getElementById("form").onsubmit = (e) => {
    e.preventDefault();
    const input = document.getElementById("text"), text = input.value.trim();
    if (!text || ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({text})); show("you", text); input.value = "";
  };
</script>
</body>
</html>
"""
