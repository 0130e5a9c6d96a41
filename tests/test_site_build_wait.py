"""`make test` builds the site beside the tests that read it: they wait for the build's exit code."""

import threading

import pytest

from tests.conftest import wait_for_the_build


def test_a_finished_build_is_not_waited_for(tmp_path):
    status = tmp_path / "status"
    status.write_text("0\n")
    wait_for_the_build(status, most_seconds=0.1)


def test_the_tests_wait_until_the_build_ends(tmp_path):
    status = tmp_path / "status"
    threading.Timer(0.6, lambda: status.write_text("0\n")).start()
    wait_for_the_build(status, most_seconds=10)
    assert status.read_text() == "0\n"


def test_a_failed_build_fails_the_tests_that_read_the_site(tmp_path):
    status = tmp_path / "status"
    status.write_text("1\n")
    with pytest.raises(pytest.fail.Exception, match=r"the site build failed \(exit code '1'\): see .site-build.log"):
        wait_for_the_build(status, most_seconds=0.1)


def test_a_build_that_does_not_end_fails_them_and_says_so(tmp_path):
    with pytest.raises(pytest.fail.Exception, match="the site build did not end within 0.2 s"):
        wait_for_the_build(tmp_path / "never", most_seconds=0.2)
