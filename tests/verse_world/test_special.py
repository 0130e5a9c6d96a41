"""Special actions (004 §3-4-3-1)."""

import pytest

from rules_lib.verse_world import (
    called_shot,
    charge,
    charge_extra_rolls,
    full_defence,
    hands_attack,
    joint_piercing,
    pick_up,
    plan_charge,
    shield_bash,
    stand_up,
    switch_equipment,
    tackle,
    weapon_drop_contest,
)


def test_charge_extra_rolls_cumulative_thresholds():
    assert [charge_extra_rolls(n) for n in (3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 200)] == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


def test_charge_rules_and_errors():
    c = charge(8)
    assert (c.attack_modifier, c.extra_damage_rolls, c.fumble_self_prone, c.fumble_normal_processing) == (-4, 2, True, True)
    with pytest.raises(ValueError, match="at least 4 squares"):
        charge(3)
    with pytest.raises(ValueError, match="earlier in the acting order"):
        charge(6, acts_before_target=False)
    with pytest.raises(ValueError, match="straight"):
        charge(6, straight=False)


def test_plan_charge():
    plan = plan_charge(45, mode="thruster")
    assert (plan.max_squares, plan.extra_damage_rolls, plan.mecha_mp_per_turn) == (12, 2, "3D6")
    assert not plan_charge(30, mode="walk").possible  # 3 squares at 10
    assert plan_charge(31, mode="walk").possible  # 3 squares and a last one with the 1 point left
    assert not plan_charge(31, mode="walk", last_step_rule=False).possible
    with pytest.raises(ValueError, match="cost more"):
        plan_charge(20, squares=5)


def test_tackle_and_shield_bash():
    t = tackle(3)
    assert (t.attack_modifier, t.target_prone_on_hit, t.fumble_normal_processing, t.fumble_self_prone) == (-2, True, False, True)
    with pytest.raises(ValueError, match="at least 3"):
        tackle(2)
    assert shield_bash("medium", knockdown=True).attack_modifier == -2
    assert not shield_bash("large", knockdown=True, acts_before_target=False).target_prone_on_hit
    assert shield_bash("medium", knockdown=False).attack_modifier == 0
    with pytest.raises(ValueError, match="medium shield"):
        shield_bash("small", knockdown=True)


def test_hands_and_whole_turn_actions():
    assert hands_attack("both").modifiers == {"main": -2, "off": -4}
    assert hands_attack("off").modifiers == {"off": -2}
    fd = full_defence()
    assert (fd.evasion_modifier, fd.magic_resistance_modifier, fd.may_move, fd.may_attack) == (5, 5, False, False)
    assert not stand_up().may_move
    assert switch_equipment("drop").may_attack and not switch_equipment("stow").may_attack
    with pytest.raises(ValueError, match="backpack"):
        switch_equipment("drop", from_backpack=True)
    assert pick_up(moved=False).may_attack and not pick_up(moved=True).may_attack
    assert pick_up(moved=True).evasion_modifier == -2


def test_called_shot_and_contest():
    assert called_shot("weapon").attack_modifier == -4
    assert called_shot("weapon", gm_adjustment=1).attack_modifier == -3
    with pytest.raises(ValueError, match="not in the source text"):
        called_shot("hand")
    assert called_shot("hand", part_modifier=-3).attack_modifier == -3
    contest = weapon_drop_contest(3, 3, attacker_dice=[4, 4], defender_dice=[3, 4], defender_two_handed=True)
    assert contest.passive_total == 12 and not contest.active_wins


def test_joint_piercing():
    result = joint_piercing(mecha_knowledge=3, firearms=4, extra_modifier=-6, knowledge_difficulty=18,
                            intelligence=4, knowledge_dice=[5, 6])
    assert result.knowledge_passed and result.attack_modifier == -10 and result.ignores_protection
    with pytest.raises(ValueError, match="level 3 or more"):
        joint_piercing(mecha_knowledge=2, firearms=4, extra_modifier=-6, knowledge_difficulty=18,
                       intelligence=4, knowledge_dice=[5, 6])
    assert not any("the GM's call" in step for step in result.steps)
    # the text's "about 16-20" and "about -4 to -8" are guidance (程度): the GM may choose outside them
    mild = joint_piercing(mecha_knowledge=3, firearms=3, extra_modifier=-2, knowledge_difficulty=22,
                          intelligence=4, knowledge_dice=[5, 6])
    assert mild.attack_modifier == -6 and not mild.knowledge_passed
    assert [s for s in mild.steps if "the GM's call" in s] == [
        "difficulty 22: the text suggests about 16-20 for an ordinary 機装兵 (the GM's call)",
        "extra modifier -2: the text suggests about -4 to -8 (the GM's call)",
    ]
    with pytest.raises(ValueError, match="above 0"):
        joint_piercing(mecha_knowledge=3, firearms=3, extra_modifier=1, knowledge_difficulty=18,
                       intelligence=4, knowledge_dice=[5, 6])


def test_shield_bash_adds_no_off_hand_penalty_and_main_hand_bash_is_the_gms_call():
    from rules_lib.verse_world import hands_attack

    # 004 §3-4-3-1, line 102: the shield's to-hit modifier already includes the off-hand -2
    assert hands_attack("off", shield_bash=True).modifiers == {"off": 0}
    assert hands_attack("off").modifiers == {"off": -2}
    with pytest.raises(ValueError, match="the GM decides"):
        hands_attack("main", shield_bash=True)


def test_charge_and_tackle_consult_the_locomotion_mode(monkeypatch):
    from rules_lib.verse_world import locomotion_mode, plan_charge, tackle

    assert all(locomotion_mode(m).charge_and_tackle_allowed for m in ("walk", "roller", "thruster", "glide-pack"))
    thruster = locomotion_mode("thruster")
    monkeypatch.setattr(type(thruster), "charge_and_tackle_allowed", property(lambda self: self.key != "thruster"))
    with pytest.raises(ValueError, match="may not be combined with a charge"):
        plan_charge(60, mode="thruster")
    with pytest.raises(ValueError, match="may not be combined with a tackle"):
        tackle(3, mode="thruster")
