"""``rules-lib api``: the BCDice-API v2 routes, fields and errors (bcdice-api's docs/api_v2.md), every
system's help examples, the text of a roll against the CLI's and, for Gundam Sentinel, against BCDice's
own output for the same dice; the refusals; one request over HTTP to the real server."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import urllib.request
from fractions import Fraction
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from rules_lib import api
from rules_lib.api_systems import game_systems, help_examples
from rules_lib.cli import BCDICE_DICEBOTS, main
from rules_lib.dice.roll import GivenDice, SeededDice
from tests.test_chat import BCDICE as BCDICE_LINES

GAMES = sorted(game_systems().values(), key=lambda game: game.id)
EXAMPLES = [(game, example) for game in GAMES for example in help_examples(game)]
BCDICE_CASES = tomllib.loads((Path(__file__).parent / "gundam_sentinel" / "bcdice_cases.toml").read_text("utf-8"))["test"]
ROLL_FIELDS = {"ok": bool, "text": str, "secret": bool, "success": bool, "failure": bool, "critical": bool,
               "fumble": bool, "rands": list}


class _Dice:
    """The dice of the next request: given ones (a test fixes them), else seeded."""

    def __init__(self) -> None:
        self.values: list[int] | None = None

    def __call__(self):
        return SeededDice(11) if self.values is None else GivenDice(self.values)


@pytest.fixture
def dice() -> _Dice:
    return _Dice()


@pytest.fixture
def client(dice) -> TestClient:
    return TestClient(api.create_app(dice))


def _roll(client: TestClient, game_id: str, command: str, status: int = 200) -> dict:
    response = client.get(f"/v2/game_system/{game_id}/roll", params={"command": command})
    assert response.status_code == status, response.text
    return response.json()


def _assert_roll_shape(data: dict) -> None:
    assert set(data) == set(ROLL_FIELDS) and data["ok"] is True
    for key, kind in ROLL_FIELDS.items():
        assert isinstance(data[key], kind), key
    for rand in data["rands"]:
        assert set(rand) == {"kind", "sides", "value"} and rand["kind"] == "normal"
        assert isinstance(rand["sides"], int) and 1 <= rand["value"] <= rand["sides"]


def test_version_and_admin(client, monkeypatch):
    version = client.get("/v2/version").json()
    assert set(version) == {"api", "bcdice"} and all(isinstance(v, str) and v for v in version.values())
    assert client.get("/v2/admin").json() == {"name": "", "url": "", "email": ""}
    monkeypatch.setenv("BCDICE_API_ADMIN_NAME", "table host")
    assert client.get("/v2/admin").json()["name"] == "table host"


def test_game_system_list_is_sorted_by_sort_key_with_the_documented_ids(client):
    listed = client.get("/v2/game_system").json()["game_system"]
    assert {game["id"] for game in listed} == {"GundamSentinel", "RulesLib_WIS6", "RulesLib_Nemesis",
                                               "RulesLib_VerseWorld"}
    for game in listed:
        assert set(game) == {"id", "name", "sort_key"} and all(isinstance(v, str) and v for v in game.values())
    assert [game["sort_key"] for game in listed] == sorted(game["sort_key"] for game in listed)


@pytest.mark.parametrize("game", GAMES, ids=[game.id for game in GAMES])
def test_game_system_info_and_its_pattern(client, game):
    info = client.get(f"/v2/game_system/{game.id}").json()
    assert set(info) == {"ok", "id", "name", "sort_key", "command_pattern", "help_message"} and info["ok"] is True
    assert info["id"] == game.id and all(isinstance(info[key], str) for key in info if key != "ok")
    pattern = re.compile(info["command_pattern"], re.IGNORECASE)
    examples = help_examples(game)
    assert examples, "the help message shows at least one command"
    for line in [*examples, *(f"S{e}" for e in examples), *(f"x2 {e}" for e in examples), "2D6+1"]:
        assert pattern.match(line), line
    assert not pattern.match("hello there")


def test_gundam_sentinel_is_bcdice_s_own_dicebot(client):
    info = client.get("/v2/game_system/GundamSentinel").json()
    assert (info["name"], info["sort_key"]) == ("ガンダム・センチネルRPG", "かんたむせんちねる")
    assert BCDICE_DICEBOTS["gundam-sentinel"] == "GundamSentinel"


@pytest.mark.parametrize(("game", "example"), EXAMPLES, ids=[f"{g.id}-{e}" for g, e in EXAMPLES])
def test_every_help_example_rolls(client, game, example):
    _assert_roll_shape(_roll(client, game.id, example))
    posted = client.post(f"/v2/game_system/{game.id}/roll", data={"command": example})
    assert posted.status_code == 200
    _assert_roll_shape(posted.json())


@pytest.mark.parametrize(("game", "example"), EXAMPLES, ids=[f"{g.id}-{e}" for g, e in EXAMPLES])
@pytest.mark.parametrize("form", ["{}", "S{} a comment", "x2 {}", "2D6+1"])
def test_text_is_what_the_cli_prints_for_the_same_dice(client, capsys, game, example, form):
    line = form.format(example)
    data = _roll(client, game.id, line)
    dice = ",".join(str(rand["value"]) for rand in data["rands"])
    bcdice = game.system in BCDICE_DICEBOTS and line != "2D6+1"  # the CLI prints BCDice's text of own commands
    argv = ["roll", line, "--system", game.system, "--dice", dice, *(["--format", "bcdice"] if bcdice else [])]
    assert main(argv) == 0
    assert capsys.readouterr().out == data["text"] + "\n"
    assert data["secret"] is form.startswith("S")


@pytest.mark.parametrize(("line", "values", "secret", "text"), BCDICE_LINES, ids=[case[0] for case in BCDICE_LINES])
def test_gundam_chat_lines_are_bcdice_s_text(client, dice, line, values, secret, text):
    dice.values = values
    data = _roll(client, "GundamSentinel", line)
    assert (data["text"], data["secret"]) == (text, secret)
    assert [rand["value"] for rand in data["rands"]] == values


@pytest.mark.parametrize("case", BCDICE_CASES, ids=[f"{i:02d}-{c['input'].split()[0]}" for i, c in enumerate(BCDICE_CASES)])
def test_gundam_text_and_flags_are_bcdice_s_for_its_own_test_cases(client, dice, case):
    dice.values = [rand["value"] for rand in case["rands"]]
    data = _roll(client, "GundamSentinel", case["input"])
    assert data["text"] == case["output"]
    assert data["rands"] == [{"kind": "normal", **rand} for rand in case["rands"]]
    for flag in ("success", "failure", "critical", "fumble"):
        assert data[flag] is case.get(flag, False), flag


def test_flags_of_the_other_systems(client, dice):
    dice.values = [1, 1]
    assert _roll(client, "RulesLib_VerseWorld", "VW+8>=5")["fumble"] is True
    dice.values = [6, 6]
    vw = _roll(client, "RulesLib_VerseWorld", "VW+8@11>14")
    assert (vw["critical"], vw["success"], vw["failure"]) == (True, True, False)
    dice.values = [20]
    wis6 = _roll(client, "RulesLib_WIS6", "SL<=13")
    assert (wis6["success"], wis6["failure"]) == (False, True)
    dice.values = [6, 6]
    repeated = _roll(client, "GundamSentinel", "x1 GS>10")  # BCDice flags no repetition
    assert not any(repeated[flag] for flag in ("success", "failure", "critical", "fumble"))


@pytest.mark.parametrize("path", ["/v2/game_system/Nope", "/v2/game_system/Nope/roll?command=2D6",
                                  "/v2/game_system/Nope/odds?command=2D6"])
def test_an_unknown_system_is_bcdice_api_s_error(client, path):
    response = client.get(path)
    assert response.status_code == 400
    assert response.json() == {"ok": False, "reason": "unsupported game system"}


@pytest.mark.parametrize(("command", "reason"), [("hello", "unsupported command"), ("", "unsupported command"),
                                                 ("SL<=13", "unsupported command"), ("BB" + "+1" * 5000, "command too long")])
def test_a_command_that_does_not_roll_is_refused_cleanly(client, command, reason):
    data = _roll(client, "GundamSentinel", command, status=400)
    assert data["ok"] is False and data["reason"] == reason and isinstance(data["detail"], str)


def test_a_roll_without_command_and_unknown_routes(client):
    assert client.get("/v2/game_system/GundamSentinel/roll").json()["reason"] == "unsupported command"
    missing = client.get("/v2/nothing")
    assert missing.status_code == 404 and missing.json() == {"ok": False, "reason": "not found"}
    assert client.delete("/v2/game_system/GundamSentinel/roll").status_code == 405


def test_a_post_body_is_bounded(client):
    response = client.post("/v2/game_system/GundamSentinel/roll", content=b"command=" + b"1" * (api.MAX_BODY_BYTES + 1),
                           headers={"content-type": "application/x-www-form-urlencoded"})
    assert response.status_code == 413 and response.json()["ok"] is False


def test_odds_extension_gives_exact_fractions(client):
    data = client.get("/v2/game_system/RulesLib_WIS6/odds", params={"command": "2D6>=10"}).json()
    assert data["ok"] is True and Fraction(data["success"]) == Fraction(1, 6)
    assert sum(Fraction(p) for p in data["distribution"].values()) == 1
    gundam = client.get("/v2/game_system/GundamSentinel/odds", params={"command": "BB+5>30"}).json()
    assert Fraction(gundam["hit"]) == Fraction(29, 36)


@pytest.mark.parametrize("command", ["100D100*100D100", "30D100>=1500"])
def test_odds_over_the_cost_model_s_budget_are_refused(client, command):
    response = client.get("/v2/game_system/GundamSentinel/odds", params={"command": command})
    assert response.status_code == 400 and response.json()["reason"] == "over budget"
    assert "limited" in response.json()["detail"]


def test_a_request_over_the_time_limit_is_answered_503(client, monkeypatch):
    monkeypatch.setattr(api, "REQUEST_TIME_LIMIT", 1e-9)
    response = client.get("/v2/game_system/GundamSentinel/odds", params={"command": "20D20"})
    assert response.status_code == 503 and response.json()["reason"] == "timed out"


def test_cors_for_browser_clients(client):
    got = client.get("/v2/game_system", headers={"Origin": "https://example.org"})
    assert got.headers["access-control-allow-origin"] == "*"
    preflight = client.options("/v2/game_system/GundamSentinel/roll", headers={
        "Origin": "https://example.org", "Access-Control-Request-Method": "POST"})
    assert preflight.status_code == 200 and "POST" in preflight.headers["access-control-allow-methods"]


def test_the_real_server_answers_over_http():
    server = subprocess.Popen([sys.executable, "-m", "rules_lib", "api", "--port", "0"], stderr=subprocess.PIPE,
                              text=True)
    try:
        for line in server.stderr:  # uvicorn names the port it bound
            if found := re.search(r"Uvicorn running on http://127\.0\.0\.1:(\d+)", line):
                break
        else:
            pytest.fail("the server did not start")
        url = f"http://127.0.0.1:{found[1]}/v2/game_system/RulesLib_WIS6/roll?command=SL%3C%3D13"
        with urllib.request.urlopen(url, timeout=10) as response:
            assert response.status == 200 and b'"ok":true' in response.read()
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_api_command_refuses_a_bad_port(capsys):
    assert main(["api", "--port", "70000"]) == 2
    assert "--port" in capsys.readouterr().err
