import pytest

from rules_lib.wis6 import (
    ACTION_STEPS,
    Combatant,
    Wis6Error,
    Wis6Rules,
    distance,
    initiative_order,
    move,
    parse_square,
    turn_sequence,
)

UNITS = [Combatant("Asuka", 12, 5), Combatant("Ben", 10, 7), Combatant("Chika", 9, 4)]


def test_initiative_is_reaction_plus_mobility_ties_by_a_die():
    result = initiative_order(UNITS, dice=[6, 14])
    assert result.totals == {"Asuka": 17, "Ben": 17, "Chika": 13}
    assert result.order == ("Ben", "Asuka", "Chika")
    assert result.tie_rolls == (("Asuka", 6), ("Ben", 14))


def test_ties_roll_again_and_no_dice_without_ties():
    again = initiative_order(UNITS, dice=[9, 9, 3, 4])
    assert again.order == ("Ben", "Asuka", "Chika")
    assert initiative_order([Combatant("X", 1, 1), Combatant("Y", 5, 0)], dice=[]).order == ("Y", "X")
    seeded = initiative_order(UNITS, seed=7)
    assert seeded == initiative_order(UNITS, seed=7)


def test_tie_die_is_a_parameter():
    result = initiative_order(UNITS, dice=[6, 2], rules=Wis6Rules(tie_die_sides=6))
    assert result.order == ("Asuka", "Ben", "Chika")
    with pytest.raises(Wis6Error, match="it is a d6: allowed are 1 to 6"):
        initiative_order(UNITS, dice=[6, 14], rules=Wis6Rules(tie_die_sides=6))


def test_initiative_errors():
    with pytest.raises(Wis6Error, match="more dice than the 1 given"):
        initiative_order(UNITS, dice=[6])
    with pytest.raises(Wis6Error, match="uses only 2"):
        initiative_order(UNITS, dice=[6, 14, 3])
    with pytest.raises(Wis6Error, match="Asuka appears twice"):
        initiative_order([UNITS[0], UNITS[0]])
    with pytest.raises(Wis6Error, match="reaction 0 is below 1"):
        Combatant("Z", 0, 3)


def test_turn_sequence_repeats_the_three_steps():
    sequence = turn_sequence(initiative_order(UNITS, dice=[6, 14]))
    assert sequence[:3] == tuple(("Ben", step) for step in ACTION_STEPS)
    assert len(sequence) == 9


def test_squares_parse_in_both_widths():
    assert parse_square("Ａ－３") == parse_square("a-3") == parse_square("A-3")
    assert str(parse_square("Ｂ－６")) == "B-6"
    with pytest.raises(Wis6Error, match="not a name like 'A-3'"):
        parse_square("3-A")
    with pytest.raises(Wis6Error, match="rows run 1 to 5"):
        parse_square("A-6", rows=5)
    with pytest.raises(Wis6Error, match="columns run A to C"):
        parse_square("D-1", columns=3)


def test_distance_metric_is_a_parameter():
    assert distance("A-3", "B-6") == 3
    assert distance("A-3", "B-6", Wis6Rules(metric="manhattan")) == 4


def test_movement_up_to_mobility():
    assert move("A-3", "A-6", 3).distance == 3
    with pytest.raises(Wis6Error, match="B-6 is 4 squares from A-3 \\(manhattan distance\\), but the mobility is 3"):
        move("A-3", "B-6", 3, rules=Wis6Rules(metric="manhattan"))


def test_the_default_tie_die_is_a_d20():
    # ruling "Which die breaks a tie in the action order" (book/wis6/_rulings.md): a d20 (not in the source text)
    assert initiative_order(UNITS, dice=[20, 3]).order == ("Asuka", "Ben", "Chika")
    with pytest.raises(Wis6Error, match="it is a d20: allowed are 1 to 20"):
        initiative_order(UNITS, dice=[21, 3])


def test_tie_break_dice_and_a_seed_are_not_both_given():
    with pytest.raises(Wis6Error, match="give tie-break dice or a seed, not both"):
        initiative_order(UNITS, dice=[6, 14], seed=7)
    assert initiative_order(UNITS, dice=[6, 14]).order == initiative_order(UNITS, dice=[6, 14], seed=None).order


def test_the_map_size_of_a_square_is_one_column_and_one_row_or_more():
    assert parse_square("A-1", columns=1, rows=1) == parse_square("A-1")
    with pytest.raises(ValueError, match=r"columns 0 is below 1: allowed are 1 or more"):
        parse_square("A-1", columns=0)
    with pytest.raises(ValueError, match=r"rows 0 is below 1: allowed are 1 or more"):
        parse_square("A-1", rows=0)
    with pytest.raises(Wis6Error, match=r"square 'B-1' is off the map: columns run A to A"):
        parse_square("B-1", columns=1)
    with pytest.raises(Wis6Error, match=r"square 'A-2' is off the map: rows run 1 to 1"):
        parse_square("A-2", rows=1)
