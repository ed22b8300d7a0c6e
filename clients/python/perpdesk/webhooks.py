"""Checks a webhook delivery on the receiving side, as the service signs it (shared/push/webhook-signing.ts):
X-PD-Signature: sha256=<hex HMAC-SHA256 of the raw body>, and X-PD-Signature-V2: t=<ms>,v1=<hex HMAC-SHA256 of
"<t>.<raw body>">, which also lets a receiver refuse a captured delivery sent again later."""
from __future__ import annotations

import hashlib
import hmac
import re
import time
from typing import Optional, Union

SIGNATURE_HEADER = "X-PD-Signature"
SIGNATURE_V2_HEADER = "X-PD-Signature-V2"
DEFAULT_TOLERANCE_S = 300.0
"""How far a delivery's send time may be from the receiver's clock by default: 5 minutes."""

_V2 = re.compile(r"^t=(\d{1,16}),v1=([0-9a-f]{64})$")


class WebhookSignatureError(ValueError):
    """A delivery that is not signed with the secret, or was sent too long ago: `.reason` is one of
    missing_signature, malformed_signature, bad_signature, stale_timestamp."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def _raw(body: Union[bytes, str]) -> bytes:
    return body.encode("utf-8") if isinstance(body, str) else body


def _hex(secret: str, payload: bytes) -> str:
    return hmac.new(secret.encode("utf-8"), payload, hashlib.sha256).hexdigest()


def verify_webhook(secret: str, raw_body: Union[bytes, str], signature: Optional[str]) -> bool:
    """Whether X-PD-Signature (`signature`) is the hook's signature of the body exactly as received."""
    if not signature:
        return False
    return hmac.compare_digest(f"sha256={_hex(secret, _raw(raw_body))}", signature.strip())


def verify_webhook_timestamped(
    secret: str,
    raw_body: Union[bytes, str],
    signature: Optional[str],
    *,
    tolerance: float = DEFAULT_TOLERANCE_S,
    now: Optional[float] = None,
) -> int:
    """Checks X-PD-Signature-V2 (`signature`) and that its time is within `tolerance` seconds of `now` (default: the
    clock); answers the delivery's send time (epoch ms), or raises WebhookSignatureError naming why not."""
    if not signature:
        raise WebhookSignatureError("missing_signature")
    match = _V2.match(signature.strip())
    if match is None:
        raise WebhookSignatureError("malformed_signature")
    stamp, mac = match.group(1), match.group(2)
    if not hmac.compare_digest(_hex(secret, stamp.encode("ascii") + b"." + _raw(raw_body)), mac):
        raise WebhookSignatureError("bad_signature")
    clock = time.time() if now is None else now
    if abs(clock * 1000 - int(stamp)) > tolerance * 1000:
        raise WebhookSignatureError("stale_timestamp")
    return int(stamp)
