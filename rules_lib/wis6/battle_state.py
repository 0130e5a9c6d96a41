"""The guided battle's pieces (001 §1, §3, §4): units, weapons, the readings the text leaves open,
the state and the actions. The rules that move them are in :mod:`.battle`, the map and unit table
in :mod:`.figures`; the sample units are the sheets ``rules_lib/sheets/data/wis6/*.toml``, read
from ``rules_lib.samples`` (where the sheets read them too)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from .. import battle as referee
from .. import checks
from ..battle import IllegalStep as _SharedIllegalStep
from ..samples import sample_tables
from .rules import DEFAULT_RULES, Wis6Error, Wis6Rules, whole
from .special import (
    WEAPON_ABILITIES,
    SessionUses,
)
from .turn import Combatant, Square, parse_square

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
        checks.check_fields(self)
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
        return referee.by_name(self.weapons, name, f"{self.name} has no weapon {name!r}: the weapons are ", IllegalStep)

    def ability(self, kind: str) -> int:
        """The attack ability a weapon of ``kind`` rolls: 実弾 for ballistic, ＥＮ for energy (001 §4-4, line 75)."""
        return self.ballistic if kind == "ballistic" else self.energy

    def combatant(self) -> Combatant:
        return Combatant(self.name, self.reaction, self.mobility)


def weapon_from_table(entry: Mapping[str, Any]) -> Weapon:
    """A weapon from its table on a sheet (``name``, ``kind``, ``attack``, ``range``, optional ``ammo``, ``missile``)."""
    return Weapon(entry.get("name"), entry.get("kind"), entry.get("attack"), entry.get("range"),
                  ammo=entry.get("ammo"), missile=entry.get("missile", False))


def unit_from_table(table: Mapping[str, Any], square: Square) -> Unit:
    """A unit at full AP on ``square`` from a sheet's table (the keys of ``rules_lib/sheets/data/wis6/*.toml``)."""
    return Unit(name=table["name"], machine=table["machine"], side=table["side"], reaction=table["reaction"],
                ballistic=table["ballistic"], energy=table["energy"], information=table["information"],
                role=table["role"], mobility=table["mobility"], ap=table["ap"], max_ap=table["ap"],
                armour=table["armour"], weapons=tuple(weapon_from_table(w) for w in table["weapons"]), square=square)


def sample_units() -> tuple[Unit, Unit]:
    """The book's two units: **not in the source text** (001 gives no unit sheets).

    Asuka (the PC, an operator, in the AC *Kestrel*) on B-7 and the GM's *Raider* (pilot: the GM's
    enemy ace) on G-2: the sample sheets ``asuka-kestrel`` and ``raider``
    (``rules_lib/sheets/data/wis6/``, read by ``rules_lib.samples.sample_tables``). Both total
    17 for the action order, so the tie die is shown.
    """
    tables = sample_tables("wis6")
    return unit_from_table(tables["asuka-kestrel"], parse_square("B-7")), unit_from_table(tables["raider"], parse_square("G-2"))


# -- readings and state -------------------------------------------------------------------


@dataclass(frozen=True)
class BattleRules:
    """Readings of the battle where the text is silent; every field is *not in the source text*.

    - ``columns``, ``rows``: the map's size (the GM sets the map, 001 §1-1); 8 × 8 is the book's.
    - ``ammo_per_attack``: rounds an attack spends (the text spends ammunition only on
      interception, 001 §4-4, line 77; the book spends 1 per shot as well).
    - ``counter_needs_range``: whether the countering weapon must reach the attacker (001 §4-5
      names no range; the book reads a counter as a shot back, so it must).
    - ``shared_squares``: whether two units may stand on one square (the text does not say; the
      book refuses it).
    - ``stalemate_rounds``: whole turns in which no AC loses AP after which the battle ends in a
      draw (001 ends a battle only when its scene ends, §5; ``None``: never); default 10, the
      book's ruling (:class:`rules_lib.battle.Stalemate`).
    """

    columns: int = 8
    rows: int = 8
    ammo_per_attack: int = 1
    counter_needs_range: bool = True
    shared_squares: bool = False
    stalemate_rounds: int | None = referee.STALEMATE_ROUNDS

    def __post_init__(self) -> None:
        referee.stalemate_rounds(self.stalemate_rounds, Wis6Error)
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
    session-limited special actions (jamming, 001 §4-6). ``quiet_since`` is the first turn of the
    present run in which no AC has lost AP (the engine's :class:`~rules_lib.battle.Stalemate`);
    ``end_reason`` says why a battle without a winner ended.
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
    end_reason: str | None = None
    quiet_since: int = 1
    log: tuple[str, ...] = ()
    rules: Wis6Rules = DEFAULT_RULES
    battle_rules: BattleRules = field(default_factory=BattleRules)

    def unit(self, name: str) -> Unit:
        return referee.by_name(self.units, name, f"there is no unit {name!r}: the units are ", IllegalStep)

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


@checks.checked_arguments
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

#: each action's kind
KINDS: dict[type, str] = {RollOrder: "order", MoveTo: "move", Attack: "attack", Jam: "jam", EndAction: "end"}


__all__ = [
    "ANSWERS", "Attack", "BattleRules", "BattleState", "EndAction", "IllegalStep", "Jam", "MoveTo",
    "RollOrder", "Unit", "Weapon", "new_battle", "sample_units",
]
