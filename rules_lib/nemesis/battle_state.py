"""The Nemesis guided battle's pieces (002 §1-1 to §7-2): units, the readings the text leaves open, the
state and the actions. The rules that move them are in :mod:`.battle`, the board in :mod:`.figures`."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from .. import battle as referee
from .. import checks
from ..battle import IllegalStep
from .action import (
    ExtendedFace,
)
from .damage import (
    PartDamage,
    Rounding,
    UnitState,
    destruction_effects,
)
from .melee import (
    ApproachCompare,
    DuelRules,
)
from .silhouette import Grip, Silhouette, Weapon, grip_defaults, load_silhouette

SIDES = ("A", "B")
#: the phases a battle rests in between steps, in order, with how the board names them
PHASE_LABELS = {
    "decision": "action decision (行動決定フェイズ, 002 §1-1)",
    "order": "choosing first or second (先攻/後攻, 002 §1-1)",
    "acting": "shooting phase and actions (射撃フェイズ, 002 §2-1)",
    "armour": "armour check (装甲判定フェイズ, 002 §3-1)",
    "damage": "damage (ダメージ決定フェイズ, 002 §4-1)",
    "over": "the battle is over",
}
PHASES: tuple[str, ...] = tuple(PHASE_LABELS)
D6 = 6




@dataclass(frozen=True)
class BattleRules:
    """The readings a battle uses (see the chapter's rulings).

    ``active_refresh`` is *not in the source text*: the text never says the active value (能動値)
    returns, so by default it does not (``"never"``); ``"each_turn"`` resets it to the sheet's
    value at the start of every turn.

    ``stalemate_rounds`` is *not in the source text*: whole turns in which no unit loses structure or
    part durability after which the battle ends in a draw (002 §7-2, line 345 ends it only with a
    destroyed unit, §7-1, line 335 with a concession; ``None``: never); default 10, the book's
    ruling (:class:`rules_lib.battle.Stalemate`).
    """

    extended: ExtendedFace = ExtendedFace.IGNORED
    approach_compare: ApproachCompare = "sum"
    duel: DuelRules = DuelRules()
    part_damage: PartDamage = "overflow"
    defence_rounding: Rounding = "up"
    active_refresh: Literal["never", "each_turn"] = "never"
    stalemate_rounds: int | None = referee.STALEMATE_ROUNDS

    def __post_init__(self) -> None:
        referee.stalemate_rounds(self.stalemate_rounds)
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
            return (f"{self.name}'s {arm} is destroyed: its two-handed weapons, the {weapon.label} among them, "
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


@checks.checked_arguments
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
    """A battle: both units, the turn and its phase, who acts, the hits waiting, and the log.

    ``quiet_since`` is the first turn of the present run in which no unit has lost structure or part
    durability (the engine's :class:`~rules_lib.battle.Stalemate`); ``end_reason`` says how it ended.
    """

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
    quiet_since: int = 1
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
        """The two units with ``unit`` in its side's place."""
        checks.of_type(unit, "the unit", BattleUnit, error=IllegalStep)
        return (unit, self.units[1]) if unit.side == "A" else (self.units[0], unit)


def other(side: str) -> str:
    return "B" if side == "A" else "A"


# -- actions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SideAction:
    """What every action one side takes carries: ``side``, ``"A"`` or ``"B"``. The dice steps of the
    battle itself (:class:`RollActionDice`, :class:`ArmourCheck`, :class:`Damage`) carry no side."""

    side: str


@dataclass(frozen=True)
class RollActionDice:
    """Both sides roll their action dice and initiative is decided (002 §1-1); ``dice``: side A's
    action dice, then side B's, then any 1D20 tie-breaks in pairs."""

    #: the faces rolled, in order, to replay a text's or a book's dice; ``None``: the step's seeded dice
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class ChooseOrder(SideAction):
    """The side that won initiative chooses to go first (先攻) or second (後攻) (002 §1-1)."""

    go_first: bool = True


@dataclass(frozen=True)
class OpenMelee(SideAction):
    """A side whose action dice are a triple opens the melee phase and becomes second (002 §1-1)."""


@dataclass(frozen=True)
class Shoot(SideAction):
    """Fire a weapon with one action die whose face matches its proper range (002 §2-1)."""

    weapon: str
    die: int


@dataclass(frozen=True)
class ResponseAction(SideAction):
    """Leave two action dice unused for +1 active value (対応行動, 002 §1-1)."""

    give_up: tuple[int, int]


@dataclass(frozen=True)
class SwapWeapon(SideAction):
    """Take up another weapon, leaving one die unused unless it has 持替不要 (002 §1-1)."""

    weapon: str
    give_up: int | None = None


@dataclass(frozen=True)
class Approach(SideAction):
    """Close in with a melee weapon on a die showing its range, against the shooter (002 §5-1);
    ``dice``: the approacher's dice, then the shooter's."""

    active_spent: int = 0
    #: the faces rolled, in order, to replay a text's or a book's dice; ``None``: the step's seeded dice
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Melee(SideAction):
    """The melee opener fights the duel with both sides' action dice as rolled (002 §6-1, §6-2)."""


@dataclass(frozen=True)
class ArmourCheck:
    """Roll the waiting hit's attack against the target's armour (002 §3-1); ``dice``: the attack roll's."""

    #: the faces rolled, in order, to replay a text's or a book's dice; ``None``: the step's seeded dice
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Damage:
    """Roll the waiting hit's damage; the target may defend (防御行動, 1 active value) (002 §4-1, §H6, §7-1);
    ``dice``: the damage roll's, then the 1D20 of the part hit when damage reaches one."""

    defend: bool = False
    #: the faces rolled, in order, to replay a text's or a book's dice; ``None``: the step's seeded dice
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class EndAction(SideAction):
    """The acting side is done; after the second player, the turn ends (002 §7-2)."""


@dataclass(frozen=True)
class Concede(SideAction):
    """A side with a destroyed part declares defeat (投了, 002 §7-1)."""


Action = (RollActionDice | ChooseOrder | OpenMelee | Shoot | ResponseAction | SwapWeapon | Approach | Melee
          | ArmourCheck | Damage | EndAction | Concede)
KINDS: dict[type, str] = {
    RollActionDice: "roll", ChooseOrder: "order", OpenMelee: "open-melee", Shoot: "shoot",
    ResponseAction: "response", SwapWeapon: "swap", Approach: "approach", Melee: "melee",
    ArmourCheck: "armour", Damage: "damage", EndAction: "end", Concede: "concede",
}
#: the kinds of action, in the order a widget shows them
ACTION_KINDS: tuple[str, ...] = tuple(KINDS.values())


__all__ = [
    "Approach", "ArmourCheck", "BattleRules", "BattleState", "BattleUnit", "ChooseOrder", "Concede", "Damage",
    "EndAction", "Melee", "OpenMelee", "ResponseAction", "RollActionDice", "Shoot", "SideAction", "SwapWeapon",
    "new_battle",
]
