"""Calculators for the Nemesis wargame (002): action dice, armour, opposed pools, melee duel.

Each gathers inputs named as the rule names them and shows what one library call returns.
"""

from __future__ import annotations

import html

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
from .layout import checkbox, dropdown, int_input, text_input
from .render import WorkedExample, distribution_table

#: largest pool a calculator offers (exact odds stay well under 50 ms)
MAX_POOL = 12
MAX_VALUE = 40
#: the checks of the opposed-pools calculator, named with the text's terms (002 §5-1, §H5, §H6)
CHECK_LABELS = {
    "interception": "interception (迎撃行動)",
    "evasion": "evasion (回避行動)",
    "stealth": "stealth (ステルス)",
    "approach": "approach (接近フェイズ)",
    "fall": "fall (転倒)",
}
#: the readings of the fall check (see the rulings page), A the attacker's sum and D the defender's
FALL_READING_LABELS = {
    FallReading.AS_WRITTEN: "falls if D ≥ A (the text)",
    FallReading.DEFENDER_RESISTS: "falls if A > D (a reading)",
    FallReading.ATTACKER_WINS_TIES: "falls if A ≥ D (a reading)",
}


def _action_dice_figures(proper_range: str, rapid_fire: bool, extended: str) -> str:
    odds = action_dice_odds(proper_range, rapid_fire, extended)
    return (f"SS-01's assault rifle, proper range {proper_range}: "
            + ", ".join(f"{n} attack{'' if n == 1 else 's'} {p}" for n, p in odds.attacks.items())
            + f"; a triple {odds.patterns['triple']}")


def _armour_figures(attack: str, armour: int, damage: str, attenuation: int, melee: bool) -> str:
    odds = armour_odds(attack, armour, damage, attenuation, melee)
    return f"SS-01's assault rifle ({attack}) against another SS-01's armour {armour}: penetrates {odds.penetration}"


def _pools_figures(check: str, first_dice: int, second_dice: int, fall_reading: str) -> str:
    odds = contest_odds(check, first_dice, second_dice, fall_reading)
    return f"{CHECK_LABELS[check]} with {first_dice}D6 against {second_dice}D6: {odds.success_means} {odds.success}"


def _duel_figures(kept_a: str, kept_b: str, triple_vs_triple: str, pair_key: str, plain_key: str) -> str:
    a, b = parse_faces(kept_a, "A's kept dice"), parse_faces(kept_b, "B's kept dice")
    odds = duel_odds(a, b, DuelRules(triple_vs_triple, pair_key, plain_key))
    return (f"A {_kept_text(a)}; B {_kept_text(b)}: A wins {odds.win}, "
            f"a mutual hit {odds.mutual}, A loses {odds.lose}")


def _chance(label: str, p) -> str:
    return f"<tr><td style='padding:0 0.6em'>{html.escape(label)}</td><td style='text-align:right;padding:0 0.6em'>{p}</td>" \
           f"<td style='text-align:right;padding:0 0.6em'>{percent(p)}</td></tr>"


def _chances(rows) -> str:
    return "<table class='odds-table'><tbody>" + "".join(_chance(k, p) for k, p in rows) + "</tbody></table>"


class ActionDiceCalculator(FormCalculator):
    """Exact odds of triples, straights and pairs on 3D6, and of each number of attacks for a
    weapon's proper range (``rules_lib.nemesis.action_dice_odds``)."""

    example = WorkedExample("002 §1-1", {"proper_range": "34(5)", "rapid_fire": False,
                                         "extended": ExtendedFace.IGNORED.value}, _action_dice_figures)

    def __init__(self, proper_range: str = "34(5)", rapid_fire: bool = False) -> None:
        self.proper_range = text_input("proper range (適正射程): die faces", proper_range,
                                       placeholder="faces 1 to 6, e.g. 34(5)")
        self.rapid_fire = checkbox("rapid fire or quick fire (連射 / 速射)", rapid_fire)
        self.extended = dropdown(
            "a bracketed face such as (5) (a ruling)",
            [("does not fire", ExtendedFace.IGNORED.value),
             ("fires like a proper face", ExtendedFace.FIRES.value)],
            ExtendedFace.IGNORED.value)
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

    example = WorkedExample("002 §3-1", {"attack": "1D20＋1", "armour": 6, "damage": "3D6＋2", "attenuation": 0,
                                         "melee": False}, _armour_figures)

    def __init__(self, attack: str = "1D20＋1", armour: int = 6, damage: str = "3D6＋2", attenuation: int = 0,
                 melee: bool = False) -> None:
        self.attack = text_input("attack (攻撃力): dice", attack)
        self.armour = int_input("armour value (装甲値)", armour, 0, MAX_VALUE)
        self.damage = text_input("damage (ダメージ): dice", damage)
        self.attenuation = int_input("attenuation (減衰値)", attenuation, 0, MAX_VALUE)
        self.melee = checkbox("melee weapon: attenuation (減衰値) does not apply", melee)
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

    example = WorkedExample("002 §H6", {"check": "evasion", "first_dice": 2, "second_dice": 2,
                                        "fall_reading": FallReading.AS_WRITTEN.value}, _pools_figures)

    def __init__(self, check: str = "evasion", first_dice: int = 2, second_dice: int = 2) -> None:
        self.check = dropdown("check", [(CHECK_LABELS[key], key) for key in CONTESTS], check)
        self.first_dice = int_input("first side's dice (D6)", first_dice, 0, MAX_POOL)
        self.second_dice = int_input("second side's dice (D6)", second_dice, 0, MAX_POOL)
        self.fall_reading = dropdown("fall (転倒), a ruling: when the defender falls, for the sums A (attacker) "
                                     "and D (defender)",
                                     [(FALL_READING_LABELS[r], r.value) for r in FallReading],
                                     FallReading.AS_WRITTEN.value)
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

    example = WorkedExample("002 §6-2", {"kept_a": "6,6", "kept_b": "", "triple_vs_triple": "higher_wins",
                                         "pair_key": "pair_value", "plain_key": "sum"}, _duel_figures)

    def __init__(self, kept_a: str = "", kept_b: str = "") -> None:
        self.kept_a = text_input("dice A keeps (empty: a fresh 3D6)", kept_a, placeholder="e.g. 6,6")
        self.kept_b = text_input("dice B keeps (empty: a fresh 3D6)", kept_b, placeholder="e.g. 2,3,4")
        self.triple_vs_triple = dropdown("triple against triple (三ゾロ vs 三ゾロ)",
                                         [("the higher triple wins", "higher_wins"), ("a mutual hit (相打ち)", "mutual")],
                                         "higher_wins")
        self.pair_key = dropdown("pairs (ゾロ目) compared by",
                                 [("the paired value", "pair_value"), ("the sum", "sum")], "pair_value")
        self.plain_key = dropdown("plain rolls (出目) compared by",
                                  [("the sum", "sum"), ("the dice, highest first", "dice_descending")], "sum")
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
