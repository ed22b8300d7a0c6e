"""Client (blocking) and AsyncClient: a method per route (generated, _routes.py), and the hand-written ones that page,
stream or iterate."""
from __future__ import annotations

from typing import Any, AsyncIterator, Iterator, Optional, Sequence

from ._routes import AsyncRoutes, SyncRoutes
from .models import GetTradesResult as _TradesPage
from .models import Trade
from .stream import StreamEvent, stream_blocking, stream_events


class Client(SyncRoutes):
    """The perpdesk API, blocking.

    >>> with Client(api_key="pd_...", base_url="http://127.0.0.1:3000") as client:
    ...     client.price("BTC").price

    Options (keyword): timeout (s, 10), max_retries (3: a 429 or 503 is sent again after its Retry-After, a write only
    when it carries a client_order_id), max_retry_wait (s, 30), auto_client_order_id (True: open and close get one
    when none is given, so they may be retried safely).
    """

    def iter_trades(self, *, limit: int = 100) -> Iterator[Trade]:
        """Every closed trade, newest first, page by page (`limit` rows per call) along the next_before cursor."""
        before: Any = None
        while True:
            page = self._send("GET", "/api/bot/v2/trades", _TradesPage, query={"limit": limit, "before": before})
            yield from page.trades
            if page.next_before is None or not page.trades:
                return
            before = page.next_before

    def stream(self, channels: Optional[Sequence[str]] = None, *, reconnect: bool = True, max_backoff: float = 30.0) -> Iterator[StreamEvent]:
        """The stream's events (Welcome, Snapshot, PositionEvent, Prices...), reconnecting with backoff; `channels`
        (positions, prices) subscribes to those only. Break out of the loop to close it."""
        return stream_blocking(self, channels, reconnect=reconnect, max_backoff=max_backoff)


class AsyncClient(AsyncRoutes):
    """The perpdesk API for asyncio: `async with AsyncClient(api_key=..., base_url=...) as client:`; the same methods
    as Client, awaited, and `async for event in client.stream(...)`."""

    async def iter_trades(self, *, limit: int = 100) -> AsyncIterator[Trade]:
        """Every closed trade, newest first, page by page along the next_before cursor."""
        before: Any = None
        while True:
            page = await self._send("GET", "/api/bot/v2/trades", _TradesPage, query={"limit": limit, "before": before})
            for trade in page.trades:
                yield trade
            if page.next_before is None or not page.trades:
                return
            before = page.next_before

    def stream(self, channels: Optional[Sequence[str]] = None, *, reconnect: bool = True, max_backoff: float = 30.0) -> AsyncIterator[StreamEvent]:
        """The stream's events as an async iterator, reconnecting with backoff (see Client.stream)."""
        return stream_events(self, channels, reconnect=reconnect, max_backoff=max_backoff)

