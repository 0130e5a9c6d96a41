"""What the site ships to browsers is pinned and confined (issue 15, item 7)."""

import hashlib
import importlib
import inspect
import io
import sys
import tarfile
import tomllib
from pathlib import Path

import pytest

from rules_lib.browser import LiveCalculator, calculator_class, calculator_modules, live_class

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import vendor  # noqa: E402


def _tarball(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


@pytest.mark.parametrize("name", ["package/../../evil.js", "/etc/evil", "../evil", "package/..\\evil"])
def test_tar_members_that_climb_out_are_refused(tmp_path, monkeypatch, name):
    asset = vendor.NpmAsset("evil", "1.0.0", "sha512-x", "package/", "evil/")
    monkeypatch.setattr(vendor, "ASSETS", (asset,))
    monkeypatch.setattr(vendor, "_download", lambda _: _tarball({"package/ok.js": b"ok", name: b"evil"}))
    site = tmp_path / "site" / "vendor"
    with pytest.raises(RuntimeError, match="not a plain relative path"):
        vendor.vendor_into(site)
    assert not (tmp_path / "evil.js").exists() and not (tmp_path / "site" / "evil.js").exists()


def test_tar_member_names_are_normalised(tmp_path, monkeypatch):
    asset = vendor.NpmAsset("fine", "1.0.0", "sha512-x", "package/", "fine/")
    monkeypatch.setattr(vendor, "ASSETS", (asset,))
    monkeypatch.setattr(vendor, "_download", lambda _: _tarball({"./package/a/./b.js": b"b"}))
    vendor.vendor_into(tmp_path)
    assert (tmp_path / "fine" / "a" / "b.js").read_bytes() == b"b"


def test_a_wheel_that_differs_from_its_pinned_hash_is_refused_and_removed(tmp_path):
    forged = tmp_path / "ipywidgets-8.1.9-py3-none-any.whl"
    forged.write_bytes(b"not the wheel")
    with pytest.raises(RuntimeError, match="differs from the pinned"):
        vendor._checked_wheel(forged)
    assert not forged.exists()
    unknown = tmp_path / "ipywidgets-9.9.9-py3-none-any.whl"
    unknown.write_bytes(b"x")
    with pytest.raises(RuntimeError, match="no pinned sha256"):
        vendor._checked_wheel(unknown)


def test_every_browser_wheel_at_its_pinned_version_has_a_hash():
    pins = vendor.pinned_versions()
    for package in vendor.BROWSER_WHEELS:
        assert any(name.startswith(f"{package}-{pins[package]}-") for name in vendor.WHEEL_SHA256), package
    for digest in vendor.WHEEL_SHA256.values():
        assert len(digest) == 64 and int(digest, 16) >= 0


def test_cached_wheels_are_checked_too(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    (cache / "wheels").mkdir(parents=True)
    for package in vendor.BROWSER_WHEELS:
        version = vendor.pinned_versions()[package]
        (cache / "wheels" / f"{package}-{version}-py3-none-any.whl").write_bytes(b"tampered cache")
    monkeypatch.setattr(vendor, "CACHE", cache)
    with pytest.raises(RuntimeError, match="differs from the pinned"):
        vendor.wheels_into(tmp_path / "site-wheels")


def test_the_build_backend_environment_is_pinned():
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    pins = {line.split("==")[0]: line for line in (ROOT / "build-constraints.txt").read_text().splitlines()
            if "==" in line and not line.startswith("#")}
    for requirement in build:
        assert requirement in pins.values(), requirement
    assert {"hatchling", "packaging", "pathspec", "pluggy", "trove-classifiers"} <= set(pins)
    assert "--build-constraint build-constraints.txt" in (ROOT / "Makefile").read_text()
    assert "--build-constraint" in inspect.getsource(vendor._own_wheel)


@pytest.mark.parametrize("dotted", [
    "os:system", "subprocess:Popen", "builtins:eval", "rules_lib.cli:main",
    "rules_lib.widgets.base:Calculator", "rules_lib.widgets.render:html_table",
    "rules_lib.widgets.gundam_sentinel:widgets", "rules_lib.widgets.gundam_sentinel:ToHitCalculator.mro",
    "rules_lib.widgets.gundam_sentinel:_check", "rules_lib.widgets.gundam_sentinel_battle:IllegalStep",
])
def test_live_calculator_names_outside_the_allow_list_are_refused(dotted):
    with pytest.raises(ValueError, match="is not a live calculator"):
        LiveCalculator(dotted)


def test_every_calculator_class_is_on_the_allow_list():
    from rules_lib.widgets.base import Calculator

    found = 0
    for module_name in calculator_modules():
        module = importlib.import_module(module_name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Calculator) and cls.__module__ == module_name:
                dotted = live_class(cls).removeprefix("rules-lib-live--")
                assert calculator_class(dotted) is cls
                found += 1
    assert found >= 20


def test_the_manifest_names_each_runtime_file_by_its_digest(tmp_path):
    runtime = tmp_path / "pyodide"
    runtime.mkdir()
    for name in vendor.PYODIDE.only:
        (runtime / name).write_bytes(name.encode())
    digests = vendor.runtime_digests(runtime)
    assert digests == {name: hashlib.sha256(name.encode()).hexdigest() for name in vendor.PYODIDE.only}
    (runtime / "python_stdlib.zip").unlink()
    with pytest.raises(RuntimeError, match="lacks python_stdlib.zip"):
        vendor.runtime_digests(runtime)
