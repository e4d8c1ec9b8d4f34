"""The workbench's runs: checked completely before they start, played on a background thread,
watched (games done, compiling or playing), cancellable, and capped.

A run plays through the library's own functions (``compare_variants``, ``balance``) on a
backend that counts the games as they finish and stops at the next block once cancelled, so
the page's figures are the command line's figures for the same request.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from snakesim.core.backends import ThreadsBackend
from snakesim.core.errors import InputError
from snakesim.core.threads import reporter, reporting

# A run's states: waiting, compiling (an engine, once), playing, then one of these.
FINISHED = ("done", "failed", "cancelled")


class Cancelled(Exception):
    """Raised inside a run whose page asked it to stop."""


class Busy(Exception):
    """No room for another run: as many are running as the server allows (``running``: their
    states, so that the page can offer to cancel them)."""

    def __init__(self, message: str, running: list[dict]):
        super().__init__(message)
        self.running = running


@dataclass(frozen=True)
class Limits:
    """What one page may ask of the server: games per request (every arm's together),
    runs at once, arms per comparison, and finished runs kept in memory (their answers are
    kept in the catalogue besides: ``snakesim.workbench.answers``)."""

    max_games: int = 2_000_000
    max_runs: int = 1
    max_arms: int = 6
    kept: int = 20


class WatchedBackend(ThreadsBackend):
    """Numba threads in this process that count finished games into ``job`` and stop at the
    next finished block once it is cancelled."""

    def __init__(self, job: Job, threads: int | None = None):
        super().__init__(threads)
        self.job = job

    def map(self, task, blocks, args):
        """Play the blocks on this machine's threads, counting each finished game into the job
        (and into an outer progress bar, if any); raises Cancelled at the next finished block
        once the job is cancelled."""
        outer = reporter()

        def counted(games: int) -> None:
            if self.job.cancel.is_set():
                raise Cancelled
            self.job.count(games)
            if outer is not None:
                outer(games)

        self.job.next_part()  # (a comparison plays its arms one map each, in order)
        with reporting(counted):
            for index, start, count in blocks:
                if self.job.cancel.is_set():
                    raise Cancelled
                yield from super().map(task, [(index, start, count)], args)


@dataclass
class Job:
    """One run of the workbench: what it asked, how far it is, and what it found."""

    kind: str
    request: dict
    total: int
    what: str = ""
    id: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    state: str = "waiting"
    message: str = ""
    done: int = 0
    result: dict | None = None
    error: str | None = None
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    cancel: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # A comparison's arms in the order they play: (games, seconds a game) each, so that the
    # share done counts work, not games (an expert's game costs hundreds of greedy ones).
    parts: list[tuple[int, float]] = field(default_factory=list)
    part: int = -1
    part_done: int = 0
    work_done: float = 0.0
    # What the run plays (its RunPlan, from runs.check_request: its question's key keeps its
    # answer in the catalogue); where its answer is kept (``link``: ``c42``); and, for an answer
    # served from the catalogue, which one and when it was played (``kept``).
    plan: Any = field(default=None, repr=False, compare=False)
    link: str | None = None
    kept: dict | None = None

    def next_part(self) -> None:
        """Move on to the run's next part (a rule set's games): the finished part's work is added to the work done."""
        with self.lock:
            if 0 <= self.part < len(self.parts):
                self.work_done += self.part_done * self.parts[self.part][1]
            self.part, self.part_done = self.part + 1, 0

    def count(self, games: int) -> None:
        """Count ``games`` more finished games (and the run as playing)."""
        with self.lock:
            self.done += games
            self.part_done += games
            self.state = "playing"

    def share(self) -> float | None:
        """The share of the run's work done (None while it is not known: no parts, or a
        balance search, whose games are not known in advance). Call with the lock held."""
        if not self.parts or not 0 <= self.part < len(self.parts):
            return None
        whole = sum(games * cost for games, cost in self.parts)
        done = self.work_done + self.part_done * self.parts[self.part][1]
        return min(1.0, done / whole) if whole > 0 else None

    def describe(self) -> str:
        """What the run plays, in a line: ``Fortune, 4 players: 2 rule sets, 100,000 games each``
        (its panel's words, given when the request was checked)."""
        return self.what or f"a run ({self.kind})"

    def status(self, result: bool = True) -> dict[str, Any]:
        """What the page polls: state, message, what it plays, games done of the total,
        seconds, and (with ``result``) the request and its result once done; the one-line
        error once failed; its ``link`` once its answer is kept in the catalogue, and
        ``catalogue`` (the answer's id, when it was played, whether this code played it) when it
        was served from there."""
        with self.lock:
            end = self.finished or time.monotonic()
            out = {"id": self.id, "kind": self.kind, "state": self.state, "message": self.message,
                   "what": self.describe(), "done": self.done, "total": self.total, "share": self.share(),
                   "seconds": round(end - self.started, 2)}  # fmt: skip
            if self.state == "done" and result:
                out["result"], out["request"] = self.result, self.request
            if self.error is not None:
                out["error"] = self.error
            if self.link is not None:
                out["link"] = self.link
            if self.kept is not None:
                out["catalogue"] = self.kept
            return out


class Jobs:
    """The server's runs by id: at most ``limits.max_runs`` playing at once, the last
    ``limits.kept`` finished ones kept in memory; every finished run's answer kept in the
    catalogue (``catalogue``: its path; None: ``$SNAKESIM_HOME``'s, else the user's data
    folder's, at each use), where its link finds it for as long as the catalogue holds it."""

    def __init__(self, limits: Limits = Limits(), catalogue: str | os.PathLike | None = None):
        self.limits = limits
        self.catalogue = catalogue
        self.warming = None  # (the background process compiling the games' engines: snakesim.games.warm.Background)
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()

    def _room(self) -> None:
        """Forget the oldest finished runs beyond ``limits.kept``, with room for one more (lock held)."""
        finished = [j for j in self.jobs.values() if j.state in FINISHED]
        for old in finished[: max(0, len(finished) - self.limits.kept + 1)]:
            del self.jobs[old.id]

    def start(self, job: Job, work: Callable[[Job], dict]) -> Job:
        """Run ``work(job)`` on a thread; Busy if as many runs as allowed are under way."""
        with self.lock:
            running = [j for j in self.jobs.values() if j.state not in FINISHED]
            if len(running) >= self.limits.max_runs:
                what = "; ".join(j.describe() for j in running)
                one = len(running) == 1
                raise Busy(
                    f"{'a run is' if one else f'{len(running)} runs are'} under way ({what}), and this server plays "
                    f"{'one' if one else len(running)} at a time: wait for {'it' if one else 'them'} or cancel",
                    [j.status(result=False) for j in running],
                )
            self._room()
            self.jobs[job.id] = job
        threading.Thread(target=self._run, args=(job, work), daemon=True, name=f"run-{job.id}").start()
        return job

    def add(self, job: Job) -> Job:
        """Keep a run that is finished already (an answer served from the catalogue): no room
        needed among the runs under way."""
        with self.lock:
            self._room()
            self.jobs[job.id] = job
        return job

    def get(self, job_id: str) -> Job | None:
        """The run ``job_id`` if it is kept in memory, else None."""
        with self.lock:
            return self.jobs.get(job_id)

    def answer(self, job_id: str) -> Job | None:
        """The run ``job_id`` if it is kept in memory, else the answer the catalogue keeps under
        that link (``c42``) as the finished run it was, else None."""
        from snakesim.workbench.answers import kept

        return self.get(job_id) or kept(job_id, self.catalogue)

    def all(self) -> list[Job]:
        """Every run kept, the oldest first."""
        with self.lock:
            return list(self.jobs.values())

    def cancel(self, job_id: str) -> Job | None:
        """Ask the run ``job_id`` to stop at its next finished block; the run, or None if not kept."""
        job = self.get(job_id)
        if job is not None:
            job.cancel.set()
        return job

    def cancel_all(self) -> None:
        """Ask every run kept to stop (the server is stopping)."""
        with self.lock:
            for job in self.jobs.values():
                job.cancel.set()

    def _run(self, job: Job, work: Callable[[Job], dict]) -> None:
        try:
            result = work(job)
            state, error = ("cancelled", None) if job.cancel.is_set() else ("done", None)
        except Cancelled:
            result, state, error = None, "cancelled", None
        except InputError as err:
            result, state, error = None, "failed", str(err)
        except MemoryError:
            result, state, error = None, "failed", "out of memory; ask for fewer games"
        except Exception as err:  # the page shows it, and the server keeps serving
            result, state, error = None, "failed", f"the run failed: {type(err).__name__}: {err}"
        link = None
        if state == "done" and job.plan is not None:  # (kept before the page hears it is done: with its link)
            from snakesim.workbench.answers import keep

            link = keep(job, result, time.monotonic() - job.started, self.catalogue)
        with job.lock:
            job.result, job.state, job.error, job.finished = result, state, error, time.monotonic()
            job.link = link
