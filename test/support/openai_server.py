"""A small OpenAI-compatible chat.completions server for tests (stdlib only).

    with OpenAIServer([{"content": "Hello there"}, {"tool_calls": [...]}]) as server:
        brain = OpenAIBrain(server.base_url, "test-model")

Replies use the ScriptedBrain format (content, tool_calls [{name, arguments}] where arguments
is a dict or a raw string, delay_s) plus fault injection:
    http_status: 500          # answer with this status and an OpenAI-style error body
    retry_after_ms: 10        # with http_status: the retry-after-ms header (quick SDK retries)
    hang: true                # never answer (until the server stops)
    malformed: true           # 200 with a body that is not valid JSON / a broken SSE stream
    pause_after_first_delta: true  # stream the first content delta, then wait for resume.set()
A fault reply (http_status, hang, malformed) is used once, like any reply. When the queue is
empty, every request is answered with a plain `finish` tool call.

`requests` records every request body (parsed JSON); `completed` counts responses fully sent.
HTTP/1.1 with keep-alive; streamed replies use chunked transfer encoding.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
import uuid
from typing import Any, Dict, List, Optional

DELTAS_PER_TEXT = 3  # content and each argument string are sent in about this many pieces


def _pieces(text: str, n: int = DELTAS_PER_TEXT) -> List[str]:
    if not text:
        return []
    size = max(1, -(-len(text) // n))
    return [text[i:i + size] for i in range(0, len(text), size)]


class OpenAIServer:
    def __init__(self, replies: Optional[List[dict]] = None, model: str = "test-model"):
        self.replies: List[dict] = list(replies or [])
        self.model = model
        self.requests: List[Dict[str, Any]] = []
        self.completed = 0
        self.resume = threading.Event()  # releases a pause_after_first_delta reply
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._calls = 0
        self._httpd: Optional[http.server.ThreadingHTTPServer] = None
        self._thread: Optional[threading.Thread] = None

    # --- lifecycle -----------------------------------------------------------------------------
    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, port: int = 0) -> "OpenAIServer":
        server = self

        class Handler(_Handler):
            owner = server

        self._httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="openai-test-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self.resume.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "OpenAIServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # --- script ----------------------------------------------------------------------------
    def add(self, *replies: dict) -> None:
        with self._lock:
            self.replies.extend(replies)

    def _next(self, body: Dict[str, Any]) -> dict:
        with self._lock:
            self.requests.append(body)
            if self.replies:
                return self.replies.pop(0) or {}
            return {"tool_calls": [{"name": "finish", "arguments": {}}]}

    def _completed(self) -> None:
        with self._lock:
            self.completed += 1

    def _call_id(self) -> str:
        with self._lock:
            self._calls += 1
            return f"call_{self._calls}"

    def tool_calls_of(self, reply: dict) -> List[Dict[str, str]]:
        calls = []
        for c in reply.get("tool_calls") or []:
            args = c.get("arguments", {})
            calls.append({"id": c.get("id") or self._call_id(), "name": c.get("name", ""),
                          "arguments": args if isinstance(args, str) else json.dumps(args)})
        return calls


class _Handler(http.server.BaseHTTPRequestHandler):
    owner: OpenAIServer
    protocol_version = "HTTP/1.1"
    timeout = 30  # idle keep-alive connections end eventually

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        pass

    # --- routes --------------------------------------------------------------------------------
    def do_GET(self) -> None:
        if self.path.rstrip("/") == "/v1/models":
            self._json(200, {"object": "list", "data": [
                {"id": self.owner.model, "object": "model", "created": 0, "owned_by": "test"}]})
        else:
            self._error(404, f"no route {self.path}", "not_found_error")

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._error(404, f"no route {self.path}", "not_found_error")
            return
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._error(400, "request body is not JSON", "invalid_request_error")
            return
        owner = self.owner
        reply = owner._next(body)
        try:
            self._answer(body, reply)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away (cancelled, timed out)

    # --- answers -------------------------------------------------------------------------------
    def _answer(self, body: Dict[str, Any], reply: dict) -> None:
        owner = self.owner
        if reply.get("hang"):
            owner.stopping.wait()
            self.close_connection = True
            return
        if reply.get("delay_s") and owner.stopping.wait(float(reply["delay_s"])):
            self.close_connection = True
            return
        if reply.get("http_status"):
            headers = {}
            if reply.get("retry_after_ms") is not None:
                headers["retry-after-ms"] = str(reply["retry_after_ms"])
            status = int(reply["http_status"])
            self._error(status, reply.get("error") or f"injected HTTP {status}",
                        "server_error" if status >= 500 else "invalid_request_error", headers)
            return
        stream = bool(body.get("stream"))
        model = body.get("model") or owner.model
        if reply.get("malformed"):
            if stream:
                self._start_stream()
                self._chunk(b'data: {"id": "chatcmpl-broken", "object": "chat.completion.chunk", "choi\n\n')
                self._chunk(b"data: [DONE]\n\n")
                self._chunk(b"")
            else:
                self._raw(200, "application/json", b'{"id": "chatcmpl-broken", "choices": [')
            owner._completed()
            return
        content = str(reply.get("content") or "")
        calls = owner.tool_calls_of(reply)
        if stream:
            self._stream(model, content, calls, bool(reply.get("pause_after_first_delta")))
        else:
            message: Dict[str, Any] = {"role": "assistant", "content": content or None}
            if calls:
                message["tool_calls"] = [{"id": c["id"], "type": "function",
                                          "function": {"name": c["name"], "arguments": c["arguments"]}}
                                         for c in calls]
            self._json(200, {"id": f"chatcmpl-{uuid.uuid4().hex[:12]}", "object": "chat.completion",
                             "created": int(time.time()), "model": model,
                             "choices": [{"index": 0, "message": message,
                                          "finish_reason": "tool_calls" if calls else "stop"}],
                             "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}})
        owner._completed()

    def _stream(self, model: str, content: str, calls: List[Dict[str, str]], pause: bool) -> None:
        cid, created = f"chatcmpl-{uuid.uuid4().hex[:12]}", int(time.time())

        def event(delta: Dict[str, Any], finish: Optional[str] = None) -> None:
            chunk = {"id": cid, "object": "chat.completion.chunk", "created": created, "model": model,
                     "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
            self._chunk(b"data: " + json.dumps(chunk).encode() + b"\n\n")

        self._start_stream()
        event({"role": "assistant", "content": ""})
        for i, piece in enumerate(_pieces(content)):
            event({"content": piece})
            if i == 0 and pause:
                self.wfile.flush()
                self.owner.resume.wait(timeout=10)
        for index, call in enumerate(calls):
            event({"tool_calls": [{"index": index, "id": call["id"], "type": "function",
                                   "function": {"name": call["name"], "arguments": ""}}]})
            for piece in _pieces(call["arguments"]):
                event({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        event({}, "tool_calls" if calls else "stop")
        self._chunk(b"data: [DONE]\n\n")
        self._chunk(b"")  # end of the chunked body

    # --- HTTP helpers ----------------------------------------------------------------------
    def _start_stream(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self.wfile.flush()

    def _chunk(self, data: bytes) -> None:
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def _raw(self, status: int, content_type: str, data: bytes,
             headers: Optional[Dict[str, str]] = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)
        self.wfile.flush()

    def _json(self, status: int, payload: Any, headers: Optional[Dict[str, str]] = None) -> None:
        self._raw(status, "application/json", json.dumps(payload).encode(), headers)

    def _error(self, status: int, message: str, kind: str,
               headers: Optional[Dict[str, str]] = None) -> None:
        self._json(status, {"error": {"message": message, "type": kind, "param": None,
                                      "code": None}}, headers)


def main(argv: Optional[List[str]] = None) -> int:
    """Serve on a fixed port until SIGINT/SIGTERM, for runs outside pytest, e.g. `phanthy eval`
    with the openai brain (the plumbing, not a model: with no replies file every request is
    answered with `finish`, a model that does nothing):

        .venv/bin/python test/support/openai_server.py --port 8080 [--replies FILE.json]
    """
    import argparse
    import signal

    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--model", default="test-model")
    parser.add_argument("--replies", help="a JSON list of replies in the ScriptedBrain format, used in order")
    args = parser.parse_args(argv)
    replies = json.loads(open(args.replies, encoding="utf-8").read()) if args.replies else []
    server = OpenAIServer(replies, model=args.model).start(args.port)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    print(f"serving {server.base_url} (model {args.model}); {len(replies)} scripted replies, then finish", flush=True)
    stop.wait()
    server.stop()
    print(f"answered {len(server.requests)} requests", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
