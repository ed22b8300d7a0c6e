"""perpdesk: the Python client of the perpdesk paper-trading API.

    from perpdesk import Client
    client = Client(api_key="pd_...", base_url="http://127.0.0.1:3000")
    opened = client.open(symbol="BTC", side="long", margin_usd=100, leverage=10, sl=60000, tp=70000)
    print(opened.position.id, opened.idempotent)
"""
from ._transport import UNSET, new_client_order_id
from ._version import __version__
from .client import AsyncClient, Client
from .errors import (
    AuthenticationError,
    ConflictError,
    InvalidRequestError,
    NotFoundError,
    PerpdeskError,
    PlanRequiredError,
    RateLimitedError,
    UnavailableError,
)
from .stream import PositionEvent, Prices, Snapshot, StreamEvent, StreamNotice, Subscribed, Welcome
from .webhooks import WebhookSignatureError, verify_webhook, verify_webhook_timestamped

__all__ = [
    "UNSET",
    "AsyncClient",
    "AuthenticationError",
    "Client",
    "ConflictError",
    "InvalidRequestError",
    "NotFoundError",
    "PerpdeskError",
    "PlanRequiredError",
    "PositionEvent",
    "Prices",
    "RateLimitedError",
    "Snapshot",
    "StreamEvent",
    "StreamNotice",
    "Subscribed",
    "UnavailableError",
    "Welcome",
    "WebhookSignatureError",
    "__version__",
    "new_client_order_id",
    "verify_webhook",
    "verify_webhook_timestamped",
]
