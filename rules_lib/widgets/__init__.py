"""Thin ipywidgets calculators: they gather inputs and show what a library call returns."""

from .dice_odds import DiceOddsCalculator

__all__ = ["DiceOddsCalculator"]
