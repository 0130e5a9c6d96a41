"""The ``rules-lib`` command: roll dice and show exact odds from the shell.

    rules-lib roll "2D6+3" --dice 4,5      # replay the dice a text shows
    rules-lib roll "1D36" --seed 7 --json
    rules-lib odds "2D6>=10" --json

Bad input exits with code 2 and a one-line message.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from .dice import odds, percent, roll
from .gundam_sentinel.commands import odds_command as gundam_sentinel_odds
from .gundam_sentinel.commands import roll_command as gundam_sentinel_roll
from .nemesis import commands as nemesis_commands
from .sheets import cli as sheet_cli
from .verse_world import commands as verse_world_commands
from .wis6 import commands as wis6_commands

#: System dice commands by name; later chapters register their own (``--system NAME``).
SYSTEMS: dict[str, tuple[Callable[..., object], Callable[[str], object]]] = {
    "generic": (roll, odds),
    "gundam-sentinel": (gundam_sentinel_roll, gundam_sentinel_odds),  # BB, BBM, GS (000)
    "wis6": (wis6_commands.roll_command, wis6_commands.odds_command),  # SL<=A (001), else generic
    "nemesis": (nemesis_commands.roll_command, nemesis_commands.odds_command),  # AD, OP (002), else generic
    "verse-world": (verse_world_commands.roll_command, verse_world_commands.odds_command),  # VW (004), else generic
}


class _OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse's default prints the whole usage
        raise _UsageError(f"{self.prog}: {message} (see --help)")


class _UsageError(Exception):
    pass


def _dice_list(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--dice takes whole numbers separated by commas, like 3,6; got {text!r}"
        ) from None


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
            command.add_argument("--seed", type=int, help="seed for repeatable dice")
            command.add_argument("--dice", type=_dice_list, help="the exact dice to use, e.g. 4,5")
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
            print(json.dumps(result.to_dict(), ensure_ascii=False) if args.json else roll_text(result))
        else:
            result = odds_fn(args.expression)
            print(json.dumps(result.to_dict(), ensure_ascii=False) if args.json else _odds_text(result))
    except _UsageError as error:
        print(error, file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"rules-lib: {error}", file=sys.stderr)
        return 2
    return 0


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
