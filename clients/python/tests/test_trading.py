"""Trading through Client and AsyncClient: typed answers, idempotent opens, named errors, the positions ETag, paging."""
from __future__ import annotations

import asyncio

import pytest

from perpdesk import (
    AsyncClient,
    AuthenticationError,
    Client,
    ConflictError,
    InvalidRequestError,
    PerpdeskError,
    new_client_order_id,
)
from perpdesk.models import Position, Trade


def test_open_answers_a_typed_position_and_a_reused_client_order_id_answers_it_again(client: Client, market) -> None:
    market.set_and_wait(65_000)
    order_id = new_client_order_id()
    opened = client.open(symbol="BTC", side="long", margin_usd=100, leverage=10, sl=60_000, tp=70_000, client_order_id=order_id)
    assert isinstance(opened.position, Position)
    assert opened.idempotent is False
    position = opened.position
    assert (position.symbol, position.side, position.status, position.entry) == ("BTC", "long", "open", 65_000)
    # 100 USD at 10x is 1000 USD of BTC at 65000
    assert position.qty == pytest.approx(1000 / 65_000)
    assert 0 < position.liq_price < position.entry
    assert (position.sl, position.tp, position.client_order_id) == (60_000, 70_000, order_id)

    again = client.open(symbol="BTC", side="long", margin_usd=100, leverage=10, client_order_id=order_id)
    assert again.idempotent is True
    assert isinstance(again.position, Position) and again.position.id == position.id

    closed = client.close(position.id)
    assert closed.closed.id == position.id and closed.closed.status == "closed"


def test_reads_are_typed(client: Client, market) -> None:
    market.set_and_wait(64_000)
    assert client.price("BTC").price == 64_000
    account = client.account()
    assert isinstance(account.balance_usd, float) and isinstance(account.equity_usd, float)
    assert client.balance().margin_enforced is False
    markets = client.markets(class_="crypto").markets
    assert any(m.symbol == "BTCUSDT" and m.asset_class == "crypto" for m in markets)
    assert client.time(client_ts=0).server_time_ms > 0
    assert client.usage().plan == "business"


def test_failures_raise_named_errors(client: Client, base_url: str, market) -> None:
    market.set_and_wait(65_000)
    with pytest.raises(InvalidRequestError) as refused:
        client.open(symbol="BTC", side="long", margin_usd=100, leverage=5000)
    assert (refused.value.status, refused.value.code) == (400, "leverage_max")

    position = client.open(symbol="BTC", side="short", margin_usd=50, leverage=5).position
    assert isinstance(position, Position)
    client.close(position.id)
    with pytest.raises(ConflictError) as twice:
        client.close(position.id)
    assert (twice.value.status, twice.value.code) == (409, "already_closed")

    with Client(api_key="pd_not_a_key", base_url=base_url) as stranger:
        with pytest.raises(AuthenticationError) as unknown:
            stranger.account()
    assert (unknown.value.status, unknown.value.code) == (401, "bad_api_key")
    assert isinstance(unknown.value, PerpdeskError) and unknown.value.message


def test_positions_answer_none_while_unchanged(client: Client, market) -> None:
    market.set_and_wait(65_000)
    client.close_all()
    first = client.positions()
    assert first is not None and first.positions == []
    assert client.positions() is None  # 304: the ETag still holds

    position = client.open(symbol="BTC", side="long", margin_usd=20, leverage=2).position
    assert isinstance(position, Position)
    changed = client.positions()
    assert changed is not None and [p.id for p in changed.positions] == [position.id]
    assert client.positions() is None
    client.close(position.id)
    after = client.positions()
    assert after is not None and after.positions == []


def test_iter_trades_pages_along_the_cursor(client: Client, market) -> None:
    market.set_and_wait(65_000)
    ids = []
    for _ in range(3):
        position = client.open(symbol="BTC", side="long", margin_usd=10, leverage=2).position
        assert isinstance(position, Position)
        client.close(position.id)
        ids.append(position.id)
    # one row a call: three calls at least, each following next_before
    trades = list(client.iter_trades(limit=1))
    assert all(isinstance(t, Trade) for t in trades)
    seen = [t.id for t in trades]
    assert len(seen) == len(set(seen))
    assert seen[: len(ids)] == list(reversed(ids))
    assert [t.closed_ts for t in trades] == sorted((t.closed_ts for t in trades), reverse=True)


def test_async_client_does_the_same(base_url: str, api_key: str, market) -> None:
    market.set_and_wait(65_000)

    async def trade() -> None:
        async with AsyncClient(api_key=api_key, base_url=base_url) as client:
            assert (await client.price("BTC")).price == 65_000
            opened = await client.open(symbol="BTC", side="short", margin_usd=30, leverage=3)
            assert isinstance(opened.position, Position)
            listed = await client.positions()
            assert listed is not None and opened.position.id in [p.id for p in listed.positions]
            await client.close(opened.position.id)
            pages = [t.id async for t in client.iter_trades(limit=2)]
            assert opened.position.id in pages

    asyncio.run(trade())


def test_public_routes(client: Client) -> None:
    assert client.ping() is not None
    assert isinstance(client.status().ok, bool)
