"""A guided first battle: two silhouettes, no map, played step by step (002 §1-1 to §7-2).

The state is frozen; :func:`step` applies one action with the chapter's rule functions
(:func:`~rules_lib.nemesis.initiative`, :func:`~rules_lib.nemesis.attack_count`,
:func:`~rules_lib.nemesis.response_action`, :func:`~rules_lib.nemesis.weapon_swap`,
:func:`~rules_lib.nemesis.armour_check`, :func:`~rules_lib.nemesis.roll_damage`,
:func:`~rules_lib.nemesis.apply_damage`, :func:`~rules_lib.nemesis.approach`,
:func:`~rules_lib.nemesis.duel`, :func:`~rules_lib.nemesis.interrupt_cost`) and returns the new
state with a plain-English explanation. An illegal action raises :class:`IllegalStep` (a
``ValueError``) naming the reason, before any die is drawn; the state passed in is unchanged.

A turn (ターン) runs as the text lays it out:

1. **action decision** (行動決定フェイズ, §1-1): each side rolls 3D6, its action dice for the turn;
   sum + sensors decides who chooses to go first (先攻) or second (後攻). A triple may open the
   melee phase instead, and its roller becomes the second player.
2. **acting** (the shooting phase, 射撃フェイズ §2-1, and what else dice buy): the first player
   acts, then the second. A die whose face matches a weapon's proper range fires it, larger faces
   first; two dice buy 1 active value (対応行動); one die buys a weapon swap (持ち替え); a die showing 1
   lets a melee weapon try the approach (接近フェイズ §5-1); the melee opener fights the duel (§6-1).
3. **armour** (装甲判定フェイズ §3-1) and **damage** (ダメージ決定フェイズ §4-1, 破壊フェイズ §7-1): each hit's
   attack roll against armour, then its damage against structure and, at 0, a part by 1D20.
4. **end** (§7-2): when both have acted the turn ends; the battle ends when a torso is destroyed
   (行動不能) or a side with a destroyed part concedes (投了).

Nemesis needs no map: "melee distance" is only the flag :attr:`BattleState.closed_in`, set by a
won approach or an opened duel and cleared at the end of the turn. Readings the text leaves open
are fields of :class:`BattleRules`.

Not offered in this first battle (the chapter's functions cover them one by one): the duel's
rerolls (§6-1; the duel is fought with the dice as rolled), interrupt actions other than defence
(防御行動) — the action reroll, evasion, counter-fire, parry, counter — and the abilities the SS-01
lacks (flight, stealth, fall, rapid fire).
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from .. import battle as referee
from ..battle import IllegalStep, StepResult
from ..dice import DiceReplayError, Distribution, GivenDice, SeededDice, parse, percent, pool_distribution
from ..dice.enumeration import dice_sides
from .abilities import interrupt_cost
from .action import (
    TIE_BREAK_SIDES,
    ExtendedFace,
    InitiativeSide,
    action_dice_count,
    attack_count,
    firing_faces,
    initiative,
    is_multi_attack,
    may_open_melee,
    response_action,
    weapon_swap,
)
from .damage import (
    LOCATION_ROLL,
    UNPENETRATED_STRUCTURE_LOSS,
    PartDamage,
    Rounding,
    UnitState,
    apply_damage,
    armour_check,
    damage_distribution,
    defended,
    destruction_effects,
    penetration_chance,
    roll_damage,
)
from .melee import (
    ApproachCompare,
    DuelRules,
    approach,
    approach_chance,
    approacher_dice,
    duel,
    duel_odds,
    shooter_dice,
)
from .silhouette import PART_LABELS, Grip, Silhouette, Weapon, grip_defaults, load_silhouette

SIDES = ("A", "B")
#: the phases a battle rests in between steps
PHASES = ("decision", "order", "acting", "armour", "damage", "over")
PHASE_LABELS = {
    "decision": "action decision (行動決定フェイズ, 002 §1-1)",
    "order": "choosing first or second (先攻/後攻, 002 §1-1)",
    "acting": "shooting phase and actions (射撃フェイズ, 002 §2-1)",
    "armour": "armour check (装甲判定フェイズ, 002 §3-1)",
    "damage": "damage (ダメージ決定フェイズ, 002 §4-1)",
    "over": "the battle is over",
}
D6 = 6




@dataclass(frozen=True)
class BattleRules:
    """The readings a battle uses (see the chapter's rulings).

    ``active_refresh`` is *not in the source text*: the text never says the active value (能動値)
    returns, so by default it does not (``"never"``); ``"each_turn"`` resets it to the sheet's
    value at the start of every turn.
    """

    extended: ExtendedFace = ExtendedFace.IGNORED
    approach_compare: ApproachCompare = "sum"
    duel: DuelRules = DuelRules()
    part_damage: PartDamage = "overflow"
    defence_rounding: Rounding = "up"
    active_refresh: Literal["never", "each_turn"] = "never"

    def __post_init__(self) -> None:
        object.__setattr__(self, "extended", ExtendedFace(self.extended))
        if self.approach_compare not in ("sum", "highest"):
            raise ValueError(f"approach_compare {self.approach_compare!r} is not 'sum' or 'highest'")
        if self.part_damage not in ("overflow", "whole"):
            raise ValueError(f"part_damage {self.part_damage!r} is not 'overflow' or 'whole'")
        if self.defence_rounding not in ("up", "down"):
            raise ValueError(f"defence_rounding {self.defence_rounding!r} is not 'up' or 'down'")
        if self.active_refresh not in ("never", "each_turn"):
            raise ValueError(f"active_refresh {self.active_refresh!r} is not 'never' or 'each_turn'")


# -- units ----------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleUnit:
    """One side's silhouette in the battle: its sheet, what is left of it, and this turn's dice.

    ``rolled`` are the action dice as rolled this turn; ``dice`` those not yet spent.
    ``ranges_used`` are the faces its shots used this turn (the approach reads the lowest, §5-1).
    """

    side: str
    name: str
    sheet: Silhouette
    condition: UnitState
    active: int
    in_hand: str
    grip: Grip
    rolled: tuple[int, ...] = ()
    dice: tuple[int, ...] = ()
    ranges_used: tuple[int, ...] = ()
    fired: tuple[str, ...] = ()
    approached: bool = False
    dueled: bool = False

    @property
    def structure(self) -> int:
        return self.condition.structure

    @property
    def destroyed(self) -> tuple[str, ...]:
        return self.condition.destroyed

    @property
    def out_of_action(self) -> bool:
        """Torso destroyed: the unit is destroyed and cannot act (行動不能, 002 §7-1)."""
        return destruction_effects(self.destroyed).out_of_action

    @property
    def head_destroyed(self) -> bool:
        return "head" in self.destroyed

    @property
    def spent(self) -> tuple[int, ...]:
        """The rolled dice no longer in hand (given up or used)."""
        left = Counter(self.dice)
        out = []
        for face in self.rolled:
            if left[face]:
                left[face] -= 1
            else:
                out.append(face)
        return tuple(out)

    def weapon(self, key: str) -> Weapon:
        try:
            return self.sheet.weapon(key)
        except ValueError as error:
            raise IllegalStep(str(error)) from None

    def unusable_reason(self, weapon: Weapon) -> str | None:
        """Why a weapon cannot be used: a destroyed arm (002 §7-1). ``None`` when it can."""
        effects = destruction_effects(self.destroyed)
        if effects.unusable_arms and self.grip is Grip.TWO_HANDED:
            arm = effects.unusable_arms[0].replace("_", " ")
            return (f"{self.name}'s {arm} is destroyed: its two-handed weapons, the {weapon.name} among them, "
                    "cannot be used (002 §7-1)")
        return None

    def melee_weapon(self) -> Weapon | None:
        return next((w for w in self.sheet.weapons if w.is_melee), None)


def make_unit(side: str, sheet: Silhouette, name: str | None = None) -> BattleUnit:
    """A unit at the start of a battle: full structure and parts, the sheet's active value, and
    the weapon and grip of 002 §H3 (the only ranged weapon, held two-handed). ``name`` defaults
    to the model and the side, ``SS-01 A``."""
    ranged = [w for w in sheet.weapons if not w.is_melee]
    melee = [w for w in sheet.weapons if w.is_melee]
    grip = grip_defaults(len(ranged), melee_weapons=len(melee))
    if grip.grip is None:
        raise ValueError(f"{sheet.model} has {len(ranged)} ranged weapons: the text gives no default grip (002 §H3)")
    in_hand = (ranged or melee)[0].key
    return BattleUnit(side, name or f"{sheet.model} {side}", sheet, UnitState.fresh(sheet),
                      sheet.active, in_hand, grip.grip)


def new_battle(a: Silhouette | None = None, b: Silhouette | None = None,
               rules: BattleRules = BattleRules()) -> BattleState:
    """Two silhouettes ready for turn 1 (default: two SS-01 ソルジャー1 from 002 §H2)."""
    a = a or load_silhouette("SS-01")
    b = b or load_silhouette("SS-01")
    units = (make_unit("A", a), make_unit("B", b))
    referee.refuse_broken_start(f"{u.name} is out of action" for u in units if u.out_of_action)
    log = (f"{units[0].name} against {units[1].name}: turn 1, roll the action dice (002 §1-1)",)
    return BattleState(units=units, rules=rules, log=log)


# -- state -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hit:
    """An attack waiting for its armour check and damage: who strikes with what, and how."""

    attacker: str
    weapon: str
    source: Literal["shooting", "approach", "duel"]
    multiplier: int = 1
    attack_total: int | None = None  # set once the armour check penetrated

    @property
    def melee(self) -> bool:
        return self.source != "shooting"


@dataclass(frozen=True)
class BattleState:
    units: tuple[BattleUnit, BattleUnit]
    rules: BattleRules = BattleRules()
    turn: int = 1
    phase: str = "decision"
    chooser: str | None = None
    first: str | None = None
    actor: str | None = None
    melee_opener: str | None = None
    closed_in: str | None = None
    pending: tuple[Hit, ...] = ()
    winner: str | None = None
    end_reason: str | None = None
    log: tuple[str, ...] = field(default=())

    def unit(self, side: str) -> BattleUnit:
        if side not in SIDES:
            raise IllegalStep(f"side {side!r} is not A or B")
        return self.units[SIDES.index(side)]

    def opponent(self, side: str) -> BattleUnit:
        return self.unit(other(side))

    @property
    def second(self) -> str | None:
        return other(self.first) if self.first else None

    def with_unit(self, unit: BattleUnit) -> tuple[BattleUnit, BattleUnit]:
        return (unit, self.units[1]) if unit.side == "A" else (self.units[0], unit)


def other(side: str) -> str:
    return "B" if side == "A" else "A"


# -- actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollActionDice:
    """Both sides roll their action dice and initiative is decided (002 §1-1)."""


@dataclass(frozen=True)
class ChooseOrder:
    """The side that won initiative chooses to go first (先攻) or second (後攻) (002 §1-1)."""

    side: str
    go_first: bool = True


@dataclass(frozen=True)
class OpenMelee:
    """A side whose action dice are a triple opens the melee phase and becomes second (002 §1-1)."""

    side: str


@dataclass(frozen=True)
class Shoot:
    """Fire a weapon with one action die whose face matches its proper range (002 §2-1)."""

    side: str
    weapon: str
    die: int


@dataclass(frozen=True)
class ResponseAction:
    """Leave two action dice unused for +1 active value (対応行動, 002 §1-1)."""

    side: str
    give_up: tuple[int, int]


@dataclass(frozen=True)
class SwapWeapon:
    """Take up another weapon, leaving one die unused unless it has 持替不要 (002 §1-1)."""

    side: str
    weapon: str
    give_up: int | None = None


@dataclass(frozen=True)
class Approach:
    """Close in with a melee weapon on a die showing its range, against the shooter (002 §5-1)."""

    side: str
    active_spent: int = 0


@dataclass(frozen=True)
class Melee:
    """The melee opener fights the duel with both sides' action dice as rolled (002 §6-1, §6-2)."""

    side: str


@dataclass(frozen=True)
class ArmourCheck:
    """Roll the waiting hit's attack against the target's armour (002 §3-1)."""


@dataclass(frozen=True)
class Damage:
    """Roll the waiting hit's damage; the target may defend (防御行動, 1 active value) (002 §4-1, §H6, §7-1)."""

    defend: bool = False


@dataclass(frozen=True)
class EndAction:
    """The acting side is done; after the second player, the turn ends (002 §7-2)."""

    side: str


@dataclass(frozen=True)
class Concede:
    """A side with a destroyed part declares defeat (投了, 002 §7-1)."""

    side: str


Action = (RollActionDice | ChooseOrder | OpenMelee | Shoot | ResponseAction | SwapWeapon | Approach | Melee
          | ArmourCheck | Damage | EndAction | Concede)
ACTION_KINDS = {
    RollActionDice: "roll", ChooseOrder: "order", OpenMelee: "open_melee", Shoot: "shoot",
    ResponseAction: "response", SwapWeapon: "swap", Approach: "approach", Melee: "melee",
    ArmourCheck: "armour", Damage: "damage", EndAction: "end", Concede: "concede",
}


def action_kind(action: Action) -> str:
    try:
        return ACTION_KINDS[type(action)]
    except KeyError:
        raise IllegalStep(f"{action!r} is not a battle action") from None




# -- checks ----------------------------------------------------------------------------------


def _faces(dice: Sequence[int]) -> str:
    return "-".join(map(str, dice)) or "none"


def _check_actor(state: BattleState, side: str) -> BattleUnit:
    unit = state.unit(side)
    if state.phase != "acting":
        raise IllegalStep(f"it is the {PHASE_LABELS[state.phase]} phase, not a side's action")
    if unit.out_of_action:
        raise IllegalStep(f"{unit.name} is out of action (行動不能): its torso is destroyed (002 §7-1)")
    if state.actor != side:
        raise IllegalStep(f"it is {state.actor}'s action, not {side}'s (the first player acts, then the second, 002 §1-1)")
    return unit


def _check_die(unit: BattleUnit, face: int, what: str) -> None:
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= D6:
        raise IllegalStep(f"{what}: {face!r} is not a d6 face 1 to 6")
    if face not in unit.dice:
        spent = " (already spent)" if face in unit.rolled else ""
        raise IllegalStep(f"{what}: {unit.name} has no {face} left{spent}; its unspent action dice are "
                          f"{_faces(unit.dice)}")


def _check_shoot(state: BattleState, action: Shoot) -> tuple[BattleUnit, Weapon]:
    unit = _check_actor(state, action.side)
    weapon = unit.weapon(action.weapon)
    if weapon.is_melee:
        raise IllegalStep(f"the {weapon.name} is a melee weapon (射程 {weapon.range}): it strikes through the "
                          "approach (002 §5-1) or the melee duel (§6-1), not by shooting")
    reason = unit.unusable_reason(weapon)
    if reason:
        raise IllegalStep(reason)
    if unit.in_hand != weapon.key:
        raise IllegalStep(f"{unit.name} holds the {unit.weapon(unit.in_hand).name}: take up the {weapon.name} "
                          "with a weapon swap first (002 §1-1)")
    if weapon.key in unit.fired and not is_multi_attack(weapon):
        raise IllegalStep(f"the {weapon.name} has fired this turn: shooting is once per turn (002 §1-1)")
    _check_die(unit, action.die, f"shooting the {weapon.name}")
    faces = firing_faces(weapon, state.rules.extended)
    if action.die not in faces:
        raise IllegalStep(f"a {action.die} does not match the {weapon.name}'s proper range (適正射程) "
                          f"{weapon.proper_range}: it fires on {'/'.join(map(str, faces))} (002 §2-1)")
    larger = max(d for d in unit.dice if d in faces)
    if action.die < larger:
        raise IllegalStep(f"dice are handled from the largest face (002 §2-1): shoot with the {larger} "
                          f"before the {action.die}")
    return unit, weapon


def _check_response(state: BattleState, action: ResponseAction) -> BattleUnit:
    unit = _check_actor(state, action.side)
    give_up = tuple(action.give_up)
    if len(give_up) != 2:
        raise IllegalStep(f"a response action leaves exactly 2 dice unused, not {len(give_up)} (002 §1-1)")
    for face in give_up:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= D6:
            raise IllegalStep(f"response action: {face!r} is not a d6 face 1 to 6")
    have, rolled = Counter(unit.dice), Counter(unit.rolled)
    for face, n in Counter(give_up).items():
        if n > have[face]:
            spent = " (already spent)" if rolled[face] >= n else ""
            raise IllegalStep(f"response action: {unit.name} cannot give up {n} × {face}: it has {have[face]} left"
                              f"{spent}; its unspent action dice are {_faces(unit.dice)}")
    return unit


def _check_swap(state: BattleState, action: SwapWeapon) -> tuple[BattleUnit, Weapon]:
    unit = _check_actor(state, action.side)
    weapon = unit.weapon(action.weapon)
    if unit.in_hand == weapon.key:
        raise IllegalStep(f"{unit.name} already holds the {weapon.name}")
    reason = unit.unusable_reason(weapon)
    if reason:
        raise IllegalStep(reason)
    if weapon.has("no_swap"):
        if action.give_up is not None:
            raise IllegalStep(f"the {weapon.name} has 持替不要 (no swap needed): it costs no die")
    else:
        if action.give_up is None:
            raise IllegalStep("a weapon swap leaves one action die unused (002 §1-1): say which")
        _check_die(unit, action.give_up, "weapon swap")
    return unit, weapon


def _check_approach(state: BattleState, action: Approach) -> tuple[BattleUnit, Weapon]:
    unit = _check_actor(state, action.side)
    weapon = unit.melee_weapon()
    if weapon is None:
        raise IllegalStep(f"{unit.name} has no melee weapon: only a melee weapon approaches (002 §5-1)")
    reason = unit.unusable_reason(weapon)
    if reason:
        raise IllegalStep(reason)
    if unit.in_hand != weapon.key and not weapon.has("no_swap"):
        raise IllegalStep(f"take up the {weapon.name} with a weapon swap first (002 §1-1)")
    if unit.approached or state.closed_in is not None:
        raise IllegalStep("there has been an approach or a melee this turn already")
    _check_die(unit, weapon.range, f"the {weapon.name} (射程 {weapon.range}) needs a die showing {weapon.range} "
               "(002 §1-1)")
    shooter = state.opponent(action.side)
    if not shooter.ranges_used:
        raise IllegalStep(f"{shooter.name} has not shot this turn: the text gives the shooter no approach dice "
                          "(002 §5-1); approach after it shoots")
    spent = action.active_spent
    if isinstance(spent, bool) or not isinstance(spent, int) or spent < 0:
        raise IllegalStep(f"active value spent {spent!r} is not a whole number of at least 0")
    if spent > unit.active:
        raise IllegalStep(f"{unit.name} has {unit.active} active value (能動値), not {spent} to spend (002 §5-1)")
    return unit, weapon


def _check_melee(state: BattleState, action: Melee) -> tuple[BattleUnit, Weapon]:
    unit = _check_actor(state, action.side)
    if state.melee_opener != action.side:
        raise IllegalStep(f"{unit.name} did not open the melee phase this turn: only a triple opens it (002 §1-1)")
    if unit.dueled:
        raise IllegalStep("the melee duel has been fought this turn")
    if unit.dice != unit.rolled:
        raise IllegalStep("the duel is fought with the action dice as rolled (002 §6-1): none may be spent first")
    weapon = unit.melee_weapon()
    if weapon is None:
        raise IllegalStep(f"{unit.name} has no melee weapon for the duel (002 §6-1)")
    reason = unit.unusable_reason(weapon)
    if reason:
        raise IllegalStep(reason)
    return unit, weapon


def _check_damage(state: BattleState, action: Damage) -> None:
    if state.phase != "damage":
        raise IllegalStep(f"it is the {PHASE_LABELS[state.phase]} phase: no penetrating hit waits for damage")
    if action.defend:
        target = state.opponent(state.pending[0].attacker)
        cost = interrupt_cost("defence", target.head_destroyed)
        if target.active < cost:
            raise IllegalStep(f"defence (防御行動) costs {cost} active value; {target.name} has {target.active} (002 §H6)")


def check(state: BattleState, action: Action) -> None:
    """Raise :class:`IllegalStep` with the reason when ``action`` is not allowed now; return otherwise."""
    kind = action_kind(action)
    if state.phase == "over":
        raise IllegalStep(f"the battle is over: {state.end_reason}")
    if kind == "concede":
        unit = state.unit(action.side)
        if not unit.destroyed:
            raise IllegalStep(f"{unit.name} has no destroyed part: only then may a side concede (投了, 002 §7-1)")
        return
    if kind == "roll":
        if state.phase != "decision":
            raise IllegalStep(f"the action dice are rolled at the start of a turn; it is the {PHASE_LABELS[state.phase]} phase")
        return
    if kind in ("order", "open_melee"):
        if state.phase != "order":
            raise IllegalStep(f"first and second are chosen after the action dice are rolled; it is the "
                              f"{PHASE_LABELS[state.phase]} phase")
        if kind == "order":
            if action.side != state.chooser:
                raise IllegalStep(f"{state.chooser} won the initiative and chooses, not {action.side} (002 §1-1)")
            return
        unit = state.unit(action.side)
        if len(unit.rolled) != 3:
            raise IllegalStep(f"{unit.name} rolled {len(unit.rolled)} action dice: only three can show a triple (002 §1-1)")
        opening = may_open_melee(unit.rolled)
        if not opening.allowed:
            raise IllegalStep(f"{unit.name}'s dice {_faces(unit.rolled)} do not open the melee phase: "
                              f"{opening.steps[-1]} (002 §1-1)")
        weapon = unit.melee_weapon()
        if weapon is None or unit.unusable_reason(weapon):
            raise IllegalStep(f"{unit.name} has no usable melee weapon for the melee phase (002 §1-1)")
        return
    if kind in ("armour",):
        if state.phase != "armour":
            raise IllegalStep(f"it is the {PHASE_LABELS[state.phase]} phase: no hit waits for an armour check")
        return
    if kind == "damage":
        _check_damage(state, action)
        return
    if kind == "shoot":
        _check_shoot(state, action)
    elif kind == "response":
        _check_response(state, action)
    elif kind == "swap":
        _check_swap(state, action)
    elif kind == "approach":
        _check_approach(state, action)
    elif kind == "melee":
        _check_melee(state, action)
    elif kind == "end":
        _check_actor(state, action.side)


def is_legal(state: BattleState, action: Action) -> bool:
    """True exactly when ``step(state, action)`` would not refuse, given dice included."""
    return referee.legal(check, step, state, action)


def legal_actions(state: BattleState) -> tuple[Action, ...]:
    """Every action allowed now (distinct dice only), so a widget can offer exactly these."""
    candidates: list[Action] = [RollActionDice(), ArmourCheck(), Damage(False), Damage(True)]
    for side in SIDES:
        unit = state.unit(side)
        candidates += [ChooseOrder(side, True), ChooseOrder(side, False), OpenMelee(side), Melee(side),
                       EndAction(side), Concede(side)]
        faces = sorted(set(unit.dice), reverse=True)
        for weapon in unit.sheet.weapons:
            candidates += [Shoot(side, weapon.key, d) for d in faces]
            candidates += [SwapWeapon(side, weapon.key, None)] + [SwapWeapon(side, weapon.key, d) for d in faces]
        pairs = sorted({tuple(sorted((unit.dice[i], unit.dice[j]), reverse=True))
                        for i in range(len(unit.dice)) for j in range(i + 1, len(unit.dice))}, reverse=True)
        candidates += [ResponseAction(side, p) for p in pairs]
        candidates += [Approach(side, n) for n in range(unit.active + 1)]
    return tuple(a for a in candidates if is_legal(state, a))


def legal_kinds(state: BattleState) -> frozenset[str]:
    return frozenset(action_kind(a) for a in legal_actions(state))


# -- dice ------------------------------------------------------------------------------------


DiceInput = Sequence[int] | SeededDice | GivenDice | None


class _Dice:
    """Draws dice for one step from given faces or a seeded generator, recording what was drawn."""

    def __init__(self, source: DiceInput) -> None:
        if source is None or isinstance(source, (SeededDice, GivenDice)):
            self.source = source
            self.given = None
        else:
            self.given = GivenDice(list(source))
            self.source = self.given
        self.drawn: list[int] = []

    def draw(self, sides: int, what: str) -> int:
        if self.source is None:
            raise ValueError(f"{what} needs dice: pass dice=[...] or a SeededDice to step()")
        try:
            value = self.source.draw(sides)
        except DiceReplayError as error:
            raise DiceReplayError(f"{what}: {error}") from None
        self.drawn.append(value)
        return value

    def expression(self, expression: str, what: str) -> list[int]:
        return [self.draw(s, what) for s in dice_sides(parse(expression).root)]

    def finish(self) -> None:
        if self.given is not None:
            self.given.finish()


# -- steps ------------------------------------------------------------------------------------


@referee.refereed(legal_actions)
def step(state: BattleState, action: Action, dice: DiceInput = None) -> StepResult:
    """Apply one ``action`` to ``state``; refuse an illegal one with :class:`IllegalStep` (002 §1-1 to §7-2).

    Dice come from ``dice``: a list of faces used in order (all must be used), or a
    :class:`~rules_lib.dice.SeededDice` kept outside the frozen state. All checks happen before
    any die is drawn, so a refused step leaves the generator untouched too.
    """
    check(state, action)
    source = _Dice(dice)
    kind = action_kind(action)
    handler = {
        "roll": _roll, "order": _order, "open_melee": _open_melee, "shoot": _shoot, "response": _response,
        "swap": _swap, "approach": _approach, "melee": _melee, "armour": _armour, "damage": _damage,
        "end": _end, "concede": _concede,
    }[kind]
    new, lines = handler(state, action, source)
    source.finish()
    new = replace(new, log=state.log + tuple(lines))
    return StepResult(new, tuple(lines), tuple(source.drawn))


def play(state: BattleState, actions: Sequence[Action], dice: DiceInput = None) -> list[StepResult]:
    """Apply several actions in order with one dice source; returns every step's result."""
    source = dice if isinstance(dice, (SeededDice, GivenDice)) or dice is None else GivenDice(list(dice))
    results = []
    for action in actions:
        result = step(state, action, source)
        results.append(result)
        state = result.state
    if isinstance(source, GivenDice):
        source.finish()
    return results


def _roll(state: BattleState, action: RollActionDice, dice: _Dice):
    lines = [f"turn {state.turn}: action decision phase (行動決定フェイズ, 002 §1-1)"]
    units = []
    for unit in state.units:
        legs = sum(p in unit.destroyed for p in ("right_leg", "left_leg"))
        count = action_dice_count(legs)
        rolled = tuple(dice.draw(D6, "the action dice") for _ in range(count.dice))
        lines.append(f"{unit.name} rolls {count.dice}D6: {_faces(rolled)}"
                     + (f" ({'; '.join(count.steps[1:])})" if len(count.steps) > 1 else ""))
        units.append(replace(unit, rolled=rolled, dice=rolled, ranges_used=(), fired=(), approached=False,
                             dueled=False))
    a, b = (InitiativeSide(u.rolled, u.sheet.sensors, u.sheet.agility) for u in units)
    pairs: list[tuple[int, int]] = []
    while True:
        try:
            result = initiative(a, b, d20=pairs)
            break
        except ValueError:
            if len(pairs) > 50:
                raise
            pairs.append((dice.draw(TIE_BREAK_SIDES, "the 1D20 tie-break"), dice.draw(TIE_BREAK_SIDES, "the 1D20 tie-break")))
    lines += [f"initiative: {s}" for s in result.steps]
    for unit in units:
        if len(unit.rolled) == 3 and may_open_melee(unit.rolled).allowed:
            lines.append(f"{unit.name} rolled a triple (三ゾロ目): it may open the melee phase and become second (002 §1-1)")
    new = replace(state, units=tuple(units), phase="order", chooser=result.chooser, first=None, actor=None,
                  melee_opener=None, closed_in=None, pending=())
    return new, lines


def _order(state: BattleState, action: ChooseOrder, dice: _Dice):
    first = action.side if action.go_first else other(action.side)
    lines = [f"{action.side} chooses to go {'first (先攻)' if action.go_first else 'second (後攻)'}: "
             f"{state.unit(first).name} acts first, then {state.unit(other(first)).name} (002 §1-1)"]
    return replace(state, phase="acting", first=first, actor=first), lines + [_start(state, first)]


def _open_melee(state: BattleState, action: OpenMelee, dice: _Dice):
    first = other(action.side)
    lines = [f"{state.unit(action.side).name} opens the melee phase (格闘戦フェイズ) with its triple and "
             f"automatically becomes the second player (後攻) (002 §1-1)",
             f"{state.unit(first).name} is first: it may shoot before the duel (002 §1-1)"]
    return replace(state, phase="acting", first=first, actor=first, melee_opener=action.side), lines + [_start(state, first)]


def _start(state: BattleState, side: str) -> str:
    unit = state.unit(side)
    return f"{unit.name}'s action: unspent action dice {_faces(unit.dice)}, active value {unit.active}"


def _update(state: BattleState, unit: BattleUnit, **changes) -> BattleState:
    return replace(state, units=state.with_unit(unit), **changes)


def _shoot(state: BattleState, action: Shoot, dice: _Dice):
    unit, weapon = _check_shoot(state, action)
    count = attack_count(unit.dice, weapon, state.rules.extended)
    remaining = list(unit.dice)
    remaining.remove(action.die)
    target = state.opponent(action.side)
    lines = [f"shooting phase (射撃フェイズ, 002 §2-1): {'; '.join(count.steps)}",
             f"{unit.name} fires the {weapon.name} at {target.name} with the {action.die}; dice left "
             f"{_faces(remaining)}",
             f"next: the armour check (装甲判定フェイズ, 002 §3-1): {weapon.attack} against armour {target.sheet.armour}"]
    new_unit = replace(unit, dice=tuple(remaining), ranges_used=unit.ranges_used + (action.die,),
                       fired=unit.fired + (weapon.key,))
    return _update(state, new_unit, phase="armour", pending=(Hit(action.side, weapon.key, "shooting"),)), lines


def _response(state: BattleState, action: ResponseAction, dice: _Dice):
    unit = _check_response(state, action)
    spent = response_action(unit.dice, action.give_up)
    new_unit = replace(unit, dice=spent.remaining, active=unit.active + spent.active_gain)
    lines = [f"response action (対応行動, 002 §1-1): {unit.name} gives up {_faces(spent.given_up)} for "
             f"+{spent.active_gain} active value: {unit.active} → {new_unit.active}; {spent.steps[1]}"]
    return _update(state, new_unit), lines


def _swap(state: BattleState, action: SwapWeapon, dice: _Dice):
    unit, weapon = _check_swap(state, action)
    spent = weapon_swap(unit.dice, action.give_up, weapon)
    new_unit = replace(unit, dice=spent.remaining, in_hand=weapon.key)
    lines = [f"weapon swap (武器の持ち替え, 002 §1-1): {unit.name} takes up the {weapon.name}; " + "; ".join(spent.steps)]
    return _update(state, new_unit), lines


def _approach(state: BattleState, action: Approach, dice: _Dice):
    unit, weapon = _check_approach(state, action)
    shooter = state.opponent(action.side)
    n_shooter = shooter_dice(shooter.ranges_used)
    n_approacher = approacher_dice(unit.sheet.mobility, action.active_spent)
    remaining = list(unit.dice)
    remaining.remove(weapon.range)
    rolled_a = [dice.draw(D6, "the approach") for _ in range(n_approacher)]
    rolled_s = [dice.draw(D6, "the approach") for _ in range(n_shooter)]
    result = approach(rolled_a, rolled_s, state.rules.approach_compare)
    lines = [f"approach phase (接近フェイズ, 002 §5-1): {unit.name} uses its {weapon.range} for the {weapon.name}"
             f"; dice left {_faces(remaining)}",
             f"{unit.name} rolls mobility {unit.sheet.mobility} + {action.active_spent} active value = "
             f"{n_approacher} dice; {shooter.name} shot at range {min(shooter.ranges_used)}, so rolls {n_shooter}",
             *result.steps]
    new_unit = replace(unit, dice=tuple(remaining), active=unit.active - action.active_spent, approached=True)
    if not result.success:
        return _update(state, new_unit), lines
    lines.append(f"the {weapon.name} strikes (002 §5-2): armour check next, no attenuation, no multiple hits")
    return _update(state, new_unit, phase="armour", closed_in=action.side,
                   pending=(Hit(action.side, weapon.key, "approach"),)), lines


def _melee(state: BattleState, action: Melee, dice: _Dice):
    unit, weapon = _check_melee(state, action)
    target = state.opponent(action.side)
    target_weapon = target.melee_weapon()
    armed = target_weapon is not None and target.unusable_reason(target_weapon) is None
    lines = [f"melee duel (格闘戦フェイズ, 002 §6-1, §6-2): {unit.name} (the attacker) with {_faces(unit.rolled)} "
             f"against {target.name} with {_faces(target.rolled)}, the dice as rolled"]
    if len(target.rolled) != 3:
        lines.append(f"{target.name} has {len(target.rolled)} action dice, not three: it cannot answer in the duel, "
                     f"so {unit.name} hits automatically, without a multiplier (ruling, as against a defender "
                     "without a melee weapon, 002 §6-1)")
        new_unit = replace(unit, dice=(), dueled=True)
        return _update(state, new_unit, phase="armour", closed_in=action.side,
                       pending=(Hit(action.side, weapon.key, "duel"),)), lines
    result = duel(unit.rolled, target.rolled, state.rules.duel, "duel" if armed else "no_melee_weapon")
    names = {"A": unit.name, "B": target.name}
    lines += [names[s[0]] + s[1:] if s[:2] in ("A ", "B ") else s for s in result.steps]
    hits: list[Hit] = []
    if result.outcome in ("A", "mutual"):
        hits.append(Hit(action.side, weapon.key, "duel", result.multiplier if result.outcome == "A" else 1))
    if result.outcome in ("B", "mutual") and armed:
        hits.append(Hit(target.side, target_weapon.key, "duel", result.multiplier if result.outcome == "B" else 1))
    for hit in hits:
        lines.append(f"{state.unit(hit.attacker).name} strikes with the {state.unit(hit.attacker).weapon(hit.weapon).name}"
                     + (f", ×{hit.multiplier} damage" if hit.multiplier > 1 else ""))
    new_unit = replace(unit, dice=(), dueled=True)
    return _update(state, new_unit, phase="armour" if hits else "acting", closed_in=action.side,
                   pending=tuple(hits)), lines


def _to_part(structure: int, damage: int, part_damage: str) -> int:
    """How much of ``damage`` reaches a part (mirrors :func:`apply_damage`): decides whether 1D20 is rolled."""
    if structure > 0:
        if damage < structure:
            return 0
        return damage if part_damage == "whole" else damage - structure
    return damage


def _hurt(state: BattleState, target: BattleUnit, amount: int, dice: _Dice, lines: list[str]) -> BattleUnit:
    location = None
    if _to_part(target.structure, amount, state.rules.part_damage):
        location = dice.draw(20, "the hit-location roll")
        lines.append(f"destruction phase (破壊フェイズ, 002 §7-1): structure reaches 0, {LOCATION_ROLL} for the part hit")
    outcome = apply_damage(target.condition, amount, location, target.sheet.body, state.rules.part_damage)
    lines += [f"{target.name}: {s}" for s in outcome.steps]
    if outcome.destroyed_now:
        effects = destruction_effects(outcome.destroyed_now)
        lines += [f"{target.name}: {s}" for s in effects.steps]
    return replace(target, condition=outcome.state)


def _after_hit(state: BattleState, lines: list[str]) -> BattleState:
    """Next hit, back to the actor, or the end of the battle when a torso is destroyed."""
    pending = state.pending[1:]
    if pending:
        return replace(state, pending=pending, phase="armour")
    out = [u for u in state.units if u.out_of_action]
    if out:
        if len(out) == 2:
            lines.append("both units are destroyed: the battle ends in a draw (002 §7-2)")
            return replace(state, pending=(), phase="over", winner=None, actor=None,
                           end_reason="both units are destroyed")
        loser = out[0]
        winner = other(loser.side)
        lines.append(f"{loser.name} is destroyed: the battle is over, {state.unit(winner).name} wins (002 §7-2)")
        return replace(state, pending=(), phase="over", winner=winner, actor=None,
                       end_reason=f"{loser.name}'s torso is destroyed")
    return replace(state, pending=(), phase="acting")


def _armour(state: BattleState, action: ArmourCheck, dice: _Dice):
    hit = state.pending[0]
    attacker, target = state.unit(hit.attacker), state.opponent(hit.attacker)
    weapon = attacker.weapon(hit.weapon)
    rolled = dice.expression(weapon.attack, "the attack roll")
    result = armour_check(weapon.attack, target.sheet.armour, dice=rolled)
    lines = [f"armour check (装甲判定フェイズ, 002 §3-1): {attacker.name}'s {weapon.name}, attack {weapon.attack} "
             f"against {target.name}'s armour (装甲値) {target.sheet.armour}", *result.steps]
    if result.penetrated:
        lines.append(f"next: damage (ダメージ決定フェイズ, 002 §4-1): {weapon.damage}"
                     + (" (melee: attenuation does not apply)" if hit.melee else f" − attenuation {target.sheet.attenuation}"))
        return replace(state, phase="damage", pending=(replace(hit, attack_total=result.attack),) + state.pending[1:]), lines
    new_target = _hurt(state, target, UNPENETRATED_STRUCTURE_LOSS, dice, lines)
    new = _update(state, new_target)
    return _after_hit(new, lines), lines


def _damage(state: BattleState, action: Damage, dice: _Dice):
    hit = state.pending[0]
    attacker, target = state.unit(hit.attacker), state.opponent(hit.attacker)
    weapon = attacker.weapon(hit.weapon)
    rolled = dice.expression(weapon.damage, "the damage roll")
    result = roll_damage(weapon.damage, target.sheet.attenuation, melee=hit.melee, multiplier=hit.multiplier,
                         dice=rolled)
    lines = [f"damage (ダメージ決定フェイズ, 002 §4-1): {attacker.name}'s {weapon.name}, {weapon.damage}", *result.steps,
             f"damage {result.damage}"]
    amount = result.damage
    if action.defend:
        cost = interrupt_cost("defence", target.head_destroyed)
        amount = defended(result.damage, state.rules.defence_rounding)
        target = replace(target, active=target.active - cost)
        lines.append(f"{target.name} defends (防御行動, 002 §H6): {cost} active value, damage halved "
                     f"{result.damage} → {amount} (rounded {state.rules.defence_rounding}); active value left {target.active}")
    new_target = _hurt(state, target, amount, dice, lines)
    new = _update(state, new_target)
    return _after_hit(new, lines), lines


def _end(state: BattleState, action: EndAction, dice: _Dice):
    unit = state.unit(action.side)
    left = f"; unused dice {_faces(unit.dice)} are lost" if unit.dice else ""
    if action.side == state.first:
        second = other(action.side)
        lines = [f"{unit.name} ends its action{left}", _start(state, second)]
        return replace(state, actor=second), lines
    lines = [f"{unit.name} ends its action{left}", f"end of turn {state.turn} (フェイズの終了, 002 §7-2)"]
    units = state.units
    if state.rules.active_refresh == "each_turn":
        units = tuple(replace(u, active=u.sheet.active) for u in units)
        lines.append("active values return to the sheet's (BattleRules.active_refresh='each_turn', not in the source text)")
    units = tuple(replace(u, dice=(), ranges_used=(), fired=()) for u in units)
    lines.append(f"turn {state.turn + 1}: roll the action dice")
    return replace(state, units=units, turn=state.turn + 1, phase="decision", chooser=None, first=None, actor=None,
                   melee_opener=None, closed_in=None), lines


def _concede(state: BattleState, action: Concede, dice: _Dice):
    unit = state.unit(action.side)
    winner = other(action.side)
    parts = ", ".join(p.replace("_", " ") for p in unit.destroyed)
    lines = [f"{unit.name} ({parts} destroyed) declares defeat and concedes (投了, 002 §7-1): "
             f"{state.unit(winner).name} wins"]
    return replace(state, phase="over", winner=winner, actor=None, pending=(),
                   end_reason=f"{unit.name} conceded"), lines


# -- odds at a decision ------------------------------------------------------------------------


def initiative_chance(a: BattleUnit, b: BattleUnit, dice_a: int = 3, dice_b: int = 3) -> dict[str, Fraction]:
    """Exact chances, before the roll, that A's sum + sensors is higher, equal or lower than B's (002 §1-1)."""
    da = pool_distribution(dice_a).map(lambda s: s + a.sheet.sensors)
    db = pool_distribution(dice_b).map(lambda s: s + b.sheet.sensors)
    higher = tie = Fraction(0)
    for x, p in da.items():
        for y, q in db.items():
            if x > y:
                higher += p * q
            elif x == y:
                tie += p * q
    return {"higher": higher, "tie": tie, "lower": 1 - higher - tie}


@dataclass(frozen=True)
class DecisionOdds:
    """The exact odds of an action, in words and numbers (``chance`` is the headline chance)."""

    chance: Fraction | None
    mean_damage: Fraction | None
    text: str


def decision_odds(state: BattleState, action: Action) -> DecisionOdds:
    """The exact odds the player faces when choosing ``action`` (only for legal actions): penetration and
    damage (002 §3-1, §4-1), the approach (§5-1), the duel (§6-2), defence (§H6) and the part roll (§7-1)."""
    check(state, action)
    kind = action_kind(action)
    if kind == "shoot":
        unit = state.unit(action.side)
        weapon = unit.weapon(action.weapon)
        target = state.opponent(action.side)
        return _hit_odds(weapon, target, melee=False, multiplier=1, prefix=f"the {weapon.name} against {target.name}")
    if kind == "armour":
        hit = state.pending[0]
        weapon = state.unit(hit.attacker).weapon(hit.weapon)
        target = state.opponent(hit.attacker)
        return _hit_odds(weapon, target, hit.melee, hit.multiplier, prefix=f"the {weapon.name} against {target.name}")
    if kind == "damage":
        hit = state.pending[0]
        weapon = state.unit(hit.attacker).weapon(hit.weapon)
        target = state.opponent(hit.attacker)
        dist = damage_distribution(weapon.damage, target.sheet.attenuation, hit.melee, hit.multiplier)
        if action.defend:
            dist = dist.map(lambda d: defended(d, state.rules.defence_rounding))
        reach = dist.probability(lambda d: _to_part(target.structure, d, state.rules.part_damage) > 0)
        how = "defending (damage halved)" if action.defend else "not defending"
        return DecisionOdds(reach, dist.mean(),
                            f"{how}: mean damage {float(dist.mean()):.2f}; chance that it reaches a part "
                            f"(structure {target.structure} left) {reach} = {percent(reach)}")
    if kind == "approach":
        unit, target = state.unit(action.side), state.opponent(action.side)
        n = approacher_dice(unit.sheet.mobility, action.active_spent)
        m = shooter_dice(target.ranges_used)
        p = approach_chance(n, m, state.rules.approach_compare)
        return DecisionOdds(p, None, f"approach with {n} dice against {m}: succeeds {p} = {percent(p)}")
    if kind in ("melee", "open_melee"):
        unit, target = state.unit(action.side), state.opponent(action.side)
        weapon = target.melee_weapon()
        if len(target.rolled) != 3 or weapon is None or target.unusable_reason(weapon):
            return DecisionOdds(Fraction(1), None, f"{target.name} cannot answer in the duel: an automatic hit")
        o = duel_odds(unit.rolled, target.rolled, state.rules.duel)
        return DecisionOdds(o.win, None, f"duel {_faces(unit.rolled)} against {_faces(target.rolled)}: "
                                         f"win {percent(o.win)}, mutual {percent(o.mutual)}, lose {percent(o.lose)}")
    return DecisionOdds(None, None, "")


def _hit_odds(weapon: Weapon, target: BattleUnit, melee: bool, multiplier: int, prefix: str) -> DecisionOdds:
    p = penetration_chance(weapon.attack, target.sheet.armour)
    dist = damage_distribution(weapon.damage, target.sheet.attenuation, melee, multiplier)
    return DecisionOdds(p, dist.mean(),
                        f"{prefix}: {weapon.attack} exceeds armour {target.sheet.armour} with chance {p} = {percent(p)}; "
                        f"if it does, mean damage {float(dist.mean()):.2f} "
                        f"({min(dist.support)} to {max(dist.support)})")


def damage_odds(state: BattleState) -> Distribution:
    """The exact damage distribution of the hit waiting in the damage phase (002 §4-1)."""
    if state.phase != "damage":
        raise IllegalStep("no hit waits for damage")
    hit = state.pending[0]
    weapon = state.unit(hit.attacker).weapon(hit.weapon)
    target = state.opponent(hit.attacker)
    return damage_distribution(weapon.damage, target.sheet.attenuation, hit.melee, hit.multiplier)


# -- display ------------------------------------------------------------------------------------

_COLOURS = {"A": "#1565c0", "B": "#c62828"}
_PART_NAMES = {"head": "head", "torso": "torso", "right_arm": "R arm", "left_arm": "L arm",
               "right_leg": "R leg", "left_leg": "L leg"}


def status_line(state: BattleState) -> str:
    """Turn, phase and whose action it is, in words."""
    if state.phase == "over":
        who = state.unit(state.winner).name if state.winner else "nobody"
        return f"the battle is over after turn {state.turn}: {state.end_reason}; {who} wins"
    text = f"turn {state.turn}: {PHASE_LABELS[state.phase]}"
    if state.phase == "order":
        text += f"; {state.chooser} won the initiative and chooses"
    if state.actor:
        text += f"; {state.unit(state.actor).name} is acting ({'first' if state.actor == state.first else 'second'})"
    if state.pending:
        hit = state.pending[0]
        text += f"; waiting: {state.unit(hit.attacker).name}'s {state.unit(hit.attacker).weapon(hit.weapon).name}"
    return text


def _die(face: int, spent: bool) -> str:
    style = ("display:inline-block;width:1.5em;height:1.5em;line-height:1.5em;text-align:center;margin:0 2px;"
             "border:1px solid #444;border-radius:4px;font-weight:bold;")
    if spent:
        style += "color:#aaa;border-color:#ccc;text-decoration:line-through;"
    return f"<span style='{style}'>{face}</span>"


def _bar(value: int, full: int, colour: str) -> str:
    width = 8 * value / full if full else 0
    return (f"<span style='display:inline-block;width:8em;height:0.7em;background:#eee;vertical-align:middle'>"
            f"<span style='display:block;width:{width:.2f}em;height:0.7em;background:{colour}'></span></span> "
            f"{value} / {full}")


def board_html(state: BattleState) -> str:
    """A status board of both units: structure, parts, active value, weapon in hand, and the action dice
    (spent ones struck through), with the turn and phase as caption."""
    rows = {"role": [], "structure (構造値)": [], "parts (部位耐久値)": [], "active value (能動値)": [],
            "in hand": [], "action dice": [], "shots this turn": []}
    for unit in state.units:
        colour = _COLOURS[unit.side]
        role = []
        if state.first:
            role.append("first (先攻)" if unit.side == state.first else "second (後攻)")
        if state.actor == unit.side:
            role.append("<b>acting</b>")
        if state.melee_opener == unit.side:
            role.append("opened melee")
        if state.closed_in == unit.side:
            role.append("closed in (melee distance)")
        if unit.out_of_action:
            role.append("<b>destroyed (行動不能)</b>")
        rows["role"].append(", ".join(role) or "—")
        rows["structure (構造値)"].append(_bar(unit.structure, unit.sheet.structure, colour))
        parts = []
        for part, full in unit.sheet.part_durability.items():
            left = unit.condition.parts[part]
            label = unit.sheet.part_labels.get(part, PART_LABELS[part])
            style = "white-space:nowrap;margin-right:0.6em;"
            if part in unit.destroyed:
                style += "color:#b71c1c;text-decoration:line-through;"
            parts.append(f"<span title='{html.escape(label)}' style='{style}'>{_PART_NAMES[part]} {left}/{full}</span>")
        rows["parts (部位耐久値)"].append(" ".join(parts))
        rows["active value (能動値)"].append(str(unit.active))
        weapon = unit.weapon(unit.in_hand)
        usable = "" if unit.unusable_reason(weapon) is None else " (unusable: arm destroyed)"
        rows["in hand"].append(f"{html.escape(weapon.name)} ({unit.grip.label}){usable}")
        spent = Counter(unit.spent)
        shown = []
        for face in unit.rolled:
            if spent[face]:
                spent[face] -= 1
                shown.append(_die(face, True))
            else:
                shown.append(_die(face, False))
        rows["action dice"].append("".join(shown) or "—")
        rows["shots this turn"].append(", ".join(f"range {r}" for r in unit.ranges_used) or "—")
    head = "".join(f"<th style='color:{_COLOURS[u.side]};padding:0.2em 0.8em'>{html.escape(u.name)}</th>"
                   for u in state.units)
    body = "".join(f"<tr><th style='text-align:left;padding:0.2em 0.8em'>{html.escape(k)}</th>"
                   + "".join(f"<td style='padding:0.2em 0.8em'>{v}</td>" for v in values) + "</tr>"
                   for k, values in rows.items())
    caption = html.escape(status_line(state))
    return (f"<table class='nemesis-board' style='border-collapse:collapse;margin:0.4em 0'>"
            f"<caption style='caption-side:top;text-align:left;font-weight:bold'>{caption}</caption>"
            f"<thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table>")


def log_html(lines: Sequence[str], last: int | None = None) -> str:
    """Log lines as an HTML list (the ``last`` lines only, when given)."""
    shown = list(lines)[-last:] if last else list(lines)
    return "<ol style='font-size:0.85em;margin:0'>" + "".join(f"<li>{html.escape(s)}</li>" for s in shown) + "</ol>"


def explanation_html(result: StepResult) -> str:
    """One step's explanation as HTML, with the dice it drew."""
    dice = f"<p>dice drawn: {' '.join(_die(d, False) for d in result.dice)}</p>" if result.dice else ""
    return dice + "<ul style='margin:0'>" + "".join(f"<li>{html.escape(s)}</li>" for s in result.explanation) + "</ul>"


__all__ = [
    "ACTION_KINDS", "PHASES", "PHASE_LABELS", "SIDES",
    "Action", "Approach", "ArmourCheck", "BattleRules", "BattleState", "BattleUnit", "ChooseOrder", "Concede",
    "Damage", "DecisionOdds", "EndAction", "Hit", "IllegalStep", "Melee", "OpenMelee", "ResponseAction",
    "RollActionDice", "Shoot", "StepResult", "SwapWeapon",
    "action_kind", "board_html", "check", "damage_odds", "decision_odds", "explanation_html", "initiative_chance",
    "is_legal", "legal_actions", "legal_kinds", "log_html", "make_unit", "new_battle", "play", "status_line", "step",
]
