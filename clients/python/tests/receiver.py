"""A scripted HTTP server on loopback for the tests: answers its requests in the order given and keeps what it got."""
from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple

Answer = Tuple[int, Dict[str, str], Any]


class Received:
    def __init__(self, method: str, path: str, headers: Dict[str, str], body: bytes) -> None:
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)


class ScriptedServer:
    """Answers request n with answers[n] (the last one once they run out)."""

    def __init__(self, answers: Optional[List[Answer]] = None) -> None:
        self.answers = answers or [(200, {}, {"ok": True})]
        self.received: List[Received] = []
        self.arrived = threading.Condition()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length) if length else b""
                with owner.arrived:
                    owner.received.append(Received(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    status, headers, payload = owner.answers[min(len(owner.received), len(owner.answers)) - 1]
                    owner.arrived.notify_all()
                data = json.dumps(payload).encode()
                self.send_response(status)
                for name, value in {"content-type": "application/json", **headers}.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "ScriptedServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def wait_for(self, count: int, timeout: float = 10.0) -> List[Received]:
        with self.arrived:
            if not self.arrived.wait_for(lambda: len(self.received) >= count, timeout):
                raise AssertionError(f"{len(self.received)} requests arrived, {count} expected")
            return list(self.received)
