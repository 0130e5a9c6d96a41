"""The ``rules-lib`` command: roll dice and show exact odds from the shell.

    rules-lib roll "2D6+3" --dice 4,5      # replay the dice a text shows
    rules-lib roll "1D36" --seed 7 --json
    rules-lib odds "2D6>=10" --json

Bad input exits with code 2 and a one-line message; output that cannot be written (a closed
standard output, a full disk) exits with code 1 and a one-line message, and a reader that stops
early (``| head``) ends it quietly.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence

from . import bcdice_tests
from .dice import MAX_DICE, percent
from .dice.chat import GENERIC, has_bcdice_line
from .dice.errors import quoted
from .messages import LANGUAGES, language, message, use_language
from .sheets import cli as sheet_cli
from .systems import systems


def _commands_modules() -> dict[str, object]:
    """The ``commands`` module of each registered system whose package has one (its own dice
    commands, e.g. ``BB``, ``SL``, ``AD``, ``VW``; anything else rolls as generic dice)."""
    found = {}
    for system in systems():
        if importlib.util.find_spec(f"{__package__}.{system.package}.commands") is not None:
            found[system.system] = importlib.import_module(f"{__package__}.{system.package}.commands")
    return found


_COMMANDS = _commands_modules()
#: dice commands by ``--system`` name: generic dice, and every system of the registry that has commands;
#: each reads a chat line (a comment, the secret S, xN repetition: rules_lib.dice.chat)
SYSTEMS: dict[str, tuple[Callable[..., object], Callable[[str], object]]] = {
    "generic": (GENERIC.roll, GENERIC.odds)} | {name: (m.roll_command, m.odds_command) for name, m in _COMMANDS.items()}
#: the systems whose commands print BCDice's output lines (``--format bcdice``), with BCDice's dicebot
BCDICE_DICEBOTS: dict[str, str] = {name: m.BCDICE_DICEBOT for name, m in _COMMANDS.items()
                                   if hasattr(m, "BCDICE_DICEBOT")}




def systems_help(lang: str | None = None) -> str:
    """What ``--help`` says of ``--system``: each system's commands, one example each, quoted for a shell."""
    lines = [message("cli.systems.intro", lang)]
    for name, module in sorted(_COMMANDS.items()):
        for example, key in getattr(module, "HELP_EXAMPLES", ()):
            lines.append(f"  rules-lib roll --system {name} '{example}'   {message(key, lang)}")
    return "\n".join(lines)


def other_system_hint(expression: str, system: str) -> str:
    """A hint for a refused expression that is the command of another system: which ``--system`` rolls it."""
    for name, module in sorted(_COMMANDS.items()):
        if name == system:
            continue
        commands = module.COMMANDS
        try:
            command = commands.read(expression).command.upper()
        except ValueError:
            continue
        if commands.own is not None and commands.own.match(command):
            return f" ({command.split()[0][:20]} looks like a {name} command: add --system {name})"
    return ""


# an argument starting with one '-' is an expression (-1D6+10), unless it is -h; argparse
# otherwise takes it for an option and refuses it
_EXPRESSION_LIKE = re.compile(r"^-(?!-|h$)")


class _OneLineParser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # argparse reads "-1" style arguments as positionals when they match this pattern
        self._negative_number_matcher = _EXPRESSION_LIKE

    def error(self, text: str) -> None:  # argparse's default prints the whole usage
        raise _UsageError(f"{self.prog}: {text}{message('cli.see_help')}")

    def _print_message(self, message: str, file=None) -> None:
        # argparse ignores a failed write of --help; here a closed or full output is reported
        if message:
            if file is None:  # print_help passes sys.stdout, None when it is closed
                raise _ClosedOutput
            file.write(message)


class _UsageError(Exception):
    pass


_WHOLE = re.compile(r"\s*[+-]?[0-9]{1,20}\s*")  # ASCII digits, short enough to convert at once


def _dice_list(text: str) -> list[int]:
    parts = [part for part in text.split(",") if part.strip()]
    if len(parts) > MAX_DICE * 2 or not all(_WHOLE.fullmatch(part) for part in parts):
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise argparse.ArgumentTypeError(
            f"--dice takes at most {MAX_DICE * 2} whole numbers separated by commas, like 3,6; got {shown!r}"
        )
    return [int(part) for part in parts]


def _seed(text: str) -> int:
    if not _WHOLE.fullmatch(text):
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise argparse.ArgumentTypeError(f"--seed takes a whole number of at most 20 digits; got {shown!r}")
    return int(text)


def build_parser(lang: str | None = None) -> argparse.ArgumentParser:
    """The command's parser, its help in ``lang`` (:mod:`rules_lib.messages`; argparse's own words,
    such as "usage" and "options", stay Python's)."""
    def say(key: str, **values: object) -> str:
        return message(key, lang, **values)

    parser = _OneLineParser(prog="rules-lib", description=say("cli.description"),
                            epilog=systems_help(lang), formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", choices=LANGUAGES, help=say("cli.lang", languages=", ".join(LANGUAGES)))
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser)
    for name in ("roll", "odds"):
        command = commands.add_parser(name, help=say(f"cli.{name}"), epilog=systems_help(lang),
                                      formatter_class=argparse.RawDescriptionHelpFormatter)
        command.add_argument("expression", help=say("cli.expression", repeated=say(f"cli.expression.{name}")))
        command.add_argument("--json", action="store_true", help=say("cli.json"))
        command.add_argument("--system", default="generic", choices=sorted(SYSTEMS), help=say("cli.system"))
        if name == "roll":
            command.add_argument("--seed", type=_seed, help=say("cli.seed"))
            command.add_argument("--dice", type=_dice_list, help=say("cli.dice"))
            command.add_argument("--format", choices=("text", "bcdice"), default="text",
                                 help=say("cli.format", systems=" or ".join(sorted(BCDICE_DICEBOTS))))
    sheet_cli.add_parser(commands, lang)
    api = commands.add_parser("api", help=say("cli.api"))
    api.add_argument("--host", default="127.0.0.1", help=say("cli.api.host"))
    api.add_argument("--port", type=_port, default=8080, help=say("cli.api.port"))
    tests = commands.add_parser("bcdice-tests", help=say("cli.bcdice_tests"))
    tests.add_argument("--system", required=True, choices=sorted(bcdice_tests.COMMANDS), help=say("cli.bcdice_tests.system"))
    return parser


#: argparse's English (its gettext message ids) and the messages that say the same in any language
_ARGPARSE_WORDS = {
    "usage: ": "argparse.usage", "positional arguments": "argparse.positional", "options": "argparse.options",
    "show this help message and exit": "argparse.help",
    "the following arguments are required: %s": "argparse.required",
    "unrecognized arguments: %s": "argparse.unrecognized",
    "invalid choice: %(value)r (choose from %(choices)s)": "argparse.invalid_choice",
    "invalid %(type)s value: %(value)r": "argparse.invalid_value",
    "argument %(argument_name)s: %(message)s": "argparse.argument",
    "expected one argument": "argparse.one_argument",
    "ambiguous option: %(option)s could match %(matches)s": "argparse.ambiguous",
    "unknown parser %(parser_name)r (choices: %(choices)s)": "argparse.unknown_parser",
}


@contextlib.contextmanager
def _argparse_speaks(lang: str) -> Iterator[None]:
    """argparse's own words in ``lang`` while the parser is built and used: argparse looks each up
    through its module's ``_`` (gettext), for which Python ships no Japanese catalogue."""
    english = argparse._
    argparse._ = lambda text: message(_ARGPARSE_WORDS[text], lang) if text in _ARGPARSE_WORDS else english(text)
    try:
        yield
    finally:
        argparse._ = english


def _split_language(argv: Sequence[str]) -> tuple[str | None, list[str]]:
    """A valid ``--lang`` of ``argv`` (read before parsing, so the help is written in it), and
    ``argv`` without it, so it may stand anywhere on the line."""
    asked, kept, skip = None, [], False
    for at, word in enumerate(argv):
        value = word.partition("=")[2] if word.startswith("--lang=") else (
            argv[at + 1] if word == "--lang" and at + 1 < len(argv) else None)
        if skip:
            skip = False
        elif value in LANGUAGES:
            asked, skip = value, word == "--lang"
        else:
            kept.append(word)
    return asked, kept


def _port(text: str) -> int:
    if not (text.isascii() and text.isdigit() and int(text) <= 65535):
        raise argparse.ArgumentTypeError(f"--port takes a port number, 0 to 65535; got {text[:40]!r}")
    return int(text)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; its help and messages in ``--lang``, else ``RULES_LIB_LANG`` or the locale's language."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        asked, argv = _split_language(argv)
        spoken = language(asked)
    except ValueError as error:  # RULES_LIB_LANG names a language the library does not speak
        print(f"rules-lib: RULES_LIB_LANG: {error}", file=sys.stderr)
        return 2
    with use_language(spoken), _argparse_speaks(spoken):
        return _main(argv)


def _main(argv: Sequence[str]) -> int:
    try:
        code = _run(argv)
        if sys.stdout is not None:
            sys.stdout.flush()  # inside the try: a closed pipe or a full disk is found here, not at exit
        return code
    except _UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"rules-lib: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # the reader stopped early (| head): end quietly, as the Python docs advise
        _silence_stdout()
        return 1
    except _ClosedOutput:
        print(f"rules-lib: {message('cli.closed_output')}", file=sys.stderr)
        return 1
    except OSError as error:  # a full disk (> /dev/full), a write the system refuses
        _silence_stdout()
        print(f"rules-lib: {message('cli.not_written', reason=error.strerror or error)}", file=sys.stderr)
        return 1


def _run(argv: Sequence[str] | None) -> int:
    """Parse ``argv``, compute and print; the exit code (``--help`` and ``--version`` end here too)."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as done:  # --help printed its text
        return done.code if isinstance(done.code, int) else 0
    if args.command == "sheet":
        _print(sheet_cli.run(args))
        return 0
    if args.command == "api":
        return _serve(args.host, args.port)
    if args.command == "bcdice-tests":
        _print(bcdice_tests.dumps(args.system).rstrip("\n"))
        return 0
    try:
        return _roll_or_odds(args)
    except ValueError as error:
        raise ValueError(f"{error}{other_system_hint(args.expression, args.system)}") from error


def _roll_or_odds(args: argparse.Namespace) -> int:
    roll_fn, odds_fn = SYSTEMS[args.system]
    if args.command == "roll":
        result = roll_fn(args.expression, seed=args.seed, dice=args.dice)
        if args.format == "bcdice" and not has_bcdice_line(result):
            raise ValueError(_no_bcdice_text(args.system, args.expression))
        if args.json:
            _print(json.dumps(result.to_dict(), ensure_ascii=False))
        else:
            _print(result.bcdice_line() if args.format == "bcdice" else roll_text(result))
    else:
        result = odds_fn(args.expression)
        _print(json.dumps(result.to_dict(), ensure_ascii=False) if args.json else _odds_text(result))
    return 0


def _serve(host: str, port: int) -> int:
    """Serve the BCDice-API server with uvicorn until interrupted (one process: the README says how
    to run several)."""
    try:  # the server's packages are the optional extra "api"
        import uvicorn

        from .api import create_app
    except ImportError as missing:
        raise ValueError(f"rules-lib api needs the api extra: pip install 'rules_lib[api]' ({missing})") from None
    uvicorn.run(create_app(), host=host, port=port, log_level="info")
    return 0


class _ClosedOutput(Exception):
    """Started with standard output closed (``>&-``): Python then has no ``sys.stdout``."""


def _print(text: str) -> None:
    if sys.stdout is None:
        raise _ClosedOutput
    print(text)


def _no_bcdice_text(system: str, expression: str) -> str:
    """Why ``--format bcdice`` has no text to print: the system has no BCDice output, or the line is
    generic notation, which the library does not print as BCDice does."""
    known = ", ".join(f"{name} (BCDice's {bot} dicebot)" for name, bot in sorted(BCDICE_DICEBOTS.items()))
    if system not in BCDICE_DICEBOTS:
        return f"--format bcdice prints BCDice's text of the commands of {known}; --system {system!r} has none"
    return (f"--format bcdice prints BCDice's text of --system {system}'s own commands; {quoted(expression)} "
            "is generic dice notation, which it does not print as BCDice does: leave out --format bcdice")


def _silence_stdout() -> None:
    # the interpreter flushes stdout at exit; point it at devnull so that flush cannot fail
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def roll_text(result) -> str:
    """A roll as ``rules-lib roll`` prints it (every result, generic or a system's, has ``text()``)."""
    return result.text()


def _odds_text(result) -> str:
    if hasattr(result, "text"):
        return result.text()
    lines = [result.expression]
    if result.success is not None:
        lines.append(f"success: {result.success} ({percent(result.success)})")
    width = max(len(str(o)) for o in result.distribution)
    for outcome, p in result.distribution.items():
        lines.append(f"  {str(outcome):>{width}}  {str(p):>12}  {percent(p):>8}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
