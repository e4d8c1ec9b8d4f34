"""The catalogue: every answered question kept, by the identity of its plan.

An answer is kept under its plan's key (``Plan.key()``: the same question from any door and on
any machine has the same key) with what lists it (kind, game, players, seed, games, the rule
sets' names), when it was played and how long it took, the version of the code that decides
its numbers, and the answer itself: what ``--json`` prints and the words the command line
printed. Asked again, the question is answered from here at once; an answer kept by another
version of the games' code or of the figures' definitions is listed, marked, and never served
as current.

The file is SQLite, which the standard library holds: nothing to install or start. It is
written in WAL mode, so a workbench and a terminal read and write at once, each write one
transaction: a process killed while storing leaves every earlier answer readable and the new
one whole or absent. A file that is not SQLite, or is SQLite but not a catalogue, is named in
one line and never written. The catalogue has a cap (:data:`DEFAULT_CAP` bytes of answers);
storing past it prunes the oldest answers first and says how many.

Where it lives: ``$SNAKESIM_HOME/catalogue.sqlite`` when ``SNAKESIM_HOME`` is set, else the
user's data folder (``platformdirs``), or a path a command is given (``--catalogue``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from snakesim.core.errors import InputError
from snakesim.core.jsontext import to_json

NAME = "catalogue.sqlite"
APPLICATION = "snakesim catalogue"
FORMAT = 1
DEFAULT_CAP = 500_000_000  # bytes of answers kept (about 15,000 comparisons); the oldest go first beyond it
# What decides an answer's numbers: the games, the engines, the figures and their statistics,
# and how each kind of question asks them. An edit to any of these files makes earlier answers
# stale (listed, marked, played again when asked), never served as current.
DECIDING = ("core", "games", "analysis", "questions")

SCHEMA = """
CREATE TABLE IF NOT EXISTS about (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    games INTEGER NOT NULL,
    rules TEXT NOT NULL,
    version TEXT NOT NULL,
    played REAL NOT NULL,
    seconds REAL NOT NULL,
    answer TEXT NOT NULL,
    words TEXT NOT NULL,
    size INTEGER NOT NULL,
    games_key TEXT,
    tally TEXT
);
CREATE INDEX IF NOT EXISTS answers_key ON answers (key, version);
CREATE INDEX IF NOT EXISTS answers_games ON answers (games_key, version);
CREATE INDEX IF NOT EXISTS answers_played ON answers (played);
"""
# The games searches played (balance, tune, design), one row per rule set and seed: a later
# search on the same seed and players takes them instead of playing them again. A cache (any
# game can be played again exactly), so the cap removes these before any answer.
SEARCHED = """
CREATE TABLE IF NOT EXISTS searched (
    key TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    first INTEGER NOT NULL,
    rules TEXT NOT NULL,
    version TEXT NOT NULL,
    count INTEGER NOT NULL,
    columns BLOB NOT NULL,
    size INTEGER NOT NULL,
    played REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS searched_played ON searched (played);
"""


def default_path() -> Path:
    """Where the catalogue lives: ``$SNAKESIM_HOME/catalogue.sqlite``, else the user's data
    folder (``platformdirs.user_data_path("snakesim")``)."""
    home = os.environ.get("SNAKESIM_HOME")
    if home:
        return Path(home).expanduser() / NAME
    import platformdirs

    return platformdirs.user_data_path("snakesim") / NAME


_VERSION: str | None = None


def code_version() -> str:
    """The version of the code that decides an answer's numbers: 16 hex digits of SHA-256 of
    the sources of :data:`DECIDING` (read once a process)."""
    global _VERSION
    if _VERSION is None:
        root = Path(__file__).resolve().parent.parent
        digest = hashlib.sha256()
        for part in DECIDING:
            for path in sorted((root / part).rglob("*.py")):
                digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
        _VERSION = digest.hexdigest()[:16]
    return _VERSION


@dataclass(frozen=True)
class Entry:
    """One kept answer: its ``id``, the plan's ``key``, what lists it, the ``version`` of the
    code that played it (``current``: this code's), when it was ``played`` (seconds since the
    epoch) and how many ``seconds`` it took, the ``answer`` (the ``--json`` object) and the
    ``words`` the command line printed."""

    id: int
    key: str
    kind: str
    game: str
    players: int
    seed: int
    games: int
    rules: tuple[str, ...]
    version: str
    played: float
    seconds: float
    answer: dict
    words: str

    @property
    def current(self) -> bool:
        return self.version == code_version()

    def when(self) -> str:
        """When it was played, as people read it: ``2026-11-27 at 10:14``."""
        return time.strftime("%Y-%m-%d at %H:%M", time.localtime(self.played))

    def listed(self) -> dict:
        """Its line in a list (``snakesim results --json``): everything but the answer."""
        return {"id": self.id, "kind": self.kind, "game": self.game, "players": self.players, "seed": self.seed,
                "games": self.games, "rules": list(self.rules), "played": self.when(),
                "seconds": round(self.seconds, 3), "current": self.current, "key": self.key}  # fmt: skip


LISTED = "id, key, kind, game, players, seed, games, rules, version, played, seconds"
COLUMNS = LISTED + ", answer, words"


def _entry(row) -> Entry:
    """An entry from a row of :data:`COLUMNS`, or of :data:`LISTED` (a list's line: its answer
    left unread, ``{}``, so that 10,000 answers list in well under a second)."""
    fields = dict(zip(LISTED.split(", "), row, strict=False))
    answer, words = (json.loads(row[11]), row[12]) if len(row) > 11 else ({}, "")
    return Entry(**{**fields, "rules": tuple(json.loads(fields["rules"]))}, answer=answer, words=words)


class Catalogue:
    """The answers kept in one SQLite file (see the module docstring).

    Parameters
    ----------
    path : path, optional
        The file; by default :func:`default_path`. Its folder is made when needed.
    cap : int, optional
        Bytes of answers kept at most; storing past it prunes the oldest first. By default the
        catalogue's own (:meth:`set_cap`), else :data:`DEFAULT_CAP`.
    field : str
        The option that named the file, for the one line an unusable file gets.
    """

    def __init__(self, path: str | os.PathLike | None = None, cap: int | None = None, field: str = "--catalogue"):
        self.path = Path(path) if path is not None else default_path()
        self._cap, self.field = cap, field
        self.pruned = 0  # (answers the last keep() removed to stay within the cap)
        self.pruned_searched = 0  # (searched rule sets whose games it removed first)
        self.reuse = True  # (searches take the games kept here; False: play them again, and keep them)
        self.unkept = ""  # (why the last searched games could not be kept: a full disk, say)
        self.taken = 0  # (games searches took from here, counted as each search closes)
        self._db: sqlite3.Connection | None = None
        self._searched = False

    # ------------------------------------------------------------------ opening
    def _refuse(self, why: str) -> InputError:
        return InputError(self.field, f"{str(self.path)!r} {why}; it is left as it is (give another with "
                                      "--catalogue, or move it away)")  # fmt: skip

    def _open(self, write: bool) -> sqlite3.Connection | None:
        """The connection, opened once; None where there is nothing to read yet."""
        if self._db is not None:
            return self._db
        if not self.path.exists():
            if not write:
                return None
            self.path.parent.mkdir(parents=True, exist_ok=True)
        elif self.path.is_dir():
            raise self._refuse("is a folder, not a catalogue file")
        elif self.path.stat().st_size:
            with open(self.path, "rb") as f:
                if f.read(16) != b"SQLite format 3\x00":
                    raise self._refuse("is not a snakesim catalogue (not an SQLite file)")
        try:  # (read what the file is before any write: a foreign file is left exactly as it was)
            db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            db.execute("PRAGMA busy_timeout = 60000")
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        except sqlite3.DatabaseError as err:
            raise self._refuse(f"cannot be read as a catalogue ({err})") from None
        if tables and "about" not in tables:
            db.close()
            raise self._refuse("is an SQLite file but not a snakesim catalogue")
        if tables:
            about = dict(db.execute("SELECT name, value FROM about"))
            if about.get("application") != APPLICATION:
                db.close()
                raise self._refuse("is an SQLite file but not a snakesim catalogue")
            if int(about.get("format", 0)) > FORMAT:
                db.close()
                raise self._refuse(f"was written by a newer snakesim (format {about['format']}; this one reads "
                                   f"{FORMAT})")  # fmt: skip
        # WAL: readers and one writer at once (a file system without shared memory keeps its rollback
        # journal: still safe, one at a time); FULL: a committed answer survives a power cut.
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        if not tables:
            # A new file: its tables and the rows that say it is a catalogue in one transaction,
            # so that no other process ever sees tables without them (it would refuse the file);
            # every statement idempotent, so two processes making it at once agree.
            with _transaction(db):
                _create(db, SCHEMA + SEARCHED)
                db.execute("INSERT OR IGNORE INTO about VALUES ('application', ?), ('format', ?)",
                           (APPLICATION, str(FORMAT)))  # fmt: skip
            tables.add("searched")
        self._db, self._searched = db, "searched" in tables
        return db

    def _searched_table(self, db: sqlite3.Connection) -> None:
        """Give a catalogue made before searches kept their games the table that keeps them."""
        if not self._searched:
            with _transaction(db):
                _create(db, SEARCHED)
            self._searched = True

    def pruned_words(self) -> str:
        """What the last keep() removed to stay within the cap, in a line: empty where nothing
        (the games searches played go first, then the oldest answers)."""
        if not self.pruned:
            return ""
        return (f"the catalogue is at its cap ({self.cap / 1e6:g} MB; `snakesim results cap` changes it): "
                f"{removed_words(self.pruned)}")  # fmt: skip

    @property
    def cap(self) -> int:
        """Bytes of answers kept at most: the one given, else the catalogue's own, else the default."""
        if self._cap is not None:
            return self._cap
        db = self._open(write=False)
        row = None if db is None else db.execute("SELECT value FROM about WHERE name = 'cap'").fetchone()
        return int(row[0]) if row else DEFAULT_CAP

    def set_cap(self, size: int) -> int:
        """Keep at most ``size`` bytes of answers from now on (kept in the file); the oldest
        answers past it are removed at once: how many."""
        db = self._open(write=True)
        with _transaction(db):
            db.execute("INSERT OR REPLACE INTO about VALUES ('cap', ?)", (str(int(size)),))
            self._cap = int(size)
            return self._prune(db, keep=-1)

    def size(self) -> int:
        """Bytes kept: the answers, and the games searches played."""
        db = self._open(write=False)
        return 0 if db is None else self._total(db)

    def _total(self, db: sqlite3.Connection) -> int:
        searched = db.execute("SELECT COALESCE(SUM(size), 0) FROM searched").fetchone()[0] if self._searched else 0
        return db.execute("SELECT COALESCE(SUM(size), 0) FROM answers").fetchone()[0] + searched

    def searched_size(self) -> tuple[int, int]:
        """How many searched rule sets' games are kept, and their bytes."""
        db = self._open(write=False)
        if db is None or not self._searched:
            return 0, 0
        return tuple(db.execute("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM searched").fetchone())

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # ------------------------------------------------------------------ reading
    def find(self, key: str) -> Entry | None:
        """The newest answer to the question ``key`` played by this code, if any."""
        db = self._open(write=False)
        if db is None:
            return None
        row = db.execute(f"SELECT {COLUMNS} FROM answers WHERE key = ? AND version = ? ORDER BY id DESC LIMIT 1",
                         (key, code_version())).fetchone()  # fmt: skip
        return None if row is None else _entry(row)

    def fewer_games(self, games_key: str, games: int) -> tuple[Entry, str] | None:
        """The kept answer of the same games (``games_key``) with the most games fewer than
        ``games``, played by this code, and its exact tally: what a question of ``games``
        extends by playing only the rest."""
        db = self._open(write=False)
        if db is None:
            return None
        row = db.execute(f"SELECT {COLUMNS}, tally FROM answers WHERE games_key = ? AND version = ? AND games < ? "
                         "AND tally IS NOT NULL ORDER BY games DESC, id DESC LIMIT 1",
                         (games_key, code_version(), games)).fetchone()  # fmt: skip
        return None if row is None else (_entry(row[:-1]), row[-1])

    def get(self, id_: int) -> Entry:
        """The answer ``id_``; InputError naming ``ID`` where there is none."""
        db = self._open(write=False)
        row = None if db is None else db.execute(f"SELECT {COLUMNS} FROM answers WHERE id = ?", (id_,)).fetchone()
        if row is None:
            raise InputError("ID", f"no answer {id_} in {str(self.path)!r}; `snakesim results` lists them")
        return _entry(row)

    def entries(self, game: str | None = None, kind: str | None = None, since: float | None = None,
                whole: bool = False) -> list[Entry]:  # fmt: skip
        """Every kept answer, oldest first, of ``game`` and ``kind`` played since ``since``
        (seconds since the epoch) where given; each one's answer and words read only when
        ``whole``."""
        db = self._open(write=False)
        if db is None:
            return []
        where, args = [], []
        for column, value in (("game", game), ("kind", kind)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if since is not None:
            where.append("played >= ?")
            args.append(since)
        where_sql = f" WHERE {' AND '.join(where)}" if where else ""
        sql = f"SELECT {COLUMNS if whole else LISTED} FROM answers{where_sql} ORDER BY id"
        return [_entry(row) for row in db.execute(sql, args)]

    def newest(self, limit: int, key_prefix: str = "") -> list[Entry]:
        """The ``limit`` newest answers whose key starts with ``key_prefix`` (every answer's where
        it is empty), newest first, each one's answer left unread (a list's lines)."""
        db = self._open(write=False)
        if db is None:
            return []
        sql = f"SELECT {LISTED} FROM answers WHERE substr(key, 1, ?) = ? ORDER BY id DESC LIMIT ?"
        return [_entry(row) for row in db.execute(sql, (len(key_prefix), key_prefix, max(0, int(limit))))]

    def count(self, key_prefix: str = "") -> int:
        """How many answers are kept whose key starts with ``key_prefix`` (all of them where it is empty)."""
        db = self._open(write=False)
        if db is None:
            return 0
        sql = "SELECT COUNT(*) FROM answers WHERE substr(key, 1, ?) = ?"
        return db.execute(sql, (len(key_prefix), key_prefix)).fetchone()[0]

    # ------------------------------------------------------------------ writing
    def keep(self, *, key: str, kind: str, game: str, players: int, seed: int, games: int, rules, seconds: float,
             answer: dict, words: str, games_key: str | None = None, tally: str | None = None) -> int:  # fmt: skip
        """Store one answer in one transaction (whole or absent), then prune the oldest answers
        past the cap (:attr:`pruned` says how many); its id. With ``games_key`` and ``tally``
        (its games' identity and exact tally as JSON), a question of more of the same games
        extends it (:meth:`fewer_games`)."""
        db = self._open(write=True)
        # (strict JSON, NaN as null, as --json prints it: SQL's JSON functions read it; in order, as printed)
        text = to_json(answer)
        size = len(text.encode()) + len(words.encode()) + len((tally or "").encode())
        with _transaction(db):
            cursor = db.execute(
                "INSERT INTO answers (key, kind, game, players, seed, games, rules, version, played, seconds, answer, "
                "words, size, games_key, tally) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, kind, game, int(players), int(seed), int(games), json.dumps(list(rules)), code_version(),
                 time.time(), float(seconds), text, words, size, games_key, tally),
            )  # fmt: skip
            new = int(cursor.lastrowid)
            self.pruned = self._prune(db, keep=new)
        return new

    def _prune(self, db: sqlite3.Connection, keep: int, answers: bool = True) -> int:
        """Fit the cap: remove the games searches played, those kept longest ago first (any game
        can be played again), then (where ``answers``) the oldest answers, never ``keep``; how
        many answers went (:attr:`pruned_searched`: how many searched rule sets' games)."""
        total = self._total(db)
        self.pruned_searched = 0
        if total > self.cap and self._searched:
            for key, size in db.execute("SELECT key, size FROM searched ORDER BY played").fetchall():
                if total <= self.cap:
                    break
                db.execute("DELETE FROM searched WHERE key = ?", (key,))
                total -= size
                self.pruned_searched += 1
        removed = 0
        if not answers:
            return removed
        for id_, size in db.execute("SELECT id, size FROM answers WHERE id != ? ORDER BY id", (keep,)).fetchall():
            if total <= self.cap:
                break
            db.execute("DELETE FROM answers WHERE id = ?", (id_,))
            total -= size
            removed += 1
        return removed

    def forget(self, ids=(), before: float | None = None, everything: bool = False) -> int:
        """Remove the answers ``ids``, those played before ``before`` (seconds since the
        epoch), or all of them; how many were removed."""
        db = self._open(write=False)
        if db is None:
            return 0
        with _transaction(db):
            if everything:
                if self._searched:
                    db.execute("DELETE FROM searched")
                return db.execute("DELETE FROM answers").rowcount
            removed = 0
            if ids:
                removed += db.execute(f"DELETE FROM answers WHERE id IN ({', '.join('?' * len(ids))})",
                                      [int(i) for i in ids]).rowcount  # fmt: skip
            if before is not None:
                if self._searched:
                    db.execute("DELETE FROM searched WHERE played < ?", (before,))
                removed += db.execute("DELETE FROM answers WHERE played < ?", (before,)).rowcount
            return removed

    # ------------------------------------------------------------------ the games searches played
    def searched(self, about: dict) -> dict | None:
        """The per-game columns kept of the rule set and games ``about`` names (see
        :meth:`keep_searched`), played by this code; None where none are kept, or where
        :attr:`reuse` is off."""
        if not self.reuse:
            return None
        try:  # (a catalogue that cannot be read costs a search nothing: it plays the games)
            db = self._open(write=False)
            if db is None or not self._searched:
                return None
            row = db.execute("SELECT columns FROM searched WHERE key = ? AND version = ?",
                             (searched_key(about), code_version())).fetchone()  # fmt: skip
        except (InputError, OSError, sqlite3.Error):
            return None
        return None if row is None else _columns_from(row[0])

    def keep_searched(self, kept: list[tuple[dict, dict]]) -> bool:
        """Keep each ``(about, columns)``, in one transaction: a rule set's per-game columns,
        ``about`` naming it (``game``, ``players``, ``seed``, ``first``, ``seats``, ``rules``: its
        hash) and replacing any fewer games kept of it; False where the catalogue could not take
        them (:attr:`unkept` says why: a full disk, say), which costs the search nothing."""
        if not kept:
            return True
        try:
            db = self._open(write=True)
            self._searched_table(db)
            now = time.time()
            with _transaction(db):
                for about, columns in kept:
                    blob = _columns_blob(columns)
                    db.execute(
                        "INSERT OR REPLACE INTO searched (key, game, players, seed, first, rules, version, count, "
                        "columns, size, played) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (searched_key(about), about["game"], int(about["players"]), int(about["seed"]),
                         int(about["first"]), about["rules"], code_version(), len(next(iter(columns.values()))),
                         blob, len(blob), now),
                    )  # fmt: skip
                self._prune(db, keep=-1, answers=False)  # (a cache never pushes out an answer)
        except (InputError, OSError, sqlite3.Error) as err:
            self.unkept = f"the games searched were not kept in {self.path}: {err}"
            return False
        return True


def _create(db: sqlite3.Connection, schema: str) -> None:
    """Run ``schema``'s statements (each idempotent: two processes making a file at once agree)."""
    for statement in schema.split(";"):
        if statement.strip():
            db.execute(statement)


class _transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on any error): one writer at a time, each
    write whole or absent."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, kind, value, tb):
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")
        return False


def searched_key(about: dict) -> str:
    """The identity of one rule set's searched games: its game, players, seed, first game,
    each seat's player and rules' hash."""
    text = json.dumps({k: about[k] for k in ("game", "players", "seed", "first", "seats", "rules")}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _columns_blob(columns: dict) -> bytes:
    """Per-game columns as Parquet bytes (zstd): each column's type kept, about a byte a value."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(pa.table(dict(columns)), sink, compression="zstd")
    return sink.getvalue().to_pybytes()


def _columns_from(blob: bytes) -> dict:
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(pa.BufferReader(blob))
    return {name: np.asarray(table.column(name).to_numpy()) for name in table.column_names}


def saved_words(taken: int | None, seed: int | None = None, what: str = "its games") -> str:
    """That ``taken`` of ``what`` came from the catalogue (kept by earlier searches of ``seed``,
    where given), in a sentence; empty where none did."""
    if not taken:
        return ""
    whose = f"of seed {seed} with these players" if seed is not None else "of the same seeds and players"
    return f"{taken:,} of {what} came from the catalogue (kept by earlier searches {whose}), so were not played again."


def removed_words(count: int) -> str:
    """``the oldest answer was removed`` or ``the 3 oldest answers were removed``."""
    return "the oldest answer was removed" if count == 1 else f"the {count} oldest answers were removed"
