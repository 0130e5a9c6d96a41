"""The BCDice-API server's lane for long odds: one worker process, one request at a time, cut off in time.

Exact odds that the cost model accepts can still take about half a second of CPU. Computed in the
server's own process, they hold its interpreter (the GIL) while it should answer everyone else, and
a thread cannot be stopped when the time limit passes. So odds estimated above `HEAVY_STEPS` go to
a worker process of their own (``multiprocessing``'s ``spawn``: a clean interpreter, whatever the
server's threads hold), scheduled below the server (`WORKER_NICENESS`): one at a time, a second
one answered 503 ``busy`` at once rather than queued, and the process killed (and started again
for the next) when the time limit passes, so no computation outlives its request. Rolls and cheap odds stay in the server's process.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from typing import Any

from .api_systems import game_systems, odds
from .dice.cost import estimate
from .dice.errors import DiceLimitError
from .dice.parser import parse

#: odds estimated above this many steps (about 20 ms of work, ``benchmarks/bench_hostile.py``) run in
#: the worker process (a guard of this server, not in any source text)
HEAVY_STEPS = 50_000


#: seconds a new worker may take to import the library before it is given up (a guard of this server)
WORKER_START_LIMIT = 60
#: how much lower than the server the worker is scheduled (``os.nice``; a guard of this server)
WORKER_NICENESS = 10


class LaneBusy(Exception):
    """Another long odds request is being computed."""


class LaneTimeout(Exception):
    """The worker took longer than the time limit and was stopped."""


def odds_steps(game_id: str, command: str) -> int:
    """The cost model's steps for the odds of ``command`` under ``game_id``: 0 for a system's own
    command (their odds are small tables) or a line the library refuses (refused at once, inline)."""
    game = game_systems().get(game_id)
    if game is None:
        return 0
    try:
        line = game.commands.read(command)
        if game.commands.owns(line.command):
            return 0
        return estimate(parse(line.command)).steps
    except ValueError:
        return 0


def _serve(connection) -> None:
    """The worker: odds for each (game id, command) received, sent back as (kind, payload)."""
    # below the server in the scheduler's eyes: on a busy machine the short requests go first
    os.nice(WORKER_NICENESS)
    connection.send(("ready", None))  # the library is imported: a request's time is its own from here
    while True:
        try:
            game_id, command = connection.recv()
        except EOFError:
            return
        try:
            connection.send(("ok", odds(game_systems()[game_id], command)))
        except DiceLimitError as error:
            connection.send(("over budget", str(error)))
        except ValueError as error:
            connection.send(("refused", str(error)))


class HeavyLane:
    """One worker process for long odds (see the module's docstring)."""

    def __init__(self, time_limit: float) -> None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, int | float) or not 0 < time_limit <= 60:
            raise ValueError(f"time limit {time_limit!r:.40} is not a number of seconds above 0 and at most 60")
        self.time_limit = time_limit
        self._context = multiprocessing.get_context("spawn")
        self._process = None
        self._connection = None
        self._busy = threading.Lock()

    def start(self) -> None:
        """Start the worker now and wait until it has imported the library, so a first request need not wait."""
        with self._busy:
            self._ensure()

    def _ensure(self) -> None:
        if self._process is not None and self._process.is_alive():
            return
        ours, theirs = self._context.Pipe()
        self._process = self._context.Process(target=_serve, args=(theirs,), daemon=True, name="rules-lib odds")
        self._process.start()
        theirs.close()
        self._connection = ours
        # a new interpreter imports the library first (seconds on a busy machine): not counted
        # against a request's time limit, but bounded all the same
        if not ours.poll(WORKER_START_LIMIT) or ours.recv() != ("ready", None):
            self._stop()
            raise LaneTimeout

    def odds(self, game_id: str, command: str) -> tuple[str, Any]:
        """The worker's answer, ``(kind, payload)``: ``("ok", odds)``, ``("over budget", message)`` or
        ``("refused", message)``. Raises `LaneBusy` at once when another request holds the worker, and
        `LaneTimeout` (after stopping the worker) when the answer takes longer than ``time_limit``."""
        if not self._busy.acquire(blocking=False):
            raise LaneBusy
        try:
            self._ensure()
            self._connection.send((game_id, command))
            if not self._connection.poll(self.time_limit):
                self._stop()
                raise LaneTimeout
            return self._connection.recv()
        except (EOFError, BrokenPipeError, ConnectionResetError):
            self._stop()  # the worker died (killed from outside, out of memory): the next request starts another
            raise LaneTimeout from None
        finally:
            self._busy.release()

    def _stop(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.join(timeout=5)
        if self._connection is not None:
            self._connection.close()
        self._process = self._connection = None

    def close(self) -> None:
        """Stop the worker (the server is shutting down)."""
        with self._busy:
            self._stop()


__all__ = ["HEAVY_STEPS", "WORKER_START_LIMIT", "HeavyLane", "LaneBusy", "LaneTimeout", "odds_steps"]
