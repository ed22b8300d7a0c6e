"""What a failed call raises: PerpdeskError with the service's named code, and a subclass per kind of failure."""
from __future__ import annotations

from typing import Any, Dict, Optional, Type


class PerpdeskError(Exception):
    """A call the service refused (or that never got an answer): `.status` (HTTP, 0 when there was no answer),
    `.code` (the service's named code, e.g. leverage_max), `.message`, and `.body` as sent."""

    def __init__(self, status: int, code: str, message: str, body: Any = None, retry_after: Optional[float] = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.body = body
        self.retry_after = retry_after


class InvalidRequestError(PerpdeskError):
    """400: the request was refused as sent (a named input error)."""


class AuthenticationError(PerpdeskError):
    """401: missing_api_key, bad_api_key or revoked_key."""


class PlanRequiredError(PerpdeskError):
    """402: the route needs a paid plan (plan_required)."""


class NotFoundError(PerpdeskError):
    """404: no such position, order, replay..."""


class ConflictError(PerpdeskError):
    """409: the state does not allow it (already closed, replay running...); `busy` is a lost race worth retrying."""


class RateLimitedError(PerpdeskError):
    """429: over the per-minute budget; `.retry_after` is the seconds the service asked to wait."""


class UnavailableError(PerpdeskError):
    """503 (the service could not serve it now), or no answer at all (status 0, code connection_error)."""


_BY_STATUS: Dict[int, Type[PerpdeskError]] = {
    400: InvalidRequestError,
    401: AuthenticationError,
    402: PlanRequiredError,
    404: NotFoundError,
    409: ConflictError,
    429: RateLimitedError,
    503: UnavailableError,
}


def error_from_response(status: int, body: Any, reason: str, retry_after: Optional[float]) -> PerpdeskError:
    """The error of a refused call, from either body: v2 {ok: false, error: {code, message}} or v1 {error, message}."""
    code, message = "internal", reason
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and isinstance(error.get("code"), str):
            code, message = error["code"], str(error.get("message", reason))
        elif isinstance(error, str):
            code, message = error, str(body.get("message", reason))
    cls = _BY_STATUS.get(status, PerpdeskError)
    return cls(status, code, message, body, retry_after)
