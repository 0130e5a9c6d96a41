"""rules_lib.browser.LazyWheels: a wheel installed on its first import, and refused if it differs from the manifest."""

from __future__ import annotations

import hashlib
import io
import sys
import zipfile

import pytest

from rules_lib.browser import LazyWheels


def _wheel(module: str, source: str) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr(f"{module}/__init__.py", source)
    return out.getvalue()


@pytest.fixture
def hook(tmp_path):
    installed = []

    def install(module: str, data: bytes, digest: str) -> list[str]:
        fetched: list[str] = []
        finder = LazyWheels({module: {"url": f"https://site/{module}.whl", "sha256": digest}},
                            lambda url: fetched.append(url) or data, target=str(tmp_path))
        sys.meta_path.append(finder)
        installed.append((finder, module))
        return fetched

    yield install
    for finder, module in installed:
        sys.meta_path.remove(finder)
        sys.modules.pop(module, None)


def test_a_lazy_wheel_is_fetched_on_first_import_only(hook):
    data = _wheel("lazy_probe_one", "ANSWER = 42\n")
    fetched = hook("lazy_probe_one", data, hashlib.sha256(data).hexdigest())
    assert fetched == []  # nothing before the import
    import lazy_probe_one

    assert lazy_probe_one.ANSWER == 42 and len(fetched) == 1


def test_a_lazy_wheel_that_differs_from_the_manifest_is_refused(hook):
    data = _wheel("lazy_probe_two", "ANSWER = 'planted'\n")
    hook("lazy_probe_two", data, hashlib.sha256(b"the build's wheel").hexdigest())
    with pytest.raises(ImportError, match="does not match the build's digest"):
        import lazy_probe_two  # noqa: F401


def test_a_page_imports_only_allowed_calculator_modules_ahead():
    from rules_lib.browser import import_calculator_modules, install_ipython_stand_in

    install_ipython_stand_in()
    named = '["rules_lib.widgets.gundam_sentinel:ToHitCalculator", "os:system", "rules_lib.widgets.base:Calculator"]'
    assert import_calculator_modules(named) == ["rules_lib.widgets.gundam_sentinel"]
    assert "rules_lib.widgets.wis6" in import_calculator_modules()  # a snapshot holds them all


def test_a_start_from_a_snapshot_unpacks_the_bytecode_only_for_modules_it_lacks(monkeypatch):
    from rules_lib import browser

    browser.install_ipython_stand_in()
    named = '["rules_lib.widgets.gundam_sentinel:ToHitCalculator", "os:system"]'
    browser.import_calculator_modules(named)
    assert browser.lacks_calculator_modules(named) is False
    monkeypatch.delitem(sys.modules, "rules_lib.widgets.gundam_sentinel")
    assert browser.lacks_calculator_modules(named) is True
    assert browser.lacks_calculator_modules('["os:system"]') is False  # not a calculator: never imported


def test_a_build_without_lazy_wheels_installs_no_hook_and_a_hook_asks_sysconfig_only_when_fetching():
    from rules_lib import browser

    browser.install_lazy_wheels('{"probe": {"url": "https://site/probe.whl", "sha256": "0"}}')
    assert any(isinstance(f, browser.LazyWheels) for f in sys.meta_path)
    browser.install_lazy_wheels("{}")  # a later start with none: the old hook goes, none comes
    assert not any(isinstance(f, browser.LazyWheels) for f in sys.meta_path)
    assert browser.LazyWheels({}, fetch=None).target is None  # sysconfig's first answer is slow in the browser
