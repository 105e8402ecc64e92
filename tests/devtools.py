"""A small Chrome DevTools Protocol client for the page tests, with no dependency.

:func:`launch` starts headless Chromium with ``--remote-debugging-pipe``: the browser reads
protocol commands from its file descriptor 3 and writes replies and events to descriptor
4, each message one JSON object followed by a NUL byte. The client attaches to the page
target with a flat session, so every command after that goes to the page.

``send(method, params)`` waits for the reply (with a timeout); a thread reads the pipe all
the time and keeps every event, so a test can look at the console afterwards
(:meth:`DevTools.console_errors`). On top of that: :meth:`~DevTools.evaluate`,
:meth:`~DevTools.navigate`, real input (:meth:`~DevTools.mouse_move`,
:meth:`~DevTools.click`, :meth:`~DevTools.key`), :meth:`~DevTools.screenshot` at the
viewport set by ``setDeviceMetricsOverride``, and a clean shutdown (``Browser.close``;
the process is killed when it does not end in time).

A test without Chromium installed is skipped, with the reason (as in tests/pages.py).

>>> with launch(tmp_path) as browser:                     # doctest: +SKIP
...     browser.navigate(page.as_uri(), until="document.body.dataset.rendered === 'yes'")
...     browser.evaluate("document.title")
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import subprocess
import threading
import time
from pathlib import Path

import pytest
from pages import BROWSER_ADVICE, HEADLESS, chromium

FLAGS = (
    *HEADLESS,
    "--no-default-browser-check",
    "--disable-extensions",
    "--hide-scrollbars",
    "--mute-audio",
)


class ProtocolError(RuntimeError):
    """The browser answered a command with an error, or did not answer in time."""


class DevTools:
    """One headless Chromium and one page in it, driven over the DevTools pipe."""

    def __init__(self, folder, *, width: int = 1400, height: int = 1000, timeout: float = 60.0):
        browser = chromium()
        if browser is None:
            pytest.skip(
                "headless Chromium is not installed; `make test` installs Debian's "
                "chromium package when it runs as root with apt-get"
            )
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        self.timeout = timeout
        self.width, self.height = width, height
        self.events: list[dict] = []
        self._replies: dict[int, dict] = {}
        self._next = 0
        self._lock = threading.Condition()
        self._closed = False
        self.session = None
        # Our ends: we write commands into `to_browser`, read messages from `from_browser`.
        commands_read, self._to_browser = os.pipe()
        self._from_browser, replies_write = os.pipe()
        # The browser's ends move to 10 or above, clear of 3 and 4 (which may be ours).
        commands_read, replies_write = (_high(fd) for fd in (commands_read, replies_write))
        # subprocess keeps the descriptors' numbers; bash puts them where Chromium looks
        # for them (3: commands in, 4: messages out) and closes the originals.
        redirect = f"3<&{commands_read} 4>&{replies_write} {commands_read}<&- {replies_write}>&-"
        flags = [
            *FLAGS,
            "--remote-debugging-pipe",
            f"--user-data-dir={folder / 'profile'}",
            f"--window-size={width},{height}",
            "about:blank",
        ]
        self.log = folder / "chromium.log"
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                ["bash", "-c", f'exec "$0" "$@" {redirect}', browser, *flags],
                pass_fds=(commands_read, replies_write),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                env={**os.environ, "HOME": str(folder)},
                start_new_session=True,
            )
        os.close(commands_read)
        os.close(replies_write)
        self._reader = threading.Thread(target=self._read, name="devtools-pipe", daemon=True)
        self._reader.start()
        try:
            self._attach()
        except BaseException:
            self.close()
            raise

    # ---------------------------------------------------------------------------------
    # The pipe
    # ---------------------------------------------------------------------------------
    def _read(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_browser, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                break
            buffer += chunk
            *messages, buffer = buffer.split(b"\0")
            with self._lock:
                for raw in messages:
                    message = json.loads(raw)
                    if "id" in message:
                        self._replies[message["id"]] = message
                    else:
                        message["received"] = time.perf_counter()
                        self.events.append(message)
                self._lock.notify_all()
        with self._lock:
            self._closed = True
            self._lock.notify_all()

    def send(self, method: str, params: dict | None = None, *, timeout=None, page=True) -> dict:
        """Send a command (to the page unless ``page=False``) and return its result."""
        with self._lock:
            self._next += 1
            ident = self._next
        message = {"id": ident, "method": method, "params": params or {}}
        if page and self.session is not None:
            message["sessionId"] = self.session
        data = json.dumps(message).encode("utf-8") + b"\0"
        try:
            while data:
                data = data[os.write(self._to_browser, data) :]
        except OSError as error:
            raise ProtocolError(f"{method}: the browser is gone ({error})") from None
        limit = time.monotonic() + (self.timeout if timeout is None else timeout)
        with self._lock:
            while ident not in self._replies:
                left = limit - time.monotonic()
                if self._closed:
                    raise ProtocolError(f"{method}: the browser closed the pipe; {self._tail()}")
                if left <= 0:
                    raise ProtocolError(f"{method}: no answer in {limit - time.monotonic():.0f} s")
                self._lock.wait(left)
            reply = self._replies.pop(ident)
        if "error" in reply:
            raise ProtocolError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def _tail(self) -> str:
        try:
            return "chromium said: " + self.log.read_text(errors="replace")[-800:]
        except OSError:
            return "no chromium log"

    def _attach(self) -> None:
        self.send("Target.setDiscoverTargets", {"discover": True}, page=False)
        pages = [
            t
            for t in self.send("Target.getTargets", page=False)["targetInfos"]
            if t["type"] == "page"
        ]
        if pages:
            target = pages[0]["targetId"]
        else:
            target = self.send("Target.createTarget", {"url": "about:blank"}, page=False)[
                "targetId"
            ]
        self.session = self.send(
            "Target.attachToTarget", {"targetId": target, "flatten": True}, page=False
        )["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        self.set_viewport(self.width, self.height)

    # ---------------------------------------------------------------------------------
    # Events and the console
    # ---------------------------------------------------------------------------------
    def wait_event(self, method: str, since: int = 0, timeout=None) -> dict:
        """The first event ``method`` at index ``since`` or later in :attr:`events`."""
        limit = time.monotonic() + (self.timeout if timeout is None else timeout)
        with self._lock:
            while True:
                for event in self.events[since:]:
                    if event.get("method") == method:
                        return event
                left = limit - time.monotonic()
                if left <= 0 or self._closed:
                    raise ProtocolError(f"no {method} event")
                self._lock.wait(left)

    def console(self) -> list[str]:
        """Every console message, uncaught exception and browser log entry, as text."""
        lines = []
        with self._lock:
            events = list(self.events)
        for event in events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled":
                args = " ".join(
                    str(a.get("value", a.get("description", a.get("type"))))
                    for a in params.get("args", [])
                )
                lines.append(f"console.{params.get('type')}: {args}")
            elif method == "Runtime.exceptionThrown":
                details = params.get("exceptionDetails", {})
                text = details.get("exception", {}).get("description") or details.get("text")
                lines.append(f"uncaught: {text}")
            elif method == "Log.entryAdded":
                entry = params.get("entry", {})
                lines.append(
                    f"log.{entry.get('level')} ({entry.get('source')}): {entry.get('text')}"
                )
        return [line for line in lines if not BROWSER_ADVICE.search(line)]

    def console_errors(self) -> list[str]:
        """The console's errors and warnings and uncaught exceptions (a clean page: none)."""
        bad = ("console.error", "console.assert", "console.warn", "uncaught", "log.error")
        bad += ("log.warning",)
        return [line for line in self.console() if line.startswith(bad)]

    # ---------------------------------------------------------------------------------
    # The page
    # ---------------------------------------------------------------------------------
    def evaluate(self, expression: str, *, await_promise: bool = True, timeout=None):
        """The value of a JavaScript expression in the page (awaited when a promise)."""
        result = self.send(
            "Runtime.evaluate",
            {
                "expression": expression,
                "awaitPromise": await_promise,
                "returnByValue": True,
                "userGesture": True,
            },
            timeout=timeout,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise ProtocolError(f"evaluate {expression[:80]!r}: {text}")
        return result["result"].get("value")

    def wait_for(self, expression: str, *, timeout=None, every: float = 0.01):
        """Poll ``expression`` until it is truthy; its value. ProtocolError after timeout."""
        limit = time.monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            value = self.evaluate(expression, timeout=timeout)
            if value:
                return value
            if time.monotonic() > limit:
                raise ProtocolError(f"waited in vain for {expression!r}")
            time.sleep(every)

    def navigate(self, url: str, *, until: str | None = None, timeout=None) -> float:
        """Open ``url``; seconds until ``until`` (a JS expression) holds, or until load."""
        started = time.perf_counter()
        mark = len(self.events)
        result = self.send("Page.navigate", {"url": url}, timeout=timeout)
        if result.get("errorText"):
            raise ProtocolError(f"navigate {url}: {result['errorText']}")
        if until is None:
            self.wait_event("Page.loadEventFired", since=mark, timeout=timeout)
        else:
            self.wait_for(f"!!(document.body && ({until}))", timeout=timeout)
        return time.perf_counter() - started

    def set_viewport(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )

    # ---------------------------------------------------------------------------------
    # Real input
    # ---------------------------------------------------------------------------------
    def mouse_move(self, x: float, y: float) -> None:
        self.send("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": x, "y": y})

    def mouse_down(self, x: float, y: float) -> None:
        self.send(
            "Input.dispatchMouseEvent",
            {
                "type": "mousePressed",
                "x": x,
                "y": y,
                "button": "left",
                "buttons": 1,
                "clickCount": 1,
            },
        )

    def mouse_up(self, x: float, y: float) -> None:
        self.send(
            "Input.dispatchMouseEvent",
            {
                "type": "mouseReleased",
                "x": x,
                "y": y,
                "button": "left",
                "buttons": 0,
                "clickCount": 1,
            },
        )

    def click(self, x: float, y: float) -> None:
        """Move there, press and release the left button."""
        self.mouse_move(x, y)
        self.mouse_down(x, y)
        self.mouse_up(x, y)

    KEYS = {"ArrowDown": 40, "ArrowUp": 38, "Enter": 13, "Tab": 9, "Escape": 27}

    def key(self, name: str) -> None:
        """Press and release a named key (``ArrowDown``, ``Enter``, ...)."""
        code = self.KEYS[name]
        for kind in ("rawKeyDown", "keyUp"):
            self.send(
                "Input.dispatchKeyEvent",
                {
                    "type": kind,
                    "key": name,
                    "code": name,
                    "windowsVirtualKeyCode": code,
                    "nativeVirtualKeyCode": code,
                },
            )

    # ---------------------------------------------------------------------------------
    # Pictures and the end
    # ---------------------------------------------------------------------------------
    def screenshot(self) -> bytes:
        """A PNG of the viewport (:meth:`set_viewport`)."""
        data = self.send(
            "Page.captureScreenshot",
            {"format": "png", "captureBeyondViewport": False, "fromSurface": True},
        )["data"]
        return base64.b64decode(data)

    def close(self, timeout: float = 10.0) -> None:
        """``Browser.close``; the process is killed when it has not ended after ``timeout``."""
        if self.process.poll() is None:
            try:
                self.send("Browser.close", page=False, timeout=timeout)
            except ProtocolError:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, 9)  # its own session: only what we started
                self.process.wait(timeout)
        for fd in (self._to_browser,):
            try:
                os.close(fd)
            except OSError:
                pass
        self._reader.join(timeout)
        try:
            os.close(self._from_browser)
        except OSError:
            pass

    def __enter__(self) -> DevTools:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _high(fd: int) -> int:
    """``fd`` as a descriptor numbered 10 or above (the original is closed)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
    os.close(fd)
    return moved


def launch(folder, **options) -> DevTools:
    """Headless Chromium with one page, driven over the pipe (skips without Chromium)."""
    return DevTools(folder, **options)
