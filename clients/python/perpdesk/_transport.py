"""HTTP for Client and AsyncClient: one plan of a call (URL, headers, body, whether it may be retried, how its answer
is read) shared by a blocking and an asyncio transport over httpx."""
from __future__ import annotations

import asyncio
import json
import os
import random
import time
import uuid
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Any, Dict, Mapping, Optional, Tuple, TypeVar, Union

import httpx

from ._model import ValidationError, parse
from ._version import __version__
from .errors import PerpdeskError, UnavailableError, error_from_response


class Unset:
    """The default of an optional argument: left out of the request (None is sent as null)."""

    _instance: Optional["Unset"] = None

    def __new__(cls) -> "Unset":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNSET"

    def __bool__(self) -> bool:
        return False


UNSET = Unset()
T = TypeVar("T")
Maybe = Union[T, None, Unset]

# what the service names a lost race or a moment it cannot serve: sent again unchanged, as 429 is
_RETRY_STATUSES = {429, 503}
_RETRY_CODES = {"busy", "unavailable"}


def new_client_order_id() -> str:
    """A fresh idempotency key: an open or close sent twice with it happens once (the service remembers it 7 days)."""
    return f"py-{uuid.uuid4().hex}"


def _present(fields: Optional[Mapping[str, Any]]) -> Dict[str, Any]:
    return {k: v for k, v in (fields or {}).items() if v is not UNSET}


def _retry_after(headers: Mapping[str, str]) -> Optional[float]:
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
        except (TypeError, ValueError):
            return None


@dataclass
class _Call:
    method: str
    url: str
    params: Dict[str, Any]
    body: Optional[Dict[str, Any]]
    headers: Dict[str, str]
    retryable: bool
    etag_slot: Optional[str]


class _Core:
    """What both transports share: options, the plan of a call, the retry decision and the reading of an answer."""

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        timeout: float = 10.0,
        max_retries: int = 3,
        max_retry_wait: float = 30.0,
        auto_client_order_id: bool = True,
    ) -> None:
        base = base_url or os.environ.get("PERPDESK_BASE_URL")
        if not base:
            raise ValueError("base_url is required (or set PERPDESK_BASE_URL), e.g. http://127.0.0.1:3000")
        self.base_url = base.rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("PERPDESK_API_KEY")
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_retry_wait = max_retry_wait
        self.auto_client_order_id = auto_client_order_id
        self._etags: Dict[str, str] = {}

    def _headers(self) -> Dict[str, str]:
        headers = {"user-agent": f"perpdesk-python/{__version__}", "accept": "application/json"}
        if self.api_key:
            headers["x-api-key"] = self.api_key
        return headers

    def _plan(
        self,
        method: str,
        path: str,
        query: Optional[Mapping[str, Any]],
        body: Optional[Mapping[str, Any]],
        idempotency_key: bool,
        conditional: bool,
    ) -> _Call:
        params = {k: ("true" if v is True else "false" if v is False else v) for k, v in _present(query).items() if v is not None}
        sent = _present(body) if body is not None else None
        if sent is not None and idempotency_key and self.auto_client_order_id and sent.get("client_order_id") is None:
            sent["client_order_id"] = new_client_order_id()
        headers = self._headers()
        slot = None
        if conditional:
            slot = f"{path}?{sorted(params.items())}"
            etag = self._etags.get(slot)
            if etag is not None:
                headers["if-none-match"] = etag
        # a read may always be sent again; a write only with an idempotency key, so it cannot happen twice
        retryable = method == "GET" or bool(sent and sent.get("client_order_id"))
        return _Call(method, self.base_url + path, params, sent, headers, retryable, slot)

    def _delay(self, call: _Call, attempt: int, error: PerpdeskError) -> Optional[float]:
        """Seconds to wait before sending `call` again, or None to raise `error`."""
        if not call.retryable or attempt >= self.max_retries:
            return None
        if error.status not in _RETRY_STATUSES and error.code not in _RETRY_CODES and error.code != "connection_error":
            return None
        backoff = min(self.max_retry_wait, 0.25 * 2**attempt) * (0.5 + random.random() / 2)
        wait = error.retry_after if error.retry_after is not None else backoff
        return min(wait, self.max_retry_wait)

    def _read(self, call: _Call, response: httpx.Response, result: Any, enveloped: bool) -> Any:
        if response.status_code == 304 and call.etag_slot is not None:
            return None
        try:
            body: Any = response.json() if response.content else None
        except json.JSONDecodeError:
            body = response.text
        if response.status_code >= 400:
            raise error_from_response(response.status_code, body, response.reason_phrase, _retry_after(response.headers))
        if call.etag_slot is not None:
            etag = response.headers.get("etag")
            if etag:
                self._etags[call.etag_slot] = etag
            else:
                self._etags.pop(call.etag_slot, None)
        data = body.get("data") if enveloped and isinstance(body, dict) else body
        try:
            return parse(result, data)
        except ValidationError as mismatch:
            # an answer that does not fit this client's models: said with the call's error, not as pydantic's
            raise PerpdeskError(response.status_code, "unexpected_response", f"the answer does not fit {result}: {mismatch}", body) from None

    @staticmethod
    def _unreachable(error: httpx.TransportError) -> PerpdeskError:
        return UnavailableError(0, "connection_error", f"no answer: {error}")


class SyncTransport(_Core):
    """A blocking transport over httpx.Client."""

    def __init__(self, api_key: Optional[str] = None, base_url: Optional[str] = None, **options: Any) -> None:
        super().__init__(api_key, base_url, **options)
        self._http = httpx.Client(timeout=self.timeout)

    # not close(): that is the route that closes a position
    def shutdown(self) -> None:
        """Closes the HTTP connections (`with Client(...) as client:` does it on leaving the block)."""
        self._http.close()

    def __enter__(self: Any) -> Any:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def _send(
        self,
        method: str,
        path: str,
        result: Any,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Optional[Mapping[str, Any]] = None,
        enveloped: bool = True,
        conditional: bool = False,
        idempotency_key: bool = False,
    ) -> Any:
        call = self._plan(method, path, query, body, idempotency_key, conditional)
        attempt = 0
        while True:
            try:
                response = self._http.request(call.method, call.url, params=call.params, json=call.body, headers=call.headers)
                return self._read(call, response, result, enveloped)
            except httpx.TransportError as failure:
                error: PerpdeskError = self._unreachable(failure)
            except PerpdeskError as refused:
                error = refused
            delay = self._delay(call, attempt, error)
            if delay is None:
                raise error
            time.sleep(delay)
            attempt += 1


class AsyncTransport(_Core):
    """An asyncio transport over httpx.AsyncClient; `async with AsyncClient(...) as client:` closes it."""

    def __init__(self, api_key: Optional[str] = None, base_url: Optional[str] = None, **options: Any) -> None:
        super().__init__(api_key, base_url, **options)
        self._http = httpx.AsyncClient(timeout=self.timeout)

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self: Any) -> Any:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def _send(
        self,
        method: str,
        path: str,
        result: Any,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Optional[Mapping[str, Any]] = None,
        enveloped: bool = True,
        conditional: bool = False,
        idempotency_key: bool = False,
    ) -> Any:
        call = self._plan(method, path, query, body, idempotency_key, conditional)
        attempt = 0
        while True:
            try:
                response = await self._http.request(call.method, call.url, params=call.params, json=call.body, headers=call.headers)
                return self._read(call, response, result, enveloped)
            except httpx.TransportError as failure:
                error: PerpdeskError = self._unreachable(failure)
            except PerpdeskError as refused:
                error = refused
            delay = self._delay(call, attempt, error)
            if delay is None:
                raise error
            await asyncio.sleep(delay)
            attempt += 1


def stream_url(base_url: str, api_key: Optional[str]) -> Tuple[str, Dict[str, str]]:
    """The stream's ws(s) URL and its query (the key goes in api_key: a browser-style socket sends no headers)."""
    scheme, rest = base_url.split("://", 1)
    return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/api/bot/v2/stream", ({"api_key": api_key} if api_key else {})
