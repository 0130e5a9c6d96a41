"""``rules-lib sheet``: list the sample sheets of a system, export one, or check a TOML sheet.

    rules-lib sheet --system wis6 --list
    rules-lib sheet --system gundam-sentinel zaku-ii --format ccfolia --target 46
    rules-lib sheet --system nemesis --file my-sheet.toml --format palette
"""

from __future__ import annotations

import argparse
from pathlib import Path

from . import FORMATS, SYSTEMS, export, from_toml, get, load


def add_parser(commands) -> None:
    """Add the ``sheet`` subcommand to the ``rules-lib`` parser's subcommands."""
    command = commands.add_parser("sheet", help="list, export or check unit sheets")
    command.add_argument("sheet_id", nargs="?", help="the sheet's id (see --list)")
    command.add_argument("--system", required=True, choices=SYSTEMS, help="the game system")
    command.add_argument("--list", action="store_true", help="list the sample sheets, one per line, the id first")
    command.add_argument("--file", type=Path, help="a TOML sheet to load instead of a sample sheet")
    command.add_argument("--format", default="toml", choices=FORMATS, help="what to print (default toml)")
    command.add_argument("--target", type=int, help="evasion for BB lines (gundam-sentinel), armour (nemesis)")
    command.add_argument("--own-commands", action="store_true",
                         help="write this project's commands (SL, AD, VW) instead of BCDice's generic notation")


def run(args: argparse.Namespace) -> str:
    """The text the ``sheet`` subcommand prints (a ``ValueError`` for bad input)."""
    if args.list:
        return "\n".join(f"{sheet_id}\t{sheet.name}" for sheet_id, sheet in load(args.system).items())
    if args.file is not None:
        try:
            sheet = from_toml(args.file.read_text(encoding="utf-8"), args.system)
        except OSError as error:
            raise ValueError(f"cannot read {args.file}: {error.strerror}") from None
    elif args.sheet_id is None:
        raise ValueError(f"give a sheet id ({', '.join(load(args.system))}), --file or --list")
    else:
        sheet = get(args.system, args.sheet_id)
    return export(sheet, args.format, target=args.target, own_commands=args.own_commands)
