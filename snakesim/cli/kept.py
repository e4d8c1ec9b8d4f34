"""Answers kept in the catalogue (snakesim.questions.catalogue), for the commands that ask a
question (compare, balance, tune, design, skill, sweep; not run): the same question asked
again is answered from there, saying so; a played one is kept, and a search takes the games
earlier searches kept there, saying how many."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable

import click

from snakesim.questions.catalogue import saved_words


def where_from(kept) -> str:
    """The line a kept answer ends with: where it came from, and how to play it again."""
    return (f"From the catalogue (answer {kept.id}): played on {kept.when()}, {kept.games:,} games in "
            f"{kept.seconds:.1f} s; --fresh plays them again.")  # fmt: skip


def served(kept) -> tuple[dict, str]:
    """A kept answer as its command shows it: its JSON with ``catalogue`` (which answer, when
    played, how long it took), and its words with :func:`where_from`."""
    meta = {**kept.answer, "catalogue": {"id": kept.id, "played": kept.when(), "seconds": round(kept.seconds, 3)}}
    return meta, f"{kept.words}\n\n{where_from(kept)}"


def keep(catalogue, plan, kind: str, *, meta: dict, text: str, seconds: float, games: int | None = None,
         tally: str | None = None) -> None:  # fmt: skip
    """Keep a played answer (``meta``: its --json object, ``text``: its words); a catalogue that
    cannot take it (a full disk) costs the answer nothing but one warning line, and one at its
    cap says what it removed."""
    budget = plan.budget
    players = getattr(plan, "players", None)
    if players is None:  # (a question over several player counts: its first)
        players = next(iter(getattr(plan, "counts", ()) or ()), 0)
    arms = getattr(plan, "arms", None)  # (Arm objects, or a skill plan's (label, rules) pairs)
    rules = [a.label if hasattr(a, "label") else a[0] for a in arms] if arms else [getattr(plan, "label", "")]
    if hasattr(plan, "settings") and hasattr(plan, "points"):  # (a sweep: where it starts, and what it sets)
        rules = [plan.variant or "standard", *plan.settings]
    try:
        catalogue.keep(key=plan.key(), kind=kind, game=plan.game, players=players, seed=budget.seed,
                       games=budget.games if games is None else games, rules=rules, seconds=seconds, answer=meta,
                       words=text, games_key=plan.games_key() if tally else None, tally=tally)  # fmt: skip
    except (OSError, sqlite3.Error) as err:
        click.echo(f"snakesim: warning: the answer was not kept in {catalogue.path}: {err}", err=True)
        return
    if catalogue.pruned:
        click.echo(f"snakesim: {catalogue.pruned_words()}", err=True)


def answered(catalogue, plan, kind: str, play: Callable, shown: Callable, *, fresh: bool,
             usable: bool = True) -> tuple[dict, str, object | None]:  # fmt: skip
    """``plan``'s answer as its command shows it, ``(json, words, answer)``: from the catalogue
    where it keeps it (unless ``fresh``, or where the command needs the games themselves:
    ``usable`` false, e.g. for a figure), with ``answer`` None; else ``play(catalogue)``'s,
    shown by ``shown(answer) -> (json, words)`` and kept. A search given the catalogue takes
    the games earlier searches kept there (unless ``fresh``) and keeps those it plays."""
    if usable and not fresh:
        kept = catalogue.find(plan.key())
        if kept is not None:
            return (*served(kept), None)
    started = time.perf_counter()
    catalogue.reuse = not fresh
    answer = play(catalogue)
    if catalogue.unkept:
        click.echo(f"snakesim: warning: {catalogue.unkept}", err=True)
    meta, text = shown(answer)
    keep(catalogue, plan, kind, meta=meta, text=text, seconds=time.perf_counter() - started)
    search = meta.get("search") or {}
    saved = saved_words(search.get("games_from_catalogue"), search.get("seed"))
    return meta, f"{text}\n\n{saved}" if saved else text, answer
