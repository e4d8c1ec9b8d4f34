"""The workbench's answers kept in the catalogue (``snakesim.questions.catalogue``), so that a
link to a page's results works for as long as the catalogue holds them, across restarts.

A finished run of any panel is kept under its question's key (``plan.question.key()``) marked as
the workbench's (:data:`PREFIX`: its answer is the page's, the request and the result the page
polls, not a command's ``--json``, so neither door serves the other's), with what lists it and
the findings in words. Its link is the catalogue's id: ``c42`` (:func:`link`), which
``GET /api/runs/c42`` answers as the finished run it was, on this server or a new one. The same
question asked again is answered from there at once (:func:`served`), unless the page asks to
play it again (``"fresh": true``); an answer kept by other code is never served as current, but
its link still shows it.

The catalogue is opened for each use (one SQLite connection a thread, closed after), at the path
the server was given or else ``$SNAKESIM_HOME``'s at that moment. A catalogue that cannot keep
an answer (a full disk, a foreign file) costs the run nothing but one logged line.
"""

from __future__ import annotations

import json
import logging
import os
import re
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from snakesim.core.jsontext import to_json
from snakesim.questions.catalogue import Catalogue, Entry, saved_words

if TYPE_CHECKING:
    from snakesim.workbench.jobs import Job
    from snakesim.workbench.plans import RunPlan

PREFIX = "workbench:"  # (a kept answer's key: the workbench's, then its question's identity)
LINK = re.compile(r"c([1-9][0-9]{0,17})")  # a kept answer's id as the page's links name it
LISTED = 50  # earlier answers the page lists at most (newest first); `snakesim results` lists every one
log = logging.getLogger("snakesim.workbench")


def key(plan: RunPlan) -> str:
    """The key a run's answer is kept under: its question's identity, marked as the workbench's."""
    return PREFIX + plan.question.key()


def link(id_: int) -> str:
    """A kept answer's id as a link names it: ``c42``."""
    return f"c{id_}"


@contextmanager
def opened(path: str | os.PathLike | None):
    """The catalogue at ``path`` (None: the default's at this moment), closed after the block:
    opened on the thread that uses it, as SQLite's connections stay on theirs."""
    catalogue = Catalogue(path)
    try:
        yield catalogue
    finally:
        catalogue.close()


def saved(summary: dict) -> list[dict]:
    """A search's finding that says how many of its games came from the catalogue (none where
    none did): ``summary`` is its summary, with its ``search``."""
    search = summary.get("search") or {}
    said = saved_words(search.get("games_from_catalogue"), search.get("seed"))
    return [{"arm": None, "text": said}] if said else []


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split()) or type(err).__name__


def words(job: Job, result: dict) -> str:
    """What a kept run found, in words: what it played, then its findings, one a line."""
    lines = [f"{job.describe()} (from the workbench)", ""]
    for f in result.get("findings") or []:
        lines.append(f"- {f['arm']}: {f['text']}" if f.get("arm") else f"- {f['text']}")
    return "\n".join(lines)


def keep(job: Job, result: dict, seconds: float, path: str | os.PathLike | None = None) -> str | None:
    """Keep a finished run (its plan is ``job.plan``) in the catalogue; its link (``c42``), or
    None where the catalogue could not take it (one line logged; the run is done all the same)."""
    plan = job.plan
    where = path if path is not None else "the catalogue"
    try:
        answer = json.loads(to_json({"id": job.id, "kind": job.kind, "what": job.describe(), "done": job.done,
                                     "total": job.total, "request": job.request, "result": result}))  # fmt: skip
        played = answer["result"].get("games")
        with opened(path) as catalogue:
            where = catalogue.path
            id_ = catalogue.keep(key=key(plan), kind=job.kind, game=plan.spec.name, players=plan.players,
                                 seed=plan.seed, games=played if isinstance(played, int) else plan.games,
                                 rules=[a.label for a in plan.arms], seconds=seconds, answer=answer,
                                 words=words(job, answer["result"]))  # fmt: skip
            pruned = catalogue.pruned_words()
    except Exception as err:  # (a full disk, a foreign file, a question with no key: the run is done all the same)
        log.warning("snakesim workbench: the answer of run %s was not kept in %s: %s", job.id, where, _one_line(err))
        return None
    if pruned:
        log.warning("snakesim workbench: %s", pruned)
    return link(id_)


def _job(entry: Entry, request: dict | None = None, id_: str | None = None) -> Job:
    """A kept answer as a finished run: the run it was (its id, request and result, what it
    played, its games and seconds), with its link and where it came from."""
    from snakesim.workbench.jobs import Job

    a = entry.answer
    job = Job(a["kind"], request if request is not None else a["request"], int(a.get("total") or 0),
              what=a.get("what") or "", id=id_ or a.get("id") or link(entry.id), state="done",
              done=int(a.get("done") or 0), result=a["result"])  # fmt: skip
    job.finished = job.started + entry.seconds
    job.link = link(entry.id)
    job.kept = {"id": entry.id, "played": entry.when(), "current": entry.current}
    return job


def _workbenchs(entry: Entry | None) -> bool:
    """Whether a kept answer is one the page can show: the workbench's, of a kind it has."""
    from snakesim.workbench.panels import every

    return (
        entry is not None
        and entry.key.startswith(PREFIX)
        and isinstance(entry.answer.get("request"), dict)
        and isinstance(entry.answer.get("result"), dict)
        and entry.answer.get("kind") in every()
    )


def kept(text: str, path: str | os.PathLike | None = None) -> Job | None:
    """The answer a link names (``c42``) as the finished run it was, or None: not such a link,
    not kept (any more), not the workbench's, or no catalogue to read."""
    found = LINK.fullmatch(text)
    if found is None:
        return None
    try:
        with opened(path) as catalogue:
            entry = catalogue.get(int(found[1]))
    except Exception as err:  # (no answer of that id, or a catalogue that cannot be read: the link is not kept)
        log.debug("answer %s not read: %s", text, _one_line(err))
        return None
    return _job(entry) if _workbenchs(entry) else None


def served(job: Job, plan: RunPlan, path: str | os.PathLike | None = None) -> Job | None:
    """The same question's newest answer kept by this code, as a finished run of the request the
    page sent now (``job``'s, its own id), or None: it is played."""
    try:
        with opened(path) as catalogue:
            entry = catalogue.find(key(plan))
    except Exception as err:  # (a question with no key, a catalogue that cannot be read: it is played)
        log.debug("no earlier answer read: %s", _one_line(err))
        return None
    if not _workbenchs(entry) or entry.answer["kind"] != job.kind:
        return None
    return _job(entry, request=job.request, id_=job.id)


def listed(path: str | os.PathLike | None = None, most: int = LISTED) -> dict[str, Any]:
    """The workbench's earlier answers, newest first (at most ``most``), each as the page lists
    it (its link, kind, game, players, games, seed, rule sets, when it was played, whether this
    code played it), and how many more the catalogue keeps."""
    from snakesim.workbench.panels import every

    try:
        with opened(path) as catalogue:
            entries, total = catalogue.newest(most, PREFIX), catalogue.count(PREFIX)
    except Exception as err:
        return {"answers": [], "more": 0, "error": f"the catalogue could not be read: {_one_line(err)}"}
    kinds = every()
    shown = [{"link": link(e.id), "kind": e.kind, "game": e.game, "players": e.players, "games": e.games,
              "seed": e.seed, "rules": list(e.rules), "played": e.when(), "current": e.current}
             for e in entries if e.kind in kinds]  # fmt: skip
    return {"answers": shown, "more": max(0, total - len(entries))}
