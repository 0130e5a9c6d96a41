"""Two builds of one commit give the same ``vendor/`` folder, byte for byte (issue 34).

A fresh build here, with every cache of its own and empty (only the downloads, the npm tarballs
and the pip wheels, copied in: the build then runs offline), is compared with the ``vendor/``
folder of the site the other tests read ($RULES_LIB_SITE_DIR, which ``make test`` builds beside
them, else one built here): the same files, each with the same SHA-256. So one extra vendor build
runs (about a minute here), not two. Skipped only when the downloads are not cached (offline,
before any build has fetched them).
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import precompile  # noqa: E402
import snapshot  # noqa: E402
import vendor  # noqa: E402


def tree_digests(folder: Path) -> dict[str, str]:
    """Each file under ``folder`` (its path relative to it) -> its SHA-256."""
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def differences(first: dict[str, str], second: dict[str, str]) -> list[str]:
    """The paths only one tree holds, or that the two hold with different bytes."""
    return sorted(path for path in first.keys() | second.keys() if first.get(path) != second.get(path))


def test_differences_names_a_changed_a_missing_and_an_extra_file():
    first = {"same": "1", "changed": "2", "only-first": "3"}
    second = {"same": "1", "changed": "4", "only-second": "5"}
    assert differences(first, second) == ["changed", "only-first", "only-second"]
    assert differences(first, dict(first)) == []


def cached_downloads() -> list[Path]:
    """What the build fetches from the registries, in the project's cache; skips the test if absent."""
    tarballs = [vendor.CACHE / f"{asset.name.replace('/', '__')}-{asset.version}.tgz" for asset in vendor.ASSETS]
    missing = [path.name for path in tarballs if not path.exists()]
    wheels = [path for package in vendor.BROWSER_WHEELS
              for path in (vendor.CACHE / "wheels").glob(f"{package.replace('-', '_')}-{vendor.pinned_versions()[package]}-*.whl")]
    if len(wheels) < len(vendor.BROWSER_WHEELS):
        missing.append("the browser wheels")
    if missing:
        pytest.skip(f"not in {vendor.CACHE} (offline, and never built): {', '.join(missing)}")
    return [*tarballs, *wheels]


def test_a_fresh_vendor_build_is_byte_identical_to_the_site_s(site_dir, tmp_path, monkeypatch):
    downloads = cached_downloads()
    cache = tmp_path / "cache"
    (cache / "wheels").mkdir(parents=True)
    for path in downloads:
        shutil.copy2(path, cache / ("wheels" if path.suffix == ".whl" else "") / path.name)
    # every cache this build writes is its own: the own wheel, the bytecode, the snapshots are made afresh
    monkeypatch.setattr(vendor, "CACHE", cache)
    monkeypatch.setattr(precompile, "CACHE", cache / "bytecode")
    monkeypatch.setattr(snapshot, "CACHE", cache / "snapshot")
    fresh = tmp_path / "vendor"
    vendor.vendor_into(fresh)
    vendor.wheels_into(fresh / "wheels")

    built, site = tree_digests(fresh), tree_digests(site_dir / "vendor")
    assert built, "the fresh build wrote nothing"
    assert differences(built, site) == []
