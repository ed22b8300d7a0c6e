"""How JSON becomes the generated pydantic models: typed fields, unions, aliases, and what a newer or older service
sends kept rather than breaking a bot."""
from __future__ import annotations

import pytest

from perpdesk import Client, PerpdeskError
from perpdesk._model import ValidationError, parse
from perpdesk.models import GetTradesResult, Position, PostOpenResult

from receiver import ScriptedServer

POSITION = {"id": "bp1", "symbol": "BTC", "side": "long", "status": "open", "entry": 65000, "qty": 0.01, "sl": None}
TRADE = {"id": "t1", "closed_ts": 2, "opened_ts": 1, "symbol": "BTC", "side": "long", "leverage": 10, "margin_usd": 100}
TRADE.update(qty=0.01, entry_price=65000, exit_price=65500, pnl_usd=5, roe_pct=5, fees_usd=0.6, funding_usd=0)
TRADE.update(liquidated=False, via="take_profit")


def test_fields_are_typed_and_unknown_ones_kept() -> None:
    page = GetTradesResult.from_json({"trades": [{**TRADE, "new_field": 1}], "count": 1, "next_before": "17:t1", "retention_days": 30})
    trade = page.trades[0]
    assert (trade.id, trade.via, page.next_before) == ("t1", "take_profit", "17:t1")
    assert isinstance(trade.pnl_usd, float) and trade.pnl_usd == 5.0
    # a field a newer service sends is kept: an attribute, in unknown_fields, and in to_json()
    assert trade.unknown_fields == {"new_field": 1} and trade.new_field == 1  # type: ignore[attr-defined]
    assert trade.to_json()["new_field"] == 1
    # an optional field the service left out is None
    assert trade.parent_id is None and "parent_id" in trade.to_json()


def test_an_answer_that_does_not_fit_is_a_named_error_naming_the_field() -> None:
    with pytest.raises(ValidationError) as invalid:
        parse(GetTradesResult, {"trades": [{**TRADE, "pnl_usd": "lots"}], "count": 1, "next_before": None})
    assert "pnl_usd" in str(invalid.value)
    # through a call: PerpdeskError, which a bot already catches, not pydantic's error
    odd_price = (200, {}, {"ok": True, "data": {"symbol": "BTCUSDT", "price": "lots", "ts": 1}, "ts": 1})
    with ScriptedServer([odd_price]) as server, Client(api_key="k", base_url=server.url) as client:
        with pytest.raises(PerpdeskError) as raised:
            client.price("BTC")
    assert (raised.value.status, raised.value.code) == (200, "unexpected_response")
    assert "price" in raised.value.message and raised.value.body["data"]["price"] == "lots"


def test_a_union_is_read_as_the_member_that_fits() -> None:
    required = [f.alias or name for name, f in Position.model_fields.items() if f.is_required()]
    full = {name: None for name in required}
    full.update(account="main", asset_class="crypto", entry_price=65000, margin=100, margin_usd=100, leverage=10)
    full.update(notional_usd=650, liq_price=58800, mmr_pct=0.5, fee_rate_pct=0.05, feeOpen=0.33, fee_open_usd=0.33)
    full.update(fee_round_trip_usd=0.65, opened_ts=1, source="api")
    opened = PostOpenResult.from_json({"position": {**full, **POSITION}, "idempotent": False})
    assert isinstance(opened.position, Position) and opened.position.entry == 65000.0
    # a dry run's priced trade has no id: it stays the JSON it was
    dry = PostOpenResult.from_json({"position": {"entry": 65000, "qty": 0.01}, "dry_run": True})
    assert dry.position == {"entry": 65000, "qty": 0.01} and dry.dry_run is True
