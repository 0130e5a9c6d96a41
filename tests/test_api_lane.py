"""The BCDice-API server's lane for long odds (``rules_lib.api_lane``): long odds are answered by a worker
process with the same JSON as inline, a second long request is told ``busy`` at once, and a request
over its time is answered 503 with the worker stopped (no computation outlives its request)."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from starlette.testclient import TestClient

from rules_lib import api
from rules_lib.api_lane import HEAVY_STEPS, HeavyLane, LaneBusy, LaneTimeout, odds_steps
from rules_lib.api_systems import game_systems, odds

#: accepted by the cost model, and about half a second of work (benchmarks/bench_hostile.py)
NEAR_BUDGET = "+".join(f"9D{200 - i}/D{999 - i}*0" for i in range(14))
LONG = "2D1000/2D999*0+2D999/2D998*0"  # over HEAVY_STEPS, a few tenths of a second at most
GAME = "RulesLib_WIS6"


def test_which_odds_are_long():
    assert odds_steps(GAME, "SL<=13") == 0  # a system's own command: a small table
    assert odds_steps("GundamSentinel", "BB+14>54") == 0
    assert 0 < odds_steps(GAME, "3D6>=10") < HEAVY_STEPS
    assert odds_steps(GAME, LONG) > HEAVY_STEPS and odds_steps(GAME, f"S{LONG} 確率") > HEAVY_STEPS
    assert odds_steps(GAME, "2D6+") == 0 and odds_steps("NoSuchGame", LONG) == 0  # refused inline, at once


@pytest.fixture(scope="module")
def lane():
    started = HeavyLane(time_limit=30)
    yield started
    started.close()


def test_long_odds_from_the_worker_are_the_inline_odds(lane):
    assert lane.odds(GAME, LONG) == ("ok", odds(game_systems()[GAME], LONG))


def test_the_workers_refusals_name_the_limit(lane):
    over = "+".join(f"9D{200 - i}/D{999 - i}*0" for i in range(15))
    kind, message = lane.odds(GAME, over)
    assert kind == "over budget" and "steps; the limit is" in message
    assert lane.odds(GAME, "x2 3D6")[0] == "refused"


def test_a_second_long_request_is_told_busy_at_once(lane):
    with lane._busy:  # a first request holds the worker
        with pytest.raises(LaneBusy):
            lane.odds(GAME, LONG)
    assert lane.odds(GAME, LONG)[0] == "ok"  # and the next one after it is served


def test_a_request_over_its_time_stops_the_worker_and_the_next_starts_another():
    short = HeavyLane(time_limit=0.05)
    try:
        with pytest.raises(LaneTimeout):
            short.odds(GAME, NEAR_BUDGET)
        assert short._process is None  # killed, not left computing
        short.time_limit = 30
        assert short.odds(GAME, "3D6")[0] == "ok"
    finally:
        short.close()


def test_the_server_answers_long_odds_and_refuses_a_second_one_while_busy(monkeypatch):
    # time enough on a busy machine (the worker's start included): this test is of the answer, not its speed
    monkeypatch.setattr(api, "REQUEST_TIME_LIMIT", 60)
    with TestClient(api.create_app()) as client:  # the lifespan starts the worker
        path = f"/v2/game_system/{GAME}/odds?command=" + quote(LONG)
        answered = client.get(path)
        assert answered.status_code == 200 and answered.json() == odds(game_systems()[GAME], LONG)
        monkeypatch.setattr(HeavyLane, "odds", lambda self, game, command: (_ for _ in ()).throw(LaneBusy()))
        busy = client.get(path)
        assert busy.status_code == 503 and busy.json()["reason"] == "busy"
        # short odds do not use the worker, so they are answered while it is busy
        assert client.get(f"/v2/game_system/{GAME}/odds?command=" + quote("3D6>=10")).status_code == 200


def test_the_server_answers_503_when_long_odds_run_out_of_time(monkeypatch):
    monkeypatch.setattr(api, "REQUEST_TIME_LIMIT", 0.05)
    with TestClient(api.create_app()) as client:
        timed_out = client.get(f"/v2/game_system/{GAME}/odds?command=" + quote(NEAR_BUDGET))
        assert timed_out.status_code == 503 and timed_out.json()["reason"] == "timed out"
