"""pytest fixtures: `understudy_server` (one server for the run, closed at its end) and
`understudy_session` (a session of its own for each test, named after it, verified when the test
ends: a failed verification fails that test with the report).

Set UNDERSTUDY_URL to drive a server that already runs instead of starting one."""

from __future__ import annotations

import os
import re
import uuid
from typing import Iterator

import pytest

from . import Session, Understudy


@pytest.fixture(scope="session")
def understudy_server() -> Iterator[Understudy]:
    url = os.environ.get("UNDERSTUDY_URL")
    server = Understudy.connect(url) if url else Understudy.start()
    try:
        yield server
    finally:
        if not url:
            server.close()


@pytest.fixture
def understudy_session(request: pytest.FixtureRequest, understudy_server: Understudy) -> Iterator[Session]:
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", request.node.name).strip("-")[:96] or "test"
    session = understudy_server.session(f"{name}-{uuid.uuid4().hex[:8]}")
    try:
        yield session
        if not getattr(request.node, "understudy_skip_verify", False):
            session.verify()
    finally:
        session.delete()
