"""The guided battle's pieces (000 §1-§6, §8-1): units, the readings the text leaves open, the state and the actions.

The rules that move them are in :mod:`.battle`; the board and unit tables in :mod:`.figures`. The
sample units are the sheets ``rules_lib/sheets/data/gundam-sentinel/*.toml``, a source per value,
read from ``rules_lib.samples`` (where the sheets read them too).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

from .. import battle as referee
from .. import checks
from ..checks import halfwidth, whole
from ..geometry import hex as hexgeo
from ..geometry.hex import Hex
from ..samples import sample_tables
from .actions import ActionCosts
from .charts import DefaultCharts, Effect
from .damage import hit_location
from .ranges import starting_positions
from .salvo import DamageFormula, check_blast
from .to_hit import Evasion, evasion_value
from .units import DASHES, HitLocation, Pilot, mobility_hexes
from .weapons import shots_used

Phase = Literal["initiative", "action points", "act", "over"]
FireMode = Literal["single shot", "missile"]
FRONT = ("left", "ahead", "right")
PHASES: tuple[str, ...] = ("initiative", "action points", "act", "over")
#: the range bands of a weapon's modifiers, nearest first, and the text's mark for a band it cannot reach (000 §6)
BANDS: tuple[str, ...] = ("close", "mid", "long", "extreme")
NO_MODIFIER = "―"
#: where a weapon is carried, as the charts ask (000 has no MS sheets: *not in the source text*)
Mount = Literal["right hand", "left hand", "head", "fixed", "other"]
MOUNTS: tuple[str, ...] = get_args(Mount)
#: each arm and the hand whose weapon it holds
HANDS: dict[str, str] = {"right arm": "right hand", "left arm": "left hand"}


# -- units --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleWeapon:
    """A weapon in the battle. ``mode`` is how it fires: ``"single shot"`` (単射, one hit check, one
    round) or ``"missile"`` (ミサイル, a salvo of ``fired`` missiles, 000 §7-1).

    ``range_modifiers`` maps the bands close, mid, long, extreme to the to-hit modifier, ``None``
    for "―" (000 §6); ``damage`` is per hit; ``ammo`` the rounds (or missiles) left. For a missile
    launcher, ``salvo_at_least`` is what a text example shows it fires at once, so a lower bound on
    what it holds (the Nouvelle GM III's 15, 000 §7-1, line 350); ``capacity`` is one launcher's
    full salvo, the cap on a salvo (000 §7-1, line 342), *not in the source text* (a sheet's value;
    ``None``: no cap but the missiles left). Only what ``source`` names is in the text.

    ``mount`` is where it is carried (:data:`Mount`: a hand, for a weapon held in it or used by that
    arm; the head; fixed; or otherwise), which the chart results ask; ``None`` when the sheet does not say (the book's sample sheets do not,
    *not in the source text*), and the battle then asks the player. ``lost`` says which chart
    result took the weapon (it can fire no more), ``None`` while the MS has it.
    """

    name: str
    japanese: str
    mode: FireMode
    range_modifiers: Mapping[str, int | None]
    damage: str
    ammo: int
    capacity: int | None = None
    source: str = "not in the source text"
    salvo_at_least: int | None = None
    mount: Mount | None = None
    lost: str | None = None

    def __post_init__(self) -> None:
        if self.mode not in ("single shot", "missile"):
            raise ValueError(f"fire mode {self.mode!r}: allowed are 'single shot', 'missile'")
        if self.mount is not None and self.mount not in MOUNTS:
            raise ValueError(f"{self.name}'s mount {self.mount!r}: allowed are {', '.join(map(repr, MOUNTS))} or None")
        DamageFormula.parse(self.damage)
        if self.ammo < 0:
            raise ValueError(f"{self.name}'s ammunition {self.ammo}: allowed are 0 or more")
        for label, value in (("capacity", self.capacity), ("salvo at least", self.salvo_at_least)):
            if value is not None:
                whole(value, f"{self.name}'s {label}", minimum=1)
                if self.mode != "missile":
                    raise ValueError(f"{self.name} fires single shots: a {label} is for a missile launcher (000 §7-1)")
        if self.capacity is not None and self.salvo_at_least is not None and self.capacity < self.salvo_at_least:
            raise ValueError(f"{self.name}'s capacity {self.capacity} is below the {self.salvo_at_least} the text "
                             "shows it fires at once (000 §7-1): allowed are that many or more")

    @property
    def pattern(self) -> str:
        """The action pattern that fires it (000 §2): single shot (単射) or missile (ミサイル)."""
        return self.mode

    def shots(self, fired: int = 1) -> int:
        """Rounds one firing uses (000 §6, line 329, §7-1): 1 per single shot, 1 per missile fired."""
        return shots_used("missiles", fired=fired)["weapon"] if self.mode == "missile" else shots_used("single shot")["weapon"]


@dataclass(frozen=True)
class Decision:
    """A chart result that waits for its unit's player (the sheet cannot settle it): ``source`` names
    the entry (chart, cell and term), ``effects`` what one choice settles, ``weapon`` the weapon a
    question about one weapon asks of (is it on the head?). The choices are
    :func:`~.battle_effects.options`; :class:`Choose` takes one."""

    source: str
    effects: tuple[Effect, ...]
    weapon: str | None = None


@dataclass(frozen=True)
class BattleUnit:
    """An MS on the combat map with its pilot: where it is and faces, and what it has left.

    ``mobility`` is hexes per move pattern in this battle's terrain (space); ``base_evasion`` the
    MS's evasion before the pilot (000 §6); ``durability`` (耐久力) now and at the start;
    ``propellant`` (推進剤); ``hit_locations`` the 1D6 table of armour (装甲値) and additional value
    (追加値) (000 §6); ``side`` is ``"player"`` (a PC's MS, which rolls hit location) or ``"enemy"``;
    ``mook`` marks a mook MS (ザコＭＳ), the only target of the 66+ critical (000 §6).

    What chart results leave behind: ``to_hit_modifier`` and ``evasion_modifier`` (steps),
    ``extra_ap`` per action pattern, ``additional_modifier`` on the additional-damage 2D6,
    ``initiative_modifier``, ``escape_modifier``, ``ap_die_modifier``, ``disabled_until`` (the last
    round it cannot act), ``broken_arms`` (each arm that can use no weapon, with the chart result
    that broke it), ``empty_hands`` (hands known to hold no weapon), ``lost_parts`` (each camera
    lost and the to-hit modifier counted for it, so a part is lost once), ``turn_limit`` (the
    widest turn left, in degrees, and why), ``pilot_damage`` (the pilot's own, for the character
    sheet), ``conditions`` (lasting effects the battle has no action for) and ``pilot_fate`` after
    its MS is destroyed. ``items`` are what it carries besides weapons (spare magazines, E-packs,
    propellant tanks: none on the sample sheets). ``pending`` holds the chart results waiting for
    its player's choice; ``withdrawn`` is set when a failed morale check takes it out of the battle.
    """

    name: str
    japanese: str
    side: Literal["player", "enemy"]
    unit_class: str
    mobility: int
    base_evasion: int
    durability: int
    max_durability: int
    propellant: int
    hit_locations: tuple[HitLocation, ...]
    weapons: tuple[BattleWeapon, ...]
    pilot: Pilot
    position: Hex
    facing: int
    anticipation: bool = False
    fainted: bool = False
    mook: bool = False
    to_hit_modifier: int = 0
    evasion_modifier: int = 0
    extra_ap: int = 0
    additional_modifier: int = 0
    initiative_modifier: int = 0
    escape_modifier: int = 0
    ap_die_modifier: int = 0
    disabled_until: int = 0
    conditions: tuple[str, ...] = ()
    pilot_fate: str | None = None
    broken_arms: tuple[tuple[str, str], ...] = ()
    empty_hands: tuple[str, ...] = ()
    lost_parts: tuple[tuple[str, int], ...] = ()
    turn_limit: tuple[int, str] | None = None
    pilot_damage: int = 0
    items: tuple[str, ...] = ()
    pending: tuple[Decision, ...] = ()
    withdrawn: bool = False

    @property
    def destroyed(self) -> bool:
        """Durability 0: destroyed and removed from the board (000 §6, ＭＳの破壊)."""
        return self.durability <= 0

    def weapon(self, name: str) -> BattleWeapon:
        return referee.by_name(self.weapons, name, f"the {self.name} has no weapon {name!r}: it has ")

    @property
    def usable_weapons(self) -> tuple[BattleWeapon, ...]:
        """Its weapons that no chart result has taken, in the sheet's order."""
        return tuple(w for w in self.weapons if w.lost is None)

    def location(self, die: int, mission_level: int = 0) -> HitLocation:
        """The hit location of a 1D6 ``die`` (000 §6), by the general rule :func:`~.damage.hit_location`."""
        return hit_location(die, self.hit_locations, mission_level=mission_level).location

    def evasion(self) -> int:
        """The evasion value (回避値): base + the pilot's piloting (操縦力) modifier, in steps (000 §6),
        and any lasting change from a chart."""
        return self.evasion_detail().value

    def evasion_detail(self) -> Evasion:
        other = [("damage from the charts", self.evasion_modifier)] if self.evasion_modifier else []
        return evasion_value(self.base_evasion, piloting=self.pilot.piloting, other=other)


_SIGNED = re.compile(r"[+-]?[0-9]{1,9}")


def band_modifier(value: object, what: str) -> int | None:
    """A weapon's to-hit modifier in one band as a sheet writes it: a whole number (also as text with
    full-width signs, ``"－2"``), or a dash for a band it cannot reach (``None``, 000 §6)."""
    if isinstance(value, str):
        text = value.strip()
        if text in DASHES:
            return None
        signed = halfwidth(text)
        if _SIGNED.fullmatch(signed):
            return int(signed)
        raise ValueError(f"{what} {value!r} is neither a whole number nor a dash ({NO_MODIFIER}) for no fire")
    return whole(value, what)


def weapon_from_table(entry: Mapping[str, Any]) -> BattleWeapon:
    """A weapon from its table on a sheet: a modifier per band (:func:`band_modifier`; a band left out
    cannot be reached), damage per hit, ammunition, a launcher's capacity and the salvo the text shows
    it fires at once, and its source."""
    modifiers = entry.get("range_modifiers", {})
    bands = {band: band_modifier(modifiers.get(band, NO_MODIFIER), f"{entry.get('name')}'s {band} modifier")
             for band in BANDS}
    return BattleWeapon(entry.get("name"), entry.get("japanese", ""), entry.get("mode"), bands,
                        damage=entry.get("damage"), ammo=whole(entry.get("ammo"), f"{entry.get('name')}'s ammunition", minimum=0),
                        capacity=entry.get("capacity"), source=entry.get("source", "a player's sheet"),
                        salvo_at_least=entry.get("salvo_at_least"))


def hit_location_from_table(entry: Mapping[str, Any]) -> HitLocation:
    """A row of an MS sheet's hit-location table (000 §6) from its table on a sheet; totals above 6 may
    have rows (the mission level and skills are added to the die, line 321)."""
    return HitLocation(entry["name"], tuple(whole(r, "hit-location roll", minimum=1) for r in entry["rolls"]),
                       whole(entry["armour"], "armour", minimum=0),
                       whole(entry["additional_value"], "additional value", minimum=0))


def unit_from_table(table: Mapping[str, Any], position: Hex, facing: int, terrain: str = "space") -> BattleUnit:
    """An undamaged unit at ``position`` facing ``facing`` from a sheet's table (the keys of
    ``rules_lib/sheets/data/gundam-sentinel/*.toml``), moving as its mobility in ``terrain`` says."""
    return BattleUnit(name=table["name"], japanese=table.get("japanese", ""), side=table["side"],
                      unit_class=table["unit_class"], mobility=mobility_hexes(table["mobility"], terrain, table["name"]),
                      base_evasion=table["base_evasion"], durability=table["durability"],
                      max_durability=table["durability"], propellant=table["propellant"],
                      hit_locations=tuple(hit_location_from_table(h) for h in table["hit_locations"]),
                      weapons=tuple(weapon_from_table(w) for w in table["weapons"]), pilot=Pilot(**table["pilot"]),
                      position=position, facing=facing, mook=table.get("mook", False))


def sample_units() -> tuple[BattleUnit, BattleUnit]:
    """The book's two units, 9 hexes apart and facing each other (000 §1, line 21).

    They are the sample sheets ``zaku-ii`` and ``nouvelle-gm-iii`` (``rules_lib/sheets/data/
    gundam-sentinel/``), each value with its source there. From the text: the Zaku II is a normal
    MS with mobility 3/−/4/− (4 hexes in space, 000 §4) and its punch of 1D6+2 puts its durability
    at 20-29 (000 §7-10); the Nouvelle GM III fires 15 small missiles from one launcher (000 §7-1),
    whose per-missile damage ``1D3+4/2`` is the book's reading of the text's formula. Everything
    else (pilots, the beam rifle, evasions, armour, propellant, range modifiers) is *not in the
    source text*. The tables are read by ``rules_lib.samples.sample_tables``. The Nouvelle GM III is taken as a mook MS (ザコＭＳ), so the Zaku II's 66+ is a critical.
    """
    tables = sample_tables("gundam-sentinel")
    (pos_a, face_a), (pos_b, face_b) = starting_positions()
    return unit_from_table(tables["zaku-ii"], pos_a, face_a), unit_from_table(tables["nouvelle-gm-iii"], pos_b, face_b)


# -- readings and state ---------------------------------------------------------------------------

#: AP costs of the patterns the battle uses that the text does not price: *not in the source text*
SAMPLE_COSTS = ActionCosts(extra={"single shot": 3, "missile": 3, "turn only": 2})


@dataclass(frozen=True)
class BattleRules:
    """The battle's numbers and readings where the text is silent; every field is *not in the source text*.

    - ``costs``: AP of single shot, missile and turn only (the AP table is missing, 000 §1, line 56);
      normal move 4, additional move 6 and charge/disengage +2 are the text's own (000 §2).
    - ``arc_degrees``: the firing arc's width (figure 5 is missing, 000 §5).
    - ``half_width``, ``margin``: the book's combat map, 9 columns wide and 1 hex beyond each start.
    - ``mission_level``: added to a PC's hit-location die (ミッションレベル, 000 §6).
    - ``max_borrow``: AP a pilot with anticipation (予想行動) may borrow (000 §1 gives no limit).
    - ``charts``: the critical hit, secondary damage and escape charts (missing from 000); default
      BCDice's transcription (:class:`~.charts.DefaultCharts`).
    - ``critical_multiplies``: what a "double/triple damage" critical multiplies: the rolled damage
      (as the wind-up rule doubles it, 000 §2, line 165) or the damage through the armour.
    - ``escape_for``: whose pilot rolls the escape chart: ``"player"`` (the text gives the check to
      PCs, 000 §6, line 336) or ``"every"`` destroyed unit.
    - ``blast``: the blast damage of a missile salvo that misses, as dice (``"1D3"``): its table is
      missing (000 §7-1, line 346); ``None`` is the book's ruling, the dice of one missile's damage
      without its bonus (:func:`~.salvo.blast_damage`).
    - ``stalemate_rounds``: whole rounds in which no MS loses durability after which the battle ends
      in a draw (000 ends a battle only with a destroyed MS, §6; ``None``: never); default 10, the
      book's ruling (:class:`rules_lib.battle.Stalemate`).
    """

    costs: ActionCosts = field(default_factory=lambda: SAMPLE_COSTS)
    arc_degrees: float = 120
    half_width: int = 4
    margin: int = 1
    mission_level: int = 0
    max_borrow: int = 2
    charts: DefaultCharts = field(default_factory=DefaultCharts)
    critical_multiplies: Literal["rolled damage", "damage through armour"] = "rolled damage"
    escape_for: Literal["player", "every"] = "player"
    blast: str | None = None
    stalemate_rounds: int | None = referee.STALEMATE_ROUNDS

    def __post_init__(self) -> None:
        referee.stalemate_rounds(self.stalemate_rounds)
        if self.blast is not None:
            check_blast(self.blast)  # refuses what is no damage entry, naming it


@dataclass(frozen=True)
class BattleState:
    """A battle: the two units, the round, whose phase and which step of it, this phase's AP, and the log.

    ``phase`` is ``"initiative"`` (the round's initiative is still to be rolled), ``"action
    points"`` (``order[acting]`` fixes its AP), ``"act"`` (it spends them) or ``"over"``.
    ``ap`` is the acting side's AP left this phase; ``owed`` the AP each unit borrowed with
    anticipation and repays next round. ``moves`` counts the move patterns taken this phase;
    ``hexes_left`` the hexes left in the open move pattern; ``free_turn`` whether the unit may
    still make the 60-degree turn of the hex it just entered; ``charged`` whether the open move
    has paid for charge/disengage. ``quiet_since`` is the first round of the present run in which
    no MS has lost durability (the engine's :class:`~rules_lib.battle.Stalemate`); ``end_reason``
    says why a battle without a winner ended.
    """

    units: tuple[BattleUnit, BattleUnit]
    round: int = 1
    phase: Phase = "initiative"
    order: tuple[str, ...] = ()
    acting: int = 0
    ap: int = 0
    owed: tuple[int, int] = (0, 0)
    moves: int = 0
    hexes_left: int = 0
    free_turn: bool = False
    charged: bool = False
    winner: str | None = None
    end_reason: str | None = None
    quiet_since: int = 1
    log: tuple[str, ...] = ()
    rules: BattleRules = field(default_factory=BattleRules)

    def unit(self, name: str) -> BattleUnit:
        return referee.by_name(self.units, name, f"there is no unit {name!r}: the units are ")

    def index(self, name: str) -> int:
        return [u.name for u in self.units].index(self.unit(name).name)

    def opponent(self, name: str) -> BattleUnit:
        return self.units[1 - self.index(name)]

    @property
    def actor(self) -> str | None:
        """The unit whose phase it is, or ``None`` before initiative and after the battle."""
        return self.order[self.acting] if self.phase in ("action points", "act") else None

    @property
    def outcome(self) -> str:
        """How a battle that is over ended: ``"the Zaku II won"``, or a draw and why."""
        return f"the {self.winner} won" if self.winner else (self.end_reason or "a draw")

    @property
    def distance(self) -> int:
        return hexgeo.distance(self.units[0].position, self.units[1].position)

    def board(self) -> frozenset[Hex]:
        """The book's combat map: ``2 * half_width + 1`` columns, the two starts and ``margin`` rows beyond."""
        r = self.rules
        (a, _), (b, _) = starting_positions()
        low, high = 2 * min(a.r, b.r) - 2 * r.margin, 2 * max(a.r, b.r) + 2 * r.margin
        return frozenset(Hex(q, rr) for q in range(-r.half_width, r.half_width + 1)
                         for rr in range(-30, 30) if low <= 2 * rr + q <= high)

    def _with(self, *changed: BattleUnit) -> tuple[BattleUnit, BattleUnit]:
        by_name = {u.name: u for u in changed}
        return tuple(by_name.get(u.name, u) for u in self.units)  # type: ignore[return-value]


@checks.checked_arguments
def new_battle(units: Sequence[BattleUnit] | None = None, *, rules: BattleRules | None = None) -> BattleState:
    """A battle at its start: the units 9 hexes apart, facing each other, before the first initiative."""
    units = tuple(units) if units is not None else sample_units()
    if len(units) != 2 or units[0].name == units[1].name:
        raise ValueError("the guided battle has two units with different names")
    referee.refuse_broken_start([
        *(f"the {u.name} is destroyed (durability {u.durability})" for u in units if u.destroyed),
        *(f"the {u.name}'s pilot has fainted" for u in units if u.fainted),
        referee.shared_positions({u.name: u.position for u in units}),
    ])
    state = BattleState(units, rules=rules or BattleRules())  # type: ignore[arg-type]
    board = state.board()
    for u in units:
        if u.position not in board:
            raise ValueError(f"the {u.name} at {u.position} is off the combat map")
    log = (
        f"the combat map (戦闘マップ): the two MS start {state.distance} hexes apart, facing each other, "
        "out of range of every weapon (000 §1)",
        *(f"{u.name} ({u.japanese}, {u.side}) at {u.position} facing {hexgeo.HEXSIDE_NAMES[u.facing]}: "
          f"durability {u.durability}, propellant {u.propellant}, "
          + ", ".join(f"{w.name} {w.ammo}" for w in u.weapons) for u in units),
    )
    return replace(state, log=log)


# -- actions --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RollInitiative:
    """Roll the round's initiative (イニシアチブ, 000 §1): 2D6 + perception each, higher acts first.

    Fainted pilots first roll their recovery check (回復判定, 000 §8-1). ``dice``: the recovery
    dice (2 per fainted pilot), then 2D6 for each unit in order, then 4 more per tie.
    """

    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class RollAP:
    """``unit`` fixes this round's action points (行動ポイント, 000 §1): 1D6 + reaction, plus
    ``borrow`` AP from next round with anticipation (予想行動). ``dice``: the 1D6."""

    unit: str
    borrow: int = 0
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Move:
    """``unit`` enters one of its three front hexes: ``to`` is ``"left"``, ``"ahead"``, ``"right"``
    or a :class:`Hex` (000 §4). The first hex of a move pattern spends the pattern's AP (normal
    move, then additional moves) and 1 propellant."""

    unit: str
    to: str | Hex = "ahead"


@dataclass(frozen=True)
class Turn:
    """``unit`` turns ``by`` hexsides (+ clockwise, − anticlockwise): free once per hex entered,
    60 degrees (000 §4); otherwise the turn-only pattern (旋回のみ), 60 to 180 degrees."""

    unit: str
    by: int


@dataclass(frozen=True)
class Fire:
    """``unit`` fires ``weapon`` at the enemy (000 §5, §6): a single shot, or a salvo of ``fired``
    missiles (all it can, by default, 000 §7-1). ``dice``: the 1D36 (tens, units), then a PC's
    hit-location 1D6, the damage dice, the additional-damage 2D6, the fainting 2D6, as needed."""

    unit: str
    weapon: str
    fired: int | None = None
    dice: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Choose:
    """``unit``'s player settles the chart result waiting for a choice the sheet cannot make (which
    arm, which weapon, a morale check's result): ``option`` is one of the labels
    :func:`~.battle_effects.options` offers. Nothing else may be done until it is chosen."""

    unit: str
    option: str


@dataclass(frozen=True)
class EndPhase:
    """``unit`` ends its phase; unused AP are lost (000 §3). After the second phase the round ends."""

    unit: str


Action = RollInitiative | RollAP | Move | Turn | Fire | EndPhase | Choose
#: the kinds of action, in the order a widget shows them
ACTION_KINDS: tuple[str, ...] = ("initiative", "ap", "move", "turn", "fire", "end", "choose")

#: each action's kind, in the order a widget shows them
KINDS: dict[type, str] = {RollInitiative: "initiative", RollAP: "ap", Move: "move", Turn: "turn", Fire: "fire",
                          EndPhase: "end", Choose: "choose"}


__all__ = [
    "BattleRules", "BattleState", "BattleUnit", "BattleWeapon", "Choose", "Decision", "EndPhase", "Fire", "Move",
    "RollAP", "RollInitiative", "Turn", "new_battle", "sample_units",
]
