"""A guided first battle: two units on the lettered square map, played step by step (001 §1, §3, §4).

The state is frozen; :func:`step` applies one action with the chapter's rule functions
(:func:`~rules_lib.wis6.initiative_order`, :func:`~rules_lib.wis6.move`,
:func:`~rules_lib.wis6.resolve_attack`, :func:`~rules_lib.wis6.intercept`,
:func:`~rules_lib.wis6.resolve_counter`, :func:`~rules_lib.wis6.jam`) and returns the new state
with a plain-English explanation. An illegal action raises :class:`IllegalStep` (a
``ValueError``) naming the reason, before any die is drawn, and the state passed in is unchanged.

The flow is the text's (001 §1): the action order is decided once (reaction + mobility, a die
on ties), then each unit in order takes its action, ① recover bad status, ② move, ③ attack,
and when everyone has acted the turn ends and the actions start again. The battle ends when a
unit's AP (ＡＰ) reaches 0: it is wrecked (大破).

What the text does not give is a named parameter marked *not in the source text*: the units and
their values (:func:`sample_units`), the map's size, weapon ranges and ammunition, and the
readings of :class:`BattleRules`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from .. import battle as referee
from ..battle import IllegalStep as _SharedIllegalStep
from ..battle import StepResult
from ..dice import GivenDice, SeededDice, percent
from .attack import AttackOdds, AttackResult, attack_odds, resolve_attack
from .counter import CounterOdds, CounterResult, counter_odds, resolve_counter
from .levels import DIE_SIDES
from .rules import DEFAULT_RULES, Wis6Error, Wis6Rules, whole
from .special import (
    INTERCEPTION_AMMO_COST,
    OPERATOR,
    SESSION_LIMITS,
    WEAPON_ABILITIES,
    Interception,
    Jamming,
    SessionUses,
    intercept,
    jam,
)
from .turn import Combatant, Initiative, Square, distance, initiative_order, move, parse_square

WeaponKind = Literal["ballistic", "energy"]
Answer = Literal["evade", "intercept", "counter"]
#: How the defender may answer an attack: evade with reaction (001 §3-2), intercept a missile
#: (001 §4-4), or counter instead of evading (001 §4-5).
ANSWERS: tuple[str, ...] = ("evade", "intercept", "counter")
ANSWER_NAMES = {"evade": "evasion (回避)", "intercept": "interception (迎撃)", "counter": "counter (カウンター)"}
PHASES: tuple[str, ...] = ("order", "action", "over")


class IllegalStep(Wis6Error, _SharedIllegalStep):
    """An action that is not allowed in this state; the message names the reason."""


# -- units --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    """An AC's weapon: kind (実弾 ballistic or ＥＮ energy), weapon attack (武器攻撃力), range, ammunition.

    ``range`` (squares) and ``ammo`` (弾数, rounds left; ``None`` for a weapon without an
    ammunition count) are *not in the source text*: the text names weapon range (武装射程, 001
    §4-3, §4-4) and ammunition (001 §4-4) but gives no values. ``missile`` marks a missile
    (ミサイル), the only attack interception answers (001 §4-4).
    """

    name: str
    kind: WeaponKind
    attack: int
    range: int
    ammo: int | None = None
    missile: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise Wis6Error(f"a weapon needs a name, not {self.name!r}")
        if self.kind not in WEAPON_ABILITIES:
            raise Wis6Error(f"weapon kind {self.kind!r} is not one of {', '.join(WEAPON_ABILITIES)}")
        whole(f"{self.name}'s weapon attack", self.attack, minimum=0)
        whole(f"{self.name}'s range", self.range, minimum=0)
        if self.ammo is not None:
            whole(f"{self.name}'s ammunition", self.ammo, minimum=0)

    def describe(self) -> str:
        ammo = "no ammunition count" if self.ammo is None else f"{self.ammo} rounds"
        missile = ", missile" if self.missile else ""
        return f"{self.name} ({self.kind} {WEAPON_ABILITIES[self.kind]}{missile}): attack {self.attack}, range {self.range}, {ammo}"


@dataclass(frozen=True)
class Unit:
    """A pilot and their AC on the map: the pilot's abilities, the machine's values, its square.

    Pilot: ``reaction`` (反応, evasion and the action order), ``ballistic`` (実弾) and ``energy``
    (ＥＮ) attack abilities, ``information`` (情報, jamming), ``role`` (役職; ``"operator"`` may
    jam). Machine (ＡＣ): ``mobility`` (機動値), ``ap`` now and ``max_ap`` (ＡＰ, its durability),
    ``armour`` (装甲値), ``weapons``.
    """

    name: str
    machine: str
    side: str
    reaction: int
    ballistic: int
    energy: int
    information: int
    role: str
    mobility: int
    ap: int
    max_ap: int
    armour: int
    weapons: tuple[Weapon, ...]
    square: Square

    def __post_init__(self) -> None:
        for label in ("reaction", "ballistic", "energy", "information"):
            whole(f"{self.name}'s {label}", getattr(self, label), minimum=1)
        whole(f"{self.name}'s mobility", self.mobility, minimum=0)
        whole(f"{self.name}'s AP", self.ap, minimum=0)
        whole(f"{self.name}'s armour", self.armour, minimum=0)
        names = [w.name for w in self.weapons]
        if len(set(names)) != len(names):
            raise Wis6Error(f"{self.name}'s weapons need different names: {names}")

    @property
    def wrecked(self) -> bool:
        """AP at 0: wrecked (大破; a ruling, 001 §4-5 does not define it)."""
        return self.ap <= 0

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        raise IllegalStep(f"{self.name} has no weapon {name!r}: the weapons are {', '.join(w.name for w in self.weapons)}")

    def ability(self, kind: str) -> int:
        """The attack ability a weapon of ``kind`` rolls: 実弾 for ballistic, ＥＮ for energy (001 §4-4 l.75)."""
        return self.ballistic if kind == "ballistic" else self.energy

    def combatant(self) -> Combatant:
        return Combatant(self.name, self.reaction, self.mobility)


def sample_units() -> tuple[Unit, Unit]:
    """The book's two units: **not in the source text** (001 gives no unit sheets).

    Asuka (the PC, an operator, in the AC *Kestrel*) and the GM's *Raider* (pilot: the GM's
    enemy ace). Both total 17 for the action order, so the tie die is shown.
    """
    asuka = Unit(
        name="Asuka", machine="Kestrel", side="PC", reaction=12, ballistic=16, energy=14, information=12,
        role=OPERATOR, mobility=5, ap=30, max_ap=30, armour=4,
        weapons=(Weapon("rifle", "ballistic", 10, 4, ammo=4), Weapon("beam saber", "energy", 12, 1)),
        square=parse_square("B-7"),
    )
    raider = Unit(
        name="Raider", machine="Raider", side="enemy", reaction=13, ballistic=14, energy=12, information=10,
        role="pilot", mobility=4, ap=24, max_ap=24, armour=3,
        weapons=(Weapon("missile pod", "ballistic", 9, 5, ammo=2, missile=True), Weapon("heat axe", "energy", 11, 1)),
        square=parse_square("G-2"),
    )
    return asuka, raider


# -- readings and state -------------------------------------------------------------------


@dataclass(frozen=True)
class BattleRules:
    """Readings of the battle where the text is silent; every field is *not in the source text*.

    - ``columns``, ``rows``: the map's size (the GM sets the map, 001 §1-1); 8 × 8 is the book's.
    - ``ammo_per_attack``: rounds an attack spends (the text spends ammunition only on
      interception, 001 §4-4 l.77; the book spends 1 per shot as well).
    - ``counter_needs_range``: whether the countering weapon must reach the attacker (001 §4-5
      names no range; the book reads a counter as a shot back, so it must).
    - ``shared_squares``: whether two units may stand on one square (the text does not say; the
      book refuses it).
    """

    columns: int = 8
    rows: int = 8
    ammo_per_attack: int = 1
    counter_needs_range: bool = True
    shared_squares: bool = False

    def __post_init__(self) -> None:
        whole("columns", self.columns, minimum=1)
        if self.columns > 26:
            raise Wis6Error(f"columns {self.columns} is too many: the map's columns are the letters A to Z")
        whole("rows", self.rows, minimum=1)
        whole("ammo_per_attack", self.ammo_per_attack, minimum=0)


@dataclass(frozen=True)
class BattleState:
    """A battle between named units: who is where, their AP and ammunition, whose action, and the log.

    ``phase`` is ``"order"`` (the action order is still to be decided), ``"action"`` (``order
    [acting]`` is taking its action) or ``"over"`` (a unit is wrecked; ``winner`` is the other).
    ``moved`` and ``attacked`` record the acting unit's steps; ``sessions`` counts each unit's
    session-limited special actions (jamming, 001 §4-6).
    """

    units: tuple[Unit, ...]
    phase: str = "order"
    order: tuple[str, ...] = ()
    turn: int = 0
    acting: int = 0
    moved: bool = False
    attacked: bool = False
    sessions: tuple[SessionUses, ...] = ()
    winner: str | None = None
    log: tuple[str, ...] = ()
    rules: Wis6Rules = DEFAULT_RULES
    battle_rules: BattleRules = field(default_factory=BattleRules)

    def unit(self, name: str) -> Unit:
        for unit in self.units:
            if unit.name == name:
                return unit
        raise IllegalStep(f"there is no unit {name!r}: the units are {', '.join(u.name for u in self.units)}")

    def session(self, name: str) -> SessionUses:
        return self.sessions[self._index(name)]

    def _index(self, name: str) -> int:
        for i, unit in enumerate(self.units):
            if unit.name == name:
                return i
        raise IllegalStep(f"there is no unit {name!r}")

    @property
    def actor(self) -> str | None:
        """The unit whose action it is, or ``None`` before the order is decided and after the battle."""
        return self.order[self.acting] if self.phase == "action" else None

    def opponent(self, name: str) -> Unit:
        """The other unit (the battle has two sides)."""
        others = [u for u in self.units if u.name != name and u.side != self.unit(name).side]
        return others[0]

    def _with_unit(self, unit: Unit) -> tuple[Unit, ...]:
        return tuple(unit if u.name == unit.name else u for u in self.units)


def new_battle(
    units: Sequence[Unit] | None = None,
    *,
    rules: Wis6Rules = DEFAULT_RULES,
    battle_rules: BattleRules | None = None,
) -> BattleState:
    """A battle at its start (001 §1-1: the GM's situation): the units on their squares, no order yet."""
    units = tuple(units) if units is not None else sample_units()
    battle_rules = battle_rules or BattleRules()
    if len(units) != 2 or units[0].side == units[1].side:
        raise Wis6Error("the guided battle has two units on opposite sides")
    if units[0].name == units[1].name:
        raise Wis6Error(f"the units need different names, not {units[0].name!r} twice")
    for unit in units:
        parse_square(str(unit.square), columns=battle_rules.columns, rows=battle_rules.rows)
    if units[0].square == units[1].square and not battle_rules.shared_squares:
        raise Wis6Error(f"both units stand on {units[0].square}")
    referee.refuse_broken_start(f"{u.name}'s AC is wrecked (AP {u.ap})" for u in units if u.wrecked)
    last = chr(ord("A") + battle_rules.columns - 1)
    log = (
        f"the situation (001 §1-1): the GM's map has columns A-{last} and rows 1-{battle_rules.rows} "
        "(the book's map, not in the source text)",
        *(f"{u.name} ({u.side}, AC {u.machine}) on {u.square}: AP {u.ap}, armour {u.armour}, mobility {u.mobility}"
          for u in units),
    )
    return BattleState(units, sessions=tuple(SessionUses() for _ in units), log=log, rules=rules,
                       battle_rules=battle_rules)


# -- actions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollOrder:
    """Decide the action order (行動順, 001 §1-2). ``dice``: the tie-break dice, if any are needed."""

    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class MoveTo:
    """``unit`` moves to ``square`` (移動, 001 §1-3 ②): at most its mobility in squares, before attacking."""

    unit: str
    square: str


@dataclass(frozen=True)
class Attack:
    """``unit`` attacks the enemy with ``weapon`` (攻撃行動, 001 §1-3 ③; 001 §3).

    The enemy answers with ``answer``: ``"evade"`` (reaction), ``"intercept"`` (a missile only,
    with its ballistic ``answer_weapon``, 001 §4-4) or ``"counter"`` (instead of evading, with
    ``answer_weapon``, 001 §4-5). ``dice``: the attack roll then the answer roll (two d20).
    """

    unit: str
    weapon: str
    answer: str = "evade"
    answer_weapon: str | None = None
    dice: tuple[int, int] | None = None


@dataclass(frozen=True)
class Jam:
    """``unit`` (an operator) jams the enemy (ジャミング, 001 §4-6): information against information.

    ``dice``: the jammer's roll then the target's (two d20).
    """

    unit: str
    dice: tuple[int, int] | None = None


@dataclass(frozen=True)
class EndAction:
    """``unit`` ends its action; after the last unit in the order, the turn ends (001 §1-4)."""

    unit: str


Action = RollOrder | MoveTo | Attack | Jam | EndAction
#: the kinds of action, in the order a widget shows them
ACTION_KINDS: tuple[str, ...] = ("order", "move", "attack", "jam", "end")


def action_kind(action: Action) -> str:
    kinds = {RollOrder: "order", MoveTo: "move", Attack: "attack", Jam: "jam", EndAction: "end"}
    try:
        return kinds[type(action)]
    except KeyError:
        raise IllegalStep(f"{action!r} is not a battle action: allowed are RollOrder, MoveTo, Attack, Jam, EndAction") from None




# -- checking -----------------------------------------------------------------------------


def _check_actor(state: BattleState, name: str) -> Unit:
    if state.phase == "over":
        wrecked = [u.name for u in state.units if u.wrecked]
        raise IllegalStep(f"the battle is over: {', '.join(wrecked)} is wrecked (大破), nobody acts any more")
    if state.phase == "order":
        raise IllegalStep("the action order is not decided yet (001 §1-2): roll the order first")
    unit = state.unit(name)
    if unit.wrecked:
        raise IllegalStep(f"{name} is wrecked (大破) and cannot act")
    if name != state.actor:
        raise IllegalStep(f"it is {state.actor}'s action, not {name}'s (the action order is {', '.join(state.order)})")
    return unit


def _check_move(state: BattleState, action: MoveTo):
    unit = _check_actor(state, action.unit)
    if state.attacked:
        raise IllegalStep(f"{unit.name} has already attacked: the move (②) comes before the attack (③) (001 §1-3)")
    if state.moved:
        raise IllegalStep(f"{unit.name} has already moved this action: one move per action (001 §1-3 ②)")
    br = state.battle_rules
    try:
        checked = move(unit.square, parse_square(action.square, columns=br.columns, rows=br.rows),
                       unit.mobility, rules=state.rules)
    except Wis6Error as error:
        raise IllegalStep(str(error)) from None
    other = state.opponent(unit.name)
    if checked.end == other.square and not br.shared_squares:
        raise IllegalStep(f"{checked.end} is {other.name}'s square: units do not share squares (ruling: BattleRules.shared_squares)")
    return unit, checked


def _check_attack(state: BattleState, action: Attack) -> tuple[Unit, Weapon, Unit, Weapon | None, int]:
    unit = _check_actor(state, action.unit)
    if state.attacked:
        raise IllegalStep(f"{unit.name} has already attacked this action: one attack per action (001 §1-3 ③)")
    weapon = unit.weapon(action.weapon)
    br = state.battle_rules
    if weapon.ammo is not None and weapon.ammo < br.ammo_per_attack:
        raise IllegalStep(f"{unit.name}'s {weapon.name} is empty ({weapon.ammo} rounds): it cannot fire")
    target = state.opponent(unit.name)
    far = distance(unit.square, target.square, state.rules)
    if far > weapon.range:
        raise IllegalStep(
            f"{target.name} on {target.square} is {far} squares from {unit.name} on {unit.square}, "
            f"beyond the {weapon.name}'s range {weapon.range}"
        )
    if action.answer not in ANSWERS:
        raise IllegalStep(f"answer {action.answer!r} is not one of {', '.join(ANSWERS)}")
    answer_weapon = None
    if action.answer == "evade":
        if action.answer_weapon is not None:
            raise IllegalStep("evasion rolls reaction (反応), not a weapon: give no answer_weapon")
        return unit, weapon, target, None, far
    if action.answer_weapon is None:
        raise IllegalStep(f"{ANSWER_NAMES[action.answer]} names the weapon {target.name} uses (answer_weapon)")
    answer_weapon = target.weapon(action.answer_weapon)
    if action.answer == "intercept":
        if not weapon.missile:
            raise IllegalStep(f"interception answers missile attacks only (ミサイル, 001 §4-4): the {weapon.name} is not a missile")
        if answer_weapon.kind != "ballistic":
            raise IllegalStep(
                f"the {answer_weapon.name} is an energy weapon: its interception adds generator load points, "
                "which are not in the source text, so this battle intercepts with ballistic weapons only"
            )
        if answer_weapon.ammo is None or answer_weapon.ammo < INTERCEPTION_AMMO_COST:
            raise IllegalStep(f"{target.name}'s {answer_weapon.name} has no round left to intercept with (001 §4-4 l.77)")
    else:  # counter
        if answer_weapon.ammo is not None and answer_weapon.ammo < br.ammo_per_attack:
            raise IllegalStep(f"{target.name}'s {answer_weapon.name} is empty: it cannot counter")
        if br.counter_needs_range and far > answer_weapon.range:
            raise IllegalStep(
                f"{unit.name} is {far} squares away, beyond the {answer_weapon.name}'s range {answer_weapon.range}: "
                "it cannot counter (ruling: BattleRules.counter_needs_range)"
            )
    return unit, weapon, target, answer_weapon, far


def _check_jam(state: BattleState, action: Jam) -> Unit:
    unit = _check_actor(state, action.unit)
    try:
        state.session(unit.name).use("jamming", unit.role)
    except Wis6Error as error:
        raise IllegalStep(str(error)) from None
    return unit


def check(state: BattleState, action: Action) -> None:
    """Raise :class:`IllegalStep` if ``action`` is not allowed in ``state``; draw no dice."""
    kind = action_kind(action)
    if kind == "order":
        if state.phase != "order":
            raise IllegalStep(f"the action order is decided once, at the start (001 §1-2, §1-4): it is {', '.join(state.order)}")
    elif kind == "move":
        _check_move(state, action)
    elif kind == "attack":
        _check_attack(state, action)
        _check_dice(action.dice, 2, "an attack")
    elif kind == "jam":
        _check_jam(state, action)
        _check_dice(action.dice, 2, "jamming")
    else:
        _check_actor(state, action.unit)


def is_legal(state: BattleState, action: Action) -> bool:
    """True exactly when ``step(state, action)`` would not refuse, given dice included."""
    return referee.legal(check, step, state, action, IllegalStep)


def legal_actions(state: BattleState) -> tuple[Action, ...]:
    """Every action allowed now, without dice: each reachable square, each weapon in range with each
    answer the enemy may give, jamming if allowed, and ending the action."""
    if state.phase == "order":
        return (RollOrder(),)
    if state.phase == "over":
        return ()
    name = state.actor
    unit, target = state.unit(name), state.opponent(name)
    br = state.battle_rules
    candidates: list[Action] = [
        MoveTo(name, f"{chr(ord('A') + c)}-{r}") for r in range(1, br.rows + 1) for c in range(br.columns)
    ]
    for weapon in unit.weapons:
        candidates.append(Attack(name, weapon.name))
        for answer in ("intercept", "counter"):
            candidates.extend(Attack(name, weapon.name, answer, w.name) for w in target.weapons)
    candidates += [Jam(name), EndAction(name)]
    return tuple(a for a in candidates if is_legal(state, a))


def legal_kinds(state: BattleState) -> frozenset[str]:
    """The kinds of action (``"order"``, ``"move"``, ``"attack"``, ``"jam"``, ``"end"``) allowed now."""
    return frozenset(action_kind(a) for a in legal_actions(state))


# -- stepping -----------------------------------------------------------------------------


def _check_dice(given: Sequence[int] | None, count: int, what: str) -> None:
    if given is None:
        return
    dice = tuple(given)
    if len(dice) != count:
        raise IllegalStep(f"{what} needs {count} d{DIE_SIDES} rolls, not {len(dice)}: {list(dice)}")
    for die in dice:
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= DIE_SIDES:
            raise IllegalStep(f"die {die!r} is not on a d{DIE_SIDES}: allowed are 1 to {DIE_SIDES}")


def _dice(given: Sequence[int] | None, source: SeededDice | GivenDice | None, count: int, what: str) -> tuple[int, ...]:
    if given is not None:
        _check_dice(given, count, what)
        return tuple(given)
    if source is None:
        raise IllegalStep(f"{what} needs dice: give dice=[...] or a SeededDice")
    return tuple(source.draw(DIE_SIDES) for _ in range(count))


@referee.refereed(legal_actions, IllegalStep)
def step(state: BattleState, action: Action, dice: SeededDice | None = None) -> StepResult:
    """Apply one ``action`` to ``state`` (001 §1, §3, §4); refuse an illegal one with :class:`IllegalStep`.

    Dice come from the action's ``dice`` or, when it has none, from ``dice`` (a
    :class:`~rules_lib.dice.SeededDice` kept outside the frozen state). All checks happen
    before any die is drawn, so a refused step leaves the generator untouched too.
    """
    check(state, action)
    kind = action_kind(action)
    if kind == "order":
        return _roll_order(state, action, dice)
    if kind == "move":
        return _move(state, action)
    if kind == "attack":
        return _attack(state, action, dice)
    if kind == "jam":
        return _jam(state, action, dice)
    return _end(state, action)


def _finish(state: BattleState, lines: list[str], dice: tuple[int, ...] = (), detail: object = None, **changes) -> StepResult:
    new = replace(state, log=state.log + tuple(lines), **changes)
    return StepResult(new, tuple(lines), dice, detail)


def _start_of_action(name: str) -> str:
    return (f"{name}'s action: ① recover bad status (ＢＳの回復): the text does not define bad status (001 §1-3 l.14), "
            "so there is nothing to recover")


def _roll_order(state: BattleState, action: RollOrder, source: SeededDice | None) -> StepResult:
    combatants = [u.combatant() for u in state.units]
    if action.dice is not None:
        try:
            initiative = initiative_order(combatants, dice=list(action.dice), rules=state.rules)
        except Wis6Error as error:
            raise IllegalStep(str(error)) from None
    else:
        initiative = _order_from(combatants, source, state.rules)
    lines = ["action order (行動順, 001 §1-2): reaction + mobility, highest first; a die breaks ties"]
    lines += list(initiative.steps)
    lines += ["turn 1 begins (001 §1-3)", _start_of_action(initiative.order[0])]
    dice = tuple(r for _, r in initiative.tie_rolls)
    return _finish(state, lines, dice, initiative, phase="action", order=initiative.order, turn=1, acting=0)


def _order_from(combatants: list[Combatant], source: SeededDice | None, rules: Wis6Rules) -> Initiative:
    drawn: list[int] = []
    while True:
        try:
            return initiative_order(combatants, dice=drawn, rules=rules)
        except Wis6Error as error:
            if "more dice" not in str(error):
                raise
            if source is None:
                raise IllegalStep("the action order has a tie: give the tie-break dice (dice=[...]) or a SeededDice") from None
            drawn.append(source.draw(rules.tie_die_sides))


def _move(state: BattleState, action: MoveTo) -> StepResult:
    unit, checked = _check_move(state, action)
    moved = replace(unit, square=checked.end)
    lines = [f"② {unit.name} moves (移動, 001 §1-3): " + checked.steps[0]]
    return _finish(state, lines, (), checked, units=state._with_unit(moved), moved=True)


def _spend(weapon: Weapon, rounds: int) -> Weapon:
    return weapon if weapon.ammo is None else replace(weapon, ammo=weapon.ammo - rounds)


def _with_weapon(unit: Unit, weapon: Weapon) -> Unit:
    return replace(unit, weapons=tuple(weapon if w.name == weapon.name else w for w in unit.weapons))


def _attack(state: BattleState, action: Attack, source: SeededDice | None) -> StepResult:
    unit, weapon, target, answer_weapon, far = _check_attack(state, action)
    dice = _dice(action.dice, source, 2, "an attack")
    rules, br = state.rules, state.battle_rules
    a_ability = unit.ability(weapon.kind)
    lines = [
        f"③ {unit.name} attacks {target.name} with the {weapon.name} ({far} squares, range {weapon.range}): "
        f"a d20 against {WEAPON_ABILITIES[weapon.kind]} {a_ability} (001 §3-1)",
    ]
    attacker_weapon = _spend(weapon, br.ammo_per_attack)
    if weapon.ammo is not None:
        lines.append(f"the {weapon.name} spends {br.ammo_per_attack} round: {weapon.ammo} → {attacker_weapon.ammo} "
                     "(ruling: BattleRules.ammo_per_attack)")
    attacker = _with_weapon(unit, attacker_weapon)
    defender = target
    detail: AttackResult | Interception | CounterResult
    if action.answer == "evade":
        lines.append(f"{target.name} evades (回避): a d20 against reaction {target.reaction} (001 §3-2)")
        detail = resolve_attack(dice[0], a_ability, dice[1], target.reaction, weapon.attack, target.armour, rules=rules)
        lines += list(detail.steps)
        defender = _hurt(defender, detail.damage or 0, lines)
    elif action.answer == "intercept":
        i_ability = target.ability(answer_weapon.kind)
        lines.append(f"{target.name} intercepts the missile (迎撃, 001 §4-4) with the {answer_weapon.name}: "
                     f"a d20 against {WEAPON_ABILITIES[answer_weapon.kind]} {i_ability} instead of reaction")
        detail = intercept(dice[0], a_ability, dice[1], i_ability, attack_kind="missile", weapon_kind="ballistic",
                           missile_weapon_attack=weapon.attack, armour=target.armour, ammo=answer_weapon.ammo,
                           rules=rules)
        lines += list(detail.steps)
        defender = _with_weapon(defender, replace(answer_weapon, ammo=detail.ammo_after))
        defender = _hurt(defender, detail.attack.damage or 0, lines)
    else:
        c_ability = target.ability(answer_weapon.kind)
        lines.append(f"{target.name} declares a counter (カウンター, 001 §4-5) with the {answer_weapon.name}: it gives up "
                     f"evading, takes the hit, then rolls {WEAPON_ABILITIES[answer_weapon.kind]} {c_ability}")
        detail = resolve_counter(dice[0], a_ability, dice[1], c_ability, enemy_weapon_attack=weapon.attack,
                                 own_armour=target.armour, own_ap=target.ap, own_weapon_attack=answer_weapon.attack,
                                 enemy_armour=unit.armour, rules=rules)
        lines += list(detail.steps)
        defender = replace(defender, ap=max(detail.ap_after, 0))
        if not detail.wrecked:
            spent = _spend(answer_weapon, br.ammo_per_attack)
            if answer_weapon.ammo is not None:
                lines.append(f"the {answer_weapon.name} spends {br.ammo_per_attack} round on the counter: "
                             f"{answer_weapon.ammo} → {spent.ammo} (ruling: BattleRules.ammo_per_attack)")
            defender = _with_weapon(defender, spent)
            if detail.enemy_damage:
                attacker = _hurt(attacker, detail.enemy_damage, lines)
    units = tuple(attacker if u.name == attacker.name else defender for u in state.units)
    changes: dict = {"units": units, "attacked": True}
    wrecked = [u for u in units if u.wrecked]
    if wrecked:
        winner = next(u.name for u in units if not u.wrecked) if len(wrecked) < len(units) else None
        lines.append(f"{wrecked[0].name}'s AP is 0: wrecked (大破). The battle is over"
                     + (f"; {winner} wins." if winner else "."))
        changes.update(phase="over", winner=winner)
    return _finish(state, lines, dice, detail, **changes)


def _hurt(unit: Unit, amount: int, lines: list[str]) -> Unit:
    if amount <= 0:
        return unit
    after = max(unit.ap - amount, 0)
    lines.append(f"{unit.name}'s AP {unit.ap} − {amount} = {unit.ap - amount}" + (" → 0" if unit.ap - amount < 0 else ""))
    return replace(unit, ap=after)


def _jam(state: BattleState, action: Jam, source: SeededDice | None) -> StepResult:
    unit = _check_jam(state, action)
    target = state.opponent(unit.name)
    dice = _dice(action.dice, source, 2, "jamming")
    result: Jamming = jam(dice[0], unit.information, dice[1], target.information, session=state.session(unit.name),
                          role=unit.role, rules=state.rules)
    lines = [f"{unit.name} jams {target.name} (ジャミング, 001 §4-6): information {unit.information} "
             f"against information {target.information}"]
    lines += list(result.steps)
    lines.append(f"{target.name} has no cooperation (協調行動) to cancel in a two-unit battle: the use is spent all the same")
    sessions = tuple(result.session if u.name == unit.name else s for u, s in zip(state.units, state.sessions, strict=True))
    return _finish(state, lines, dice, result, sessions=sessions)


def _end(state: BattleState, action: EndAction) -> StepResult:
    lines = [f"{action.unit} ends its action"]
    nxt = state.acting + 1
    turn = state.turn
    if nxt >= len(state.order):
        lines.append(f"everyone has acted: turn {turn} ends (全員が行動したら、１ターン終了, 001 §1-4); "
                     "back to the actions in the same order")
        nxt, turn = 0, turn + 1
        lines.append(f"turn {turn} begins")
    lines.append(_start_of_action(state.order[nxt]))
    return _finish(state, lines, (), None, acting=nxt, turn=turn, moved=False, attacked=False)


def play(state: BattleState, actions: Sequence[Action], dice: SeededDice | None = None) -> list[StepResult]:
    """Apply ``actions`` in turn; returns every step's result (the last one holds the final state)."""
    results = []
    for action in actions:
        result = step(state, action, dice)
        results.append(result)
        state = result.state
    return results


# -- odds at a decision -------------------------------------------------------------------


def decision_odds(state: BattleState, action: Attack) -> AttackOdds | CounterOdds:
    """The exact odds of an attack before its dice are rolled (001 §3, §4-4, §4-5): an
    :class:`~rules_lib.wis6.AttackOdds` for evasion and interception, a
    :class:`~rules_lib.wis6.CounterOdds` for a counter. The action must be legal."""
    unit, weapon, target, answer_weapon, _ = _check_attack(state, action)
    a_ability = unit.ability(weapon.kind)
    if action.answer == "evade":
        return attack_odds(a_ability, target.reaction, weapon.attack, target.armour, rules=state.rules)
    if action.answer == "intercept":
        return attack_odds(a_ability, target.ability(answer_weapon.kind), weapon.attack, target.armour, rules=state.rules)
    return counter_odds(a_ability, target.ability(answer_weapon.kind), enemy_weapon_attack=weapon.attack,
                        own_armour=target.armour, own_ap=target.ap, own_weapon_attack=answer_weapon.attack,
                        enemy_armour=unit.armour, rules=state.rules)


def describe_odds(state: BattleState, action: Attack) -> str:
    """One plain-English line of :func:`decision_odds`: the chance of damage and the expected damage."""
    odds = decision_odds(state, action)
    unit, target = state.unit(action.unit), state.opponent(action.unit)
    answer = ANSWER_NAMES[action.answer] + (f" with the {action.answer_weapon}" if action.answer_weapon else "")
    head = f"{unit.name}'s {action.weapon} against {target.name}'s {answer}: "
    if isinstance(odds, AttackOdds):
        p = odds.damage_calculated
        return (head + f"damage is calculated with chance {p} ({percent(p)}), a critical {odds.outcomes['critical']} "
                f"({percent(odds.outcomes['critical'])}); expected damage {float(odds.mean_damage):.2f}; "
                f"{target.name} wrecked with chance {percent(odds.damage.at_least(target.ap))}")
    return (head + f"{target.name} takes {float(odds.self_damage.mean()):.2f} damage on average and is wrecked first "
            f"with chance {percent(odds.wrecked)}; the counter lands with chance {odds.counter_lands} "
            f"({percent(odds.counter_lands)}) for {float(odds.enemy_damage.mean()):.2f} expected damage back; "
            f"{unit.name} wrecked with chance {percent(odds.enemy_damage.at_least(unit.ap))}")


# -- drawing ------------------------------------------------------------------------------

_COLOURS = {"PC": "#1e88e5", "enemy": "#e53935"}


def board_html(state: BattleState, *, reach: bool = True) -> str:
    """The map as an HTML table: columns A, B, ... across, rows 1, 2, ... down, each unit on its square.

    With ``reach``, the squares the acting unit may still move to are shaded and the squares its
    longest weapon that can still fire reaches are outlined; the caption gives the distance.
    """
    br = state.battle_rules
    by_square = {u.square: u for u in state.units}
    actor = state.unit(state.actor) if state.actor else None
    movable: set[Square] = set()
    if reach and actor is not None:
        movable = {parse_square(a.square) for a in legal_actions(state) if isinstance(a, MoveTo)}
    ready = [w for w in actor.weapons if w.ammo is None or w.ammo >= br.ammo_per_attack] if actor else []
    longest = max((w.range for w in ready), default=-1)
    cell = "width:2.3em;height:2.3em;text-align:center;border:1px solid #999;padding:0;font-size:0.85em;"
    head = "".join(f"<th style='{cell}border:none'>{chr(ord('A') + c)}</th>" for c in range(br.columns))
    rows = []
    for r in range(1, br.rows + 1):
        cells = [f"<th style='{cell}border:none'>{r}</th>"]
        for c in range(br.columns):
            square = Square(chr(ord("A") + c), r)
            style = cell
            if square in movable:
                style += "background:#e3f2fd;"
            if reach and actor is not None and square != actor.square and distance(actor.square, square, state.rules) <= longest:
                style += "box-shadow:inset 0 0 0 2px #ffb74d;"
            unit = by_square.get(square)
            text = ""
            if unit is not None:
                colour = "#757575" if unit.wrecked else _COLOURS.get(unit.side, "#555")
                style += f"background:{colour};color:white;font-weight:bold;"
                text = f"{html.escape(unit.name[:2])}<br><span style='font-weight:normal'>{unit.ap}</span>"
            cells.append(f"<td title='{square}' style='{style}'>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = status_line(state)
    a, b = state.units
    caption = html.escape(f"{caption}; {a.name} and {b.name} are {distance(a.square, b.square, state.rules)} squares apart")
    return (f"<table class='wis6-board' style='border-collapse:collapse;margin:0.4em 0'>"
            f"<caption style='caption-side:bottom;text-align:left;font-size:0.85em'>{caption}</caption>"
            f"<thead><tr><th></th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")


def status_line(state: BattleState) -> str:
    """Whose action it is, in words."""
    if state.phase == "order":
        return "before the battle: the action order is not decided yet"
    if state.phase == "over":
        return f"the battle is over after turn {state.turn}: {state.winner or 'nobody'} wins"
    done = [s for s, d in (("moved", state.moved), ("attacked", state.attacked)) if d]
    return f"turn {state.turn}, {state.actor}'s action" + (f" ({' and '.join(done)})" if done else "")


def units_html(state: BattleState) -> str:
    """A table of the units: AP, armour, mobility, square, weapons and ammunition, jamming left."""
    rows = []
    for unit, session in zip(state.units, state.sessions, strict=True):
        weapons = "<br>".join(html.escape(w.describe()) for w in unit.weapons)
        jams = session.remaining("jamming") if unit.role == OPERATOR else "—"
        colour = _COLOURS.get(unit.side, "#555")
        rows.append(
            f"<tr><td style='color:{colour};font-weight:bold'>{html.escape(unit.name)}</td><td>{html.escape(unit.side)}</td>"
            f"<td>{unit.square}</td><td>{unit.ap} / {unit.max_ap}</td><td>{unit.armour}</td><td>{unit.mobility}</td>"
            f"<td>{weapons}</td><td>{jams}</td></tr>"
        )
    head = "".join(f"<th>{h}</th>" for h in ("unit", "side", "square", "AP", "armour", "mobility", "weapons",
                                              f"jamming left (of {SESSION_LIMITS['jamming']})"))
    return f"<table class='odds-table'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def log_html(lines: Sequence[str], last: int | None = None) -> str:
    """Log lines as an HTML list (the ``last`` lines only, when given)."""
    shown = list(lines)[-last:] if last else list(lines)
    return "<ol style='font-size:0.85em;margin:0'>" + "".join(f"<li>{html.escape(s)}</li>" for s in shown) + "</ol>"


__all__ = [
    "ACTION_KINDS", "ANSWERS", "ANSWER_NAMES", "PHASES",
    "Action", "Attack", "BattleRules", "BattleState", "EndAction", "IllegalStep", "Jam", "MoveTo", "RollOrder",
    "StepResult", "Unit", "Weapon",
    "action_kind", "board_html", "check", "decision_odds", "describe_odds", "is_legal", "legal_actions",
    "legal_kinds", "log_html", "new_battle", "play", "sample_units", "status_line", "step", "units_html",
]
