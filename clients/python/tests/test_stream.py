"""The stream: welcome and snapshot first, position events and prices, and a reconnect after the service recycles the
socket (every 3 s in the test stack) with a snapshot that is the truth again."""
from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Callable, Iterator, TypeVar

import pytest

from perpdesk import AsyncClient, AuthenticationError, Client, PositionEvent, Prices, Snapshot, StreamEvent, Welcome
from perpdesk.models import Position

E = TypeVar("E")


def next_matching(events: Iterator[StreamEvent], kind: Callable[..., E], test: Callable[[E], bool] = lambda _: True, timeout: float = 15) -> E:
    deadline = time.monotonic() + timeout
    for event in events:
        if isinstance(event, kind) and test(event):  # type: ignore[arg-type]
            return event  # type: ignore[return-value]
        assert time.monotonic() < deadline, f"no {kind.__name__} within {timeout} s"
    raise AssertionError("the stream ended")


def test_welcome_and_snapshot_first_then_events_then_a_reconnect_with_the_truth(client: Client, market) -> None:
    market.set_and_wait(65_000)
    client.close_all()
    with contextlib.closing(client.stream(channels=["positions", "prices"])) as events:
        welcome = next(events)
        assert isinstance(welcome, Welcome) and welcome.tick_ms == 200
        snapshot = next(events)
        assert isinstance(snapshot, Snapshot) and snapshot.positions == [] and snapshot.reconnected is False

        opened = client.open(symbol="BTC", side="long", margin_usd=40, leverage=4).position
        assert isinstance(opened, Position)
        event = next_matching(events, PositionEvent, lambda e: e.position.id == opened.id)
        assert event.event == "opened" and isinstance(event.position, Position) and event.position.entry == 65_000
        prices = next_matching(events, Prices)
        assert list(prices.prices.values()) == [65_000]

        # the service recycles the socket: the client opens another and its snapshot holds the position
        again = next_matching(events, Snapshot, lambda s: s.reconnected)
        assert [p.id for p in again.positions] == [opened.id]
    client.close(opened.id)


def test_async_stream(base_url: str, api_key: str, market) -> None:
    market.set_and_wait(65_000)

    async def watch() -> None:
        async with AsyncClient(api_key=api_key, base_url=base_url) as client:
            await client.close_all()
            events = client.stream()
            first = [await asyncio.wait_for(events.__anext__(), 10) for _ in range(2)]
            assert [type(e) for e in first] == [Welcome, Snapshot]
            opened = (await client.open(symbol="BTC", side="short", margin_usd=40, leverage=4)).position
            assert isinstance(opened, Position)
            await client.close(opened.id)
            seen = []
            while len(seen) < 2:
                event = await asyncio.wait_for(events.__anext__(), 10)
                if isinstance(event, PositionEvent) and event.position.id == opened.id:
                    seen.append(event.event)
            assert seen == ["opened", "closed"]
            await events.aclose()  # type: ignore[attr-defined]

    asyncio.run(watch())


def test_a_refused_key_ends_the_stream_with_an_error(base_url: str) -> None:
    with Client(api_key="pd_not_a_key", base_url=base_url) as stranger:
        with pytest.raises(AuthenticationError) as refused:
            next(iter(stranger.stream()))
    assert refused.value.status == 401
