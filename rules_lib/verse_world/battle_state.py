"""The Verse World guided battle's pieces (004 §3-4): mecha, weapons, the readings the text leaves
open, the state and the actions. The rules that move them are in :mod:`.battle`, the map and unit
table in :mod:`.figures`; the sample units are the sheets ``rules_lib/sheets/data/verse-world/*.toml``,
read from ``rules_lib.samples`` (where the sheets read them too)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from .. import battle as referee
from .. import checks
from ..battle import IllegalStep
from ..geometry.square import Facing, Pose, Square
from ..samples import sample_tables
from .attack import (
    CriticalRule,
    TieRule,
)
from .movement import locomotion_mode
from .ranged import physical_bonus_applies, ranged_weapon
from .turn import (
    TurnOrder,
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


#: a weapon's damage as a sheet writes it: six-sided dice and an optional constant (``3D6``, ``2D6+1``);
#: the dice are the weapon table's damage dice (004 §3-4-2-2, line 44)
DAMAGE_FORM = re.compile(r"([1-9]\d*)D6(?:([+-])(\d+))?")


@dataclass(frozen=True)
class Weapon:
    """A mecha's weapon. ``damage`` is dice of six sides and an optional constant (``"3D6"``, ``"2D6+1"``;
    full-width signs are read as ASCII); the values are *not in the source text*.

    ``kind`` ``"melee"`` attacks one enemy in the three front squares (004 §3-4-2-2); ``"ranged"``
    attacks into the firing arc (004 §3-4-2-3) and names its ``ranged_class``, any class of
    ``ranged_weapons.toml`` (magic gun, muzzle-loader, crossbow, bow, sling, staff sling, thrown;
    004 §3-4-2-3, lines 71–80). A magic gun has ``loaded`` shots of a ``magazine`` and ``spares``
    spare magazines; reloading one takes a combat turn (004 §3-4-2-3, line 71); the other classes
    have no magazine. ``assumed_bonus``: whether the physical damage bonus applies to a class for
    which the text does not say (sling, staff sling, thrown: *not in the source text*, required for
    those, and only for those). ``condition``: ``"ready"``, ``"dropped"`` (a failed fumble check,
    line 43) or ``"broken"`` (an over-critical evasion's mishap, line 51). The guided battle plays
    magic guns only (:func:`new_battle`).
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
    assumed_bonus: bool | None = None

    def __post_init__(self) -> None:
        checks.choice(self.kind, f"{self.name}'s kind", ("melee", "ranged"))
        damage = checks.halfwidth(self.damage) if isinstance(self.damage, str) else self.damage
        if not isinstance(damage, str) or not DAMAGE_FORM.fullmatch(damage):
            raise ValueError(f"{self.name}'s damage {self.damage!r} is not dice of six sides with an optional "
                             "constant, such as '3D6' or '2D6+1'")
        object.__setattr__(self, "damage", damage)
        checks.choice(self.condition, f"{self.name}'s condition", ("ready", "dropped", "broken"))
        if self.assumed_bonus is not None:
            checks.flag(self.assumed_bonus, f"{self.name}'s assumed physical bonus")
        if self.kind == "ranged":
            if self.ranged_class is None:
                raise ValueError(f"ranged weapon {self.name} needs its ranged_class ('magic-gun', ...)")
            ranged = ranged_weapon(self.ranged_class)
            open_bonus = ranged.physical_bonus == "unknown"
            if open_bonus and self.assumed_bonus is None:
                raise ValueError(f"{self.name}: whether the physical damage bonus applies to a {ranged.english} is "
                                 "not in the source text (004 §3-4-2-3): give assumed_bonus true or false")
            if not open_bonus and self.assumed_bonus is not None:
                raise ValueError(f"{self.name}: the text says whether the bonus applies to a {ranged.english} "
                                 f"({ranged.lines}): assumed_bonus is only for slings and thrown weapons")
            if ranged.cycle == "ammunition":
                checks.whole(self.magazine, f"{self.name}'s magazine", minimum=1)
                checks.whole(self.loaded, f"{self.name}'s loaded shots", minimum=0, maximum=self.magazine)
            elif self.magazine is not None or self.loaded is not None or self.spares:
                raise ValueError(f"{self.name} is a {ranged.english}: only a magic gun has a magazine "
                                 "(004 §3-4-2-3, line 71)")
        elif self.ranged_class is not None or self.assumed_bonus is not None:
            raise ValueError(f"{self.name} is a melee weapon: ranged_class and assumed_bonus are for ranged weapons")
        checks.whole(self.spares, f"{self.name}'s spare magazines", minimum=0)

    @property
    def dice(self) -> int:
        """How many six-sided dice one damage roll uses."""
        return int(DAMAGE_FORM.fullmatch(self.damage).group(1))  # type: ignore[union-attr]

    @property
    def bonus_applies(self) -> bool:
        """Whether the physical damage bonus is added: melee yes, a magic gun no (004 §3-4-2-3, line 72)."""
        return self.kind == "melee" or physical_bonus_applies(self.ranged_class, assumed=self.assumed_bonus)

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
        checks.check_fields(self)
        checks.choice(self.side, f"{self.name}'s side", ("pc", "gm"))
        for label in ("initiative_bonus", "reaction", "luck", "to_hit", "evasion"):
            checks.whole(getattr(self, label), f"{self.name}'s {label.replace('_', ' ')}")
        for label in ("physical_bonus", "protection", "mecha_mp", "movement", "pilot_mp"):
            checks.whole(getattr(self, label), f"{self.name}'s {label.replace('_', ' ')}", minimum=0)
        checks.whole(self.max_hp, f"{self.name}'s max HP", minimum=1)
        checks.whole(self.hp, f"{self.name}'s HP")
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
        return referee.by_name(self.weapons, name, f"{self.name} has no weapon {name!r}: its weapons are ")

    @checks.checked_arguments
    def with_weapon(self, weapon: Weapon) -> Unit:
        return replace(self, weapons=tuple(weapon if w.name == weapon.name else w for w in self.weapons))


#: a unit's values as a sheet's table names them (``rules_lib/sheets/data/verse-world/*.toml``)
UNIT_TABLE_FIELDS: tuple[str, ...] = (
    "name", "pilot", "side", "initiative_bonus", "reaction", "luck", "pilot_mp", "to_hit", "evasion",
    "physical_bonus", "protection", "hp", "mecha_mp", "movement", "modes")


def weapon_from_table(entry: Mapping[str, Any]) -> Weapon:
    """A weapon from its table on a sheet, a magic gun's magazine full."""
    return Weapon(entry.get("name"), entry.get("japanese", ""), entry.get("kind"), entry.get("damage"),
                  entry.get("ranged_class"), entry.get("magazine"), entry.get("magazine"), entry.get("spares", 0),
                  assumed_bonus=entry.get("assumed_bonus"))


def unit_from_table(table: Mapping[str, Any], pose: Pose) -> Unit:
    """A unit at full HP standing at ``pose`` from a sheet's table (``UNIT_TABLE_FIELDS`` and ``weapons``)."""
    values = {f: table[f] for f in UNIT_TABLE_FIELDS}
    values["modes"] = tuple(values["modes"])
    return Unit(**values, max_hp=values["hp"], weapons=tuple(weapon_from_table(w) for w in table["weapons"]), pose=pose)


def sample_units() -> tuple[Unit, Unit]:
    """The book's two sample mecha. **Every value is a sample, not in the source text** (004 gives no unit sheets).

    *Lance*, piloted by Aria (player side), on (2, 8) facing north: a long sword (長剣, 3D6 like
    the text's example, line 44) and magic thrusters (魔導スラスター). *Bandit*, piloted by Rook (GM
    side), on (2, 1) facing south: a heavy axe, a magic gun (魔導砲) with 2 shots a magazine and one
    spare, and a spinner (機走輪) for roller movement. They are the sample sheets ``lance`` and
    ``bandit`` (``rules_lib/sheets/data/verse-world/``, read by ``rules_lib.samples.sample_tables``).
    """
    tables = sample_tables("verse-world")
    return (unit_from_table(tables["lance"], Pose(Square(2, 8), Facing.NORTH)),
            unit_from_table(tables["bandit"], Pose(Square(2, 1), Facing.SOUTH)))


def _inside(square: Square, rules: BattleRules) -> bool:
    return 0 <= square.x < rules.width and 0 <= square.y < rules.height


# -- rules and state ------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleRules:
    """The readings a battle is played with. ``criticals`` has no default (*not in the source text*).

    ``width`` x ``height``: the map (*sample values, not in the source text*). ``fumble_difficulty``:
    the GM's difficulty for the fumble's luck check, 9 to 16 (004 §3-4-2-2, line 43; the value is a sample).
    ``tie``, ``npcs_after_pcs``, ``candidate_rule``: the chapter's rulings (a tie goes to the defender,
    GM characters after players on ties, the extra action for the first character who actually acted).
    ``stalemate_rounds``: whole turns in which no unit loses HP after which the battle ends in a draw
    (*not in the source text*, which ends a battle by no count of turns; ``None``: never); default
    10, the book's ruling (:class:`rules_lib.battle.Stalemate`).
    """

    criticals: CriticalRule
    width: int = 6
    height: int = 10
    fumble_difficulty: int = 12
    tie: TieRule = "defender"
    npcs_after_pcs: Literal["on-ties", "always"] = "on-ties"
    candidate_rule: Literal["first-actor", "highest-initiative"] = "first-actor"
    stalemate_rounds: int | None = referee.STALEMATE_ROUNDS

    def __post_init__(self) -> None:
        referee.stalemate_rounds(self.stalemate_rounds)
        if not isinstance(self.criticals, CriticalRule):
            raise ValueError(f"criticals {self.criticals!r} is not a CriticalRule: the text defines none, choose one")
        checks.whole(self.width, "map width", minimum=2, maximum=40)
        checks.whole(self.height, "map height", minimum=2, maximum=40)
        # 9-16 is the text's guidance, which the GM may raise or lower (004 line 43); 99 bounds the input
        checks.whole(self.fumble_difficulty, "fumble difficulty", minimum=0, maximum=99)
        checks.choice(self.tie, "tie", ("defender", "attacker"))


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
    ``quiet_since`` is the first turn of the present run in which no unit has lost HP (the engine's
    :class:`~rules_lib.battle.Stalemate`); ``end_reason`` says why a battle without a winner ended.
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
    end_reason: str | None = None
    quiet_since: int = 1
    log: tuple[str, ...] = ()

    def unit(self, name: str) -> Unit:
        return referee.by_name(self.units, name, f"there is no unit {name!r}: the units are ")

    def opponent(self, name: str) -> Unit:
        return next(u for u in self.units if u.name != name)

    @checks.checked_arguments
    def with_unit(self, unit: Unit) -> BattleState:
        return replace(self, units=tuple(unit if u.name == unit.name else u for u in self.units))

    def position(self, name: str) -> int:
        """The unit's place in this turn's acting order (1 = first)."""
        if self.order is None:
            raise IllegalStep("no acting order yet: roll initiative first")
        for slot in self.order.slots:
            if slot.name == name:
                return slot.position
        raise IllegalStep(f"no unit {name!r:.60} in the acting order: there are "
                          f"{', '.join(s.name for s in self.order.slots)}")


def new_battle(
    *, criticals: CriticalRule, units: Sequence[Unit] | None = None, **rules: object
) -> BattleState:
    """A battle at the start of turn 1: roll initiative next.

    ``criticals`` must be given (the text never says which rolls are critical); other keywords
    go to :class:`BattleRules`. Readings used (*not in the source text*): a unit is down at HP 0 or
    less, or when its pilot's MP is used up (line 21 calls the drain the mecha's operating limit); the
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
    for unit in units:
        for weapon in unit.weapons:
            if weapon.kind == "ranged" and ranged_weapon(weapon.ranged_class).key != "magic-gun":
                raise ValueError(f"{unit.name}'s {weapon.name} is a {ranged_weapon(weapon.ranged_class).english}: the first "
                                 "battle plays magic guns only (the others' rate of fire is fire_schedule, 004 §3-4-2-3)")
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
    """The acting unit declares a delay before doing anything: it acts at initiative value 0 (004 §3-4-1, line 10)."""

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
    """Reload an empty magic gun from a spare magazine: the unit's whole action (004 §3-4-2-3, line 71; a reading)."""

    unit: str
    weapon: str


@dataclass(frozen=True)
class StandUp:
    """Stand up after falling: the unit's whole action, no roll (004 §3-4-3-1, line 105)."""

    unit: str


@dataclass(frozen=True)
class EndAction:
    """The acting unit ends its action."""

    unit: str


@dataclass(frozen=True)
class TryExtraAction:
    """The extra-action contest at the end of the turn (004 §3-4-1, lines 14–17). ``dice``: active 2D6, passive 2D6."""

    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class EndTurn:
    """The end of the turn: each pilot loses 1D6-3 MP, at least 1 (004 §3-4-1, line 21). ``dice``: one per unit."""

    dice: tuple[int, ...] | None = None


Action = RollInitiative | Delay | Move | Attack | Reload | StandUp | EndAction | TryExtraAction | EndTurn
KINDS: dict[type, str] = {RollInitiative: "initiative", Delay: "delay", Move: "move", Attack: "attack", Reload: "reload",
                          StandUp: "stand-up", EndAction: "end-action", TryExtraAction: "extra-action", EndTurn: "end-turn"}


__all__ = [
    "ACTION_KINDS", "MOVE_STEPS", "Attack", "BattleRules", "BattleState", "Delay", "EndAction", "EndTurn",
    "Move", "Reload", "RollInitiative", "StandUp", "TryExtraAction", "Unit", "Weapon", "new_battle",
    "sample_units",
]
