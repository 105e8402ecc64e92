"""What the page tests share: a check for external resources, and headless Chromium.

:func:`open_in_chromium` loads a page in headless Chromium, lets its scripts run and
returns the DOM and every console line, so a test can check both what was drawn and that
nothing went wrong. It skips the test, with the reason, when no Chromium is installed
(`make test` installs Debian's when it runs as root).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

import pytest

PNG = b"\x89PNG\r\n\x1a\n"
#: A src/href/url() pointing off the page (http, https or protocol-relative), or @import.
EXTERNAL = re.compile(
    r"""(?:\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?//)|url\(\s*["']?\s*(?:https?:)?//|@import""",
    re.IGNORECASE,
)


#: Chromium's performance advice about how a library draws (software WebGL's driver notes;
#: older plotly.js reading a 2D canvas back), not messages or errors of the page's own.
BROWSER_ADVICE = re.compile(
    r"GL Driver Message|Canvas2D: Multiple readback operations using getImageData"
)


#: How every page test starts Chromium: headless, offline, nothing of its own running.
HEADLESS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--enable-unsafe-swiftshader",  # WebGL (plotly scattergl) in software, without a warning
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class Loaded:
    dom: str
    body: str  # the <body ...> tag, where the pages record their state in data-* attributes
    console: list  # console messages and uncaught errors; a clean page has none

    @property
    def data(self) -> dict:
        return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', self.body))


def open_in_chromium(page, tmp_path, fragment: str = "") -> Loaded:
    """Load ``page`` (a path) in headless Chromium; its DOM once scripts ran, and the log."""
    browser = chromium()
    if browser is None:
        pytest.skip(
            "headless Chromium is not installed; `make test` installs Debian's "
            "chromium package when it runs as root with apt-get"
        )
    flags = [
        *HEADLESS,
        f"--user-data-dir={tmp_path / 'profile'}",
        "--enable-logging=stderr",  # console messages come out as INFO:CONSOLE lines
        "--v=0",
        "--virtual-time-budget=10000",
        "--dump-dom",
    ]
    run = subprocess.run(
        [browser, *flags, f"{page.as_uri()}{fragment}"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "HOME": str(tmp_path)},
    )
    body = re.search(r"<body[^>]*>", run.stdout)
    assert body, f"no DOM from Chromium: {run.stderr[-500:]}"
    console = [
        line
        for line in run.stderr.splitlines()
        if (":CONSOLE" in line or "Uncaught" in line) and not BROWSER_ADVICE.search(line)
    ]
    return Loaded(dom=run.stdout, body=body.group(0), console=console)
