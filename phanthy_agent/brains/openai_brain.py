"""The `openai` brain: any OpenAI-compatible chat.completions endpoint (OpenAI, llama.cpp,
vLLM, Ollama, ...), streamed through the official `openai` SDK.

- Streaming: `client.chat.completions.stream(...)` (the SDK's helper over `create(stream=True)`)
  accumulates the chunks, tool-call argument fragments included; each `content.delta` event is
  handed to `request.on_text` as it arrives. The reply is read from the accumulated snapshot,
  not from `get_final_completion()`, which raises on finish_reason "length" and would try to
  json-parse the arguments of `strict` tools. Tool arguments go back raw, as the model wrote
  them (the core validates them; invalid JSON passes through unchanged).
- Failures: bounded by the SDK's `timeout` (per connect/read/write, so a stalled endpoint fails
  after about timeout_s per attempt) and `max_retries` (connection errors, timeouts, 408/409/
  429/5xx, with backoff). Whatever still fails - refused, timed out, 4xx, 5xx, a broken
  stream - raises BrainUnavailable, so a FallbackBrain can answer instead.
- A whole step is also bounded (step_timeout_s, default: every attempt's timeout plus the
  backoff), so an endpoint that keeps dribbling tokens cannot hold a turn.
- Cancellation: cancelling the task running step() cancels the HTTP request in flight (the
  connection is closed); CancelledError propagates unchanged.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any, Dict, List

import openai

from .base import BrainReply, BrainRequest, BrainUnavailable, ToolCallRequest

log = logging.getLogger(__name__)

PLACEHOLDER_KEY = "sk-no-key-required"  # local servers accept any key; the SDK needs one


class OpenAIBrain:
    name = "openai"

    def __init__(self, base_url: str, model: str, api_key_env: str = "OPENAI_API_KEY",
                 timeout_s: float = 20.0, temperature: float = 0.3, max_retries: int = 2,
                 max_tokens: int = 400, step_timeout_s: float = 0.0):
        self.base_url, self.model = base_url, model
        self.step_timeout_s = step_timeout_s or timeout_s * (max_retries + 1) + 2.0 ** max_retries
        self.timeout_s, self.temperature = float(timeout_s), float(temperature)
        self.max_retries, self.max_tokens = int(max_retries), int(max_tokens)
        api_key = os.environ.get(api_key_env, "") if api_key_env else ""
        if not api_key:
            log.info("%s is not set: using a placeholder API key for %s (fine for local "
                     "endpoints such as llama.cpp, vLLM or Ollama)", api_key_env or "no api_key_env",
                     base_url)
            api_key = PLACEHOLDER_KEY
        self._client = openai.AsyncOpenAI(api_key=api_key, base_url=base_url, timeout=self.timeout_s,
                                          max_retries=self.max_retries)
        self._calls = 0

    async def step(self, request: BrainRequest) -> BrainReply:
        params: Dict[str, Any] = {
            "model": self.model,
            "messages": [m.to_openai() for m in request.messages],
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
        }
        if request.tools:
            params["tools"] = [endpoint_tool(t) for t in request.tools]
        try:
            return await asyncio.wait_for(self._stream(params, request), self.step_timeout_s)
        except asyncio.TimeoutError:
            reason = f"{self.base_url} did not finish its reply within {self.step_timeout_s:g} s"
            log.warning("brain openai (%s): %s", self.model, reason)
            raise BrainUnavailable(reason) from None

    async def _stream(self, params: Dict[str, Any], request: BrainRequest) -> BrainReply:
        try:
            chunks = 0
            async with self._client.chat.completions.stream(**params) as stream:
                async for event in stream:
                    if event.type == "chunk":
                        chunks += 1
                    elif event.type == "content.delta" and event.delta:
                        self._emit_text(request, event.delta)
                if not chunks:
                    raise BrainUnavailable(f"{self.base_url} sent no chat.completion.chunk events "
                                           "(an empty stream, or not an SSE stream)")
                return self._reply(stream.current_completion_snapshot)
        except asyncio.CancelledError:
            log.debug("model call to %s cancelled", self.base_url)
            raise
        except BrainUnavailable as exc:
            log.warning("brain openai (%s, %s): %s", self.base_url, self.model, exc)
            raise
        except Exception as exc:  # the SDK, the HTTP stack, the SSE/JSON parsing: all fail here
            reason = self._describe(exc)
            log.warning("brain openai (%s, %s) unavailable: %s", self.base_url, self.model, reason,
                        exc_info=log.isEnabledFor(logging.DEBUG))
            raise BrainUnavailable(reason) from exc

    def _emit_text(self, request: BrainRequest, text: str) -> None:
        try:
            request.on_text(text)
        except Exception:  # a faulty listener must not turn into "the brain is down"
            log.exception("on_text callback failed")

    def _reply(self, snapshot: Any) -> BrainReply:
        if not snapshot.choices:
            raise BrainUnavailable(f"{self.base_url} sent a reply without choices")
        choice = snapshot.choices[0]
        if not choice.finish_reason:
            raise BrainUnavailable(f"{self.base_url}: the stream ended before the reply was finished")
        if choice.finish_reason == "length":
            log.warning("model reply cut at max_tokens=%d", self.max_tokens)
        message = choice.message
        calls: List[ToolCallRequest] = []
        for call in message.tool_calls or []:
            function = getattr(call, "function", None)
            if function is None:  # not a function tool call (e.g. custom tools): not ours
                log.warning("ignoring a non-function tool call of type %s", getattr(call, "type", "?"))
                continue
            self._calls += 1
            calls.append(ToolCallRequest(call.id or f"call_{self._calls}", function.name or "",
                                         function.arguments or ""))
        return BrainReply(content=message.content or "", tool_calls=calls, brain=self.name)

    def _describe(self, exc: BaseException) -> str:
        where = self.base_url
        if isinstance(exc, openai.APITimeoutError):
            return (f"{where} did not answer within {self.timeout_s:g} s "
                    f"({self.max_retries} retries)")
        if isinstance(exc, openai.APIConnectionError):
            cause = exc.__cause__ or exc.__context__
            detail = f"{type(cause).__name__}: {cause}" if cause else str(exc)
            return f"cannot reach {where} ({self.max_retries} retries): {detail}"
        if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
            return f"{where} refused the API key (HTTP {exc.status_code}): {exc.message}"
        if isinstance(exc, openai.NotFoundError):
            return f"{where}: not found (HTTP 404; wrong base_url or model {self.model!r}?): {exc.message}"
        if isinstance(exc, openai.APIStatusError):
            return f"{where} answered HTTP {exc.status_code}: {exc.message}"
        if isinstance(exc, openai.APIError):  # e.g. an error event inside the stream
            return f"{where} reported an error: {exc.message}"
        return f"broken reply from {where}: {type(exc).__name__}: {exc}"

    async def close(self) -> None:
        await self._client.close()


def endpoint_tool(spec: Dict[str, Any]) -> Dict[str, Any]:
    """A tool spec as an OpenAI-compatible endpoint accepts it: the declaration's `x-` keys
    (x-confirm, x-examples) removed, and x-confirm said in the description."""
    function = spec.get("function") if isinstance(spec, dict) else None
    if not isinstance(function, dict) or not any(k.startswith("x-") for k in function):
        return spec
    clean = {k: v for k, v in function.items() if not k.startswith("x-")}
    if function.get("x-confirm"):
        clean["description"] = (str(clean.get("description", "")).rstrip() +
                                " Before calling it, ask the visitor to confirm.").strip()
    return {**spec, "function": clean}
