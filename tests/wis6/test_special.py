import pytest

from rules_lib.wis6 import (
    CombinationAttack,
    Effect,
    RoleError,
    SessionUses,
    UsageLimitError,
    Wis6Error,
    can_use_effect,
    check_support,
    combination,
    declare_cooperation,
    intercept,
    jam,
    special_action,
    success_roll,
    tap,
)


def test_special_actions_by_english_or_japanese_name():
    assert special_action("Covering") == "covering"
    assert special_action("迎撃") == "interception"
    with pytest.raises(Wis6Error, match="unknown special action 'teleport': allowed are cooperation"):
        special_action("teleport")


def test_jamming_three_times_per_session_then_an_error():
    session = SessionUses()
    for _ in range(3):
        session = session.use("jamming", "operator")
    assert session.remaining("jamming") == 0
    with pytest.raises(UsageLimitError, match="may be used 3 times per session; this would be use 4"):
        session.use("jamming", "operator")
    assert session.new_session().remaining("jamming") == 3


def test_tapping_once_and_operators_only():
    session = SessionUses().use("tapping", "operator")
    with pytest.raises(UsageLimitError, match="once per session; this would be use 2"):
        session.use("tapping", "operator")
    with pytest.raises(RoleError, match="operator role"):
        SessionUses().use("jamming", "pilot")
    assert SessionUses().use("covering").remaining("covering") is None


def test_jam_ends_a_cooperation_only_on_a_higher_level():
    cooperation = declare_cooperation("Ben", "Asuka")
    result = jam(3, 14, 6, 10, session=SessionUses(), role="operator", target_cooperation=cooperation)
    assert result.succeeded and not result.cooperation.active and result.session.used("jamming") == 1
    tie = jam(7, 14, 10, 20, session=SessionUses(), role="operator", target_cooperation=cooperation)
    assert not tie.succeeded and tie.cooperation.active
    with pytest.raises(UsageLimitError):
        jam(3, 14, 6, 10, session=SessionUses({"jamming": 3}), role="operator")


def test_tap_counts_its_use():
    result = tap(4, 16, session=SessionUses(), role="operator")
    assert result.roll.level == 4 and result.session.remaining("tapping") == 0


def test_cooperation_rules():
    cooperation = declare_cooperation("Ben", "Asuka", completed_steps=["recover bad status"])
    assert not cooperation.can_move and not cooperation.can_attack and cooperation.active
    with pytest.raises(Wis6Error, match="declared before moving"):
        declare_cooperation("Ben", "Asuka", completed_steps=["recover bad status", "move"])
    assert not cooperation.release().active
    assert check_support("covering", cooperation=cooperation, ally="Asuka", distance=6).allowed
    assert not check_support("covering", ally="Asuka", distance=3).allowed
    assert check_support("covering", ally="Asuka", distance=2).allowed


def test_combination_keeps_the_higher_level():
    a = CombinationAttack("Asuka", success_roll(9, 20), 10)
    b = CombinationAttack("Chika", success_roll(2, 18), 6)
    assert combination([a, b]).adopted.attacker == "Chika"
    c = CombinationAttack("Ben", success_roll(9, 20), 12)
    assert combination([a, c]).adopted.attacker == "Ben"
    assert combination([a, c], tie="first").adopted.attacker == "Asuka"
    assert not check_support("combination", distance=4, weapon_range=5, ally_in_range=False).allowed


def test_interception():
    result = intercept(5, 20, 2, 18, attack_kind="missile", weapon_kind="ballistic",
                       missile_weapon_attack=12, armour=4, ammo=6)
    assert result.damage_cancelled and result.ammo_after == 5
    equal = intercept(5, 20, 4, 18, attack_kind="missile", weapon_kind="ballistic",
                      missile_weapon_attack=12, armour=4, ammo=1)
    assert not equal.damage_cancelled and equal.attack.outcome == "equal" and equal.ammo_after == 0
    with pytest.raises(Wis6Error, match="missile attacks"):
        intercept(5, 20, 2, 18, attack_kind="beam", weapon_kind="ballistic", missile_weapon_attack=12, armour=4, ammo=6)
    with pytest.raises(Wis6Error, match="not in the source text"):
        intercept(5, 20, 2, 18, attack_kind="missile", weapon_kind="energy", missile_weapon_attack=12, armour=4)
    with pytest.raises(Wis6Error, match="0 rounds left"):
        intercept(5, 20, 2, 18, attack_kind="missile", weapon_kind="ballistic", missile_weapon_attack=12, armour=4, ammo=0)
    energy = intercept(5, 20, 2, 18, attack_kind="missile", weapon_kind="energy", missile_weapon_attack=12,
                       armour=4, generator_load=2, energy_load=3)
    assert energy.generator_load_after == 5 and energy.ammo_after is None


def test_effects_at_their_timing_or_any_time():
    assert can_use_effect(Effect("boost"), "evasion")
    assert can_use_effect(Effect("shield", timing="evasion"), "evasion")
    assert not can_use_effect(Effect("shield", timing="evasion"), "attack")


def test_support_check_refusals_name_what_is_missing():
    # each guard by its own message: without it a later guard refuses with another reason
    with pytest.raises(Wis6Error, match=r"counter is not a supporting action: allowed are covering, combination, "
                                        r"interception"):
        check_support("counter", ally="Asuka", distance=1, weapon_range=3)
    with pytest.raises(Wis6Error, match=r"covering needs the distance to the ally in squares"):
        check_support("covering", ally="Asuka")
    for missing in ({"distance": 1}, {"weapon_range": 3}):
        with pytest.raises(Wis6Error, match=r"interception needs the distance and the weapon range"):
            check_support("interception", ally="Asuka", **missing)
    assert check_support("interception", ally="Asuka", distance=3, weapon_range=3).allowed


def test_combination_refusals_at_their_boundary():
    a = CombinationAttack("Asuka", success_roll(9, 20), 10)
    b = CombinationAttack("Ben", success_roll(9, 20), 12)
    with pytest.raises(Wis6Error, match=r"a combination needs at least 2 attacks, not 1"):
        combination([a])
    assert combination([a, b]).adopted.attacker == "Ben"
    with pytest.raises(Wis6Error, match=r"tie 'x' is not one of higher_weapon_attack, first"):
        combination([a, b], tie="x")


def test_interception_refusals_name_the_weapon_input():
    kwargs = {"attack_kind": "missile", "missile_weapon_attack": 12, "armour": 4}
    with pytest.raises(Wis6Error, match=r"weapon kind 'melee' is not one of"):
        intercept(5, 20, 2, 18, weapon_kind="melee", generator_load=2, energy_load=3, ammo=6, **kwargs)
    with pytest.raises(Wis6Error, match=r"a ballistic interception needs the weapon's ammunition count \(ammo\)"):
        intercept(5, 20, 2, 18, weapon_kind="ballistic", **kwargs)


def test_a_cooperation_is_released_once():
    over = declare_cooperation("Asuka", "Rei").release()
    with pytest.raises(Wis6Error, match=r"Asuka's cooperation with Rei is already over"):
        over.release()
