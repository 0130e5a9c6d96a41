"""Fixtures shared by the tests that read the built site without a browser."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory) -> Path:
    """The site in $RULES_LIB_SITE_DIR (`make test` builds it first), else one built here."""
    site = os.environ.get("RULES_LIB_SITE_DIR")
    if site:
        return Path(site).resolve()
    site_dir = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
                   cwd=ROOT, check=True)
    return site_dir
