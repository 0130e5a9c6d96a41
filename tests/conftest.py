"""Fixtures shared by the tests that read the built site without a browser."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


#: how long a test waits for the site `make test` builds beside it (a fresh build takes 1-2 min here)
BUILD_WAIT_SECONDS = 900


def wait_for_the_build(status: Path, most_seconds: float = BUILD_WAIT_SECONDS) -> None:
    """Wait until the build beside the tests has written its exit code to ``status``; fail unless it is 0."""
    deadline = time.monotonic() + most_seconds
    while not status.exists():
        if time.monotonic() > deadline:
            pytest.fail(f"the site build did not end within {most_seconds:g} s ({status} was not written)")
        time.sleep(0.5)
    code = status.read_text().strip()
    if code != "0":
        pytest.fail(f"the site build failed (exit code {code!r}): see .site-build.log")


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    """The site in $RULES_LIB_SITE_DIR, else one built here.

    `make test` builds it while the other tests run and names, in $RULES_LIB_SITE_STATUS, the file
    the build's exit code is written to once it ends: the tests that read the site wait for it.
    """
    site = os.environ.get("RULES_LIB_SITE_DIR")
    if site:
        status = os.environ.get("RULES_LIB_SITE_STATUS")
        if status:
            wait_for_the_build(Path(status))
        return Path(site).resolve()
    site_dir = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
                   cwd=ROOT, check=True)
    return site_dir
