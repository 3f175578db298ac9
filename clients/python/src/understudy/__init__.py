"""Drive Understudy from Python: start `understudy serve` (or connect to one that runs), make a
session, load scripts, point an official client at it, read the journal and verify.

Everything goes through the control API (docs/control-api.md), as from any language; this module
needs only the standard library.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Mapping

__all__ = ["Understudy", "Session", "VerificationError", "ControlError"]


class ControlError(RuntimeError):
    """A control-API call that Understudy refused: its status and its error body."""

    def __init__(self, method: str, path: str, status: int, body: Any) -> None:
        error = body.get("error", {}) if isinstance(body, dict) else {}
        problems = "".join(f"\n  {p.get('path')}  {p.get('message')}" for p in error.get("problems", []))
        super().__init__(f"{method} {path} failed with {status}: {error.get('message', body)}{problems}")
        self.status = status
        self.body = body


class VerificationError(AssertionError):
    """A session that failed verification; `report` is verify()'s readable report."""

    def __init__(self, report: Mapping[str, Any]) -> None:
        super().__init__(str(report.get("report", report)))
        self.report = report


class Understudy:
    """A running Understudy server: started here (`start`) or already running (`connect`)."""

    def __init__(self, base_url: str, process: subprocess.Popen[str] | None = None) -> None:
        self.base_url = base_url.rstrip("/")
        self._process = process
        health = self._call("GET", "/health")
        self.provider_paths: dict[str, str] = dict(health.get("providerPaths", {}))

    @classmethod
    def connect(cls, base_url: str) -> "Understudy":
        return cls(base_url)

    @classmethod
    def start(cls, fixtures: list[str | os.PathLike[str]] | None = None, *, command: list[str] | None = None, timeout: float = 30.0) -> "Understudy":
        """Starts `understudy serve --port 0 --quiet` (the repository's built CLI, or `command`)."""
        cli = command or _default_command()
        args = [*cli, "serve", "--port", "0", "--quiet", *(["--fixtures", *map(str, fixtures)] if fixtures else [])]
        process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert process.stdout is not None
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            seen.append(line)
            found = re.search(r"listening on (http://\S+)", line)
            if found:
                # The rest of the banner (and nothing else, with --quiet) is drained in the background.
                threading.Thread(target=_drain, args=(process,), daemon=True).start()
                return cls(found.group(1), process)
        process.kill()
        raise RuntimeError(f"understudy serve did not start within {timeout} s:\n{''.join(seen)}")

    def close(self) -> None:
        if self._process and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()

    def __enter__(self) -> "Understudy":
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def url(self, provider: str = "openai") -> str:
        """The base URL an SDK of this provider is given (openai, anthropic, gemini, …)."""
        if provider not in self.provider_paths:
            raise KeyError(f"unknown provider {provider!r}; known: {', '.join(self.provider_paths)}")
        return f"{self.base_url}{self.provider_paths[provider]}"

    def session(self, id: str | None = None, **options: Any) -> "Session":
        """A new session (options as the control API takes them: fallback, seed, clock, …)."""
        body = {**options, **({"id": id} if id is not None else {})}
        created = self._call("POST", "/sessions", body)
        return Session(self, created["id"], created["apiKey"])

    def _call(self, method: str, path: str, body: Any = None, *, content_type: str = "application/json") -> Any:
        data: bytes | None = None
        headers: dict[str, str] = {}
        if body is not None:
            data = body.encode() if isinstance(body, str) else json.dumps(body).encode()
            headers["content-type"] = content_type
        request = urllib.request.Request(f"{self.base_url}/_understudy{path}", data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read().decode()
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            raise ControlError(method, path, error.code, json.loads(text) if text else None) from None
        return json.loads(text) if text else None


class Session:
    """One session: its own scripts, journal and API key (give the key to the SDK)."""

    def __init__(self, server: Understudy, id: str, api_key: str) -> None:
        self.server = server
        self.id = id
        self.api_key = api_key

    def url(self, provider: str = "openai") -> str:
        return self.server.url(provider)

    def _path(self, rest: str = "") -> str:
        return f"/sessions/{urllib.request.quote(self.id, safe='')}{rest}"

    def load(self, fixture: Mapping[str, Any] | str | os.PathLike[str], *, replace: bool = False) -> None:
        """Loads a fixture: a dict as JSON, or a YAML or JSON file (its positions kept in errors)."""
        method = "PUT" if replace else "POST"
        if isinstance(fixture, Mapping):
            self.server._call(method, self._path("/scripts"), dict(fixture))
            return
        path = Path(fixture)
        text = path.read_text(encoding="utf-8")
        if path.suffix.lower() == ".json":
            self.server._call(method, self._path("/scripts"), json.loads(text))
        else:
            self.server._call(method, self._path("/scripts"), text, content_type="application/yaml")

    def journal(self) -> dict[str, Any]:
        return self.server._call("GET", self._path("/journal"))

    def check(self, **expectations: Any) -> dict[str, Any]:
        """verify()'s report without raising (expectations as the control API takes them:
        toolCalled, toolNotCalled, toolOrder, failOnNearMiss)."""
        return self.server._call("POST", self._path("/verify"), expectations)

    def verify(self, **expectations: Any) -> None:
        report = self.check(**expectations)
        if not report.get("ok"):
            raise VerificationError(report)

    def reset(self) -> None:
        self.server._call("POST", self._path("/reset"), {})

    def delete(self) -> None:
        self.server._call("DELETE", self._path())


def _drain(process: subprocess.Popen[str]) -> None:
    assert process.stdout is not None
    for _ in process.stdout:
        pass


def _default_command() -> list[str]:
    """$UNDERSTUDY_CLI (a command line, or the path of dist/cli/main.js), else the repository's
    built CLI when this package runs from it, else `understudy` on PATH."""
    configured = os.environ.get("UNDERSTUDY_CLI")
    if configured:
        return ["node", configured] if configured.endswith(".js") else shlex.split(configured)
    here = Path(__file__).resolve()
    for parent in here.parents:
        cli = parent / "dist" / "cli" / "main.js"
        if cli.exists() and (parent / "package.json").exists():
            return ["node", str(cli)]
    found = shutil.which("understudy")
    if found:
        return [found]
    raise RuntimeError("no Understudy CLI found: pass command=[...] or put `understudy` on PATH")
