"""Dice: the notation parser, rolling (seeded or with given dice) and exact distributions."""

from .errors import DiceLimitError, DiceReplayError, DiceSyntaxError
from .exact import (
    MAX_EXACT_BYTES,
    MAX_EXACT_SPAN,
    MAX_EXACT_STEPS,
    Distribution,
    Odds,
    distribution,
    odds,
    percent,
)
from .parser import MAX_DICE, MAX_EXPRESSION_LENGTH, MAX_SIDES, ParsedExpression, parse
from .roll import DieRoll, GivenDice, RollResult, SeededDice, roll
from .shapes import (
    D36_RESULTS,
    FUMBLE,
    OpposedOdds,
    d36_distribution,
    d36_result,
    d36_step,
    face_count_distribution,
    opposed,
    opposed_pools,
    pattern,
    pattern_distribution,
    pool_distribution,
    success_level,
    success_level_distribution,
    two_d6_with_fumble,
)

__all__ = [
    "D36_RESULTS", "FUMBLE", "MAX_DICE", "MAX_EXACT_BYTES", "MAX_EXACT_SPAN", "MAX_EXACT_STEPS", "MAX_EXPRESSION_LENGTH", "MAX_SIDES",
    "DiceLimitError", "DiceReplayError", "DiceSyntaxError", "DieRoll", "Distribution", "GivenDice",
    "Odds", "OpposedOdds", "ParsedExpression", "RollResult", "SeededDice",
    "d36_distribution", "d36_result", "d36_step", "distribution", "face_count_distribution",
    "odds", "opposed", "opposed_pools", "parse", "pattern", "pattern_distribution", "percent",
    "pool_distribution", "roll", "success_level", "success_level_distribution", "two_d6_with_fumble",
]
