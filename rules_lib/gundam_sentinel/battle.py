"""A guided first battle: a Zaku II against a Nouvelle GM III on the hex combat map (000 §1-§6, §8-1).

The state is frozen; :func:`step` applies one action with the chapter's rule functions
(:func:`~.actions.initiative`, :func:`~.actions.action_points`, :func:`~.actions.ap_cost`,
:func:`~.movement.move`, :func:`~.movement.spend_propellant`, :func:`~.movement.turn_only`,
:func:`~.ranges.weapon_modifier`, :func:`~.ranges.in_firing_arc`, :func:`~.to_hit.evasion_value`,
:func:`~.to_hit.check_hit`, :func:`~.salvo.resolve_salvo`, :func:`~.salvo.salvo_damage`,
:func:`~.damage.apply_damage`, :func:`~.checks.faint_check`, :func:`~.checks.recovery_check`) and
returns the new state with a plain-English explanation. An illegal action raises
:class:`IllegalStep` (a ``ValueError``) naming the reason before any die is drawn, and the state
passed in is unchanged.

The flow is the text's round (000 §1): initiative (2D6 + perception, higher acts first), then the
first side fixes its action points (1D6 + reaction) and spends them on action patterns, then the
second side does the same. Moving spends a move pattern's AP and 1 propellant and enters up to the
mobility in front hexes, turning 60 degrees at most once per hex (000 §4); firing spends the
pattern's AP and the ammunition, rolls 1D36 plus the final modifier against the evasion value,
counted in steps (000 §6), and a hit's damage goes through the armour into the durability.

A critical against a mook MS reads the critical hit chart, secondary damage reads the secondary
damage chart, and a destroyed PC's pilot reads the escape chart (000 §6, §8-2); the charts are
BCDice's transcription, *not in the source text*, and a parameter (``BattleRules.charts``). Their
effects that are rules (to-hit and evasion modifiers, extra AP, fainting, loss of control,
destruction) change the unit; the rest are recorded in its ``conditions``.

The text has no unit sheets: every number it does not give is in :func:`sample_units` and
:class:`BattleRules`, marked *not in the source text*.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Literal

from .. import battle as referee
from ..battle import ActionDice, IllegalStep, StepResult
from ..dice import Distribution, SeededDice, percent, roll
from ..geometry import hex as hexgeo
from ..geometry.hex import Hex, UnitMarker, svg_hex_map
from .actions import ActionCosts, action_points, ap_at_least, ap_cost, initiative, initiative_odds
from .charts import ChartEntry, ChartRoll, DefaultCharts, chart_odds_text
from .checks import escape, faint_chance, faint_check, recovery_check
from .d36 import step_of, value_of
from .damage import apply_damage, critical_hit, hit_location, secondary_damage_chance
from .movement import move, spend_propellant, turn_only
from .ranges import JAPANESE_BANDS, in_firing_arc, range_band, starting_positions, weapon_modifier
from .salvo import DamageFormula, check_fired, resolve_salvo, salvo_damage, salvo_modifier, salvo_odds
from .to_hit import Evasion, check_hit, evasion_value, hit_odds
from .units import HitLocation, Pilot, unit
from .weapons import shots_used, spend_ammunition

Phase = Literal["initiative", "action points", "act", "over"]
FireMode = Literal["single shot", "missile"]
#: the front hexes by name: left-front, straight ahead, right-front (000 §4, figure 1)
FRONT = ("left", "ahead", "right")
PHASES: tuple[str, ...] = ("initiative", "action points", "act", "over")




# -- units --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BattleWeapon:
    """A weapon in the battle. ``mode`` is how it fires: ``"single shot"`` (単射, one hit check, one
    round) or ``"missile"`` (ミサイル, a salvo of ``fired`` missiles, 000 §7-1).

    ``range_modifiers`` maps the bands close, mid, long, extreme to the to-hit modifier, ``None``
    for "―" (000 §6); ``damage`` is per hit; ``ammo`` the rounds (or missiles) left;
    ``capacity`` one launcher's full salvo. Only what ``source`` names is in the text.
    """

    name: str
    japanese: str
    mode: FireMode
    range_modifiers: Mapping[str, int | None]
    damage: str
    ammo: int
    capacity: int | None = None
    source: str = "not in the source text"

    def __post_init__(self) -> None:
        if self.mode not in ("single shot", "missile"):
            raise ValueError(f"fire mode {self.mode!r}: allowed are 'single shot', 'missile'")
        DamageFormula.parse(self.damage)
        if self.ammo < 0:
            raise ValueError(f"{self.name}'s ammunition {self.ammo}: allowed are 0 or more")

    @property
    def pattern(self) -> str:
        """The action pattern that fires it (000 §2): single shot (単射) or missile (ミサイル)."""
        return self.mode

    def shots(self, fired: int = 1) -> int:
        """Rounds one firing uses (000 §6 line 329, §7-1): 1 per single shot, 1 per missile fired."""
        return shots_used("missiles", fired=fired)["weapon"] if self.mode == "missile" else shots_used("single shot")["weapon"]


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
    round it cannot act), ``conditions`` (effects recorded but not modelled) and ``pilot_fate``
    after its MS is destroyed.
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

    @property
    def destroyed(self) -> bool:
        """Durability 0: destroyed and removed from the board (000 §6, ＭＳの破壊)."""
        return self.durability <= 0

    def weapon(self, name: str) -> BattleWeapon:
        for weapon in self.weapons:
            if weapon.name == name:
                return weapon
        raise IllegalStep(f"the {self.name} has no weapon {name!r}: it has {', '.join(w.name for w in self.weapons)}")

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


#: The sample pilots' modifiers: *not in the source text* (000 has no characters or sheets).
SAMPLE_PILOTS = {
    "Zaku II": Pilot(perception=1, reaction=2, shooting=2, piloting=2, stamina=1, mental=0),
    "Nouvelle GM III": Pilot(perception=0, reaction=1, shooting=1, piloting=1, stamina=0, mental=1),
}


def sample_units() -> tuple[BattleUnit, BattleUnit]:
    """The book's two units, 9 hexes apart and facing each other (000 §1, line 21).

    From the text: the Zaku II is a normal MS with mobility 3/−/4/− (4 hexes in space, 000 §4)
    and its punch of 1D6+2 puts its durability at 20-29 (000 §7-10); the Nouvelle GM III fires
    15 small missiles from one launcher (000 §7-1), whose per-missile damage ``1D3+4/2`` is the
    book's reading of the text's formula. **Everything else is not in the source text**: the
    Nouvelle GM III's beam rifle, the pilots (:data:`SAMPLE_PILOTS`), the Nouvelle GM III's class and mobility, evasions,
    durabilities (the Zaku II's 24 is inside the text's 20-29), armour, additional values,
    propellant, the machine gun's range modifiers, damage and rounds, and the missiles' range
    modifiers. The Nouvelle GM III is taken as a mook MS (ザコＭＳ), so the Zaku II's 66+ is a critical.
    """
    zaku, gm = unit("zaku-ii"), unit("nouvelle-gm-iii")
    (pos_a, face_a), (pos_b, face_b) = starting_positions()
    zaku_gun = BattleWeapon(
        "Zaku machine gun", "ザクマシンガン", "single shot",
        {"close": 6, "mid": 4, "long": 2, "extreme": None}, damage="2D6+2", ammo=30,
        source="name: 000 §7-3; range modifiers, damage and rounds not in the source text",
    )
    missiles = BattleWeapon(
        "small missiles", "小型ミサイル", "missile",
        {"close": 2, "mid": 1, "long": 0, "extreme": None}, damage="1D3+4/2", ammo=15, capacity=15,
        source="15 at once: 000 §7-1; damage 1D3+4/2 the book's reading of 000 §7-1; range modifiers not in the source text",
    )
    beam_rifle = BattleWeapon(
        "beam rifle", "ビームライフル", "single shot",
        {"close": 4, "mid": 3, "long": 1, "extreme": None}, damage="2D6+4", ammo=8,
        source="a beam rifle is the text's example of a shooting weapon (000 §2); the Nouvelle GM III's, "
               "its range modifiers, damage and rounds are not in the source text",
    )
    a = BattleUnit(
        name=zaku.name, japanese=zaku.japanese, side="player", unit_class=zaku.unit_class or "normal MS",
        mobility=zaku.mobility.hexes("space"), base_evasion=52, durability=24, max_durability=24, propellant=10,
        hit_locations=(HitLocation("legs", (1, 2), 5, 5), HitLocation("body", (3, 4), 6, 4),
                       HitLocation("arms", (5,), 4, 6), HitLocation("head", (6,), 3, 7)),
        weapons=(zaku_gun,), pilot=SAMPLE_PILOTS["Zaku II"], position=pos_a, facing=face_a,
    )
    b = BattleUnit(
        name=gm.name, japanese=gm.japanese, side="enemy", unit_class="normal MS", mobility=4, base_evasion=46,
        durability=26, max_durability=26, propellant=12,
        hit_locations=(HitLocation("the whole MS", (1, 2, 3, 4, 5, 6), 5, 5),),
        weapons=(missiles, beam_rifle), pilot=SAMPLE_PILOTS["Nouvelle GM III"], position=pos_b, facing=face_b,
        mook=True,
    )
    return a, b


# -- readings and state ---------------------------------------------------------------------------

#: AP costs of the patterns the battle uses that the text does not price: *not in the source text*
SAMPLE_COSTS = ActionCosts(extra={"single shot": 3, "missile": 3, "turn only": 2})


@dataclass(frozen=True)
class BattleRules:
    """The battle's numbers and readings where the text is silent; every field is *not in the source text*.

    - ``costs``: AP of single shot, missile and turn only (the AP table is missing, 000 §1 line 56);
      normal move 4, additional move 6 and charge/disengage +2 are the text's own (000 §2).
    - ``arc_degrees``: the firing arc's width (figure 5 is missing, 000 §5).
    - ``half_width``, ``margin``: the book's combat map, 9 columns wide and 1 hex beyond each start.
    - ``mission_level``: added to a PC's hit-location die (ミッションレベル, 000 §6).
    - ``max_borrow``: AP a pilot with anticipation (予想行動) may borrow (000 §1 gives no limit).
    - ``charts``: the critical hit, secondary damage and escape charts (missing from 000); default
      BCDice's transcription (:class:`~.charts.DefaultCharts`).
    - ``critical_multiplies``: what a "double/triple damage" critical multiplies: the rolled damage
      (as the wind-up rule doubles it, 000 §2 line 165) or the damage through the armour.
    - ``escape_for``: whose pilot rolls the escape chart: ``"player"`` (the text gives the check to
      PCs, 000 §6 line 336) or ``"every"`` destroyed unit.
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


@dataclass(frozen=True)
class BattleState:
    """A battle: the two units, the round, whose phase and which step of it, this phase's AP, and the log.

    ``phase`` is ``"initiative"`` (the round's initiative is still to be rolled), ``"action
    points"`` (``order[acting]`` fixes its AP), ``"act"`` (it spends them) or ``"over"``.
    ``ap`` is the acting side's AP left this phase; ``owed`` the AP each unit borrowed with
    anticipation and repays next round. ``moves`` counts the move patterns taken this phase;
    ``hexes_left`` the hexes left in the open move pattern; ``free_turn`` whether the unit may
    still make the 60-degree turn of the hex it just entered; ``charged`` whether the open move
    has paid for charge/disengage.
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
    log: tuple[str, ...] = ()
    rules: BattleRules = field(default_factory=BattleRules)

    def unit(self, name: str) -> BattleUnit:
        for u in self.units:
            if u.name == name:
                return u
        raise IllegalStep(f"there is no unit {name!r}: the units are {', '.join(u.name for u in self.units)}")

    def index(self, name: str) -> int:
        return [u.name for u in self.units].index(self.unit(name).name)

    def opponent(self, name: str) -> BattleUnit:
        return self.units[1 - self.index(name)]

    @property
    def actor(self) -> str | None:
        """The unit whose phase it is, or ``None`` before initiative and after the battle."""
        return self.order[self.acting] if self.phase in ("action points", "act") else None

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
class EndPhase:
    """``unit`` ends its phase; unused AP are lost (000 §3). After the second phase the round ends."""

    unit: str


Action = RollInitiative | RollAP | Move | Turn | Fire | EndPhase
#: the kinds of action, in the order a widget shows them
ACTION_KINDS: tuple[str, ...] = ("initiative", "ap", "move", "turn", "fire", "end")


def action_kind(action: Action) -> str:
    kinds = {RollInitiative: "initiative", RollAP: "ap", Move: "move", Turn: "turn", Fire: "fire", EndPhase: "end"}
    try:
        return kinds[type(action)]
    except KeyError:
        raise IllegalStep(f"{action!r} is not a battle action: allowed are "
                          "RollInitiative, RollAP, Move, Turn, Fire, EndPhase") from None




# -- checking -------------------------------------------------------------------------------------


def cannot_act(state: BattleState, u: BattleUnit) -> str | None:
    """Why ``u`` can take no action this round, or ``None``: a fainted pilot (000 §8-1) or an MS out
    of control after a critical (the critical hit chart)."""
    if u.fainted:
        return f"the {u.name}'s pilot has fainted (気絶): the MS can take no action at all (000 §8-1)"
    if state.round <= u.disabled_until:
        return (f"the {u.name} is out of control (コントロール不能) through round {u.disabled_until}: "
                "it can take no action (critical hit chart)")
    return None


def _check_phase_actor(state: BattleState, name: str, phase: str) -> BattleUnit:
    if state.phase == "over":
        raise IllegalStep(f"the battle is over: {state.winner} won, nobody acts any more")
    if state.phase == "initiative":
        raise IllegalStep(f"round {state.round} has no initiative yet (000 §1): roll initiative first")
    u = state.unit(name)
    if name != state.actor:
        raise IllegalStep(f"it is the {state.actor}'s phase, not the {name}'s (initiative order: {', '.join(state.order)})")
    why = cannot_act(state, u)
    if why:
        raise IllegalStep(why)
    if state.phase != phase:
        if phase == "act":
            raise IllegalStep(f"the {name} has not fixed its action points yet (000 §1): roll AP first")
        raise IllegalStep(f"the {name} has already fixed its {state.ap} AP this round (000 §1)")
    return u


def _need_ap(state: BattleState, name: str, cost: int, what: str) -> None:
    if cost > state.ap:
        raise IllegalStep(f"{what} costs {cost} AP but the {name} has only {state.ap} left this round (000 §3)")


@dataclass(frozen=True)
class _MovePlan:
    unit: BattleUnit
    target: Hex
    pattern: str | None
    cost: int
    charge: bool
    result: object


def _check_move(state: BattleState, action: Move) -> _MovePlan:
    u = _check_phase_actor(state, action.unit, "act")
    enemy = state.opponent(u.name)
    if isinstance(action.to, Hex):
        target = action.to
    elif action.to in FRONT:
        target = hexgeo.front_hexes(u.position, u.facing)[FRONT.index(action.to)]
    else:
        raise IllegalStep(f"move to {action.to!r}: allowed are 'left', 'ahead', 'right' or a Hex")
    opening = state.hexes_left == 0
    pattern = None
    cost = 0
    if opening:
        pattern = "normal move" if state.moves == 0 else "additional move"
        if pattern == "additional move" and _NO_ADDITIONAL_MOVE in u.conditions:
            raise IllegalStep(f"the {u.name}'s fusion generator is damaged: it can no longer take an additional "
                              "move (secondary damage chart)")
        cost = ap_cost(pattern, u.unit_class) + u.extra_ap
        try:
            spend_propellant(u.propellant, move_patterns=1)
        except ValueError as error:
            raise IllegalStep(f"the {u.name} cannot start a {pattern}: {error} (000 §4)") from None
    try:
        result = move(u.position, u.facing, [target], mobility=u.mobility, enemies=[enemy.position])
    except ValueError as error:
        raise IllegalStep(str(error)) from None
    if target not in state.board():
        raise IllegalStep(f"hex {target} is off the book's combat map (its size is not in the source text)")
    charge = result.charge_disengage and (opening or not state.charged)
    if charge:
        cost += ap_cost("charge/disengage", u.unit_class)
    what = (f"a {pattern} ({'通常移動' if pattern == 'normal move' else '追加移動'})" if pattern
            else f"entering {target}")
    if charge:
        what += (f" next to the {enemy.name} (or leaving it) needs charge/disengage (突撃・離脱, 000 §4), which"
                 if not pattern else " with charge/disengage (突撃・離脱)")
    _need_ap(state, u.name, cost, what)
    return _MovePlan(u, target, pattern, cost, charge, result)


def _check_turn(state: BattleState, action: Turn) -> tuple[BattleUnit, bool, int]:
    u = _check_phase_actor(state, action.unit, "act")
    by = action.by
    if isinstance(by, bool) or not isinstance(by, int) or by == 0 or not -2 <= by <= 3:
        raise IllegalStep(f"turn by {by!r} hexsides: allowed are -2, -1, 1, 2, 3 (60 to 180 degrees)")
    if state.free_turn and by in (-1, 1):
        return u, True, 0
    new_facing = hexgeo.turn(u.facing, by)
    try:
        turn_only(u.facing, new_facing)
        cost = ap_cost("turn only", u.unit_class, state.rules.costs) + u.extra_ap
    except ValueError as error:
        raise IllegalStep(str(error)) from None
    why = "" if state.free_turn else " (no free 60-degree turn now: it comes once, after entering a hex)"
    _need_ap(state, u.name, cost, "turn only (旋回のみ)" + why)
    return u, False, cost


@dataclass(frozen=True)
class _FirePlan:
    unit: BattleUnit
    target: BattleUnit
    weapon: BattleWeapon
    fired: int
    distance: int
    band: str
    weapon_mod: int
    cost: int


def _check_fire(state: BattleState, action: Fire) -> _FirePlan:
    u = _check_phase_actor(state, action.unit, "act")
    target = state.opponent(u.name)
    weapon = u.weapon(action.weapon)
    try:
        if weapon.mode == "missile":
            fired = action.fired if action.fired is not None else min(weapon.ammo, weapon.capacity or weapon.ammo)
            if weapon.ammo == 0:
                raise IllegalStep(f"the {u.name}'s {weapon.name} is empty (0 left): it cannot fire (000 §6)")
            fired = check_fired(fired, weapon.capacity)
        else:
            if action.fired not in (None, 1):
                raise IllegalStep(f"a single shot (単射) fires once, not {action.fired!r} times")
            fired = 1
        shots = weapon.shots(fired)
        spend_ammunition(weapon.ammo, shots, weapon=f"the {u.name}'s {weapon.name}")  # refuses an empty weapon
        far = state.distance
        band = range_band(far)
        mod = weapon_modifier(weapon.range_modifiers, far, f"the {weapon.name}")
        if not in_firing_arc(u.position, u.facing, target.position, state.rules.arc_degrees):
            raise IllegalStep(f"the {target.name} is outside the {u.name}'s firing arc (射界, 000 §5; "
                              f"{state.rules.arc_degrees:g} degrees, not in the source text): turn towards it first")
        cost = ap_cost(weapon.pattern, u.unit_class, state.rules.costs) + u.extra_ap
    except IllegalStep:
        raise
    except ValueError as error:
        raise IllegalStep(str(error)) from None
    _need_ap(state, u.name, cost, f"a {weapon.pattern} ({'単射' if weapon.mode == 'single shot' else 'ミサイル'})")
    return _FirePlan(u, target, weapon, fired, far, band, mod, cost)


def _check_end(state: BattleState, action: EndPhase) -> BattleUnit:
    if state.phase in ("over", "initiative"):
        return _check_phase_actor(state, action.unit, "act")
    u = state.unit(action.unit)
    if action.unit != state.actor:
        raise IllegalStep(f"it is the {state.actor}'s phase, not the {action.unit}'s (initiative order: {', '.join(state.order)})")
    if state.phase == "action points" and not cannot_act(state, u):
        raise IllegalStep(f"the {u.name} fixes its action points first (000 §1): roll AP, then end the phase")
    return u


def check(state: BattleState, action: Action) -> None:
    """Raise :class:`IllegalStep` if ``action`` is not allowed in ``state``; draws no dice."""
    kind = action_kind(action)
    if kind == "initiative":
        if state.phase == "over":
            raise IllegalStep(f"the battle is over: {state.winner} won")
        if state.phase != "initiative":
            raise IllegalStep(f"round {state.round}'s initiative is decided: it is the {state.actor}'s phase")
    elif kind == "ap":
        u = _check_phase_actor(state, action.unit, "action points")
        try:
            action_points(1, u.pilot.reaction + u.ap_die_modifier, borrow=action.borrow, anticipation=u.anticipation,
                          owed=state.owed[state.index(u.name)], max_borrow=state.rules.max_borrow)
        except ValueError as error:
            raise IllegalStep(str(error)) from None
    elif kind == "move":
        _check_move(state, action)
    elif kind == "turn":
        _check_turn(state, action)
    elif kind == "fire":
        _check_fire(state, action)
    else:
        _check_end(state, action)


def is_legal(state: BattleState, action: Action) -> bool:
    """True exactly when ``step(state, action)`` would not refuse, given dice included."""
    return referee.legal(check, step, state, action)


def legal_actions(state: BattleState) -> tuple[Action, ...]:
    """Every action allowed now (without dice): initiative, AP (and each loan anticipation allows),
    each front hex, each turn, each weapon (missiles: a full salvo), and ending the phase."""
    if state.phase == "over":
        return ()
    if state.phase == "initiative":
        return (RollInitiative(),)
    name = state.actor
    candidates: list[Action] = [RollAP(name)]
    candidates += [RollAP(name, borrow=b) for b in range(1, state.rules.max_borrow + 1)]
    candidates += [Move(name, d) for d in FRONT]
    candidates += [Turn(name, by) for by in (-1, 1, -2, 2, 3)]
    candidates += [Fire(name, w.name) for w in state.unit(name).weapons]
    candidates.append(EndPhase(name))
    return tuple(a for a in candidates if is_legal(state, a))


def legal_kinds(state: BattleState) -> frozenset[str]:
    """The kinds of action (``"initiative"``, ``"ap"``, ``"move"``, ``"turn"``, ``"fire"``, ``"end"``) allowed now."""
    return frozenset(action_kind(a) for a in legal_actions(state))


# -- stepping -------------------------------------------------------------------------------------



@referee.refereed(legal_actions)
def step(state: BattleState, action: Action, dice: SeededDice | None = None) -> StepResult:
    """Apply one ``action`` to ``state``; refuse an illegal one with :class:`IllegalStep`.

    Dice come from the action's ``dice`` or, when it has none, from ``dice`` (a
    :class:`~rules_lib.dice.SeededDice` kept outside the frozen state). Every rule is checked
    before a die is drawn, so a refused step leaves the generator untouched too.
    """
    check(state, action)
    kind = action_kind(action)
    if kind == "initiative":
        return _initiative(state, action, dice)
    if kind == "ap":
        return _roll_ap(state, action, dice)
    if kind == "move":
        return _move(state, action)
    if kind == "turn":
        return _turn(state, action)
    if kind == "fire":
        return _fire(state, action, dice)
    return _end(state, action)


def play(state: BattleState, actions: Sequence[Action], dice: SeededDice | None = None) -> list[StepResult]:
    """Apply ``actions`` in turn; returns every step's result (the last holds the final state)."""
    results = []
    for action in actions:
        results.append(step(state, action, dice))
        state = results[-1].state
    return results


def _finish(state: BattleState, lines: list[str], dice: tuple[int, ...] = (), detail: object = None,
            **changes) -> StepResult:
    new = replace(state, log=state.log + tuple(lines), **changes)
    return StepResult(new, tuple(lines), dice, detail)


def _initiative(state: BattleState, action: RollInitiative, source: SeededDice | None) -> StepResult:
    draw = ActionDice(action.dice, source, "initiative")
    lines = [f"round {state.round} begins: initiative (イニシアチブ, 000 §1): each side rolls 2D6 + perception (知覚力)"]
    units = list(state.units)
    for i, u in enumerate(units):
        if u.fainted:
            rec = recovery_check(draw.d(6, 2), u.pilot.mental)
            lines.append(f"the {u.name}'s pilot is fainted: recovery check (回復判定, 000 §8-1), over 10 recovers")
            lines += [f"  {s}" for s in rec.steps]
            if rec.result:
                units[i] = replace(u, fainted=False)
    a, b = units
    while True:
        result = initiative(draw.d(6, 2), a.pilot.perception + a.initiative_modifier,
                            draw.d(6, 2), b.pilot.perception + b.initiative_modifier)
        lines += [s.replace("side A", f"the {a.name}").replace("side B", f"the {b.name}") for s in result.steps[:2]]
        if result.first != "tie":
            break
        lines.append("a tie: both roll again (the book's ruling; the text does not say)")
    first = a if result.first == "A" else b
    second = b if first is a else a
    lines.append(f"the {first.name} acts first (先攻), the {second.name} second (後攻)")
    if cannot_act(state, first):
        lines.append(f"{cannot_act(state, first)}: its phase passes without action")
    return _finish(state, lines, draw.finish(), result, units=tuple(units), phase="action points",
                   order=(first.name, second.name), acting=0, ap=0, moves=0, hexes_left=0, free_turn=False,
                   charged=False)


def _roll_ap(state: BattleState, action: RollAP, source: SeededDice | None) -> StepResult:
    u = state.unit(action.unit)
    i = state.index(u.name)
    draw = ActionDice(action.dice, source, "action points")
    (die,) = draw.d(6)
    ap = action_points(die, u.pilot.reaction + u.ap_die_modifier, borrow=action.borrow, anticipation=u.anticipation,
                       owed=state.owed[i], max_borrow=state.rules.max_borrow)
    lines = [f"the {u.name} fixes its action points (行動ポイント, 000 §1): 1D6 + reaction (反応力)"]
    lines += list(ap.steps)
    owed = tuple(ap.owed_next_round if j == i else o for j, o in enumerate(state.owed))
    return _finish(state, lines, draw.finish(), ap, phase="act", ap=ap.available, owed=owed)


def _move(state: BattleState, action: Move) -> StepResult:
    plan = _check_move(state, action)
    u = plan.unit
    lines = []
    propellant = u.propellant
    hexes_left = state.hexes_left
    moves = state.moves
    if plan.pattern:
        spent = spend_propellant(u.propellant, move_patterns=1)
        propellant = spent.remaining
        hexes_left = u.mobility
        moves += 1
        base = ap_cost(plan.pattern, u.unit_class)
        jp = "通常移動" if plan.pattern == "normal move" else "追加移動"
        lines.append(f"the {u.name} chooses a {plan.pattern} ({jp}, 000 §2): {base} AP; it may enter up to "
                     f"{u.mobility} hexes (mobility in space), turning 60 degrees once per hex (000 §4)")
        lines.append(f"propellant (推進剤) {spent.steps[0]} (1 per move pattern, 000 §4)")
    if plan.charge:
        lines.append(f"the move enters or leaves a hex next to the {state.opponent(u.name).name}: "
                     f"charge/disengage (突撃・離脱) +{ap_cost('charge/disengage', u.unit_class)} AP (000 §2, §4)")
    side = hexgeo.hexside_towards(u.position, plan.target)
    lines.append(f"the {u.name} enters {plan.target} across its {hexgeo.HEXSIDE_NAMES[side]} hexside (a front hex, 000 §4)")
    moved = replace(u, position=plan.target, propellant=propellant)
    new_ap = state.ap - plan.cost
    after = replace(state, units=state._with(moved))
    lines.append((f"AP {state.ap} − {plan.cost} = {new_ap}; " if plan.cost else "")
                 + f"distance to the {state.opponent(u.name).name}: {after.distance} hexes "
                 f"({_band_text(after.distance)}); {hexes_left - 1} {'hex' if hexes_left == 2 else 'hexes'} "
                 "left in this move")
    return _finish(state, lines, (), plan.result, units=after.units, ap=new_ap, moves=moves,
                   hexes_left=hexes_left - 1, free_turn=True,
                   charged=plan.charge if plan.pattern else (state.charged or plan.charge))


def _turn(state: BattleState, action: Turn) -> StepResult:
    u, free, cost = _check_turn(state, action)
    facing = hexgeo.turn(u.facing, action.by)
    degrees = f"{action.by * 60:+d} degrees"
    if free:
        lines = [f"the {u.name} turns {degrees} in the hex it just entered (free: once per hex moved, 000 §4), "
                 f"now facing {hexgeo.HEXSIDE_NAMES[facing]}"]
        changes = {"free_turn": False}
    else:
        lines = [f"the {u.name} chooses turn only (旋回のみ, 000 §2, §4): {cost} AP (not in the source text), "
                 f"turns {degrees}, now facing {hexgeo.HEXSIDE_NAMES[facing]}",
                 f"AP {state.ap} − {cost} = {state.ap - cost}"]
        changes = {"free_turn": False, "hexes_left": 0, "ap": state.ap - cost}
    enemy = state.opponent(u.name)
    inside = in_firing_arc(u.position, facing, enemy.position, state.rules.arc_degrees)
    lines.append(f"the {enemy.name} is {'inside' if inside else 'outside'} its firing arc")
    turned = replace(u, facing=facing)
    return _finish(state, lines, (), None, units=state._with(turned), **changes)


def _band_text(distance: int) -> str:
    band = range_band(distance)
    return f"{band} range, {JAPANESE_BANDS[band]}" if band != "out of range" else "out of range, 射程外"


def _fire(state: BattleState, action: Fire, source: SeededDice | None) -> StepResult:
    p = _check_fire(state, action)
    u, target, weapon = p.unit, p.target, p.weapon
    draw = ActionDice(action.dice, source, "firing")
    jp = "単射" if weapon.mode == "single shot" else "ミサイル"
    lines = [f"the {u.name} fires the {weapon.name} ({weapon.japanese}) at the {target.name}: "
             f"{weapon.pattern} ({jp}) {p.cost} AP (not in the source text"
             + (f"; +{u.extra_ap} for damaged controls" if u.extra_ap else "") + f"), AP {state.ap} − {p.cost} = {state.ap - p.cost}"]
    shots = weapon.shots(p.fired)
    lines.append(f"ammunition (弾数): {weapon.ammo} − {shots} = {weapon.ammo - shots} (000 §6"
                 + (", §7-1)" if weapon.mode == "missile" else ")"))
    lines.append(f"distance {p.distance} hexes: {_band_text(p.distance)} (000 §6); the weapon's modifier there "
                 f"{p.weapon_mod:+d}; the pilot's shooting (射撃力) {u.pilot.shooting:+d}"
                 + (f"; damage from the charts {u.to_hit_modifier:+d}" if u.to_hit_modifier else ""))
    modifier = p.weapon_mod + u.pilot.shooting + u.to_hit_modifier
    evasion = target.evasion_detail()
    plural = "" if abs(target.pilot.piloting) == 1 else "s"
    lines.append(f"the {target.name}'s evasion value (回避値): base {target.base_evasion} + piloting (操縦力) "
                 f"{target.pilot.piloting:+d} step{plural}"
                 + (f" {target.evasion_modifier:+d} from the charts" if target.evasion_modifier else "")
                 + f" = {evasion.value}")
    tens, units_die = draw.d(6, 2)
    if weapon.mode == "missile":
        detail = resolve_salvo(tens, units_die, p.fired, evasion.value, other_modifier=modifier,
                               capacity=weapon.capacity, target_pilot_fainted=target.fainted,
                               target_is_mob=target.mook)
        lines += list(detail.steps)
        hits, hit, critical = detail.hits, detail.hits > 0, detail.check.critical
    else:
        detail = check_hit(tens, units_die, modifier, evasion.value, target_pilot_fainted=target.fainted,
                           target_is_mob=target.mook)
        lines.append(f"final modifier (最終命中修正値): {p.weapon_mod:+d} {u.pilot.shooting:+d}"
                     + (f" {u.to_hit_modifier:+d}" if u.to_hit_modifier else "") + f" = {modifier:+d} (000 §6)")
        lines += list(detail.steps)
        hits, hit, critical = int(detail.hit), detail.hit, detail.critical
    new_weapon = replace(weapon, ammo=spend_ammunition(weapon.ammo, shots, weapon=weapon.name))
    shooter = replace(u, weapons=tuple(new_weapon if w.name == weapon.name else w for w in u.weapons))
    hurt = target
    changes: dict = {"ap": state.ap - p.cost, "hexes_left": 0, "free_turn": False}
    if hit:
        hurt = _damage(state, target, weapon, hits, critical and target.mook, draw, lines)
    else:
        lines.append("a miss: no damage" + (" (the blast damage of a missile miss is not in the source text)"
                                             if weapon.mode == "missile" else ""))
    if hurt.destroyed:
        lines.append(f"the {hurt.name}'s durability is 0: destroyed (000 §6), removed from the board")
        hurt = _escape(state, hurt, draw, lines)
        lines.append(f"the battle is over: the {u.name} wins")
        changes.update(phase="over", winner=u.name)
    units = state._with(shooter, hurt)
    return _finish(state, lines, draw.finish(), detail, units=units, **changes)


#: conditions a chart can leave that the battle enforces
_NO_ADDITIONAL_MOVE = "no additional move (熱核ジェネレーター損傷)"


def _rolled(spec: str, draw: ActionDice) -> tuple[int, str]:
    """Roll an effect's dice (``"1D3"``, ``"3D6"``): the total and how it came about."""
    count, sides = (int(n) for n in spec.upper().split("D"))
    dice = draw.d(sides, count)
    return sum(dice), f"{spec} ({', '.join(map(str, dice))}) = {sum(dice)}"


def _apply_chart(state: BattleState, unit: BattleUnit, entry: ChartEntry, draw: ActionDice,
                 lines: list[str]) -> tuple[BattleUnit, int]:
    """Apply a chart entry's structured effects to ``unit``; returns it and the damage multiplier."""
    multiplier = 1
    changes: dict = {}
    conditions = list(unit.conditions)
    now = unit

    def amount(effect) -> int:
        if effect.dice:
            total, text = _rolled(effect.dice, draw)
            lines.append(f"  roll {text}")
            return effect.sign * total
        return effect.value or 0

    for effect in entry.effects:
        kind = effect.kind
        if kind == "destroyed":
            changes["durability"] = 0
            lines.append(f"  the {unit.name} is destroyed: durability 0")
        elif kind == "damage multiplier":
            multiplier = effect.value
        elif kind == "to hit":
            changes["to_hit_modifier"] = changes.get("to_hit_modifier", now.to_hit_modifier) + effect.value
            lines.append(f"  its shooting and melee hit checks take {effect.value:+d} from now on "
                         f"(total {changes['to_hit_modifier']:+d})")
        elif kind == "evasion":
            value = amount(effect)
            changes["evasion_modifier"] = changes.get("evasion_modifier", now.evasion_modifier) + value
            lines.append(f"  its evasion value changes by {value:+d} steps from now on "
                         f"(total {changes['evasion_modifier']:+d})")
        elif kind == "faint":
            changes["fainted"] = True
            lines.append(f"  the {unit.name}'s pilot faints: the MS can do nothing until a recovery check "
                         "succeeds, and every attack on it hits (000 §8-1)")
        elif kind == "faint check":
            modifier = effect.value or 0
            lines.append(f"  fainting check (気絶判定, 000 §8-1): 2D6 + stamina (体力) {unit.pilot.stamina:+d}"
                         + (f" {modifier:+d}" if modifier else "") + ", 10 or less faints; chance "
                         + percent(faint_chance(unit.pilot.stamina + modifier)))
            check_ = faint_check(draw.d(6, 2), unit.pilot.stamina + modifier)
            lines += [f"    {s}" for s in check_.steps]
            if check_.result:
                changes["fainted"] = True
                lines.append(f"  the {unit.name}'s pilot faints: the MS can do nothing until a recovery check "
                             "succeeds, and every attack on it hits (000 §8-1)")
        elif kind == "pilot damage":
            total, text = _rolled(effect.dice, draw)
            conditions.append(f"pilot took {total} damage")
            lines.append(f"  the pilot takes {text} damage (pilots' own durability is not modelled in this battle)")
        elif kind == "extra AP":
            changes["extra_ap"] = now.extra_ap + effect.value
            lines.append(f"  every action pattern now costs {changes['extra_ap']} more AP")
        elif kind == "cannot act":
            rounds = amount(effect)
            changes["disabled_until"] = state.round + rounds
            lines.append(f"  the {unit.name} cannot act for {rounds} round{'s' if rounds != 1 else ''}: "
                         f"the rest of this round and through round {state.round + rounds} (the book's count)")
        elif kind == "additional check":
            changes["additional_modifier"] = now.additional_modifier + effect.value
            lines.append(f"  its later additional-damage checks take {effect.value:+d}")
        elif kind == "initiative":
            changes["initiative_modifier"] = now.initiative_modifier + effect.value
            lines.append(f"  its initiative takes {effect.value:+d}")
        elif kind == "escape modifier":
            changes["escape_modifier"] = now.escape_modifier + effect.value
            lines.append(f"  its pilot's escape check takes {effect.value:+d}")
        elif kind == "propellant":
            value = amount(effect)
            changes["propellant"] = max(0, unit.propellant + value)
            lines.append(f"  propellant {unit.propellant} {value:+d} = {changes['propellant']}")
        elif kind == "AP die":
            value = amount(effect)
            changes["ap_die_modifier"] = now.ap_die_modifier + value
            lines.append(f"  its action-point die takes {value:+d} from now on")
        elif kind == "no additional move":
            conditions.append(_NO_ADDITIONAL_MOVE)
            lines.append("  it can no longer take an additional move")
        elif kind in ("no damage", "escape check"):
            pass  # applied by apply_damage / by the destruction that comes with it
        else:
            conditions.append(f"{entry.english} ({entry.term})")
            lines.append("  recorded: the book's sample sheets do not say which weapon or item this is")
    if conditions != list(unit.conditions):
        changes["conditions"] = tuple(dict.fromkeys(conditions))
    return replace(unit, **changes), multiplier


def _chart_lines(roll: ChartRoll, modifier: int = 0) -> list[str]:
    return [roll.steps[0], f"  exact odds: {chart_odds_text(roll.chart, modifier)}", f"  {roll.steps[-1]}"]


def _damage(state: BattleState, target: BattleUnit, weapon: BattleWeapon, hits: int, critical: bool,
            draw: ActionDice, lines: list[str]) -> BattleUnit:
    """Critical hit chart, hit location, damage through armour, the additional-damage check and the
    secondary damage chart (000 §6, §8-1)."""
    hurt, multiplier = target, 1
    if critical:
        lines.append("a critical against a mook MS (ザコＭＳ): the critical hit chart (クリティカルヒットチャート, "
                     "000 §6 line 296) decides the effect")
        crit = critical_hit(draw.d(6, 2), chart=state.rules.charts.critical)
        lines += _chart_lines(crit)
        hurt, multiplier = _apply_chart(state, hurt, crit.entry, draw, lines)
        if hurt.destroyed:
            return hurt
    if target.side == "player":
        (loc_die,) = draw.d(6)
        found = hit_location(loc_die, target.hit_locations, mission_level=state.rules.mission_level)
        loc = found.location
        lines.append(f"hit location (命中箇所, 000 §6): {'; '.join(found.steps)}")
    else:
        loc = target.location(1)
        lines.append(f"the {target.name} has one armour value, {loc.armour}, and additional value "
                     f"{loc.additional_value} (an enemy MS rolls no hit location, 000 §6)")
    formula = DamageFormula.parse(weapon.damage)
    dmg = salvo_damage(formula, hits)
    dice = draw.d(formula.sides, formula.count)
    rolled = roll(dmg.expression, dice=list(dice))
    lines.append(f"damage (ダメージ): {dmg.text}" + (f" for {hits} missiles" if weapon.mode == "missile" else "")
                 + f", dice {', '.join(map(str, dice))}: {rolled.total} (no range modifier, 000 §6)")
    total = rolled.total
    if multiplier != 1:
        if state.rules.critical_multiplies == "rolled damage":
            total = rolled.total * multiplier
            lines.append(f"the critical multiplies the damage: {rolled.total} × {multiplier} = {total}")
        else:
            through = max(0, rolled.total - loc.armour) * multiplier
            total = through + loc.armour
            lines.append(f"the critical multiplies the damage through the armour: "
                         f"{max(0, rolled.total - loc.armour)} × {multiplier} = {through}")
    first = apply_damage(total, loc.armour, hurt.durability)
    result = first
    if first.additional_check and not first.destroyed:  # ruling: a destroyed MS has no secondary damage to check
        extra = draw.d(6, 2)
        result = apply_damage(total, loc.armour, hurt.durability, additional_value=loc.additional_value,
                              additional_dice=extra, additional_modifier=hurt.additional_modifier)
        if result.secondary_damage:
            result = apply_damage(total, loc.armour, hurt.durability, additional_value=loc.additional_value,
                                  additional_dice=extra, additional_modifier=hurt.additional_modifier,
                                  secondary_dice=draw.d(6, 2), secondary_chart=state.rules.charts.secondary)
    chart_steps = set(result.secondary.steps) if result.secondary else set()
    lines += [s for s in result.steps if not s.startswith("damage got through: roll 2D6") and s not in chart_steps]
    hurt = replace(hurt, durability=result.durability)
    if result.secondary:
        lines += _chart_lines(result.secondary)
        if result.secondary.entry.has("no damage"):
            lines.append(f"  this hit's damage is cancelled: durability stays {result.durability}")
        hurt, _ = _apply_chart(state, hurt, result.secondary.entry, draw, lines)
    return hurt


def _escape(state: BattleState, hurt: BattleUnit, draw: ActionDice, lines: list[str]) -> BattleUnit:
    """The destroyed unit's pilot and the escape chart (000 §6 line 336, §8-2)."""
    if hurt.side != "player" and state.rules.escape_for == "player":
        lines.append(f"the {hurt.name} is not a PC's MS: the text gives the escape check (脱出判定) to PCs "
                     "(000 §6 line 336), so its pilot makes none (BattleRules.escape_for)")
        return hurt
    if hurt.fainted:
        lines.append(f"the {hurt.name}'s pilot has fainted: a fainted pilot cannot escape, and failing to "
                     "escape is death (000 §8-2)")
        return replace(hurt, pilot_fate="killed (fainted, could not escape)")
    chart = state.rules.charts.escape
    modifier = hurt.escape_modifier
    lines.append(f"the {hurt.name}'s pilot makes the escape check (脱出判定, 000 §8-2): 2D6"
                 + (f" {modifier:+d}" if modifier else "") + " on the escape chart")
    result = escape(draw.d(6, 2), fainted=False, chart=chart, modifier=modifier)
    lines += _chart_lines(result.roll, modifier)
    fate = result.roll.entry.english
    for effect in result.roll.entry.effects:
        if effect.kind in ("pilot damage", "pilot left"):
            _, text = _rolled(effect.dice, draw)
            what = "takes" if effect.kind == "pilot damage" else "is left with"
            lines.append(f"  the pilot {what} {text}" + (" damage" if effect.kind == "pilot damage" else " durability"))
            fate += f" ({what} {text.split('= ')[-1]})"
    lines.append(f"  the pilot {'escapes' if result.escaped else 'does not escape: dies (000 §8-2)'}")
    return replace(hurt, pilot_fate=fate)


def _end(state: BattleState, action: EndPhase) -> StepResult:
    u = _check_end(state, action)
    lost = f"; {state.ap} unused AP {'is' if state.ap == 1 else 'are'} lost (000 §3)" if state.ap else ""
    lines = [f"the {u.name} ends its phase{lost}"]
    reset = {"ap": 0, "moves": 0, "hexes_left": 0, "free_turn": False, "charged": False}
    if state.acting == 0:
        nxt = state.unit(state.order[1])
        lines.append(f"the {nxt.name}'s phase (後攻): it fixes its action points")
        if cannot_act(state, nxt):
            lines.append(f"{cannot_act(state, nxt)}: its phase passes without action")
        return _finish(state, lines, (), None, acting=1, phase="action points", **reset)
    lines.append(f"round {state.round} ends: both sides have had their phase (000 §1)")
    return _finish(state, lines, (), None, acting=0, phase="initiative", order=(), round=state.round + 1, **reset)


# -- odds at a decision ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FireOdds:
    """The exact odds of a firing before the dice: the final modifier (a salvo's bonus included), the
    chance to hit, the missiles hitting, the damage that gets through the armour, the chance of
    secondary damage (``additional``) and of destroying the target (both before any critical hit
    chart), and of a critical against a mook MS (``critical``)."""

    modifier: int
    evasion: int
    hit: Fraction
    hits: Distribution
    through: Distribution
    destroy: Fraction
    additional: Fraction
    critical: Fraction = Fraction(0)

    @property
    def expected_hits(self) -> Fraction:
        return self.hits.mean()

    @property
    def expected_through(self) -> Fraction:
        return self.through.mean()


def fire_odds(state: BattleState, action: Fire) -> FireOdds:
    """Exact odds of ``action`` in ``state`` (000 §6, §7-1, §8-1), with :func:`~.to_hit.hit_odds`,
    :func:`~.salvo.salvo_odds` and :func:`~.salvo.salvo_damage`: the hit location (a PC's MS: each
    1D6 face), the damage dice and the armour are all enumerated. Refuses an illegal firing."""
    p = _check_fire(state, action)
    modifier = p.weapon_mod + p.unit.pilot.shooting + p.unit.to_hit_modifier
    evasion = p.target.evasion()
    critical = Fraction(0)
    if p.target.mook:  # a modified 66+ that hits a mook MS (000 §6): the same rule functions, every roll
        for t in range(1, 7):
            for u in range(1, 7):
                if p.weapon.mode == "missile":
                    crit = resolve_salvo(t, u, p.fired, evasion, other_modifier=modifier, target_is_mob=True,
                                         target_pilot_fainted=p.target.fainted).check.critical
                else:
                    crit = check_hit(t, u, modifier, evasion, target_is_mob=True,
                                     target_pilot_fainted=p.target.fainted).critical
                critical += Fraction(crit, 36)
    salvo_bonus = salvo_modifier(p.fired) if p.weapon.mode == "missile" else 0
    fainted = p.target.fainted
    if p.weapon.mode == "missile":
        if fainted:  # every attack on a fainted pilot hits (000 §8-1): salvo_odds has no such option
            counts: dict[int, int] = {}
            for t in range(1, 7):
                for u in range(1, 7):
                    h = resolve_salvo(t, u, p.fired, evasion, other_modifier=modifier, target_pilot_fainted=True).hits
                    counts[h] = counts.get(h, 0) + 1
            hits = Distribution.from_counts(counts)
        else:
            hits = salvo_odds(p.fired, evasion, other_modifier=modifier).hits
    else:
        odds = hit_odds(modifier, evasion, target_pilot_fainted=fainted)
        hits = Distribution({1: odds.hit, 0: 1 - odds.hit}) if 0 < odds.hit < 1 else Distribution({int(odds.hit): Fraction(1)})
    if p.target.side == "player":
        faces = [p.target.location(f, state.rules.mission_level) for f in range(1, 7)]
    else:
        faces = [p.target.location(1)] * 6
    through: dict[int, Fraction] = {}
    destroy = additional = Fraction(0)
    for h, ph in hits.items():
        if h == 0:
            through[0] = through.get(0, Fraction(0)) + ph
            continue
        damage = salvo_damage(p.weapon.damage, h).distribution
        for loc in faces:
            for d, pd in damage.items():
                t = max(0, d - loc.armour)
                q = ph * pd / 6
                through[t] = through.get(t, Fraction(0)) + q
                if t >= p.target.durability:
                    destroy += q
                elif t > 0:
                    additional += q * secondary_damage_chance(loc.additional_value)
    hit = 1 - hits[0] if 0 in hits.support else Fraction(1)
    return FireOdds(modifier + salvo_bonus, evasion, hit, hits, Distribution(through), destroy, additional, critical)


def describe_fire_odds(state: BattleState, action: Fire) -> str:
    """One line for a player about to fire: hit chance, expected hits (a salvo), damage through armour."""
    o = fire_odds(state, action)
    weapon = state.unit(action.unit).weapon(action.weapon)
    evasion_step = step_of(o.evasion)
    need = value_of(evasion_step - o.modifier + 1)
    target = state.opponent(action.unit)
    if target.fainted:
        parts = [f"{weapon.name}: the {target.name}'s pilot has fainted, so every attack hits (000 §8-1): "
                 f"{percent(o.hit)} to hit"]
    elif o.hit == 0:
        parts = [f"{weapon.name}: final modifier {o.modifier:+d} against evasion {o.evasion}: no roll hits"]
    else:
        parts = [f"{weapon.name}: final modifier {o.modifier:+d} against evasion {o.evasion}, so a 1D36 of "
                 f"{need} or more hits: {percent(o.hit)} ({o.hit}) to hit"]
    if weapon.mode == "missile":
        parts.append(f"expected missiles hitting {float(o.expected_hits):.2f}")
    parts.append(f"expected damage through the armour {float(o.expected_through):.2f}")
    parts.append(f"secondary damage {percent(o.additional)}, destroyed {percent(o.destroy)}")
    if target.mook:
        parts.append(f"critical (a mook MS, 66 or more: the critical hit chart) {percent(o.critical)}; "
                     "the damage and destruction odds are before any critical")
    return "; ".join(parts)


def initiative_chances(state: BattleState) -> dict[str, Fraction]:
    """Exact chances of each unit winning the initiative outright, and of a tie (re-rolled) (000 §1)."""
    a, b = state.units
    odds = initiative_odds(a.pilot.perception, b.pilot.perception)
    return {a.name: odds["A"], b.name: odds["B"], "tie": odds["tie"]}


def ap_chance(state: BattleState, name: str, needed: int) -> Fraction:
    """The chance the unit rolls at least ``needed`` AP this round (000 §1)."""
    u = state.unit(name)
    return ap_at_least(needed, u.pilot.reaction, owed=state.owed[state.index(name)])


def faint_risk(state: BattleState, name: str) -> Fraction:
    """The chance the unit's pilot faints when a fainting check is called for (000 §8-1)."""
    return faint_chance(state.unit(name).pilot.stamina)


# -- display --------------------------------------------------------------------------------------

COLOURS = {"player": "#1565c0", "enemy": "#c62828"}
FRONT_FILL = "#c8e6c9"
REAR_FILL = "#ffcdd2"
ARC_FILL = "#e3f2fd"


def board_svg(state: BattleState, *, size: float = 13) -> str:
    """The combat map as an SVG: both MS with their facing; for the unit acting, its three front hexes
    (○, may enter), its three rear hexes (×, may not) and its firing arc (light blue)."""
    fills: dict[Hex, str] = {}
    labels: dict[Hex, str] = {}
    board = state.board()
    name = state.actor
    if name is not None:
        u = state.unit(name)
        for h in board:
            if h != u.position and in_firing_arc(u.position, u.facing, h, state.rules.arc_degrees):
                fills[h] = ARC_FILL
        for h in hexgeo.front_hexes(u.position, u.facing):
            if h in board:
                fills[h], labels[h] = FRONT_FILL, "○"
        for h in hexgeo.rear_hexes(u.position, u.facing):
            if h in board:
                fills[h], labels[h] = REAR_FILL, "×"
    markers = [UnitMarker(u.position, u.facing, u.name[0], COLOURS[u.side]) for u in state.units if not u.destroyed]
    return svg_hex_map(board, fills=fills, labels=labels, units=markers, size=size, title=status_line(state))


def status_line(state: BattleState) -> str:
    """Where the battle stands, in one line."""
    if state.phase == "over":
        return f"the battle is over: the {state.winner} won"
    head = f"round {state.round}"
    if state.phase == "initiative":
        return f"{head}: roll initiative · distance {state.distance}"
    return f"{head}: the {state.actor}'s phase, {state.ap} AP · distance {state.distance} ({range_band(state.distance)})"


def units_html(state: BattleState) -> str:
    """A table of both units: position, facing, durability, ammunition, propellant, pilot."""
    rows = []
    for u in state.units:
        ammo = ", ".join(f"{html.escape(w.name)} {w.ammo}" for w in u.weapons)
        pilot = "fainted (気絶)" if u.fainted else "conscious"
        if u.pilot_fate:
            pilot = html.escape(u.pilot_fate)
        effects = _lasting_effects(state, u)
        if effects:
            pilot += "; " + html.escape(effects)
        ap = str(state.ap) if u.name == state.actor and state.phase == "act" else "–"
        owed = state.owed[state.index(u.name)]
        rows.append(
            f"<tr><td style='color:{COLOURS[u.side]}'><b>{html.escape(u.name)}</b></td><td>{u.position}</td>"
            f"<td>{hexgeo.HEXSIDE_NAMES[u.facing]}</td><td>{u.durability}/{u.max_durability}</td><td>{ap}"
            + (f" (owes {owed})" if owed else "") + f"</td><td>{ammo}</td><td>{u.propellant}</td><td>{pilot}</td></tr>"
        )
    return ("<table class='battle-units'><thead><tr><th>MS</th><th>hex</th><th>facing</th><th>durability</th>"
            "<th>AP</th><th>ammunition</th><th>propellant</th><th>pilot</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def _lasting_effects(state: BattleState, u: BattleUnit) -> str:
    """What the charts have left on a unit, in a few words."""
    parts = [f"to hit {u.to_hit_modifier:+d}" if u.to_hit_modifier else "",
             f"evasion {u.evasion_modifier:+d}" if u.evasion_modifier else "",
             f"+{u.extra_ap} AP per action" if u.extra_ap else "",
             f"additional-damage 2D6 {u.additional_modifier:+d}" if u.additional_modifier else "",
             f"initiative {u.initiative_modifier:+d}" if u.initiative_modifier else "",
             f"escape {u.escape_modifier:+d}" if u.escape_modifier else "",
             f"AP die {u.ap_die_modifier:+d}" if u.ap_die_modifier else "",
             f"out of control through round {u.disabled_until}" if state.round <= u.disabled_until else "",
             *u.conditions]
    return ", ".join(p for p in parts if p)


def log_html(lines: Sequence[str], last: int | None = None) -> str:
    """The log (or its ``last`` lines) as an HTML list."""
    shown = list(lines) if last is None else list(lines)[-last:]
    return "<ol class='battle-log'>" + "".join(f"<li>{html.escape(line)}</li>" for line in shown) + "</ol>"
