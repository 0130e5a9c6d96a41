"""The English messages: the source every other language translates (see :mod:`rules_lib.messages`).

Keys are dotted: the part of the library that shows the text, then what it is. A ``{name}`` is
filled in when the message is shown. Change a text here and its translations become stale.
"""

MESSAGES: dict[str, str] = {
    # rules-lib: the command, its help and its errors
    "cli.description": "Dice and exact odds for the rules book.",
    "cli.systems.intro": ("--system NAME reads a system's own dice commands (without it, or with --system generic,\n"
                          "an expression is BCDice's generic notation: 2D6+3, 1D20<=13, 3D6>=10):"),
    "cli.lang": "the language of help and messages: {languages} (default: RULES_LIB_LANG, else the locale's, else en)",
    "cli.roll": "roll an expression",
    "cli.odds": "exact odds of an expression",
    "cli.expression": ('a dice expression or a chat-palette line, e.g. "2D6+3", "2D6>=10", "S2D6+3 damage" '
                       "(secret, with a comment){repeated}"),
    "cli.expression.roll": ', "x3 2D6" (three rolls)',
    "cli.expression.odds": " (odds are for one roll: no xN)",
    "cli.json": "print JSON",
    "cli.system": "read the expression as this system's dice commands",
    "cli.seed": "seed for repeatable dice",
    "cli.dice": "the exact dice to use, e.g. 4,5",
    "cli.format": "bcdice: the text BCDice prints for a system's own commands (--system {systems}; a chart entry's full text)",
    "cli.api": "serve the dice commands as a BCDice-API v2 compatible HTTP server",
    "cli.api.host": "the address to listen on (default 127.0.0.1)",
    "cli.api.port": "the port (default 8080; 0: any free port)",
    "cli.bcdice_tests": "print BCDice's test TOML of a system's commands (every outcome class)",
    "cli.bcdice_tests.system": "the system whose commands the cases roll",
    "cli.see_help": " (see --help)",
    "cli.closed_output": "standard output is closed: there is nowhere to print the result",
    "cli.not_written": "the result could not be written: {reason}",
    # rules-lib sheet
    "sheet": "list, export or check unit sheets",
    "sheet.id": "the sheet's id (see --list)",
    "sheet.system": "the game system",
    "sheet.list": "list the sample sheets, one per line, the id first",
    "sheet.file": "a TOML sheet to load instead of a sample sheet",
    "sheet.format": "what to print (default toml); udonarium writes a ZIP to --output",
    "sheet.output": "the file --format udonarium writes (a ZIP to drop on the table)",
    "sheet.target": "evasion for BB lines (gundam-sentinel), armour (nemesis)",
    "sheet.own_commands": "write this project's commands (SL, AD, VW) instead of BCDice's generic notation",
    "sheet.variables": ("name each value once (//label=value lines; CCFOLIA params, Udonarium data) "
                        "and refer to it as {{label}}, so an edited value changes every line"),
    # argparse's own words (rules_lib.cli gives argparse these in place of its English)
    "argparse.usage": "usage: ",
    "argparse.positional": "positional arguments",
    "argparse.options": "options",
    "argparse.help": "show this help message and exit",
    "argparse.required": "the following arguments are required: %s",
    "argparse.unrecognized": "unrecognized arguments: %s",
    "argparse.invalid_choice": "invalid choice: %(value)r (choose from %(choices)s)",
    "argparse.invalid_value": "invalid %(type)s value: %(value)r",
    "argparse.argument": "argument %(argument_name)s: %(message)s",
    "argparse.one_argument": "expected one argument",
    "argparse.ambiguous": "ambiguous option: %(option)s could match %(matches)s",
    "argparse.unknown_parser": "unknown parser %(parser_name)r (choices: %(choices)s)",
    # each system's dice commands, one example each (rules-lib --help, the BCDice-API help message)
    "help.gundam-sentinel.hit": "a hit check: 1D36 + 14 against evasion 54",
    "help.gundam-sentinel.check": "a 2D6 check + 2 against 10",
    "help.gundam-sentinel.chart": "the secondary damage chart",
    "help.wis6.level": "the success level of a d20 roll against ability 13",
    "help.nemesis.action_dice": "the action dice and the attacks of a weapon of range 34(5)",
    "help.nemesis.approach": "5 d6 summed against 3 d6: the approach check",
    "help.verse-world.attack": "2D6 + 8 attacking evasion 14, critical from a natural 11",
    # the site's own words on a page (tools/mkdocs_hooks.py): the skip link, the search dialog's name, and
    # a worked example's ✓ check (rules_lib.catalogue's words, put in the Japanese edition's)
    "site.skip_to_calculator": "Skip to the calculator",
    "site.search_dialog": "Search the book",
    "site.check.fact": "✓ rule fact, as the text states",
    "site.check.consistent_only": "✓ consistent with the text under the book's reading (not derivable from the text alone)",
    "site.check.consistent": "✓ consistent with the text under the book's reading",
    "site.check.matches_for_inputs": "✓ matches the text's rule for the book's inputs",
    "site.check.matches": "✓ matches the text",
    "site.check.source": ", ",
    "site.check.read": "; {read} of {total} values by the book's reading",
    "site.check.chosen": "; {chosen} of {total} values an instance the book chose",
    "site.check.value": "value",
    "site.check.computed": "computed",
    "site.check.rests_on": "rests on",
    "site.check.entry": "catalogue entry",
    "site.check.basis.text": "as the text states",
    "site.check.basis.fact": "a rule fact the text states (not computed)",
    "site.check.basis.instance": "an instance the book chose of the text's rule",
    "site.check.basis.book_inputs": "the text's rule, applied to the book's inputs",
    "site.check.basis.reading": "by the book's reading (ruling: {titles})",
    "site.check.basis.readings": "by the book's reading (rulings: {titles})",
}
