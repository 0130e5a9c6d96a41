"""What a chart result leaves on an MS in the guided battle besides damage and modifiers (000 §6; the
charts are BCDice's, *not in the source text*): lost weapons and items, a broken arm, a turn limit,
the pilot's own damage, a lost camera counted once, and the morale check.

The sample sheets do not say where a weapon is carried or what else the MS carries (000 has no MS
sheets), so an effect they cannot settle becomes a :class:`~.battle_state.Decision` waiting on the
unit, and its player settles it with :class:`~.battle_state.Choose` before anything else happens.
An effect the sheet settles (one answer left) is applied at once, saying so; one with nothing to
act on (no weapon left to lose) is said in the log and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import checks
from ..battle import IllegalStep, StepResult, finish
from .battle_state import HANDS, BattleState, BattleUnit, BattleWeapon, Choose, Decision
from .charts import ChartEntry, ChartRoll, Effect

#: the effects that may need a choice, queued on the unit as decisions
DECIDED = ("arm disabled", "lose weapon", "lose item", "morale check")
#: "lose weapon" of an arm or of the hand-held weapon: settled with the arm when the entry breaks one
_ARM_WEAPONS = ("hand-held", "right arm", "left arm")
#: the mounts a kind of weapon the charts name may have (a head weapon is fixed to the MS)
_MOUNTED = {"fixed": ("fixed", "head"), "not hand-held": ("fixed", "head", "other")}
#: how a "lose weapon" question asks, and what a "none" answer says
_WEAPON_WORDS = {"fixed": ("which of its weapons is fixed (固定武装)?", "it has no fixed weapon"),
                 "not hand-held": ("which weapon, not carried in hand, is lost?", "it carries no weapon but those in hand")}
#: the items a "lose item" entry names, by the words of the item's name
_ITEM_WORDS = {"spare magazine or E-pack": ("spare magazine", "e-pack"), "propellant tank": ("propellant tank",)}
#: 000 §2, lines 179-193: the patterns that reload, drop, stow and draw weapons, which this battle does not offer
_NO_SWAP_ACTION = "000 §2, lines 179-193"


@dataclass(frozen=True)
class Option:
    """One answer to a :class:`~.battle_state.Decision`: its ``label`` (what :class:`Choose` names)
    and what it does: the weapon lost, the arm broken, the hand found empty, the item lost, or the
    morale check's result (``"holds"``, ``"breaks"``)."""

    label: str
    lose: str | None = None
    arm: str | None = None
    empty_hand: str | None = None
    item: str | None = None
    morale: str | None = None


def cite(roll: ChartRoll) -> str:
    """The entry a roll read, for the log and refusals: ``enemy MS critical hit chart ECHC 3, arm
    broken (腕破損)``."""
    entry = roll.entry
    cell = f"{entry.row}{entry.column}" if entry.row else str(roll.total)
    return f"{roll.chart.name} {roll.chart.id} {cell}, {entry.english.split(':')[0]} ({entry.term})"


def decisions(entry: ChartEntry, source: str, unit: BattleUnit) -> tuple[Decision, ...]:
    """The decisions an entry's effects queue on ``unit``: an arm with the weapon it held, each other
    weapon or item lost, one question per weapon that may be on a hit head, a morale check."""
    breaks_arm = entry.has("arm disabled")
    queued: list[Decision] = []
    for effect in entry.effects:
        if effect.kind == "arm disabled":
            held = [e for e in entry.effects if e.kind == "lose weapon" and e.which in _ARM_WEAPONS]
            queued.append(Decision(source, (effect, *held[:1])))
        elif effect.kind == "lose weapon" and breaks_arm and effect.which in _ARM_WEAPONS:
            continue  # settled with the arm
        elif effect.kind == "lose weapon" and effect.which == "head-mounted":
            on_head = [w.name for w in unit.usable_weapons if w.mount in (None, "head")]
            queued += [Decision(source, (effect,), name) for name in on_head] or [Decision(source, (effect,))]
        elif effect.kind in DECIDED:
            queued.append(Decision(source, (effect,)))
    return tuple(queued)


def _broken(unit: BattleUnit, arm: str) -> str | None:
    return dict(unit.broken_arms).get(arm)


def _held(unit: BattleUnit, hand: str) -> list[BattleWeapon | None]:
    """What ``hand`` may hold: a weapon known to be there; else any weapon of unknown mount, or none."""
    if hand in unit.empty_hands:
        return [None]
    known = [w for w in unit.usable_weapons if w.mount == hand]
    return known or [*(w for w in unit.usable_weapons if w.mount is None), None]


def _hand_options(unit: BattleUnit, hand: str, arm: str | None = None) -> list[Option]:
    head = f"the {arm}, holding" if arm else f"the {hand} held"
    return [Option(f"{head} the {w.name}" if w else f"{head} no weapon", lose=w.name if w else None, arm=arm,
                   empty_hand=hand) for w in _held(unit, hand)]


@checks.checked_arguments
def options(unit: BattleUnit, decision: Decision) -> list[Option]:
    """The answers ``decision`` allows for ``unit`` now, each a label and what it does; none when
    there is nothing to act on, one when the sheet settles it."""
    effect = decision.effects[0]
    which = effect.which
    if effect.kind == "arm disabled":
        arms = tuple(HANDS) if which == "one arm" else (which,)
        found: list[Option] = []
        for arm in (a for a in arms if a in HANDS and not _broken(unit, a)):
            found += (_hand_options(unit, HANDS[arm], arm) if len(decision.effects) > 1
                      else [Option(f"the {arm}", arm=arm, empty_hand=HANDS[arm])])
        return found
    if effect.kind == "lose weapon":
        return _weapon_options(unit, decision, effect)
    if effect.kind == "lose item":
        words = _ITEM_WORDS.get(which or "", ((which or "").lower(),))
        items = [i for i in dict.fromkeys(unit.items) if any(word in i.lower() for word in words)]
        return [Option(f"the {item}", item=item) for item in items]
    if effect.kind == "morale check":
        if which == "once every weapon is lost" and unit.usable_weapons:
            return []
        return [Option("it holds: it fights on", morale="holds"),
                Option("it breaks: it leaves the battle", morale="breaks")]
    return []


def _weapon_options(unit: BattleUnit, decision: Decision, effect: Effect) -> list[Option]:
    which = effect.which
    usable = unit.usable_weapons
    if which in ("right hand", "left hand"):
        arm = next(a for a, h in HANDS.items() if h == which)
        return [] if _broken(unit, arm) else _hand_options(unit, which)
    if which in HANDS:  # an arm's weapon, from a chart that does not break the arm
        return [] if _broken(unit, which) else _hand_options(unit, HANDS[which])
    if which == "hand-held":
        return [o for arm, hand in HANDS.items() if not _broken(unit, arm) for o in _hand_options(unit, hand)]
    if which == "head-mounted":
        w = next((w for w in usable if w.name == decision.weapon), None)
        if w is None:
            return []
        lost = Option(f"the {w.name}: on the head, lost", lose=w.name)
        return [lost] if w.mount == "head" else [lost, Option(f"the {w.name}: not on the head")]
    if which == "lowest-numbered in use":
        return [Option(f"the {usable[0].name} (the first weapon on its sheet)", lose=usable[0].name)] if usable else []
    if which in _MOUNTED:
        known = [w for w in usable if w.mount in _MOUNTED[which]]
        found = [Option(f"the {w.name}", lose=w.name) for w in known + [w for w in usable if w.mount is None]]
        return found + ([] if known else [Option(_WEAPON_WORDS[which][1])])
    return []  # a ship's gun: not a part of an MS


def question(unit: BattleUnit, decision: Decision) -> str:
    """What the player is asked, with the reason the sheet cannot answer it."""
    effect = decision.effects[0]
    which = effect.which or ""
    if effect.kind == "morale check":
        at = f" at {effect.value:+d}" if effect.value else ""
        return (f"morale check (モラル判定){at}: 000 has no morale rule (not in its combat section), so roll it by the game's own rule (or "
                "decide it) and choose the result; a failed check takes the MS out of the battle (the book's reading)")
    if effect.kind == "arm disabled":
        head = "which arm is broken, and which weapon did its hand hold?" if which == "one arm" \
            else f"which weapon did the {which} hold?"
        return head + " (the sheet does not say where each weapon is carried)"
    if effect.kind == "lose item":
        return f"which {which} is lost?"
    if which == "head-mounted":
        return f"on the head or not: the {decision.weapon}? (the sheet does not say where it is mounted)"
    if which in _WEAPON_WORDS:
        return _WEAPON_WORDS[which][0] + " (the sheet does not say)"
    return f"which weapon did the {which} hold? (the sheet does not say where each weapon is carried)"


def _nothing(unit: BattleUnit, decision: Decision) -> str:
    """Why a decision has nothing to act on."""
    effect = decision.effects[0]
    which = effect.which or ""
    if effect.kind == "morale check":
        return f"it still has a weapon ({unit.usable_weapons[0].name}): no morale check"
    if effect.kind == "lose item":
        return f"the {unit.name} carries no {which} (its sheet lists none): nothing is lost"
    if which in ("one arm", "hand-held"):
        return "both arms are already broken, their weapons lost with them: nothing more is lost"
    if effect.kind == "arm disabled" or which in (*HANDS, *HANDS.values()):
        return "that arm is already broken, its weapon lost with it: nothing more is lost"
    if which in ("head-mounted", "lowest-numbered in use"):
        return "it has no weapon left that this could take: nothing more is lost"
    return f"an MS has no {which}: nothing is lost"


def apply(unit: BattleUnit, decision: Decision, option: Option, lines: list[str]) -> BattleUnit:
    """``unit`` after ``option`` of ``decision``, each change said in ``lines``."""
    changes: dict = {}
    source = decision.source
    if option.lose:
        changes["weapons"] = tuple(replace(w, lost=source) if w.name == option.lose else w for w in unit.weapons)
        lines.append(f"  the {unit.name} loses its {option.lose}: that weapon can fire no more")
    if option.arm:
        changes["broken_arms"] = (*unit.broken_arms, (option.arm, source))
        lines.append(f"  its {option.arm} is broken: it can use no weapon from now on")
    if option.empty_hand and option.empty_hand not in unit.empty_hands:
        changes["empty_hands"] = (*unit.empty_hands, option.empty_hand)
    if option.item:
        items = list(unit.items)
        items.remove(option.item)
        changes["items"] = tuple(items)
        lines.append(f"  the {unit.name} loses one {option.item}")
    if option.morale == "holds":
        lines.append(f"  the {unit.name} holds and fights on")
    elif option.morale == "breaks":
        changes.update(withdrawn=True, pending=())
        lines.append(f"  the {unit.name} breaks and leaves the battle (the book's reading of a failed morale check)")
    return replace(unit, **changes)


def settle(unit: BattleUnit, lines: list[str]) -> BattleUnit:
    """Apply each waiting decision the sheet settles (one answer, or nothing to act on) until one
    needs the player (:func:`ask` says it)."""
    while unit.pending:
        decision, rest = unit.pending[0], unit.pending[1:]
        found = options(unit, decision)
        if len(found) > 1:
            break
        unit = replace(unit, pending=rest)
        if found:
            lines.append(f"  {decision.source}: {found[0].label}, the only answer the sheet leaves")
            unit = apply(unit, decision, found[0], lines)
        else:
            lines.append(f"  {decision.source}: {_nothing(unit, decision)}")
    return unit


def queue(unit: BattleUnit, roll: ChartRoll, lines: list[str]) -> BattleUnit:
    """Queue the decisions of ``roll``'s entry on ``unit`` and settle what the sheet can."""
    return settle(replace(unit, pending=unit.pending + decisions(roll.entry, cite(roll), unit)), lines)


def ask(unit: BattleUnit) -> str | None:
    """The question waiting for ``unit``'s player and its answers, or ``None``."""
    if not unit.pending:
        return None
    decision = unit.pending[0]
    labels = " / ".join(o.label for o in options(unit, decision))
    return f"a choice for the {unit.name}'s player ({decision.source}): {question(unit, decision)}: {labels}"


def waiting(state: BattleState) -> tuple[BattleUnit, Decision, list[Option]] | None:
    """The unit whose decision waits, the decision and its answers; ``None`` when nothing waits."""
    for u in state.units:
        if u.pending:
            return u, u.pending[0], options(u, u.pending[0])
    return None


def check_waiting(state: BattleState, action: object) -> None:
    """Refuse every action but :class:`Choose` while a chart result waits for its player's choice."""
    found = waiting(state) if state.phase != "over" else None
    if found and not isinstance(action, Choose):
        u, decision, answers = found
        raise IllegalStep(f"first the {u.name}'s player chooses ({decision.source}): {question(u, decision)}: "
                          + " / ".join(o.label for o in answers))


def choices(state: BattleState) -> tuple[Choose, ...]:
    """A :class:`Choose` for each answer of the waiting decision (none when nothing waits)."""
    found = waiting(state)
    return tuple(Choose(found[0].name, o.label) for o in found[2]) if found else ()


def _check_choose(state: BattleState, action: Choose) -> tuple[BattleUnit, Decision, Option]:
    if state.phase == "over":
        raise IllegalStep(f"the battle is over: {state.outcome}; nothing is left to choose")
    state.unit(action.unit)  # an unknown unit is refused by name
    found = waiting(state)
    if found is None:
        raise IllegalStep("nothing to choose: no chart result is waiting for a player's choice")
    u, decision, answers = found
    if u.name != action.unit:
        raise IllegalStep(f"the choice waiting is the {u.name}'s player's, not the {action.unit}'s")
    for option in answers:
        if option.label == action.option:
            return u, decision, option
    raise IllegalStep(f"option {action.option!r} ({decision.source}): allowed are "
                      + ", ".join(repr(o.label) for o in answers))


def check_choose(state: BattleState, action: Choose) -> None:
    """Refuse a :class:`Choose` that does not answer the waiting decision; draws no dice."""
    _check_choose(state, action)


def choose(state: BattleState, action: Choose, source: object = None) -> StepResult:
    """Apply the player's answer, then every later decision the sheet settles; a morale check that
    breaks ends the battle, the other side winning."""
    u, decision, option = _check_choose(state, action)
    lines = [f"the {u.name}'s player chooses ({decision.source}): {option.label}"]
    u = settle(apply(replace(u, pending=u.pending[1:]), decision, option, lines), lines)
    if ask(u):
        lines.append(ask(u))
    changes: dict = {}
    if u.withdrawn:
        winner = state.opponent(u.name).name
        lines.append(f"the battle is over: the {winner} wins")
        changes.update(phase="over", winner=winner)
    return finish(state, lines, (), option, units=state._with(u), **changes)


def weapon_refusal(unit: BattleUnit, weapon: BattleWeapon) -> str | None:
    """Why ``weapon`` cannot be used after a chart result, or ``None``."""
    if weapon.lost:
        return f"the {unit.name} has lost its {weapon.name} to the {weapon.lost}: that weapon can fire no more"
    for arm, why in unit.broken_arms:
        if weapon.mount == HANDS[arm]:
            return f"the {unit.name}'s {arm} is broken ({why}): it can use no weapon, the {weapon.name} included"
    return None


def turn_refusal(unit: BattleUnit, hexsides: int) -> str | None:
    """Why a turn of ``hexsides`` (60 degrees each) is more than a damaged thruster allows, or ``None``."""
    if unit.turn_limit and abs(hexsides) * 60 > unit.turn_limit[0]:
        limit, why = unit.turn_limit
        return f"the {unit.name} can turn at most {limit} degrees after the {why}, not {abs(hexsides) * 60}"
    return None


def limit_turn(unit: BattleUnit, degrees: int, source: str) -> tuple[tuple[int, str], str]:
    """The turn limit after a thruster result: the narrower one stands; and the log line."""
    if unit.turn_limit and unit.turn_limit[0] <= degrees:
        return unit.turn_limit, f"  it can already turn only {unit.turn_limit[0]} degrees: no change"
    return (degrees, source), f"  it can turn at most {degrees} degrees from now on (000 §4, line 236 allows up to 180)"


def lose_part(unit: BattleUnit, part: str, value: int) -> tuple[int, tuple[tuple[str, int], ...], str]:
    """A camera lost: the change to the to-hit modifier (only what is worse than what its loss already
    counted, so a part lost twice counts once), the parts lost, and what the log says of it."""
    counted = dict(unit.lost_parts).get(part, 0)
    worst = min(counted, value)
    parts = tuple((p, worst if p == part else v) for p, v in unit.lost_parts) if part in dict(unit.lost_parts) \
        else (*unit.lost_parts, (part, worst))
    if counted and worst == counted:
        return 0, parts, f"its {part} is already lost ({counted:+d} counted): a part is lost once, so"
    more = f" ({worst:+d} in all for it, {counted:+d} already counted)" if counted else ""
    return worst - counted, parts, f"its {part} is lost{more}:"


def no_swap(source: str) -> tuple[str, str]:
    """"Cannot swap hand-held weapons": a lasting condition, and its log line; the battle has no action
    it forbids."""
    return (f"cannot swap hand-held weapons ({source.split(',')[0]})",
            f"  it cannot swap hand-held weapons from now on; this battle offers no reloading, drawing or stowing "
            f"of weapons ({_NO_SWAP_ACTION}, their AP costs are missing), so no action is refused for it")


def pilot_damage_line(unit: BattleUnit, text: str, total: int) -> str:
    """The log line of the pilot's own damage, which goes on the character sheet."""
    return (f"  the pilot takes {text} damage ({unit.pilot_damage + total} in this battle): a pilot's durability "
            "is on the character sheet, outside 000's combat section, so take it off there")


__all__ = ["Option", "options"]
