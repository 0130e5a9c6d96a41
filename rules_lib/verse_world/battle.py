"""A guided first battle: two piloted mecha (機兵) on the square combat map, step by step (004 §3-4).

The state is frozen; :func:`step` applies one action with the chapter's rule functions and
returns the new state with a plain-English explanation:

- initiative: :func:`~rules_lib.verse_world.initiative_roll` and
  :func:`~rules_lib.verse_world.turn_order` (004 §3-4-1), delays included;
- movement: :func:`~rules_lib.verse_world.walk_path` for each step (costs, locomotion modes, the
  last-step rule, 004 §3-4-2-1, §3-4-3-1), :func:`~rules_lib.verse_world.plan_move` for the reachable
  squares, the mode's mecha MP (機兵MP) from :func:`~rules_lib.verse_world.drain_distribution`'s dice;
- attack: :func:`~rules_lib.verse_world.attack_roll`, :func:`~rules_lib.verse_world.evasion_roll`,
  :func:`~rules_lib.verse_world.resolve_attack`, :func:`~rules_lib.verse_world.damage_taken`,
  :func:`~rules_lib.verse_world.fumble_check` (004 §3-4-2-2), the front squares and the firing arc
  (:func:`~rules_lib.verse_world.can_melee`, :func:`~rules_lib.verse_world.in_firing_arc`), a charge
  (:func:`~rules_lib.verse_world.charge`, 004 §3-4-3-1);
- end of the turn: :func:`~rules_lib.verse_world.extra_action_check` and
  :func:`~rules_lib.verse_world.extra_action_roll` (004 §3-4-1), then the pilot's MP drain
  :func:`~rules_lib.verse_world.pilot_mp_loss` (004 §3-4-1, L21).

An illegal action raises :class:`IllegalStep` (a ``ValueError``) naming the reason before any
die is drawn, and the state passed in is unchanged. Dice come from the action (``dice=[...]``,
used in the order the action's docstring gives) or from a :class:`~rules_lib.dice.SeededDice`
kept outside the state.

Everything the text does not give is *not in the source text*: the units and their values
(:func:`sample_units`), the map, the GM's fumble difficulty, and the critical rule, which
:func:`new_battle` requires with no default (see :class:`~rules_lib.verse_world.CriticalRule`).
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import product
from typing import Literal

from .. import battle as referee
from ..battle import ActionDice, IllegalStep, StepResult
from ..dice import Distribution, SeededDice, percent
from ..geometry.square import ORTHOGONAL_STEPS, TURNS, Facing, Pose, Square, grid_svg, reachable
from ..geometry.square import Step as GridStep
from ._common import check_choice, check_int
from .attack import (
    FUMBLE_DIFFICULTY_RANGE,
    AttackOdds,
    CriticalRule,
    TieRule,
    attack_odds,
    attack_roll,
    can_melee,
    damage_taken,
    evasion_roll,
    fumble_check,
    in_firing_arc,
    resolve_attack,
)
from .movement import MovePlan, locomotion_mode, move_costs, step_cost, walk_path
from .mp import drain_distribution, pilot_mp_loss, pilot_mp_loss_distribution
from .ranged import physical_bonus_applies, ranged_weapon
from .special import CHARGE_MIN_SQUARES, charge, stand_up
from .turn import (
    Combatant,
    TurnOrder,
    action_step_allowed,
    extra_action_chance,
    extra_action_check,
    extra_action_roll,
    initiative_roll,
    turn_order,
)

Phase = Literal["initiative", "action", "end-of-turn", "over"]
PHASES: tuple[str, ...] = ("initiative", "action", "end-of-turn", "over")
WeaponKind = Literal["melee", "ranged"]
WeaponCondition = Literal["ready", "dropped", "broken"]
#: Steps a move may take, as the geometry names them (004 §3-4-2-1; a locomotion mode may forbid some).
MOVE_STEPS: tuple[str, ...] = ("forward", "backward", "left", "right", "turn-left", "turn-right")
#: Kinds of action, in the order a widget shows them.
ACTION_KINDS: tuple[str, ...] = (
    "initiative", "delay", "move", "attack", "reload", "stand-up", "end-action", "extra-action", "end-turn",
)
SAMPLE = "sample value, not in the source text"




# -- units ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Weapon:
    """A mecha's weapon. ``damage`` is dice of six sides (``"3D6"``); the values are *not in the source text*.

    ``kind`` ``"melee"`` attacks one enemy in the three front squares (004 §3-4-2-2); ``"ranged"``
    attacks into the firing arc (004 §3-4-2-3) and names its ``ranged_class`` (``"magic-gun"``, ...).
    A magic gun has ``loaded`` shots of a ``magazine`` and ``spares`` spare magazines; reloading one
    takes a combat turn (004 §3-4-2-3, L71). ``condition``: ``"ready"``, ``"dropped"`` (a failed
    fumble check, L43) or ``"broken"`` (an over-critical evasion's mishap, L51).
    """

    name: str
    japanese: str
    kind: WeaponKind
    damage: str
    ranged_class: str | None = None
    magazine: int | None = None
    loaded: int | None = None
    spares: int = 0
    condition: WeaponCondition = "ready"

    def __post_init__(self) -> None:
        check_choice(self.kind, f"{self.name}'s kind", ("melee", "ranged"))
        if not re.fullmatch(r"[1-9]\d*D6", self.damage):
            raise ValueError(f"{self.name}'s damage {self.damage!r} is not dice of six sides such as '3D6'")
        check_choice(self.condition, f"{self.name}'s condition", ("ready", "dropped", "broken"))
        if self.kind == "ranged":
            if self.ranged_class is None:
                raise ValueError(f"ranged weapon {self.name} needs its ranged_class ('magic-gun', ...)")
            if ranged_weapon(self.ranged_class).key != "magic-gun":
                raise ValueError(f"the first battle plays magic guns only, not a {self.ranged_class}")
            check_int(self.magazine, f"{self.name}'s magazine", minimum=1)
            check_int(self.loaded, f"{self.name}'s loaded shots", minimum=0, maximum=self.magazine)
        check_int(self.spares, f"{self.name}'s spare magazines", minimum=0)

    @property
    def dice(self) -> int:
        """How many six-sided dice one damage roll uses."""
        return int(self.damage[:-2])

    @property
    def bonus_applies(self) -> bool:
        """Whether the physical damage bonus is added: melee yes, a magic gun no (004 §3-4-2-3, L72)."""
        return self.kind == "melee" or physical_bonus_applies(self.ranged_class)

    def describe(self) -> str:
        text = f"{self.name} ({self.japanese}): {self.kind}, damage {self.damage}"
        if self.magazine is not None:
            text += f", {self.loaded}/{self.magazine} loaded, {self.spares} spare magazine(s)"
        if self.condition != "ready":
            text += f" [{self.condition}]"
        return text


@dataclass(frozen=True)
class Unit:
    """A pilot (操手) in a mecha (機兵) on the map. Every number is a *sample value, not in the source text*.

    Pilot: ``initiative_bonus`` (イニシアティブボーナス), ``reaction`` (再行動値), ``luck`` (幸運値,
    for the fumble check), ``pilot_mp``. Mecha: ``to_hit`` (命中基本値), ``evasion`` (回避基本値),
    ``physical_bonus`` (物理ダメージボーナス), ``protection`` (最終防護点), ``hp``, ``mecha_mp``
    (機兵MP, spent by locomotion modes), ``movement`` (移動力, mecha scale), ``modes`` (the locomotion
    modes it is fitted for, walking always), ``weapons``, ``pose`` (square and facing).
    """

    name: str
    pilot: str
    side: Literal["pc", "gm"]
    initiative_bonus: int
    reaction: int
    luck: int
    pilot_mp: int
    to_hit: int
    evasion: int
    physical_bonus: int
    protection: int
    hp: int
    max_hp: int
    mecha_mp: int
    movement: int
    modes: tuple[str, ...]
    weapons: tuple[Weapon, ...]
    pose: Pose
    prone: bool = False

    def __post_init__(self) -> None:
        check_choice(self.side, f"{self.name}'s side", ("pc", "gm"))
        for label in ("initiative_bonus", "reaction", "luck", "to_hit", "evasion"):
            check_int(getattr(self, label), f"{self.name}'s {label.replace('_', ' ')}")
        for label in ("physical_bonus", "protection", "mecha_mp", "movement", "pilot_mp"):
            check_int(getattr(self, label), f"{self.name}'s {label.replace('_', ' ')}", minimum=0)
        check_int(self.max_hp, f"{self.name}'s max HP", minimum=1)
        check_int(self.hp, f"{self.name}'s HP")
        for mode in self.modes:
            locomotion_mode(mode)
        if "walk" not in self.modes:
            raise ValueError(f"{self.name}'s modes {self.modes} must include 'walk'")
        names = [w.name for w in self.weapons]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}'s weapons need different names: {names}")

    @property
    def down(self) -> bool:
        """Out of the fight: HP 0 or less, or the pilot's MP used up (readings, see :func:`new_battle`)."""
        return self.hp <= 0 or self.pilot_mp <= 0

    def weapon(self, name: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        raise IllegalStep(f"{self.name} has no weapon {name!r}: its weapons are {', '.join(w.name for w in self.weapons)}")

    def with_weapon(self, weapon: Weapon) -> Unit:
        return replace(self, weapons=tuple(weapon if w.name == weapon.name else w for w in self.weapons))


def sample_units() -> tuple[Unit, Unit]:
    """The book's two sample mecha. **Every value is a sample, not in the source text** (004 gives no unit sheets).

    *Lance*, piloted by Aria (player side): a long sword (長剣, 3D6 like the text's example, L44) and
    magic thrusters (魔導スラスター). *Bandit*, piloted by Rook (GM side): a heavy axe, a magic gun
    (魔導砲) with 2 shots a magazine and one spare, and a spinner (機走輪) for roller movement.
    """
    lance = Unit(
        "Lance", "Aria", "pc", initiative_bonus=3, reaction=5, luck=7, pilot_mp=12,
        to_hit=8, evasion=6, physical_bonus=3, protection=4, hp=30, max_hp=30, mecha_mp=20, movement=40,
        modes=("walk", "thruster"),
        weapons=(Weapon("long sword", "長剣", "melee", "3D6"),),
        pose=Pose(Square(2, 8), Facing.NORTH),
    )
    bandit = Unit(
        "Bandit", "Rook", "gm", initiative_bonus=4, reaction=3, luck=6, pilot_mp=10,
        to_hit=6, evasion=5, physical_bonus=2, protection=5, hp=26, max_hp=26, mecha_mp=15, movement=40,
        modes=("walk", "roller"),
        weapons=(Weapon("heavy axe", "大斧", "melee", "2D6"),
                 Weapon("magic gun", "魔導砲", "ranged", "2D6", "magic-gun", magazine=2, loaded=2, spares=1)),
        pose=Pose(Square(2, 1), Facing.SOUTH),
    )
    return lance, bandit


# -- rules and state ------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleRules:
    """The readings a battle is played with. ``criticals`` has no default (*not in the source text*).

    ``width`` x ``height``: the map (*sample values, not in the source text*). ``fumble_difficulty``:
    the GM's difficulty for the fumble's luck check, 9 to 16 (004 §3-4-2-2, L43; the value is a sample).
    ``tie``, ``npcs_after_pcs``, ``candidate_rule``: the chapter's rulings (a tie goes to the defender,
    GM characters after players on ties, the extra action for the first character who actually acted).
    """

    criticals: CriticalRule
    width: int = 6
    height: int = 10
    fumble_difficulty: int = 12
    tie: TieRule = "defender"
    npcs_after_pcs: Literal["on-ties", "always"] = "on-ties"
    candidate_rule: Literal["first-actor", "highest-initiative"] = "first-actor"

    def __post_init__(self) -> None:
        if not isinstance(self.criticals, CriticalRule):
            raise ValueError(f"criticals {self.criticals!r} is not a CriticalRule: the text defines none, choose one")
        check_int(self.width, "map width", minimum=2, maximum=40)
        check_int(self.height, "map height", minimum=2, maximum=40)
        low, high = FUMBLE_DIFFICULTY_RANGE
        check_int(self.fumble_difficulty, "fumble difficulty", minimum=low, maximum=high)
        check_choice(self.tie, "tie", ("defender", "attacker"))


@dataclass(frozen=True)
class Turn:
    """What the acting unit has done in its current action (one move, then one attack, 004 §3-4-2)."""

    mode: str | None = None
    points_left: int = 0
    steps: tuple[str, ...] = ()
    run: int = 0
    attacked: bool = False

    @property
    def moved(self) -> bool:
        return bool(self.steps)


@dataclass(frozen=True)
class BattleState:
    """Everything about the battle at one moment; frozen, so a refused step changes nothing.

    ``phase``: ``"initiative"`` (roll for the turn), ``"action"`` (``actor`` acts), ``"end-of-turn"``
    (the extra action, then the pilots' MP drain), ``"over"`` (``winner`` or a draw). ``order`` is the
    turn's acting order with delays; ``acted`` who has finished; ``extra`` whether the current
    action is the extra action; ``extra_tried`` whether the contest of this turn was rolled.
    """

    rules: BattleRules
    units: tuple[Unit, ...]
    turn: int = 1
    phase: Phase = "initiative"
    order: TurnOrder | None = None
    acted: tuple[str, ...] = ()
    actor: str | None = None
    current: Turn = field(default_factory=Turn)
    extra: bool = False
    extra_tried: bool = False
    extra_winner: str | None = None
    modes_used: tuple[tuple[str, str], ...] = ()
    winner: str | None = None
    log: tuple[str, ...] = ()

    def unit(self, name: str) -> Unit:
        for unit in self.units:
            if unit.name == name:
                return unit
        raise IllegalStep(f"there is no unit {name!r}: the units are {', '.join(u.name for u in self.units)}")

    def opponent(self, name: str) -> Unit:
        return next(u for u in self.units if u.name != name)

    def with_unit(self, unit: Unit) -> BattleState:
        return replace(self, units=tuple(unit if u.name == unit.name else u for u in self.units))

    def position(self, name: str) -> int:
        """The unit's place in this turn's acting order (1 = first)."""
        if self.order is None:
            raise IllegalStep("no acting order yet: roll initiative first")
        return next(s.position for s in self.order.slots if s.name == name)


def new_battle(
    *, criticals: CriticalRule, units: Sequence[Unit] | None = None, **rules: object
) -> BattleState:
    """A battle at the start of turn 1: roll initiative next.

    ``criticals`` must be given (the text never says which rolls are critical); other keywords
    go to :class:`BattleRules`. Readings used (*not in the source text*): a unit is down at HP 0 or
    less, or when its pilot's MP is used up (L21 calls the drain the mecha's operating limit); the
    battle ends when a unit is down; two units may not share a square or leave the map.
    """
    battle_rules = BattleRules(criticals, **rules)  # type: ignore[arg-type]
    units = tuple(units if units is not None else sample_units())
    if len(units) != 2 or units[0].name == units[1].name:
        raise ValueError("a first battle has two units with different names")
    for unit in units:
        if not _inside(unit.pose.square, battle_rules):
            raise ValueError(f"{unit.name} starts at {unit.pose.square}, outside the {battle_rules.width}x{battle_rules.height} map")
    if units[0].pose.square == units[1].pose.square:
        raise ValueError("the two units start on the same square")
    referee.refuse_broken_start(f"{u.name} is down (HP {u.hp}, pilot MP {u.pilot_mp})" for u in units if u.down)
    lines = [f"{u.name} ({u.side}, pilot {u.pilot}) at {u.pose}: HP {u.hp}, protection {u.protection}, "
             f"pilot MP {u.pilot_mp}, mecha MP {u.mecha_mp}, movement {u.movement} ({SAMPLE})" for u in units]
    lines.append(f"criticals: {criticals.name}")
    return BattleState(battle_rules, units, log=("Turn 1 begins.", *lines))


# -- actions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollInitiative:
    """Initiative bonus + 2D6 for each unit (004 §3-4-1). ``dice``: two per unit, in the units' order."""

    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Delay:
    """The acting unit declares a delay before doing anything: it acts at initiative value 0 (004 §3-4-1, L10)."""

    unit: str


@dataclass(frozen=True)
class Move:
    """Steps of the unit's one move, in a locomotion ``mode`` (004 §3-4-2-1, §3-4-3-1).

    A move may be given in several ``Move`` actions (a widget sends one step at a time) but uses one
    mode throughout (a ruling). ``dice``: the mode's mecha-MP cost (e.g. 3D6 for thrusters), rolled the
    first time the mode is used in the turn.
    """

    unit: str
    steps: tuple[str, ...]
    mode: str = "walk"
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Attack:
    """One attack with a weapon on the other unit (004 §3-4-2-2, §3-4-2-3), optionally a charge (§3-4-3-1).

    ``evade=False``: the defender gives up evasion. ``dice``, in order: the attack's 2D6, the
    evasion's 2D6 (unless given up or the attack fumbled), the damage dice on a hit (each roll in
    turn), and the luck check's 2D6 if the attacker fumbled or is treated as having fumbled.
    """

    unit: str
    weapon: str
    charge: bool = False
    evade: bool = True
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Reload:
    """Reload an empty magic gun from a spare magazine: the unit's whole action (004 §3-4-2-3, L71; a reading)."""

    unit: str
    weapon: str


@dataclass(frozen=True)
class StandUp:
    """Stand up after falling: the unit's whole action, no roll (004 §3-4-3-1, L105)."""

    unit: str


@dataclass(frozen=True)
class EndAction:
    """The acting unit ends its action."""

    unit: str


@dataclass(frozen=True)
class TryExtraAction:
    """The extra-action contest at the end of the turn (004 §3-4-1, L14-L17). ``dice``: active 2D6, passive 2D6."""

    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class EndTurn:
    """The end of the turn: each pilot loses 1D6-3 MP, at least 1 (004 §3-4-1, L21). ``dice``: one per unit."""

    dice: tuple[int, ...] | None = None


Action = RollInitiative | Delay | Move | Attack | Reload | StandUp | EndAction | TryExtraAction | EndTurn
_KINDS = {RollInitiative: "initiative", Delay: "delay", Move: "move", Attack: "attack", Reload: "reload",
          StandUp: "stand-up", EndAction: "end-action", TryExtraAction: "extra-action", EndTurn: "end-turn"}


def action_kind(action: Action) -> str:
    """``"initiative"``, ``"move"``, ``"attack"``, ... (see :data:`ACTION_KINDS`)."""
    try:
        return _KINDS[type(action)]
    except KeyError:
        raise IllegalStep(f"{action!r} is not a battle action") from None




# -- legality -------------------------------------------------------------------------------


def _inside(square: Square, rules: BattleRules) -> bool:
    return 0 <= square.x < rules.width and 0 <= square.y < rules.height


def _phase(state: BattleState, *phases: str, what: str) -> None:
    if state.phase == "over":
        raise IllegalStep(f"the battle is over: no {what}")
    if state.phase not in phases:
        need = {"initiative": "roll initiative first", "end-of-turn": "every unit has acted: end the turn",
                "action": "it is not a unit's action now"}[state.phase]
        raise IllegalStep(f"no {what} now: {need}")


def _check_actor(state: BattleState, name: str, what: str) -> Unit:
    unit = state.unit(name)
    if unit.down:
        why = "its HP is used up" if unit.hp <= 0 else "its pilot's MP is used up"
        raise IllegalStep(f"{name} is down ({why}) and cannot {what}")
    _phase(state, "action", what=what)
    if name != state.actor:
        raise IllegalStep(f"it is {state.actor}'s action, not {name}'s: {name} may not {what} out of turn")
    return unit


def _check_not_prone(unit: Unit, what: str) -> None:
    if unit.prone:
        raise IllegalStep(f"{unit.name} has fallen: it must stand up, which takes its whole action (004 §3-4-3-1, L105), "
                          f"before it can {what}")


def _check_move(state: BattleState, action: Move) -> tuple[Unit, Pose, int, list[str]]:
    unit = _check_actor(state, action.unit, "move")
    _check_not_prone(unit, "move")
    current = state.current
    # a move continues over several Move steps; what refuses it is an attack already made
    if not action_step_allowed(["attack"] if current.attacked else [], "move"):
        raise IllegalStep(f"{unit.name} has attacked: the move comes first, the attack after (004 §3-4-2)")
    if not action.steps:
        raise IllegalStep("a move needs at least one step")
    try:
        mode = locomotion_mode(action.mode).key
    except ValueError as error:
        raise IllegalStep(str(error)) from None
    if mode not in unit.modes:
        raise IllegalStep(f"{unit.name} is not fitted for {locomotion_mode(mode).english} movement: "
                          f"its modes are {', '.join(unit.modes)} (004 §3-4-3-1)")
    if current.mode is not None and current.mode != mode:
        raise IllegalStep(f"{unit.name}'s move this action is in {current.mode} mode: one move keeps one mode (a ruling)")
    if current.mode is None and mode != "walk" and unit.mecha_mp <= 0:
        raise IllegalStep(f"{unit.name} has no mecha MP (機兵MP) left for {mode} movement (004 §3-4-3-1)")
    points = current.points_left if current.mode is not None else unit.movement
    no_turning = (unit.name, "thruster") in state.modes_used
    pose = unit.pose
    enemy = state.opponent(unit.name).pose.square
    lines = []
    for label in action.steps:
        if label not in MOVE_STEPS:
            raise IllegalStep(f"step {label!r} is unknown: allowed are {', '.join(MOVE_STEPS)}")
        if no_turning and label.startswith("turn"):
            raise IllegalStep(f"{unit.name} used its thrusters this combat turn: no change of facing in that turn "
                              "(004 §3-4-3-1, L146)")
        try:
            path = walk_path([label], points, scale="mecha", mode=mode, start=pose)
        except ValueError as error:
            reason = str(error)
            if "no movement points are left" in reason:
                reason = f"{unit.name} has no movement points (移動力) left for '{label}' (004 §3-4-2-1)"
            raise IllegalStep(reason) from None
        after = path.end
        if not _inside(after.square, state.rules):
            raise IllegalStep(f"'{label}' would take {unit.name} to {after.square}, off the "
                              f"{state.rules.width}x{state.rules.height} map")
        if after.square == enemy:
            raise IllegalStep(f"'{label}' would take {unit.name} into {state.opponent(unit.name).name}'s square {enemy}")
        lines.append(f"{label}: {path.steps[0].split(': ', 1)[1]} -> {after}")
        points, pose = path.remaining, after
    cost_dice = _mode_dice(state, unit, mode)
    if action.dice and not cost_dice:
        raise IllegalStep(f"{mode} movement needs no dice now: its mecha MP ({locomotion_mode(mode).mecha_mp_per_turn}) "
                          + ("is 0" if locomotion_mode(mode).mecha_mp_per_turn == "0"
                             else "is fixed" if not _dice_of(locomotion_mode(mode).mecha_mp_per_turn)
                             else "is paid once a turn and was already paid"))
    _precheck_dice(action.dice, cost_dice, f"{mode} movement's mecha MP ({locomotion_mode(mode).mecha_mp_per_turn})")
    return unit, pose, points, lines


def _mode_pays(state: BattleState, unit: Unit, mode: str) -> bool:
    """Whether this move pays the mode's mecha MP: the first use of the mode by the unit in this combat turn."""
    return (state.current.mode is None and locomotion_mode(mode).mecha_mp_per_turn != "0"
            and (unit.name, mode) not in state.modes_used)


def _mode_dice(state: BattleState, unit: Unit, mode: str) -> int:
    return _dice_of(locomotion_mode(mode).mecha_mp_per_turn) if _mode_pays(state, unit, mode) else 0


def _check_attack(state: BattleState, action: Attack) -> tuple[Unit, Weapon, Unit]:
    unit = _check_actor(state, action.unit, "attack")
    _check_not_prone(unit, "attack")
    done = ["move"] * state.current.moved + ["attack"] * state.current.attacked
    if not action_step_allowed(done, "attack"):
        raise IllegalStep(f"{unit.name} has already attacked in this action: one attack per action (004 §3-4-2)")
    weapon = unit.weapon(action.weapon)
    if weapon.condition != "ready":
        raise IllegalStep(f"{unit.name}'s {weapon.name} is {weapon.condition}: it cannot attack with it")
    target = state.opponent(unit.name)
    here, facing, there = unit.pose.square, unit.pose.facing, target.pose.square
    if weapon.kind == "melee":
        if not can_melee(here, facing, there):
            raise IllegalStep(f"{target.name} at {there} is not in {unit.name}'s three front squares: "
                              f"a melee attack reaches only those (004 §3-4-2-2)")
    else:
        if not in_firing_arc(here, facing, there):
            raise IllegalStep(f"{target.name} at {there} is outside {unit.name}'s firing arc (射界), "
                              f"the 90-degree cone ahead (004 §3-4-2-3)")
        if weapon.magazine is not None and not weapon.loaded:
            raise IllegalStep(f"{unit.name}'s {weapon.name} is empty: reload it first (004 §3-4-2-3, L71)")
    if action.charge:
        if weapon.kind != "melee":
            raise IllegalStep("a charge ends in a melee attack after running into contact (004 §3-4-3-1, L89)")
        if state.current.run < CHARGE_MIN_SQUARES:
            raise IllegalStep(f"a charge needs {CHARGE_MIN_SQUARES} or more squares straight ahead into contact; "
                              f"{unit.name} ran {state.current.run} (004 §3-4-3-1, L89)")
        if state.extra:
            raise IllegalStep("a charge must come before the target's action (004 §3-4-3-1, L89); the extra action "
                              "comes after everyone's (a reading)")
        if state.position(unit.name) > state.position(target.name):
            raise IllegalStep(f"a charge must come before the target's action in the acting order (004 §3-4-3-1, L89): "
                              f"{unit.name} acts after {target.name}")
    return unit, weapon, target


def _check_reload(state: BattleState, action: Reload) -> tuple[Unit, Weapon]:
    unit = _check_actor(state, action.unit, "reload")
    _check_not_prone(unit, "reload")
    weapon = unit.weapon(action.weapon)
    if weapon.magazine is None:
        raise IllegalStep(f"{weapon.name} has no magazine to reload")
    if weapon.condition != "ready":
        raise IllegalStep(f"{unit.name}'s {weapon.name} is {weapon.condition}")
    if weapon.loaded:
        raise IllegalStep(f"{weapon.name} still has {weapon.loaded} shot(s): a spare magazine goes in once it is empty "
                          "(004 §3-4-2-3, L71)")
    if not weapon.spares:
        raise IllegalStep(f"{unit.name} has no spare magazine for its {weapon.name}")
    if state.current.moved or state.current.attacked:
        raise IllegalStep("reloading spends the unit's whole action (a reading of 004 §3-4-2-3, L71): "
                          "it may not move or attack in the same action")
    return unit, weapon


def check(state: BattleState, action: Action) -> None:
    """Raise :class:`IllegalStep` with the reason if ``action`` is not allowed now (no dice are drawn)."""
    kind = action_kind(action)
    if kind == "initiative":
        _phase(state, "initiative", what="initiative roll")
        _precheck_dice(action.dice, 2 * len(state.units), "the initiative roll")
    elif kind == "delay":
        unit = _check_actor(state, action.unit, "delay")
        slot = next(s for s in state.order.slots if s.name == unit.name)
        if state.extra:
            raise IllegalStep("the extra action cannot be delayed")
        if slot.delayed:
            raise IllegalStep(f"{unit.name} has already delayed: it acts at initiative value 0")
        if state.current.moved or state.current.attacked:
            raise IllegalStep("a delay is declared before acting (004 §3-4-1, L10), not after moving or attacking")
    elif kind == "move":
        _check_move(state, action)
    elif kind == "attack":
        _check_attack(state, action)
    elif kind == "reload":
        _check_reload(state, action)
    elif kind == "stand-up":
        unit = _check_actor(state, action.unit, "stand up")
        if not unit.prone:
            raise IllegalStep(f"{unit.name} is standing")
    elif kind == "end-action":
        _check_actor(state, action.unit, "end its action")
    elif kind == "extra-action":
        _phase(state, "end-of-turn", what="extra-action contest")
        if state.extra_tried:
            raise IllegalStep("the extra-action contest of this turn has been rolled: at most one a turn (004 §3-4-1, L14)")
        if _extra_check(state).passive is None:
            raise IllegalStep("nobody may try an extra action this turn: " + "; ".join(_extra_check(state).steps))
        _precheck_dice(action.dice, 4, "the extra-action contest")
    elif kind == "end-turn":
        _phase(state, "end-of-turn", what="end of the turn")
        if not state.extra_tried and _extra_check(state).passive is not None:
            raise IllegalStep("first the extra-action contest (004 §3-4-1, L14): "
                              f"{_extra_check(state).candidate} may try")
        _precheck_dice(action.dice, len(state.units), "the pilots' MP drain")


def is_legal(state: BattleState, action: Action) -> bool:
    """True exactly when ``step(state, action)`` would not refuse, given dice included."""
    return referee.legal(check, step, state, action)


def legal_actions(state: BattleState) -> tuple[Action, ...]:
    """Every kind of action that may be taken now, one example each for moves and attacks.

    Moves are single steps (``Move(unit, ("forward",), mode)``) in each mode the unit may use;
    attacks are each weapon that can reach the target, as a charge too when one is allowed.
    """
    candidates: list[Action] = [RollInitiative(), TryExtraAction(), EndTurn()]
    actor = state.actor
    if actor is not None and state.phase == "action":
        unit = state.unit(actor)
        modes = (state.current.mode,) if state.current.mode else unit.modes
        candidates.append(Delay(actor))
        candidates += [Move(actor, (s,), m) for m in modes for s in MOVE_STEPS]
        candidates += [Attack(actor, w.name, charge=c) for w in unit.weapons for c in (False, True)]
        candidates += [Reload(actor, w.name) for w in unit.weapons]
        candidates += [StandUp(actor), EndAction(actor)]
    return tuple(a for a in candidates if is_legal(state, a))


def legal_kinds(state: BattleState) -> frozenset[str]:
    return frozenset(action_kind(a) for a in legal_actions(state))


# -- dice ---------------------------------------------------------------------------------------



def _precheck_dice(given: Sequence[int] | None, count: int, what: str) -> None:
    if given is None:
        return
    if len(given) != count:
        raise IllegalStep(f"{what} uses {count} dice, {len(given)} were given")


def _dice_of(expression: str) -> int:
    """Number of six-sided dice in ``"2"``, ``"1D6"``, ``"2D6"``, ``"3D6"``."""
    match = re.fullmatch(r"(\d+)D6", expression)
    return int(match.group(1)) if match else 0


# -- steps ------------------------------------------------------------------------------------


@referee.refereed(legal_actions)
def step(state: BattleState, action: Action, dice: SeededDice | None = None) -> StepResult:
    """Apply one action; :class:`IllegalStep` (and ``state`` unchanged) if it is not allowed.

    Dice come from the action's ``dice`` or, when it gives none, from ``dice`` (a
    :class:`~rules_lib.dice.SeededDice` kept outside the frozen state).
    """
    check(state, action)
    handler = {"initiative": _initiative, "delay": _delay, "move": _move, "attack": _attack, "reload": _reload,
               "stand-up": _stand_up, "end-action": _end_action, "extra-action": _extra_action,
               "end-turn": _end_turn}[action_kind(action)]
    return handler(state, action, dice)


def play(state: BattleState, actions: Sequence[Action], dice: SeededDice | None = None) -> list[StepResult]:
    """Apply several actions in turn; the list of results (the last one's ``state`` is the end)."""
    results = []
    for action in actions:
        result = step(state, action, dice)
        results.append(result)
        state = result.state
    return results


def _finish(state: BattleState, lines: list[str], dice: Sequence[int] = (), detail: object = None, **changes) -> StepResult:
    new = replace(state, log=state.log + tuple(lines), **changes)
    return StepResult(new, tuple(lines), tuple(dice), detail)


def _next_actor(order: TurnOrder, acted: Sequence[str], units: Sequence[Unit]) -> str | None:
    down = {u.name for u in units if u.down}
    for slot in order.slots:
        if slot.name not in acted and slot.name not in down:
            return slot.name
    return None


def _initiative(state: BattleState, action: RollInitiative, source: SeededDice | None) -> StepResult:
    _precheck_dice(action.dice, 2 * len(state.units), "the initiative roll")
    dice = ActionDice(action.dice, source, "the initiative roll")
    combatants, lines = [], [f"Turn {state.turn}: initiative roll = initiative bonus + 2D6 (004 §3-4-1)"]
    for unit in state.units:
        pair = dice.d(6, 2)
        result = initiative_roll(unit.initiative_bonus, dice=pair)
        combatants.append(Combatant(unit.name, unit.side, result.total))
        lines.append(f"{unit.name}: bonus {unit.initiative_bonus} + 2D6 ({pair[0]}+{pair[1]}) = {result.total}")
    dice.finish()
    order = turn_order(combatants, npcs_after_pcs=state.rules.npcs_after_pcs)
    lines.append("acting order, highest first: " + ", ".join(f"{s.name} ({s.initiative})" for s in order.slots))
    actor = order.slots[0].name
    lines.append(f"{actor} acts first.")
    return _finish(state, lines, dice.drawn, order, phase="action", order=order, acted=(), actor=actor,
                   current=Turn(points_left=state.unit(actor).movement), extra=False, extra_tried=False,
                   extra_winner=None)


def _delay(state: BattleState, action: Delay, source: SeededDice | None) -> StepResult:
    combatants = [Combatant(s.name, s.side, s.initiative, delays=s.delayed or s.name == action.unit)
                  for s in state.order.slots]
    order = turn_order(combatants, npcs_after_pcs=state.rules.npcs_after_pcs)
    actor = _next_actor(order, state.acted, state.units)
    lines = [f"{action.unit} delays: it will act at initiative value 0, at the end of the turn (004 §3-4-1, L10), "
             "and gives up any claim to the extra action (L15)",
             "acting order now: " + ", ".join(s.name + (" (delayed)" if s.delayed else "") for s in order.slots),
             f"{actor} acts."]
    return _finish(state, lines, (), order, order=order, actor=actor,
                   current=Turn(points_left=state.unit(actor).movement))


def _move(state: BattleState, action: Move, source: SeededDice | None) -> StepResult:
    unit, pose, points, step_lines = _check_move(state, action)
    mode = locomotion_mode(action.mode)
    first = state.current.mode is None
    pays = _mode_pays(state, unit, mode.key)
    cost_dice = _mode_dice(state, unit, mode.key)
    lines = []
    if first:
        costs = move_costs("mecha", mode.key).steps
        rules = [costs[0]] if len(costs) == 1 else [costs[1].split(": ", 1)[1], *costs[2:]]
        lines.append(f"{unit.name} moves by {mode.english} ({mode.japanese}) with {unit.movement} movement points "
                     f"(移動力): " + "; ".join(rules))
    lines += [f"  {line}" for line in step_lines]
    mecha_mp = unit.mecha_mp
    drawn: tuple[int, ...] = ()
    if pays:
        if cost_dice:
            dice = ActionDice(action.dice, source, "the mode's mecha MP")
            drawn = dice.d(6, cost_dice)
            dice.finish()
        cost = sum(drawn) if cost_dice else int(mode.mecha_mp_per_turn)
        mecha_mp = max(unit.mecha_mp - cost, 0)
        shown = f" ({'+'.join(map(str, drawn))})" if drawn else ""
        lines.append(f"  {mode.english} costs {mode.mecha_mp_per_turn}{shown} = {cost} mecha MP (機兵MP) this turn "
                     f"(004 §3-4-3-1, {mode.lines}): {unit.mecha_mp} -> {mecha_mp}")
    run = state.current.run
    for label in action.steps:
        run = run + 1 if label == "forward" else 0
    lines.append(f"  {points} movement points left")
    moved = replace(unit, pose=pose, mecha_mp=mecha_mp)
    current = replace(state.current, mode=mode.key, points_left=points, steps=state.current.steps + action.steps, run=run)
    used = state.modes_used + (((unit.name, mode.key),) if (unit.name, mode.key) not in state.modes_used else ())
    return _finish(state.with_unit(moved), lines, drawn, current=current, modes_used=used)


def decision_odds(state: BattleState, action: Attack) -> AttackOdds:
    """Exact odds of an attack the acting unit could make now (hit, fumbles, HP lost after protection)."""
    unit, weapon, target = _check_attack(state, action)
    plan = charge(state.current.run) if action.charge else None
    return attack_odds(
        unit.to_hit + (plan.attack_modifier if plan else 0), target.evasion if action.evade else None,
        criticals=state.rules.criticals, tie=state.rules.tie, weapon_damage=weapon.damage,
        physical_bonus=unit.physical_bonus, bonus_applies=weapon.bonus_applies, protection=target.protection,
        extra_damage_rolls=plan.extra_damage_rolls if plan else 0,
    )


def describe_odds(state: BattleState, action: Attack) -> str:
    """One line: the chance to hit, the chance to fell the target, and the expected damage after protection."""
    odds = decision_odds(state, action)
    target = state.opponent(action.unit)
    down = odds.damage.at_least(target.hp)
    name = f"{action.weapon}" + (" (charge)" if action.charge else "")
    return (f"{name}: {percent(odds.hit)} to hit ({odds.hit}); expected damage after protection "
            f"{float(odds.damage.mean()):.2f} ({float(odds.damage_if_hit.mean()):.2f} on a hit); "
            f"{percent(down)} to bring {target.name} down from {target.hp} HP")


def _attack(state: BattleState, action: Attack, source: SeededDice | None) -> StepResult:
    unit, weapon, target = _check_attack(state, action)
    criticals = state.rules.criticals
    dice = ActionDice(action.dice, source, "the attack")
    lines = []
    modifier, extra_rolls, plan = 0, 0, None
    if action.charge:
        plan = charge(state.current.run, acts_before_target=True)
        modifier, extra_rolls = plan.attack_modifier, plan.extra_damage_rolls
        lines.append(f"{unit.name} charges (突撃, 004 §3-4-3-1): " + "; ".join(plan.steps))
    verb = "swings its" if weapon.kind == "melee" else "fires its"
    lines.append(f"{unit.name} {verb} {weapon.name} at {target.name} "
                 + ("(one of the three front squares, 004 §3-4-2-2)" if weapon.kind == "melee"
                    else "(in the firing arc, 004 §3-4-2-3)"))
    if weapon.magazine is not None:
        weapon = replace(weapon, loaded=weapon.loaded - 1)
        lines.append(f"  {weapon.name}: {weapon.loaded} shot(s) left in the magazine")
    attack = attack_roll(unit.to_hit, dice.d(6, 2), modifier=modifier, criticals=criticals)
    evasion = None
    if action.evade and not attack.fumbled:
        evasion = evasion_roll(target.evasion, dice.d(6, 2), criticals=criticals)
    elif not action.evade:
        lines.append(f"  {target.name} gives up evasion (004 §3-4-2-2, L46)")
    resolution = resolve_attack(attack, evasion, tie=state.rules.tie, extra_damage_rolls=extra_rolls)
    lines += [f"  {s}" for s in resolution.steps]
    damage = None
    if resolution.hit:
        rolled = dice.d(6, weapon.dice * resolution.damage_rolls)
        damage = damage_taken(weapon.damage, rolled, physical_bonus=unit.physical_bonus, rolls=resolution.damage_rolls,
                              protection=target.protection, direct_hit=resolution.direct_hit,
                              bonus_applies=weapon.bonus_applies)
        lines += [f"  {s}" for s in damage.steps]
        if not weapon.bonus_applies:
            lines.append("  (a magic gun adds no physical damage bonus, 004 §3-4-2-3, L72)")
        hp = target.hp - damage.taken
        lines.append(f"  {target.name}: HP {target.hp} - {damage.taken} = {hp}")
        target = replace(target, hp=hp)
    if resolution.attacker_fumbled or resolution.attacker_treated_as_fumbled:
        check_result = fumble_check(unit.luck, state.rules.fumble_difficulty, dice.d(6, 2), armed=True)
        lines.append(f"  fumble processing: pilot {unit.pilot}'s luck check (004 §3-4-2-2, L43; difficulty "
                     f"{state.rules.fumble_difficulty} is the GM's choice, a sample value)")
        lines += [f"  {s}" for s in check_result.steps]
        if check_result.outcome == "drop-weapon":
            weapon = replace(weapon, condition="dropped")
        if plan is not None and resolution.attacker_fumbled:
            lines.append(f"  a fumbled charge also fells the charger: {unit.name} falls (転倒, 004 §3-4-3-1, L89)")
            unit = replace(unit, prone=True)
    if resolution.attacker_mishap:
        weapon = replace(weapon, condition="broken")
        lines.append(f"  the GM's mishap (a sample choice, as the text suggests): {unit.name}'s {weapon.name} breaks")
    dice.finish()
    unit = unit.with_weapon(weapon)
    new = state.with_unit(unit).with_unit(target)
    changes: dict[str, object] = {"current": replace(state.current, attacked=True)}
    if target.down:
        lines.append(f"{target.name} is down: {unit.name} wins the battle.")
        changes.update(phase="over", winner=unit.name, actor=None)
    return _finish(new, lines, dice.drawn, (attack, evasion, resolution, damage), **changes)


def _reload(state: BattleState, action: Reload, source: SeededDice | None) -> StepResult:
    unit, weapon = _check_reload(state, action)
    weapon = replace(weapon, loaded=weapon.magazine, spares=weapon.spares - 1)
    lines = [f"{unit.name} reloads its {weapon.name} from a spare magazine: {weapon.loaded} shot(s), "
             f"{weapon.spares} spare left; reloading spends the combat turn (004 §3-4-2-3, L71)"]
    return _end_action(state.with_unit(unit.with_weapon(weapon)), EndAction(unit.name), None, lines)


def _stand_up(state: BattleState, action: StandUp, source: SeededDice | None) -> StepResult:
    unit = state.unit(action.unit)
    lines = [f"{unit.name} stands up (立ち上がり): {stand_up().steps[0]} (004 §3-4-3-1, L105)"]
    return _end_action(state.with_unit(replace(unit, prone=False)), EndAction(unit.name), None, lines)


def _end_action(state: BattleState, action: EndAction, source: SeededDice | None,
                before: Sequence[str] = ()) -> StepResult:
    name = action.unit
    lines = list(before) + [f"{name} ends its {'extra ' if state.extra else ''}action."]
    if state.extra:
        return _finish(state, lines, phase="end-of-turn", actor=None, current=Turn(), extra=False)
    acted = state.acted + (name,)
    actor = _next_actor(state.order, acted, state.units)
    if actor is None:
        lines.append("Everyone has acted: the end-of-turn processing (004 §3-4-1, L13): no delayed unit is left, "
                     "no ongoing effect in this battle; then the extra action and the pilots' MP drain.")
        return _finish(state, lines, phase="end-of-turn", acted=acted, actor=None, current=Turn())
    lines.append(f"{actor} acts" + (" (it delayed: initiative value 0)" if _slot(state.order, actor).delayed else "") + ".")
    return _finish(state, lines, acted=acted, actor=actor, current=Turn(points_left=state.unit(actor).movement))


def _slot(order: TurnOrder, name: str):
    return next(s for s in order.slots if s.name == name)


def _extra_check(state: BattleState):
    fallen = [u.name for u in state.units if u.down]
    return extra_action_check(state.order, fallen=fallen, candidate_rule=state.rules.candidate_rule)


def _extra_action(state: BattleState, action: TryExtraAction, source: SeededDice | None) -> StepResult:
    _precheck_dice(action.dice, 4, "the extra-action contest")
    found = _extra_check(state)
    active, passive = state.unit(found.candidate), state.unit(found.passive)
    dice = ActionDice(action.dice, source, "the extra-action contest")
    a, p = dice.d(6, 2), dice.d(6, 2)
    dice.finish()
    won, steps = extra_action_roll(active.reaction, passive.reaction, active_dice=a, passive_dice=p)
    lines = ["The extra action (再行動, 004 §3-4-1, L14-L17): " + "; ".join(found.steps)]
    lines += [f"  {s}" for s in steps]
    changes: dict[str, object] = {"extra_tried": True}
    if won:
        lines.append(f"{active.name} acts once more: a move and an attack.")
        changes.update(phase="action", actor=active.name, extra=True, extra_winner=active.name,
                       current=Turn(points_left=active.movement))
    return _finish(state, lines, dice.drawn, won, **changes)


def _end_turn(state: BattleState, action: EndTurn, source: SeededDice | None) -> StepResult:
    _precheck_dice(action.dice, len(state.units), "the pilots' MP drain")
    dice = ActionDice(action.dice, source, "the pilots' MP drain")
    lines = [f"End of turn {state.turn}: each pilot in a mecha loses 1D6-3 MP, at least 1 (004 §3-4-1, L21)"]
    units = []
    for unit in state.units:
        (die,) = dice.d(6, 1)
        loss = pilot_mp_loss(die)
        mp = max(unit.pilot_mp - loss.loss, 0)
        lines.append(f"  {unit.pilot} ({unit.name}): {'; '.join(loss.steps)}: MP {unit.pilot_mp} -> {mp}")
        units.append(replace(unit, pilot_mp=mp))
    dice.finish()
    new = replace(state, units=tuple(units))
    out = [u for u in units if u.pilot_mp <= 0]
    if out:
        names = " and ".join(u.pilot for u in out)
        lines.append(f"{names} has used up the MP: the mecha's operating limit (L21; a reading: it is out of the fight).")
        standing = [u for u in units if not u.down]
        winner = standing[0].name if len(standing) == 1 else None
        lines.append(f"{winner} wins the battle." if winner else "Neither mecha can fight on: a draw.")
        return _finish(new, lines, dice.drawn, phase="over", winner=winner, actor=None, order=state.order)
    lines.append(f"Turn {state.turn + 1} begins: roll initiative.")
    return _finish(new, lines, dice.drawn, turn=state.turn + 1, phase="initiative", order=None, acted=(),
                   actor=None, current=Turn(), extra=False, extra_tried=False, extra_winner=None, modes_used=())


# -- odds at the other decisions ------------------------------------------------------------------


def first_to_act_chance(state: BattleState) -> Fraction:
    """Exact chance that the first unit acts first after the initiative roll (004 §3-4-1), ties by side.

    Enumerated over the 36 x 36 rolls of both units' 2D6.
    """
    first, second = state.units
    wins = 0
    for a1, a2, b1, b2 in product(range(1, 7), repeat=4):
        order = turn_order([Combatant(first.name, first.side, first.initiative_bonus + a1 + a2),
                            Combatant(second.name, second.side, second.initiative_bonus + b1 + b2)],
                           npcs_after_pcs=state.rules.npcs_after_pcs)
        wins += order.slots[0].name == first.name
    return Fraction(wins, 6 ** 4)


def extra_action_odds(state: BattleState) -> Fraction | None:
    """Exact chance that this turn's extra-action contest is won (004 §3-4-1), or ``None`` if nobody may try."""
    if state.order is None:
        return None
    found = _extra_check(state)
    if found.passive is None:
        return None
    return extra_action_chance(state.unit(found.candidate).reaction, state.unit(found.passive).reaction)


def mp_drain_odds() -> Distribution:
    """The pilot's MP loss at the end of a turn: 1 (4/6), 2 (1/6), 3 (1/6) (004 §3-4-1, L21)."""
    return pilot_mp_loss_distribution()


def mode_mp_odds(mode: str) -> Distribution:
    """The mecha MP a locomotion mode costs for a turn (004 §3-4-3-1)."""
    return drain_distribution(locomotion_mode(mode).mecha_mp_per_turn)


def move_plan(state: BattleState, mode: str | None = None) -> MovePlan | None:
    """The squares the acting unit can still reach this action (004 §3-4-2-1), or ``None``.

    The search of :func:`~rules_lib.verse_world.plan_move` (``geometry.square.reachable`` over the
    mode's :func:`~rules_lib.verse_world.step_cost`, the last-step rule on), with the other unit's
    square closed: a mecha does not enter or pass through it (a reading, not in the source text).
    """
    if state.phase != "action" or state.actor is None or state.current.attacked:
        return None
    unit = state.unit(state.actor)
    mode = state.current.mode or mode or "walk"
    points = state.current.points_left if state.current.mode else unit.movement
    costs = move_costs("mecha", mode)
    enemy = state.opponent(unit.name).pose.square
    no_turning = (unit.name, "thruster") in state.modes_used
    allowed = []
    for candidate in (*ORTHOGONAL_STEPS, *TURNS):
        try:
            step_cost(costs, candidate)
        except ValueError:
            continue
        if not (no_turning and candidate.is_turn):
            allowed.append(candidate)

    def cost(before: Pose, move: GridStep, after: Pose) -> int | None:
        return None if after.square == enemy else step_cost(costs, move)

    reach = reachable(unit.pose, points, cost, steps=allowed, last_step_with_what_is_left=True,
                      bounds=(state.rules.width, state.rules.height))
    return MovePlan(costs, reach, locomotion_mode(mode).mecha_mp_per_turn, frozenset())


# -- display -------------------------------------------------------------------------------------

_SIDE_FILL = {"pc": "#90caf9", "gm": "#ef9a9a"}


def board_svg(state: BattleState, *, show: Literal["auto", "reach", "arc", "none"] = "auto",
              mode: str | None = None, cell: int = 30) -> str:
    """The square map as SVG (``geometry.square.grid_svg``): units in their side's colour with a facing arrow.

    ``show="reach"``: the squares the acting unit can still reach (green, :func:`move_plan`);
    ``"arc"``: its three front squares (orange) and firing arc (yellow); ``"auto"``: reach while it may
    still move, the arc once it has moved or cannot.
    """
    rules = state.rules
    fills: dict[Square, str] = {}
    actor = state.unit(state.actor) if state.actor and state.phase == "action" else None
    if actor is not None and show == "auto":
        plan = move_plan(state, mode)
        show = "reach" if plan is not None and plan.reach.points > 0 and not state.current.attacked else "arc"
        if state.current.moved or state.current.attacked:
            show = "arc"
    occupied = {u.pose.square for u in state.units}
    if actor is not None and show == "reach":
        plan = move_plan(state, mode)
        if plan is not None:
            for sq in plan.squares():
                if sq not in occupied:
                    fills[sq] = "#c8e6c9"
    elif actor is not None and show == "arc":
        here, facing = actor.pose
        for x in range(rules.width):
            for y in range(rules.height):
                sq = Square(x, y)
                if can_melee(here, facing, sq):
                    fills[sq] = "#ffcc80"
                elif in_firing_arc(here, facing, sq):
                    fills[sq] = "#fff59d"
    labels = {}
    for unit in state.units:
        fills[unit.pose.square] = "#bdbdbd" if unit.down else _SIDE_FILL[unit.side]
        labels[unit.pose.square] = unit.pose.facing.arrow + ("↓" if unit.prone else "")
    title = f"turn {state.turn}: " + ", ".join(f"{u.name} at {u.pose}" for u in state.units)
    return grid_svg(rules.width, rules.height, fills=fills, labels=labels, cell=cell, title=title)


def board_html(state: BattleState, **kwargs) -> str:
    """The board with a legend (units, colours)."""
    legend = " · ".join(
        f"<span style='background:{_SIDE_FILL[u.side]};padding:0 0.3em'>{u.pose.facing.arrow}</span> "
        f"{html.escape(u.name)} ({html.escape(u.pilot)}) at {u.pose.square}" for u in state.units
    )
    legend += (" · <span style='background:#c8e6c9;padding:0 0.3em'>&nbsp;</span> reachable · "
               "<span style='background:#ffcc80;padding:0 0.3em'>&nbsp;</span> front squares (melee) · "
               "<span style='background:#fff59d;padding:0 0.3em'>&nbsp;</span> firing arc")
    return f"<div class='vw-board'>{board_svg(state, **kwargs)}<p style='font-size:0.85em'>{legend}</p></div>"


def status_line(state: BattleState) -> str:
    if state.phase == "over":
        return f"turn {state.turn}: the battle is over: " + (f"{state.winner} wins" if state.winner else "a draw")
    if state.phase == "initiative":
        return f"turn {state.turn}: roll initiative"
    if state.phase == "end-of-turn":
        return f"turn {state.turn}: end of the turn"
    c = state.current
    done = []
    if c.mode:
        done.append(f"moved by {c.mode}, {c.points_left} points left")
    if c.attacked:
        done.append("attacked")
    return (f"turn {state.turn}: {state.actor}'s {'extra ' if state.extra else ''}action"
            + (f" ({'; '.join(done)})" if done else ""))


def units_html(state: BattleState) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(u.name)} ({u.side})</td><td>{html.escape(u.pilot)}</td><td>{u.hp}/{u.max_hp}</td>"
        f"<td>{u.protection}</td><td>{u.pilot_mp}</td><td>{u.mecha_mp}</td><td>{u.pose}</td>"
        f"<td>{'; '.join(html.escape(w.describe()) for w in u.weapons)}"
        + (" — fallen" if u.prone else "") + "</td></tr>"
        for u in state.units
    )
    return ("<table class='vw-units'><thead><tr><th>mecha</th><th>pilot</th><th>HP</th><th>protection</th>"
            "<th>pilot MP</th><th>mecha MP</th><th>where</th><th>weapons</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>")


def log_html(lines: Sequence[str], last: int | None = None) -> str:
    shown = list(lines)[-last:] if last else list(lines)
    return "<pre class='vw-log' style='white-space:pre-wrap'>" + html.escape("\n".join(shown)) + "</pre>"
