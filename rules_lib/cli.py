"""The ``rules-lib`` command: roll dice and show exact odds from the shell.

    rules-lib roll "2D6+3" --dice 4,5      # replay the dice a text shows
    rules-lib roll "1D36" --seed 7 --json
    rules-lib odds "2D6>=10" --json

Bad input exits with code 2 and a one-line message.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import re
import sys
from collections.abc import Callable, Sequence

from .dice import MAX_DICE, odds, percent, roll
from .sheets import cli as sheet_cli
from .systems import systems


def _system_commands() -> dict[str, tuple[Callable[..., object], Callable[[str], object]]]:
    """Each registered system whose package has a ``commands`` module with ``roll_command`` and
    ``odds_command`` (its own dice commands, e.g. ``BB``, ``SL``, ``AD``, ``VW``; anything else
    rolls as generic dice)."""
    found = {}
    for system in systems():
        if importlib.util.find_spec(f"{__package__}.{system.package}.commands") is None:
            continue
        commands = importlib.import_module(f"{__package__}.{system.package}.commands")
        found[system.system] = (commands.roll_command, commands.odds_command)
    return found


#: dice commands by ``--system`` name: generic dice, and every system of the registry that has commands
SYSTEMS: dict[str, tuple[Callable[..., object], Callable[[str], object]]] = {"generic": (roll, odds)} | _system_commands()


# an argument starting with one '-' is an expression (-1D6+10), unless it is -h; argparse
# otherwise takes it for an option and refuses it
_EXPRESSION_LIKE = re.compile(r"^-(?!-|h$)")


class _OneLineParser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # argparse reads "-1" style arguments as positionals when they match this pattern
        self._negative_number_matcher = _EXPRESSION_LIKE

    def error(self, message: str) -> None:  # argparse's default prints the whole usage
        raise _UsageError(f"{self.prog}: {message} (see --help)")


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


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog="rules-lib", description="Dice and exact odds for the rules book.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser)
    for name, help_text in (("roll", "roll an expression"), ("odds", "exact odds of an expression")):
        command = commands.add_parser(name, help=help_text)
        command.add_argument("expression", help='a dice expression, e.g. "2D6+3" or "2D6>=10"')
        command.add_argument("--json", action="store_true", help="print JSON")
        command.add_argument("--system", default="generic", choices=sorted(SYSTEMS),
                             help="read the expression as this system's dice commands")
        if name == "roll":
            command.add_argument("--seed", type=_seed, help="seed for repeatable dice")
            command.add_argument("--dice", type=_dice_list, help="the exact dice to use, e.g. 4,5")
            command.add_argument("--format", choices=("text", "bcdice"), default="text",
                                 help="bcdice: the line BCDice prints (--system gundam-sentinel)")
    sheet_cli.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        if args.command == "sheet":
            print(sheet_cli.run(args))
            return 0
        roll_fn, odds_fn = SYSTEMS[args.system]
        if args.command == "roll":
            result = roll_fn(args.expression, seed=args.seed, dice=args.dice)
            if args.format == "bcdice" and not hasattr(result, "bcdice_line"):
                raise ValueError(f"--format bcdice is for --system gundam-sentinel, not {args.system!r}")
            if args.json:
                print(json.dumps(result.to_dict(), ensure_ascii=False))
            else:
                print(result.bcdice_line() if args.format == "bcdice" else roll_text(result))
        else:
            result = odds_fn(args.expression)
            print(json.dumps(result.to_dict(), ensure_ascii=False) if args.json else _odds_text(result))
        sys.stdout.flush()  # inside the try: a closed pipe is found here, not at exit
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
    return 0


def _silence_stdout() -> None:
    # the interpreter flushes stdout at exit; point it at devnull so that flush cannot fail
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def roll_text(result) -> str:
    if hasattr(result, "text"):
        return result.text()
    dice = ", ".join(str(d.value) for d in result.dice) or "none"
    lines = [f"{result.expression} = {result.total}", f"dice: {dice}"]
    lines += [f"  {step}" for step in result.steps]
    if result.success is not None:
        lines.append("success" if result.success else "failure")
    return "\n".join(lines)


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
