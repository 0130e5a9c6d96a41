"""Ranged weapons' rate of fire and reloading (004 §3-4-2-3)."""

import pytest

from rules_lib.verse_world import fire_schedule, physical_bonus_applies, turns_per_shot


def test_bow_and_sling_every_second_turn():
    bow = fire_schedule("bow", 4)
    assert bow.turns_doing("prepare") == (1, 3) and bow.shot_turns == (2, 4)
    assert turns_per_shot("bow") == turns_per_shot("sling") == turns_per_shot("staff sling") == 2


def test_magic_gun_and_muzzle_loader():
    gun = fire_schedule("magic gun", 6, magazine=2, spare_magazines=1)
    assert gun.actions == ("shoot", "shoot", "reload", "shoot", "shoot", "idle")
    assert fire_schedule("muzzle-loader", 3).shot_turns == (1,)
    with pytest.raises(ValueError, match="pass magazine"):
        fire_schedule("magic gun", 3)


def test_crossbow_reload_roll():
    xbow = fire_schedule("crossbow", 7, reload_rolls=[3, 1])
    assert xbow.actions == ("shoot", "reload", "reload", "reload", "shoot", "reload", "shoot")
    with pytest.raises(ValueError, match="pass reload_rolls"):
        fire_schedule("crossbow", 3)


def test_thrown_and_bonus():
    assert fire_schedule("thrown", 4, carried=3).shot_turns == (1, 2, 3)
    assert not physical_bonus_applies("magic-gun") and physical_bonus_applies("bow") and physical_bonus_applies("crossbow")
    with pytest.raises(ValueError, match="not in the source text"):
        physical_bonus_applies("sling")
    assert physical_bonus_applies("sling", assumed=True)
    with pytest.raises(ValueError, match="unknown"):
        fire_schedule("blowgun", 2)
