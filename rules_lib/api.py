"""A BCDice-API v2 compatible HTTP server for the four systems (``rules-lib api``).

The routes, JSON fields and errors of bcdice-api's ``/v2`` (its docs/api_v2.md): ``/v2/version``,
``/v2/admin``, ``/v2/game_system``, ``/v2/game_system/{id}`` and ``/v2/game_system/{id}/roll``
(GET, or POST with a form), plus this project's extension ``/v2/game_system/{id}/odds``, the
exact distribution. Every request is bounded: the command's length (the CLI's limit), the cost
of odds (the CLI's cost model) and its time; long odds run in a worker process of their own, one
at a time, stopped when their time is up (:mod:`rules_lib.api_lane`), so they cannot slow the
others. No state is kept between requests, so any number of processes can serve behind a load
balancer.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

import anyio
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from . import __version__
from .api_lane import HEAVY_STEPS, HeavyLane, LaneBusy, LaneTimeout, odds_steps
from .api_systems import GameSystem, game_systems, odds, roll
from .dice.errors import DiceLimitError
from .dice.parser import MAX_EXPRESSION_LENGTH
from .dice.roll import DiceSource, SeededDice

#: the version of BCDice whose GundamSentinel output the Gundam text is checked against
BCDICE_VERSION = "4.9.0"
#: seconds one roll or odds may compute before the client is answered 503 (a guard of this
#: server, not in any source text; the cost model keeps accepted odds near a second)
REQUEST_TIME_LIMIT = 3.0
#: the most bytes of a POST body read (a 200-character command, percent-encoded, is under 2 KB)
MAX_BODY_BYTES = 8192
_ADMIN_KEYS = ("name", "url", "email")  # bcdice-api's /v2/admin, from BCDICE_API_ADMIN_NAME etc.


class _Refused(Exception):
    def __init__(self, status: int, reason: str, detail: str = "") -> None:
        super().__init__(reason)
        self.status, self.reason, self.detail = status, reason, detail


def _error(status: int, reason: str, detail: str = "") -> JSONResponse:
    """bcdice-api's error shape; ``detail`` (the library's message) is this project's addition."""
    body: dict[str, Any] = {"ok": False, "reason": reason}
    if detail:
        body["detail"] = detail
    return JSONResponse(body, status_code=status)


def _game(request: Request) -> GameSystem:
    game = game_systems().get(request.path_params["id"])
    if game is None:
        raise _Refused(400, "unsupported game system")
    return game


async def _command(request: Request) -> str:
    """The ``command`` parameter: from the query, or from a POST's form body (read up to a bound)."""
    values = request.query_params.getlist("command")
    if request.method == "POST" and not values:
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise _Refused(413, "request too large", f"a POST body is at most {MAX_BODY_BYTES} bytes")
        values = parse_qs(body.decode("utf-8", "replace")).get("command", [])
    command = values[0] if values else ""
    if not command:
        raise _Refused(400, "unsupported command", "no command= given")
    if len(command) > MAX_EXPRESSION_LENGTH:
        raise _Refused(400, "command too long",
                       f"the command is {len(command)} characters long; at most {MAX_EXPRESSION_LENGTH} are allowed")
    return command


async def _bounded(work: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run ``work`` in a thread, answering 503 if it takes longer than ``REQUEST_TIME_LIMIT``."""
    try:
        with anyio.fail_after(REQUEST_TIME_LIMIT):
            return await anyio.to_thread.run_sync(work, abandon_on_cancel=True)
    except TimeoutError:
        raise _Refused(503, "timed out", f"the request took more than {REQUEST_TIME_LIMIT} seconds") from None


async def _in_lane(lane: HeavyLane, game: GameSystem, command: str) -> dict[str, Any]:
    """Long odds from the worker process, its refusals as the server's."""
    try:
        kind, payload = await anyio.to_thread.run_sync(lane.odds, game.id, command)
    except LaneBusy:
        raise _Refused(503, "busy", "another long odds request is being computed: try again in a moment") from None
    except LaneTimeout:
        raise _Refused(503, "timed out", f"the request took more than {REQUEST_TIME_LIMIT} seconds") from None
    if kind == "ok":
        return payload
    raise _Refused(400, "over budget" if kind == "over budget" else "unsupported command", payload)


def create_app(dice: Callable[[], DiceSource] = SeededDice) -> Starlette:
    """The application; ``dice`` makes each roll's dice (fresh random dice unless a test gives some)."""
    lane = HeavyLane(REQUEST_TIME_LIMIT)

    async def version(request: Request) -> JSONResponse:
        return JSONResponse({"api": __version__, "bcdice": BCDICE_VERSION})

    async def admin(request: Request) -> JSONResponse:
        return JSONResponse({key: os.environ.get(f"BCDICE_API_ADMIN_{key.upper()}", "") for key in _ADMIN_KEYS})

    async def game_system_list(request: Request) -> JSONResponse:
        return JSONResponse({"game_system": [game.summary() for game in game_systems().values()]})

    async def game_system_info(request: Request) -> JSONResponse:
        return JSONResponse(_game(request).info())

    async def roll_endpoint(request: Request) -> JSONResponse:
        game, command = _game(request), await _command(request)
        return JSONResponse(await _bounded(lambda: _refusing(lambda: roll(game, command, dice()))))

    async def odds_endpoint(request: Request) -> JSONResponse:
        game, command = _game(request), await _command(request)
        if odds_steps(game.id, command) > HEAVY_STEPS:
            return JSONResponse(await _in_lane(lane, game, command))
        return JSONResponse(await _bounded(lambda: _refusing(lambda: odds(game, command), odds=True)))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await anyio.to_thread.run_sync(lane.start)
        try:
            yield
        finally:
            await anyio.to_thread.run_sync(lane.close)

    routes = [
        Route("/v2/version", version),
        Route("/v2/admin", admin),
        Route("/v2/game_system", game_system_list),
        Route("/v2/game_system/{id}", game_system_info),
        Route("/v2/game_system/{id}/roll", roll_endpoint, methods=["GET", "POST"]),
        Route("/v2/game_system/{id}/odds", odds_endpoint, methods=["GET", "POST"]),
    ]
    middleware = [Middleware(CORSMiddleware, allow_origins=["*"], allow_methods=["GET", "POST"])]

    async def refused(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, _Refused)
        return _error(exc.status, exc.reason, exc.detail)

    async def not_found(request: Request, exc: Exception) -> JSONResponse:
        status = getattr(exc, "status_code", 404)
        return _error(status, "not found" if status == 404 else "method not allowed")

    return Starlette(routes=routes, middleware=middleware, lifespan=lifespan,
                     exception_handlers={_Refused: refused, 404: not_found, 405: not_found})


def _refusing(work: Callable[[], dict[str, Any]], *, odds: bool = False) -> dict[str, Any]:
    """``work``'s answer; the library's refusal (a ``ValueError``) as bcdice-api's 400, odds over the
    cost model's budget (or another limit) named so."""
    try:
        return work()
    except DiceLimitError as error:
        raise _Refused(400, "over budget" if odds else "unsupported command", str(error)) from None
    except ValueError as error:
        raise _Refused(400, "unsupported command", str(error)) from None


__all__ = ["BCDICE_VERSION", "MAX_BODY_BYTES", "REQUEST_TIME_LIMIT", "create_app"]
