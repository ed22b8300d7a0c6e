"""The WebSocket stream (/api/bot/v2/stream) as typed events: welcome and snapshot first, then position events and
prices. A dropped socket is opened again with backoff; the snapshot that follows is the truth (events sent while no
socket was open are not replayed), so it carries `reconnected=True`."""
from __future__ import annotations

import asyncio
import json
import random
from urllib.parse import urlencode
from dataclasses import dataclass, field
from typing import Any, AsyncIterator, Dict, Iterator, List, Optional, Sequence, Union

import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from ._model import parse
from ._transport import _Core, stream_url
from .errors import AuthenticationError, PerpdeskError
from .models import Position

# close codes the service ends a socket with for good: the key refused (4401), too many sockets (4429)
_FINAL_CLOSES = {4401: AuthenticationError, 4429: PerpdeskError}


@dataclass
class Welcome:
    channels: List[str]
    tick_ms: int
    ts: int


@dataclass
class Snapshot:
    """Every open position of the book now. After a reconnect (`reconnected`), replace what you hold with it."""

    positions: List[Position]
    ts: int
    reconnected: bool = False


@dataclass
class PositionEvent:
    """A position opened, updated (stop or target moved, partly closed) or closed (closed, stopped, liquidated)."""

    event: str
    position: Position
    ts: int


@dataclass
class Prices:
    """The live price of each symbol the book has open, every tick."""

    prices: Dict[str, float]
    ts: int


@dataclass
class Subscribed:
    channels: List[str]
    ts: int


@dataclass
class StreamNotice:
    """Any other message (pong, error, a type this client does not know), as sent."""

    type: str
    data: Any
    ts: int
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)


StreamEvent = Union[Welcome, Snapshot, PositionEvent, Prices, Subscribed, StreamNotice]


def _refused_status(refused: InvalidHandshake) -> Optional[int]:
    """The HTTP status an upgrade was refused with: InvalidStatus.response (websockets 14 and later) or
    InvalidStatusCode.status_code (the legacy client of older ones); None for another handshake failure."""
    response = getattr(refused, "response", None)
    status = getattr(response, "status_code", None) if response is not None else getattr(refused, "status_code", None)
    return status if isinstance(status, int) else None


def parse_event(message: Dict[str, Any], reconnected: bool) -> StreamEvent:
    kind, data, ts = message.get("type", ""), message.get("data"), int(message.get("ts", 0))
    if kind == "welcome" and isinstance(data, dict):
        return Welcome(list(data.get("channels", [])), int(data.get("tick_ms", 0)), ts)
    if kind == "snapshot" and isinstance(data, dict):
        return Snapshot(parse(List[Position], data.get("positions", [])), ts, reconnected)
    if kind == "position" and isinstance(data, dict):
        return PositionEvent(str(data.get("event")), Position.model_validate(data.get("position")), ts)
    if kind == "prices" and isinstance(data, dict):
        return Prices({k: float(v) for k, v in data.items()}, ts)
    if kind == "subscribed" and isinstance(data, dict):
        return Subscribed(list(data.get("channels", [])), ts)
    return StreamNotice(str(kind), data, ts, message)


async def stream_events(
    core: _Core,
    channels: Optional[Sequence[str]] = None,
    *,
    reconnect: bool = True,
    max_backoff: float = 30.0,
) -> AsyncIterator[StreamEvent]:
    """The events of the stream; opens the socket again after a drop, waiting 0.25 s doubling to `max_backoff`.
    A snapshot sent later on the same socket (the service missed events) is the truth too: it is marked reconnected."""
    url, query = stream_url(core.base_url, core.api_key)
    target = url + ("?" + urlencode(query) if query else "")
    failures = 0
    connected_before = False
    while True:
        try:
            async with websockets.connect(target, open_timeout=core.timeout, max_size=2**22) as socket:
                subscribe = channels is not None
                async for text in socket:
                    message = json.loads(text)
                    event = parse_event(message, connected_before)
                    if isinstance(event, Welcome):
                        failures = 0
                    yield event
                    if isinstance(event, Snapshot):
                        connected_before = True
                        # after the snapshot, so welcome and snapshot always come first
                        if subscribe and channels is not None:
                            subscribe = False
                            await socket.send(json.dumps({"op": "subscribe", "channels": list(channels)}))
        except ConnectionClosed as closed:
            frame = closed.rcvd
            final = _FINAL_CLOSES.get(frame.code) if frame is not None else None
            if frame is not None and final is not None:
                raise final(frame.code, frame.reason or "closed", f"the stream was closed: {frame.reason}") from None
        except InvalidHandshake as refused:
            if _refused_status(refused) == 401:
                # the upgrade's body (the exact code) is not readable here: bad or revoked, or none sent
                code = "bad_api_key" if core.api_key else "missing_api_key"
                raise AuthenticationError(401, code, "the stream refused the key (bad or revoked)") from None
        except (OSError, asyncio.TimeoutError):
            pass
        if not reconnect:
            return
        delay = min(max_backoff, 0.25 * 2**failures) * (0.5 + random.random() / 2)
        failures += 1
        await asyncio.sleep(delay)


def stream_blocking(core: _Core, channels: Optional[Sequence[str]] = None, **options: Any) -> Iterator[StreamEvent]:
    """stream_events for blocking code: a private event loop runs the socket while the caller iterates."""
    loop = asyncio.new_event_loop()
    events = stream_events(core, channels, **options).__aiter__()
    try:
        while True:
            try:
                yield loop.run_until_complete(events.__anext__())
            except StopAsyncIteration:
                return
    finally:
        loop.run_until_complete(events.aclose())
        loop.close()
