"""The example bot (examples/ma_crossover.py) on a simulated market that swings 1% either way every 2.5 s, until it has
traded both ways and the service has closed a position at its target or stop (seconds; 30 at most)."""
from __future__ import annotations

import asyncio
import importlib.util
import math
import sys
import threading
import time
from pathlib import Path

from perpdesk import Client, Snapshot, Welcome

spec = importlib.util.spec_from_file_location("ma_crossover", Path(__file__).parent.parent / "examples" / "ma_crossover.py")
assert spec is not None and spec.loader is not None
example = importlib.util.module_from_spec(spec)
sys.modules["ma_crossover"] = example  # dataclasses look their module up there
spec.loader.exec_module(example)

SERVICE_CLOSES = {"take_profit", "stop_loss"}


def test_the_strategy_signals_where_the_averages_cross() -> None:
    strategy = example.Crossover(2, 4)
    signals = [strategy.add(p) for p in [10, 10, 10, 9, 8, 9, 12, 13]]
    assert signals == [None, None, None, None, None, None, "long", None]
    assert [strategy.add(p) for p in [9, 7]] == [None, "short"]


def test_the_bot_trades_the_swings_with_stops_targets_and_idempotent_orders(base_url: str, bot_api_key: str, market) -> None:
    market.set_and_wait(65_000)
    stop = threading.Event()

    def swing() -> None:
        started = time.monotonic()
        while not stop.is_set():
            phase = (time.monotonic() - started) / 2.5 * 2 * math.pi
            market.set(round(65_000 * (1 + 0.01 * math.sin(phase)), 1))
            time.sleep(0.1)

    driver = threading.Thread(target=swing, daemon=True)
    driver.start()

    def traded(bot) -> bool:
        """Two signals, and a position the service closed at its stop or target."""
        return bot.signals >= 2 and bool(set(bot.closes.values()) & SERVICE_CLOSES)

    settings = example.Settings(symbol="BTC", fast=2, slow=4, sample_s=0.1, stop_pct=0.6, target_pct=0.8)
    try:
        bot = asyncio.run(example.main(settings, 30.0, base_url=base_url, api_key=bot_api_key, until=traded))
    finally:
        stop.set()
        driver.join()

    assert [type(e) for e in bot.events[:2]] == [Welcome, Snapshot]
    assert bot.signals >= 2
    with Client(api_key=bot_api_key, base_url=base_url) as client:
        closed = client.positions(status="closed")
        still_open = client.positions()
    assert closed is not None and still_open is not None
    every = closed.positions + still_open.positions
    # every entry went out with the run's client_order_id, a stop and a target on the right sides
    assert len(every) >= 2
    for position in every:
        assert position.client_order_id is not None and position.client_order_id.startswith(f"ma-{settings.run_id}-")
        assert position.sl is not None and position.tp is not None
        below, above = (position.sl, position.tp) if position.side == "long" else (position.tp, position.sl)
        assert below < position.entry < above
    # one entry per signal: a client_order_id never made two positions
    assert len({p.client_order_id for p in every}) == len(every)
    # the swings reach the targets: the service closed some on its own, and the stream told the bot
    assert set(bot.closes.values()) & SERVICE_CLOSES, bot.closes
