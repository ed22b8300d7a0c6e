"""A moving-average crossover bot on perpdesk (paper trading).

It samples the price, goes long when the fast average crosses above the slow one and short when it crosses below
(closing the other side first), each entry given a stop-loss and a take-profit from its fill, which the service
settles on its own.
Every order carries a client_order_id made from the run and the signal's number, so an order sent twice (a retry
after a timeout, say) happens once. The stream tells it what the service did: the snapshot it sends on every
(re)connect replaces what the bot holds, and position events follow fills, stops, targets and liquidations.

    PERPDESK_BASE_URL=http://127.0.0.1:3000 PERPDESK_API_KEY=pd_... python ma_crossover.py --symbol BTC --seconds 600
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import uuid
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Deque, Dict, List, Optional

from perpdesk import AsyncClient, PerpdeskError, PositionEvent, Snapshot, StreamEvent
from perpdesk.models import Position


@dataclass
class Settings:
    symbol: str = "BTC"
    fast: int = 5
    slow: int = 20
    sample_s: float = 1.0
    margin_usd: float = 100.0
    leverage: float = 10.0
    stop_pct: float = 1.0
    target_pct: float = 2.0
    run_id: str = field(default_factory=lambda: uuid.uuid4().hex[:8])


class Crossover:
    """The strategy alone, no I/O: feed it prices, it answers "long" or "short" on the sample where the averages cross."""

    def __init__(self, fast: int, slow: int) -> None:
        if not 0 < fast < slow:
            raise ValueError("fast must be below slow")
        self.fast, self.slow = fast, slow
        self.prices: Deque[float] = deque(maxlen=slow)
        self.above: Optional[bool] = None

    def add(self, price: float) -> Optional[str]:
        self.prices.append(price)
        if len(self.prices) < self.slow:
            return None
        fast = sum(list(self.prices)[-self.fast :]) / self.fast
        slow = sum(self.prices) / self.slow
        if fast == slow:
            return None
        above, was = fast > slow, self.above
        self.above = above
        if was is None or above == was:
            return None
        return "long" if above else "short"


class Bot:
    def __init__(self, client: AsyncClient, settings: Settings, log=print, until: Optional[Callable[["Bot"], bool]] = None) -> None:
        self.client = client
        self.until = until  # stops the bot once it answers True (checked after each sample)
        self.settings = settings
        self.log = log
        self.strategy = Crossover(settings.fast, settings.slow)
        self.position: Optional[Position] = None
        self.signals = 0
        self.events: List[StreamEvent] = []
        self.closes: Dict[str, str] = {}  # position id -> close reason, as the stream told it
        self.connected = asyncio.Event()

    def order_id(self, what: str) -> str:
        return f"ma-{self.settings.run_id}-{self.signals}-{what}"

    async def enter(self, side: str) -> None:
        s = self.settings
        held = self.position
        if held is not None and held.side == side:
            return
        if held is not None:
            with contextlib.suppress(PerpdeskError):  # already closed by its stop or target: nothing to do
                await self.client.close(held.id, symbol=s.symbol, client_order_id=self.order_id("close"))
        opened = await self.client.open(
            symbol=s.symbol, side=side, margin_usd=s.margin_usd, leverage=s.leverage, client_order_id=self.order_id("open")
        )
        if not isinstance(opened.position, Position):
            return
        # the stop and target are set from the fill, not from the sampled price: in a fast market the two differ, and
        # a level on the wrong side of the entry is refused (sl_wrong_side)
        entry, away = opened.position.entry, 1 if side == "long" else -1
        levels = await self.client.sltp(
            opened.position.id, sl=round(entry * (1 - away * s.stop_pct / 100), 2), tp=round(entry * (1 + away * s.target_pct / 100), 2)
        )
        self.position = levels.position
        self.log(f"signal {self.signals}: {side} at {entry} (sl {levels.position.sl}, tp {levels.position.tp})")

    async def sample(self) -> None:
        await self.connected.wait()
        while self.until is None or not self.until(self):
            price = (await self.client.price(self.settings.symbol)).price
            if price is not None:
                side = self.strategy.add(price)
                if side is not None:
                    self.signals += 1
                    await self.enter(side)
            await asyncio.sleep(self.settings.sample_s)

    def on_event(self, event: StreamEvent) -> None:
        self.events.append(event)
        mine = self.settings.symbol
        if isinstance(event, Snapshot):
            # the truth on every (re)connect: what happened while no socket was open is in it
            self.position = next((p for p in event.positions if p.symbol == mine and p.status == "open"), None)
            self.connected.set()
        elif isinstance(event, PositionEvent) and event.position.symbol == mine:
            if event.position.status == "open":
                self.position = event.position
            else:
                self.closes[event.position.id] = str(event.position.close_reason)
                if self.position is not None and self.position.id == event.position.id:
                    self.position = None
                self.log(f"closed {event.position.id}: {event.position.close_reason} pnl {event.position.pnl_usd}")

    async def watch(self) -> None:
        async for event in self.client.stream(channels=["positions"]):
            self.on_event(event)

    async def run(self, seconds: float) -> None:
        tasks = [asyncio.ensure_future(self.watch()), asyncio.ensure_future(self.sample())]
        try:
            # either task ending ends the bot: the sampler once `until` holds, or a failure of either
            done, _ = await asyncio.wait(tasks, timeout=seconds, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)


async def main(
    settings: Settings,
    seconds: float,
    base_url: Optional[str] = None,
    api_key: Optional[str] = None,
    until: Optional[Callable[[Bot], bool]] = None,
) -> Bot:
    """Runs the bot for `seconds` at most (less when `until` holds), then answers it with what it saw."""
    async with AsyncClient(api_key=api_key, base_url=base_url) as client:
        bot = Bot(client, settings, until=until)
        await bot.run(seconds)
        return bot


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--symbol", default="BTC")
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--fast", type=int, default=5)
    parser.add_argument("--slow", type=int, default=20)
    parser.add_argument("--sample", type=float, default=1.0, help="seconds between price samples")
    args = parser.parse_args()
    asyncio.run(main(Settings(symbol=args.symbol, fast=args.fast, slow=args.slow, sample_s=args.sample), args.seconds))
