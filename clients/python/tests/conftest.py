"""The live service these tests run against, as test/e2e/python-client.test.ts starts it: its URL and keys, and the
simulated exchange whose prices the tests set."""
from __future__ import annotations

import json
import os
import time
import urllib.request
from typing import Callable, Iterator, Optional, TypeVar

import pytest

from perpdesk import Client

T = TypeVar("T")


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.skip(f"{name} is not set: these tests run against a live stack (npx mocha test/e2e/python-client.test.ts)")
    return value


def wait_for(probe: Callable[[], Optional[T]], what: str, timeout: float = 10.0) -> T:
    """Polls `probe` until it answers something other than None; fails naming `what` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        found = probe()
        if found is not None:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


class Market:
    """The simulated exchange's price of a symbol, set by a test and awaited until the service trades at it."""

    def __init__(self, sim_url: str, client: Client) -> None:
        self.sim_url = sim_url
        self.client = client

    def set(self, price: float, symbol: str = "BTCUSDT") -> None:
        request = urllib.request.Request(
            f"{self.sim_url}/__sim/price",
            data=json.dumps({"symbol": symbol, "price": price}).encode(),
            headers={"content-type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(request, timeout=5) as response:
            assert response.status == 200

    def set_and_wait(self, price: float, symbol: str = "BTCUSDT") -> None:
        self.set(price, symbol)
        wait_for(lambda: True if self.client.price(symbol).price == price else None, f"{symbol} at {price}")


@pytest.fixture(scope="session")
def base_url() -> str:
    return _env("PERPDESK_BASE_URL")


@pytest.fixture(scope="session")
def api_key() -> str:
    return _env("PERPDESK_API_KEY")


@pytest.fixture(scope="session")
def bot_api_key() -> str:
    return _env("PERPDESK_BOT_API_KEY")


@pytest.fixture
def client(base_url: str, api_key: str) -> Iterator[Client]:
    with Client(api_key=api_key, base_url=base_url) as opened:
        yield opened


@pytest.fixture
def market(client: Client) -> Market:
    return Market(_env("PERPDESK_SIM_URL"), client)


def pytest_report_header() -> str:
    import perpdesk

    return f"perpdesk {perpdesk.__version__} from {perpdesk.__file__}"
