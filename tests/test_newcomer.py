"""A newcomer's first commands end in a sentence, never a traceback (issue 34, item 9)."""

import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*argv: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120, **kwargs)


def test_execute_book_refuses_a_path_outside_the_book_in_one_line(tmp_path):
    stray = tmp_path / "mine.ipynb"
    stray.write_text("{}", encoding="utf-8")
    for given in (str(stray), "README.md", "book/wis6/no-such-chapter.ipynb"):
        done = run(sys.executable, "tools/execute_book.py", given)
        assert done.returncode != 0
        assert "Traceback" not in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and given in done.stderr, done.stderr


def test_make_serve_says_in_one_line_that_the_port_is_busy_before_building():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = run("make", "--no-print-directory", "serve-port-check", f"PORT={port}")
    assert done.returncode != 0
    import re

    # make's own "make: *** ... Error 1" (make[1]: under another make) follows the tool's one line
    message = [line for line in done.stderr.splitlines() if not re.match(r"make(\[\d+\])?: ", line)]
    assert len(message) == 1 and str(port) in message[0] and "PORT=" in message[0], done.stderr


def test_make_serve_takes_a_free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = run("make", "--no-print-directory", "serve-port-check", f"PORT={port}")
    assert done.returncode == 0, done.stderr


def test_every_rules_lib_command_in_the_readme_quotes_what_the_shell_would_redirect():
    import re
    import shlex

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = [c for c in re.findall(r"`([^`\n]*rules-lib [^`\n]*)`", readme)]
    assert len(commands) >= 5
    for command in commands:
        lexer = shlex.shlex(command, posix=True, punctuation_chars="<>|&;")
        tokens = list(lexer)
        assert not {"<", ">", "<=", ">=", "|", "&", ";"} & set(tokens), f"unquoted in README: {command}"


def _help(*argv: str) -> str:
    import contextlib
    import io

    from rules_lib.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main([*argv, "--help"]) == 0
    return out.getvalue()


HELPS = [(), ("roll",), ("odds",), ("sheet",)]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_help_lists_every_system_with_its_commands(lang):
    from rules_lib.cli import SYSTEMS

    for argv in HELPS[:3]:
        text = _help("--lang", lang, *argv)
        for system in set(SYSTEMS) - {"generic"}:
            assert f"--system {system} '" in text, (argv, system)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_example_in_every_help_runs(lang, capsys):
    import re
    import shlex

    from rules_lib.cli import main

    ran = 0
    for argv in HELPS:
        text = _help("--lang", lang, *argv)
        for line in re.findall(r"rules-lib (roll .*?'[^']*')", text):
            assert main(shlex.split(line)) == 0, line
            assert main(["odds", *shlex.split(line)[1:]]) == 0, line
            ran += 1
        if argv in (("roll",), ("odds",)):  # the expressions in the argument's help, quoted there
            for expression in re.findall(r'"([^"]+)"', " ".join(text.split())):
                assert main([argv[0], expression]) == 0, expression
                ran += 1
    capsys.readouterr()
    assert ran >= 10


def test_a_command_of_another_system_is_refused_with_the_system_that_rolls_it(capsys):
    from rules_lib.cli import main

    for line, given, expected in (("BB+14>54", "generic", "gundam-sentinel"), ("SL<=13 回避", "gundam-sentinel", "wis6"),
                                  ("x2 AD", "wis6", "nemesis"), ("VW+8>14", "generic", "verse-world")):
        assert main(["roll", "--system", given, line]) == 2
        assert f"add --system {expected}" in capsys.readouterr().err, line
    assert main(["roll", "QQ"]) == 2
    assert "--system" not in capsys.readouterr().err
