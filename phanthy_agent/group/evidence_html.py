"""The evidence page's HTML (served by evidence_page.py): the intervention on top, the cited
document below with the cited sentences highlighted and scrolled into view."""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>What the robot said, and where it says so</title>
<style>
 body { font: 18px/1.5 system-ui, sans-serif; margin: 0; background: #fafaf7; color: #222; }
 header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #ddd; padding: 12px 20px; }
 #said { font-size: 22px; margin: 4px 0; }
 #meta { color: #666; font-size: 14px; }
 main { padding: 12px 20px; max-width: 48em; }
 h2 { font-size: 20px; margin: 18px 0 4px; } h3 { font-size: 16px; color: #555; margin: 12px 0 2px; }
 .sentence { padding: 1px 0; }
 .cited { background: #ffe066; outline: 2px solid #f0b400; border-radius: 3px; }
 .stale { color: #a00; font-size: 14px; }
 .state-speaking #said::before { content: "\\1F5E3  "; }
 .state-hand_raised #said::before { content: "\\270B  "; }
</style></head>
<body><header id="head" class="state-none">
 <div id="meta">Nothing to show yet.</div><div id="said"></div><div id="stale" class="stale"></div>
</header><main id="doc"></main>
<script>
const token = new URLSearchParams(location.search).get("token") || "";
const q = token ? "?token=" + encodeURIComponent(token) : "";
let docs = null, shown = "";
function esc(s) { const d = document.createElement("div"); d.textContent = s; return d.innerHTML; }
function render(cur) {
  const head = document.getElementById("head");
  head.className = "state-" + (cur.state || "none");
  if (!cur.id) return;
  document.getElementById("meta").textContent = cur.kind + " \\u00b7 " + cur.state +
    (cur.turns_late ? " \\u00b7 " + cur.turns_late + " turns after" : "") + " \\u00b7 " + cur.citations.join(", ");
  document.getElementById("said").textContent = cur.text;
  document.getElementById("stale").textContent = cur.stale.length ?
    "The document changed since: " + cur.stale.join(", ") + " may not be what was cited." : "";
  const key = cur.id + cur.citations.join();
  if (key === shown || !docs) return;
  shown = key;
  const main = document.getElementById("doc");
  main.innerHTML = "";
  for (const name of cur.documents) {
    const d = docs[name];
    if (!d) continue;
    let html = "<h2>" + esc(d.title) + "</h2>";
    for (const sec of d.sections) {
      if (sec.title) html += "<h3>" + esc(sec.title) + "</h3>";
      html += "<p>" + sec.sentences.map(s => '<span class="sentence' + (cur.citations.includes(s.id) ? ' cited' : '') +
        '" data-id="' + esc(s.id) + '">' + esc(s.text) + "</span>").join(" ") + "</p>";
    }
    main.insertAdjacentHTML("beforeend", html);
  }
  const first = main.querySelector(".cited");
  if (first) first.scrollIntoView({block: "center"});
}
async function poll() {
  try {
    if (!docs) docs = await (await fetch("/api/documents" + q)).json();
    render(await (await fetch("/api/current" + q)).json());
  } catch (e) { document.getElementById("meta").textContent = "The robot is not reachable."; }
  setTimeout(poll, 500);
}
poll();
</script></body></html>
"""
