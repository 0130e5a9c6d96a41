"""``rules-lib sheet``: list the sample sheets of a system, export one, or check a TOML sheet.

    rules-lib sheet --system wis6 --list
    rules-lib sheet --system gundam-sentinel zaku-ii --format ccfolia --target 46
    rules-lib sheet --system nemesis --file my-sheet.toml --format palette
    rules-lib sheet --system wis6 raider --format udonarium --output raider.zip
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..messages import message
from . import FORMATS, SYSTEMS, export, from_toml, get, load, udonarium
from .limits import read_sheet_file
from .text import check_lines

#: the format written as a file, not printed: Udonarium's piece is a ZIP (rules_lib.sheets.udonarium)
UDONARIUM = "udonarium"


def add_parser(commands, lang: str | None = None) -> None:
    """Add the ``sheet`` subcommand to the ``rules-lib`` parser's subcommands (its help in ``lang``)."""
    def say(key: str) -> str:
        return message(key, lang)

    command = commands.add_parser("sheet", help=say("sheet"))
    command.add_argument("sheet_id", nargs="?", help=say("sheet.id"))
    command.add_argument("--system", required=True, choices=SYSTEMS, help=say("sheet.system"))
    command.add_argument("--list", action="store_true", help=say("sheet.list"))
    command.add_argument("--file", type=Path, help=say("sheet.file"))
    command.add_argument("--format", default="toml", choices=(*FORMATS, UDONARIUM), help=say("sheet.format"))
    command.add_argument("--output", type=Path, help=say("sheet.output"))
    command.add_argument("--target", type=int, help=say("sheet.target"))
    command.add_argument("--own-commands", action="store_true", help=say("sheet.own_commands"))
    command.add_argument("--variables", action="store_true", help=say("sheet.variables"))


def run(args: argparse.Namespace) -> str:
    """The text the ``sheet`` subcommand prints (a ``ValueError`` for bad input): lines with no
    control character in them, whatever the sheet held (:mod:`rules_lib.sheets.text`)."""
    if args.list:
        return "\n".join(f"{sheet_id}\t{sheet.name}" for sheet_id, sheet in load(args.system).items())
    if args.file is not None:
        # a regular file only, of at most the sheet limit (rules_lib.sheets.limits)
        sheet = from_toml(read_sheet_file(args.file), args.system)
    elif args.sheet_id is None:
        raise ValueError(f"give a sheet id ({', '.join(load(args.system))}), --file or --list")
    else:
        sheet = get(args.system, args.sheet_id)
    if args.format == UDONARIUM:
        return _write_udonarium(sheet, args)
    # the loaders refuse such text already; this keeps any other way to a terminal shut
    return check_lines(export(sheet, args.format, target=args.target, own_commands=args.own_commands,
                              variables=args.variables),
                       f"rules-lib sheet --format {args.format}")


def _write_udonarium(sheet, args: argparse.Namespace) -> str:
    """Write the sheet's Udonarium ZIP to ``--output`` (a ZIP is no text to print) and say so."""
    if args.output is None:
        raise ValueError("--format udonarium writes a ZIP file: give --output FILE.zip")
    data = udonarium.export(sheet, target=args.target, own_commands=args.own_commands, variables=args.variables)
    try:
        args.output.write_bytes(data)
    except OSError as error:
        raise ValueError(f"{args.output} could not be written: {error.strerror or error}") from None
    return check_lines(f"wrote {args.output} ({len(data)} bytes): drop it on Udonarium's table", "rules-lib sheet")
