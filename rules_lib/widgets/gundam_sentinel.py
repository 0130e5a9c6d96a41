"""Calculators for the Gundam Sentinel chapter: to-hit, missile salvo / bombing, action points, hex figures.

Each widget gathers inputs named as the rule names them and makes one library call per change.
"""

from __future__ import annotations

import html

import ipywidgets as widgets

from ..dice import percent
from ..gundam_sentinel import actions, figures, salvo, to_hit
from .base import FormCalculator
from .layout import LABEL_STYLE, checkbox, dropdown, form_row, text_input
from .layout import int_input as _int
from .render import WorkedExample, distribution_table

_check = checkbox

#: the text's example of a salvo (000 §7-1, line 350): 15 missiles (+14) against evasion 54, a roll of 36
EXAMPLE_ROLL = (3, 6)


def _to_hit_figures(weapon: int, evasion: str, **modifiers_at_zero: object) -> str:
    odds = to_hit.hit_odds(weapon, int(evasion))
    rolled = to_hit.check_hit(*EXAMPLE_ROLL, weapon, int(evasion))
    return (f"a final modifier {weapon:+d} (15 missiles at once) against evasion {evasion}: hits {odds.hit}; "
            f"the text's roll {EXAMPLE_ROLL[0]}{EXAMPLE_ROLL[1]} comes to {rolled.total}, {rolled.margin} steps over")


def _salvo_figures(fired: int, other: int, evasion: str, guided: bool) -> str:
    odds = salvo.salvo_odds(fired, evasion, other_modifier=other, psycommu_guided=guided)
    rolled = salvo.resolve_salvo(*EXAMPLE_ROLL, fired, int(evasion))
    return (f"{fired} missiles against evasion {evasion}: at least one hits {odds.hit}; the text's roll "
            f"{EXAMPLE_ROLL[0]}{EXAMPLE_ROLL[1]} puts {rolled.hits} missiles on target, a chance of {odds.hits[rolled.hits]}")


def _planner_figures(roll: int, reaction: int, borrow: int, owed: int, unit_class: str, first: bool,
                     candidates: tuple[str, ...]) -> str:
    plan = actions.plan_round(roll, reaction, candidates, unit_class, acting_first=first, borrow=borrow, owed=owed,
                              anticipation=borrow > 0, max_borrow=borrow or None)
    fits = "; ".join(f"{' + '.join(p.patterns)} {p.cost} AP (AP ≥ {p.cost}: {chance})" for p, chance in plan.plans)
    return f"1D6 {roll} and reaction {reaction:+d}: {fits or 'no combination fits'}"


def _figure_figures(kind: str, facing: int, arc: int) -> str:
    from ..geometry.hex import front_hexsides

    return (f"the front hexes of a unit facing hexside {facing}: those across hexsides "
            + ", ".join(map(str, front_hexsides(facing))))


class ToHitCalculator(FormCalculator):
    """The exact chance to hit, of a critical, and the margin, from named modifiers and an evasion value."""

    example = WorkedExample("000 §7-1", {
        "weapon": 14, "shooting": 0, "skills": 0, "aims": 0, "snap": False, "smoke": False, "jamming": False,
        "steal_yard": False, "ewac": False, "other": 0, "evasion": "54", "mob": False, "all_range": False},
        _to_hit_figures, from_text=True)

    def __init__(self, weapon: int = 0, evasion: int = 54) -> None:
        self.weapon = _int("weapon modifier at this range", weapon, -20, 40)
        self.shooting = _int("pilot's shooting modifier (射撃力)", 0, -10, 20)
        self.skills = _int("skills (技能)", 0, -10, 20)
        self.aims = _int("aim actions (照準), +1 each", 0, 0, 10)
        self.snap = _check(f"snap shot (速射) {_signed(_mod(to_hit.SNAP_SHOT))}")
        self.smoke = _check(f"smoke in the line of fire (煙幕) {_signed(_mod(to_hit.SMOKE))}")
        self.jamming = _check(f"jamming device, mid range+ (ジャミング装置) {_signed(_mod(to_hit.JAMMING))}")
        self.steal_yard = _check(f"target's Steal Yard (スティールヤード) {_signed(_mod(to_hit.STEAL_YARD))}")
        self.ewac = _check(f"friendly EWAC (ＥＷＡＣ) {_signed(_mod(to_hit.EWAC))}")
        self.other = _int("other modifiers", 0, -40, 40)
        self.evasion = text_input("evasion value (回避値) (11 to 86)", str(evasion))
        self.mob = _check("target is a mook MS (ザコＭＳ): criticals count")
        self.all_range = _check("all-range attack (doubles always hit)")
        self.answer: to_hit.ToHitAnswer | None = None
        inputs = [self.weapon, self.shooting, self.skills, self.aims, self.snap, self.smoke, self.jamming,
                  self.steal_yard, self.ewac, self.other, self.evasion, self.mob, self.all_range]
        super().__init__(inputs)

    def modifiers(self) -> dict[str, int]:
        return {
            "weapon at this range": self.weapon.value,
            "shooting (射撃力)": self.shooting.value,
            "skills (技能)": self.skills.value,
            "aim (照準) ×" + str(self.aims.value): _mod(to_hit.AIM) * self.aims.value,
            "snap shot (速射)": _mod(to_hit.SNAP_SHOT) * self.snap.value,
            "smoke (煙幕)": _mod(to_hit.SMOKE) * self.smoke.value,
            "jamming device": _mod(to_hit.JAMMING) * self.jamming.value,
            "Steal Yard": _mod(to_hit.STEAL_YARD) * self.steal_yard.value,
            "EWAC": _mod(to_hit.EWAC) * self.ewac.value,
            "other": self.other.value,
        }

    def _compute(self) -> str:
        options = to_hit.HitOptions(target_is_mob=self.mob.value, all_range=self.all_range.value)
        self.answer = to_hit.to_hit_answer(self.modifiers(), self.evasion.value, options)
        odds = self.answer.odds
        working = "<br>".join(html.escape(s) for s in self.answer.modifier.steps)
        return (
            f"<p>{working}</p>"
            f"<p><b>hit: {odds.hit} ({percent(odds.hit)})</b>; critical: {odds.critical} ({percent(odds.critical)})</p>"
            + distribution_table(odds.margin.items(), "margin (steps)")
        )

    def _clear(self) -> None:
        self.answer = None


class SalvoCalculator(FormCalculator):
    """Missile salvo or bombing: missiles fired, modifiers, evasion and per-missile damage → exact
    distributions of missiles hitting and of damage."""

    #: the damage per hit is not in the text (nor in these figures): changing it keeps the example
    example = WorkedExample("000 §7-1", {"fired": 15, "other": 0, "evasion": "54", "guided": False},
                            _salvo_figures, from_text=True)

    def __init__(self, fired: int = 15, evasion: int = 54, per_hit_damage: str = "") -> None:
        self.fired = _int("missiles or bombs fired", fired, 1, 60)
        self.other = _int("other modifiers", 0, -40, 40)
        self.evasion = text_input("evasion value (回避値) (11 to 86)", str(evasion))
        self.damage = text_input("damage per hit (not in the source text)", per_hit_damage,
                                 placeholder="e.g. 3D6+3 or 1D3+4/2")
        self.blast = text_input("blast damage of a miss (巻き込み), not in the source text", "",
                                placeholder="empty: one hit's dice, its bonus dropped")
        self.guided = _check("psycommu-guided psy-missiles (doubles: all hit)")
        self.odds: salvo.SalvoOdds | None = None
        inputs = [self.fired, self.other, self.evasion, self.damage, self.blast, self.guided]
        super().__init__(inputs)

    def _compute(self) -> str:
        self.odds = salvo.salvo_odds(self.fired.value, self.evasion.value, other_modifier=self.other.value,
                                     per_hit_damage=self.damage.value.strip() or None,
                                     blast=self.blast.value.strip() or None, psycommu_guided=self.guided.value)
        parts = [f"<p>final modifier {self.odds.modifier:+d} (+{self.odds.salvo_bonus} for the salvo); "
                 f"<b>at least one hit: {self.odds.hit} ({percent(self.odds.hit)})</b>; "
                 f"mean hits {float(self.odds.hits.mean()):.2f}</p>",
                 distribution_table(self.odds.hits.items(), "missiles hitting")]
        if self.odds.damage is not None:
            parts.append(f"<p>damage, a miss's blast included ({html.escape(self.odds.steps[-1])}); mean "
                         f"{float(self.odds.damage.mean()):.2f}</p>")
            parts.append(distribution_table(self.odds.damage.items(), "damage"))
        return "".join(parts)

    def _clear(self) -> None:
        self.odds = None


#: patterns whose cost the text gives: the planner offers these (others need ActionCosts)
PLANNER_PATTERNS = ("normal move", "additional move", "charge/disengage", "large weapon use",
                    "rapid-fire beam smart gun", "plasma leader set-up", "psycho jammer use", "psycho capture use")


class ActionPointPlanner(FormCalculator):
    """This round's AP (roll, reaction, borrowed) → which combinations of patterns fit, and the odds."""

    example = WorkedExample("000 §1", {"roll": 4, "reaction": 2, "borrow": 0, "owed": 0, "unit_class": "normal MS",
                                       "first": True, "candidates": PLANNER_PATTERNS[:4]}, _planner_figures)

    def __init__(self, roll: int = 4, reaction: int = 2) -> None:
        self.roll = _int("1D6 for action points", roll, 1, 6)
        self.reaction = _int("reaction modifier (反応力)", reaction, -5, 10)
        self.borrow = _int("AP borrowed (予想行動), the most: not in the source text", 0, 0, 6)
        self.owed = _int("owed from last round", 0, 0, 6)
        self.unit_class = dropdown("unit class", ["normal MS", "high-mobility MS", "MA or aircraft"], "normal MS")
        self.first = _check("acting first (先攻)", True)
        self.candidates = widgets.SelectMultiple(options=PLANNER_PATTERNS, value=PLANNER_PATTERNS[:4],
                                                 description="patterns (their AP cost is in the text)",
                                                 rows=len(PLANNER_PATTERNS), style=LABEL_STYLE, layout=form_row())
        self.plan: actions.RoundPlan | None = None
        inputs = [self.roll, self.reaction, self.borrow, self.owed, self.unit_class, self.first, self.candidates]
        super().__init__(inputs)

    def _compute(self) -> str:
        self.plan = actions.plan_round(
            self.roll.value, self.reaction.value, self.candidates.value, self.unit_class.value,
            acting_first=self.first.value, borrow=self.borrow.value, owed=self.owed.value,
            anticipation=self.borrow.value > 0, max_borrow=self.borrow.value or None,
        )
        rows = "".join(
            f"<tr><td>{html.escape(' + '.join(p.patterns))}</td><td style='text-align:right'>{p.cost}</td>"
            f"<td style='text-align:right'>{chance}</td><td style='text-align:right'>{percent(chance)}</td></tr>"
            for p, chance in self.plan.plans
        )
        steps = "<br>".join(html.escape(s) for s in self.plan.ap.steps)
        return (
            f"<p>{steps}</p><table class='odds-table'><thead><tr><th>plan</th><th>AP</th>"
            f"<th>P(AP ≥ cost)</th><th>%</th></tr></thead><tbody>{rows}</tbody></table>"
            if rows else f"<p>{steps}</p><p>no combination of the chosen patterns fits</p>"
        )

    def _clear(self) -> None:
        self.plan = None


class HexFigure(FormCalculator):
    """Figures drawn by the hex geometry: front hexes, a firing arc (assumed width) or range bands."""

    example = WorkedExample("000 §4", {"kind": "front hexes", "facing": 1, "arc": 120}, _figure_figures)

    def __init__(self, kind: str = "front hexes", facing: int = 0, arc_degrees: int = 120) -> None:
        self.kind = widgets.ToggleButtons(options=["front hexes", "firing arc", "range bands"], value=kind,
                                          style={"button_width": "auto"})
        self.facing = dropdown("facing (hexside 0 to 5)", list(range(6)), facing)
        self.arc = widgets.IntSlider(value=arc_degrees, min=60, max=360, step=60,
                                     description="arc in degrees (not in the source text)", style=LABEL_STYLE,
                                     layout=form_row())
        super().__init__([self.kind, self.facing, self.arc])
        self.figure = self.result

    def _compute(self) -> str:
        if self.kind.value == "front hexes":
            return figures.front_hexes_figure(self.facing.value)
        if self.kind.value == "firing arc":
            return figures.firing_arc_figure(self.arc.value, self.facing.value)
        return figures.range_bands_figure()


def _signed(value: int) -> str:
    """A modifier as the labels write it: −3, +2."""
    return f"{value:+d}".replace("-", "−")


def _mod(name: str) -> int:
    """A to-hit modifier's value from the library's one table (000 §2, §7-20)."""
    return to_hit.TO_HIT_MODIFIERS[name].value
