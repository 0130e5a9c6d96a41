"""Thin ipywidgets calculators: they gather inputs and show what a library call returns."""

from .base import Calculator, FormCalculator
from .dice_odds import DiceOddsCalculator

__all__ = ["Calculator", "DiceOddsCalculator", "FormCalculator"]
