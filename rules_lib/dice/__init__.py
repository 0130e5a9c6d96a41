"""Dice: the notation parser, rolling (seeded or with given dice) and exact distributions."""

from . import cost, errors, parser, shapes
from .cost import *
from .errors import *
from .exact import Distribution, Odds, distribution, odds, percent
from .parser import *
from .roll import DieRoll, GivenDice, RollResult, SeededDice, roll
from .shapes import *

__all__ = [
    *cost.__all__, *errors.__all__, *parser.__all__, *shapes.__all__,
    "DieRoll", "GivenDice", "RollResult", "SeededDice", "roll", "Distribution", "Odds", "distribution",
    "odds", "percent",
]
