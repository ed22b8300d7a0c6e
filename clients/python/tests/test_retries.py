"""Retries, against a scripted server on loopback: 429 and 503 are sent again after Retry-After a bounded number of
times, and a write only when it carries a client_order_id."""
from __future__ import annotations

import time

import pytest

from perpdesk import Client, RateLimitedError, UnavailableError

from receiver import ScriptedServer

PRICE = (200, {}, {"ok": True, "data": {"symbol": "BTCUSDT", "price": 65_000, "ts": 1}, "ts": 1})
POSITION = {"id": "bp1", "symbol": "BTC", "side": "long", "status": "open", "entry": 65_000}
OPENED = (200, {}, {"ok": True, "data": {"position": POSITION, "idempotent": False}, "ts": 1})


def refusal(status: int, code: str, retry_after: str = "") -> tuple:
    return (status, {"retry-after": retry_after} if retry_after else {}, {"ok": False, "error": {"code": code, "message": code}, "ts": 1})


def test_a_read_is_sent_again_after_retry_after() -> None:
    with ScriptedServer([refusal(429, "rate_limited", "0.3"), PRICE]) as server:
        with Client(api_key="k", base_url=server.url) as client:
            started = time.monotonic()
            assert client.price("BTC").price == 65_000
            assert 0.3 <= time.monotonic() - started < 2.5
        assert [r.path for r in server.wait_for(2)] == ["/api/bot/v2/price?symbol=BTC"] * 2


def test_retries_are_bounded_and_the_last_refusal_raised() -> None:
    with ScriptedServer([refusal(503, "unavailable", "0")]) as server:
        with Client(api_key="k", base_url=server.url, max_retries=2) as client:
            with pytest.raises(UnavailableError) as raised:
                client.account()
        assert (raised.value.status, raised.value.code) == (503, "unavailable")
        assert len(server.received) == 3


def test_a_write_is_retried_with_the_same_client_order_id() -> None:
    with ScriptedServer([refusal(429, "rate_limited", "0"), OPENED]) as server:
        with Client(api_key="k", base_url=server.url) as client:
            opened = client.open(symbol="BTC", side="long", margin_usd=10, leverage=2)
        assert opened.idempotent is False
        first, second = server.wait_for(2)
        assert first.json()["client_order_id"].startswith("py-")
        assert first.json() == second.json()


def test_a_write_without_client_order_id_is_not_retried() -> None:
    with ScriptedServer([refusal(429, "rate_limited", "0"), OPENED]) as server:
        with Client(api_key="k", base_url=server.url, auto_client_order_id=False) as client:
            with pytest.raises(RateLimitedError) as raised:
                client.open(symbol="BTC", side="long", margin_usd=10, leverage=2)
        assert raised.value.retry_after == 0
        assert len(server.received) == 1
        assert "client_order_id" not in server.received[0].json()


def test_retry_after_is_capped_by_max_retry_wait() -> None:
    with ScriptedServer([refusal(429, "rate_limited", "3600"), PRICE]) as server:
        with Client(api_key="k", base_url=server.url, max_retry_wait=0.1) as client:
            started = time.monotonic()
            client.price("BTC")
            assert time.monotonic() - started < 2
