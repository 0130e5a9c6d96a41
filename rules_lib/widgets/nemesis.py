"""Calculators for the Nemesis wargame (002): action dice, armour, opposed pools, melee duel.

Each gathers inputs named as the rule names them and shows what one library call returns.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..dice import percent
from ..nemesis import (
    CONTESTS,
    PATTERN_LABELS,
    ActionDiceOdds,
    ArmourOdds,
    ContestOdds,
    DuelOdds,
    DuelRules,
    ExtendedFace,
    FallReading,
    action_dice_odds,
    armour_odds,
    contest_odds,
    duel_odds,
    parse_faces,
)
from .base import FormCalculator
from .render import distribution_table

#: largest pool a calculator offers (exact odds stay well under 50 ms)
MAX_POOL = 12
MAX_VALUE = 40


def _chance(label: str, p) -> str:
    return f"<tr><td style='padding:0 0.6em'>{html.escape(label)}</td><td style='text-align:right;padding:0 0.6em'>{p}</td>" \
           f"<td style='text-align:right;padding:0 0.6em'>{percent(p)}</td></tr>"


def _chances(rows) -> str:
    return "<table class='odds-table'><tbody>" + "".join(_chance(k, p) for k, p in rows) + "</tbody></table>"


class ActionDiceCalculator(FormCalculator):
    """Exact odds of triples, straights and pairs on 3D6, and of each number of attacks for a
    weapon's proper range (``rules_lib.nemesis.action_dice_odds``)."""

    def __init__(self, proper_range: str = "34(5)", rapid_fire: bool = False) -> None:
        self.proper_range = widgets.Text(value=proper_range, description="適正射程", continuous_update=False,
                                         placeholder="faces 1-6, e.g. 34(5)")
        self.rapid_fire = widgets.Checkbox(value=rapid_fire, description="連射 / 速射 (rapid or quick fire)")
        self.extended = widgets.Dropdown(
            options=[("bracketed face: does not fire (library's reading)", ExtendedFace.IGNORED.value),
                     ("bracketed face: fires like a proper face", ExtendedFace.FIRES.value)],
            value=ExtendedFace.IGNORED.value, description="(5)")
        self.odds: ActionDiceOdds | None = None
        super().__init__([self.proper_range, self.rapid_fire, self.extended])

    def _clear(self) -> None:
        self.odds = None

    def _compute(self) -> str:
        self.odds = action_dice_odds(self.proper_range.value, self.rapid_fire.value, self.extended.value)
        patterns = [(f"{PATTERN_LABELS[k]} {k}", p) for k, p in self.odds.patterns.items()]
        return (
            "<p><b>Patterns of the action dice (3D6)</b></p>"
            + distribution_table(patterns, "pattern")
            + f"<p><b>Attacks</b> with proper range {html.escape(self.proper_range.value)}: "
            f"fires on {'/'.join(map(str, self.odds.firing_faces))}; mean "
            f"{float(self.odds.attacks.mean()):.3f} attacks</p>"
            + distribution_table(self.odds.attacks.items(), "attacks")
        )


class ArmourCalculator(FormCalculator):
    """Exact chance that an attack roll penetrates armour, and the damage after attenuation
    (``rules_lib.nemesis.armour_odds``)."""

    def __init__(self, attack: str = "1D20＋1", armour: int = 6, damage: str = "3D6＋2", attenuation: int = 0,
                 melee: bool = False) -> None:
        self.attack = widgets.Text(value=attack, description="攻撃力 attack", continuous_update=False)
        self.armour = widgets.BoundedIntText(value=armour, min=0, max=MAX_VALUE, description=f"装甲値 (0–{MAX_VALUE})")
        self.damage = widgets.Text(value=damage, description="ダメージ", continuous_update=False)
        self.attenuation = widgets.BoundedIntText(value=attenuation, min=0, max=MAX_VALUE,
                                                  description=f"減衰値 (0–{MAX_VALUE})")
        self.melee = widgets.Checkbox(value=melee, description="melee weapon (ignores 減衰値)")
        self.odds: ArmourOdds | None = None
        super().__init__([self.attack, self.armour, self.damage, self.attenuation, self.melee])

    def _clear(self) -> None:
        self.odds = None

    def _compute(self) -> str:
        self.odds = armour_odds(self.attack.value, self.armour.value, self.damage.value, self.attenuation.value,
                                self.melee.value)
        p = self.odds.penetration
        return (
            f"<p><b>penetrates</b> ({html.escape(self.attack.value)} &gt; {self.armour.value}): {p} ({percent(p)}); "
            f"otherwise structure −1</p>"
            f"<p><b>Damage if it penetrates</b> (at least 1), mean {float(self.odds.damage.mean()):.2f}</p>"
            + distribution_table(self.odds.damage.items(), "damage")
            + f"<p><b>Structure lost per attack</b>, mean {float(self.odds.structure_loss.mean()):.2f}</p>"
            + distribution_table(self.odds.structure_loss.items(), "structure lost")
        )


class OpposedPoolsCalculator(FormCalculator):
    """N d6 against M d6 for interception, evasion, stealth, approach or fall
    (``rules_lib.nemesis.contest_odds``)."""

    def __init__(self, check: str = "evasion", first_dice: int = 2, second_dice: int = 2) -> None:
        self.check = widgets.Dropdown(options=list(CONTESTS), value=check, description="check")
        self.first_dice = widgets.BoundedIntText(value=first_dice, min=0, max=MAX_POOL,
                                                 description=f"first (0–{MAX_POOL})")
        self.second_dice = widgets.BoundedIntText(value=second_dice, min=0, max=MAX_POOL,
                                                  description=f"second (0–{MAX_POOL})")
        self.fall_reading = widgets.Dropdown(options=[(r.label, r.value) for r in FallReading],
                                             value=FallReading.AS_WRITTEN.value, description="fall reading")
        self.odds: ContestOdds | None = None
        super().__init__([self.check, self.first_dice, self.second_dice, self.fall_reading])

    def _clear(self) -> None:
        self.odds = None

    def _compute(self) -> str:
        self.odds = contest_odds(self.check.value, self.first_dice.value, self.second_dice.value,
                                 self.fall_reading.value)
        o = self.odds
        return (
            f"<p>{html.escape(o.first)}: {self.first_dice.value}D6 against "
            f"{html.escape(o.second)}: {self.second_dice.value}D6</p>"
            + _chances([("first sum higher", o.pools.higher), ("tie", o.pools.tie), ("first sum lower", o.pools.lower)])
            + f"<p><b>{html.escape(o.success_means)}</b>: {o.success} ({percent(o.success)})</p>"
        )


def _kept_text(kept: tuple[int, ...]) -> str:
    if not kept:
        return "rolls 3 fresh dice"
    shown = "-".join(map(str, kept))
    return f"keeps {shown}" if len(kept) == 3 else f"keeps {shown}, rerolls {3 - len(kept)}"


class MeleeDuelCalculator(FormCalculator):
    """Exact melee-duel odds for A: win, mutual hit, lose, for fresh dice or kept ones
    (``rules_lib.nemesis.duel_odds``)."""

    def __init__(self, kept_a: str = "", kept_b: str = "") -> None:
        self.kept_a = widgets.Text(value=kept_a, description="A keeps", placeholder="e.g. 6,6 (empty: fresh 3D6)",
                                   continuous_update=False)
        self.kept_b = widgets.Text(value=kept_b, description="B keeps", placeholder="e.g. 2,3,4",
                                   continuous_update=False)
        self.triple_vs_triple = widgets.Dropdown(options=["higher_wins", "mutual"], value="higher_wins",
                                                 description="三ゾロ vs 三ゾロ")
        self.pair_key = widgets.Dropdown(options=["pair_value", "sum"], value="pair_value", description="ゾロ目 by")
        self.plain_key = widgets.Dropdown(options=["sum", "dice_descending"], value="sum", description="出目 by")
        self.odds: DuelOdds | None = None
        super().__init__([self.kept_a, self.kept_b, self.triple_vs_triple, self.pair_key, self.plain_key])

    def _clear(self) -> None:
        self.odds = None

    def _compute(self) -> str:
        a = parse_faces(self.kept_a.value, "A's kept dice")
        b = parse_faces(self.kept_b.value, "B's kept dice")
        rules = DuelRules(self.triple_vs_triple.value, self.pair_key.value, self.plain_key.value)
        self.odds = duel_odds(a, b, rules)
        o = self.odds
        who = [_kept_text(k) for k in (a, b)]
        return (
            f"<p>A {html.escape(who[0])}; B {html.escape(who[1])}</p>"
            + _chances([("A wins", o.win), ("mutual hit (相打ち)", o.mutual), ("A loses", o.lose),
                        ("A wins with a triple (×3)", o.win_triple), ("A wins with a straight (×2)", o.win_straight)])
        )
