"""Webhook signatures as the service sends them: a real delivery (the test route) to a receiver on loopback."""
from __future__ import annotations

import time

import pytest

from perpdesk import Client, WebhookSignatureError, verify_webhook, verify_webhook_timestamped

from receiver import ScriptedServer


def test_a_delivery_verifies_with_the_hook_secret_and_nothing_else(client: Client) -> None:
    with ScriptedServer() as receiver:
        added = client.add_webhook(url=f"{receiver.url}/hook")
        hook = added.webhook
        assert hook is not None and hook.secret
        try:
            tested = client.test_webhook(hook.id)
            assert tested.status == 200
            (delivery,) = receiver.wait_for(1)
        finally:
            client.delete_webhook(hook.id)

    body, headers = delivery.body, delivery.headers
    assert verify_webhook(hook.secret, body, headers["x-pd-signature"])
    assert verify_webhook(hook.secret, body.decode(), headers["x-pd-signature"])
    assert not verify_webhook("whs_other", body, headers["x-pd-signature"])
    assert not verify_webhook(hook.secret, body + b" ", headers["x-pd-signature"])
    assert not verify_webhook(hook.secret, body, None)

    sent = verify_webhook_timestamped(hook.secret, body, headers["x-pd-signature-v2"])
    assert sent == int(headers["x-pd-timestamp"])
    assert abs(time.time() * 1000 - sent) < 60_000

    def reason(**kwargs: object) -> str:
        args = {"secret": hook.secret, "raw_body": body, "signature": headers["x-pd-signature-v2"], **kwargs}
        with pytest.raises(WebhookSignatureError) as refused:
            verify_webhook_timestamped(**args)  # type: ignore[arg-type]
        return refused.value.reason

    assert reason(raw_body=body + b" ") == "bad_signature"
    assert reason(secret="whs_other") == "bad_signature"
    # the same delivery sent again ten minutes later is refused; within the tolerance it passes
    assert reason(now=sent / 1000 + 600) == "stale_timestamp"
    assert verify_webhook_timestamped(hook.secret, body, headers["x-pd-signature-v2"], now=sent / 1000 + 600, tolerance=900) == sent
    assert reason(signature="t=1,v1=zz") == "malformed_signature"
    assert reason(signature=None) == "missing_signature"
