"""A run folder (``--out DIR``): one file per finished block and a manifest, so that a long
run survives interruption and resumes where it stopped, and never merges a block that is not
its own.

``manifest.json`` records everything that decides the games (game, rules, policies, players,
seed, game range, block size, summary-only, package version). Each block file carries its own
record: the run it belongs to (a hash of the manifest, so of the rules and policies), its
index, seed, first game and count, and a SHA-256 checksum of its content. Resuming checks
every block against what it should be; a block that is damaged (unreadable, truncated, edited),
foreign (another run's, another seed's) or misplaced (a neighbour's copy) is named on stderr,
moved to ``rejected/`` (never deleted) and played again. :meth:`RunStore.read_table` refuses a
folder with such a block, or with missing or duplicate game indices.

Writes go to a temporary file that is fsynced, renamed into place, and whose folder is then
fsynced, so a crash or power cut leaves either the old state or the new, never an empty or
half-written block. A run holds an exclusive lock on the folder (``.snakesim.lock``, with the
writer's pid) while it writes; a second run into the same folder is refused, and temporary
files are removed only while the lock is held, when no live writer can own them. A manifest
lost or cut by a crash is set aside and written again rather than refusing the folder forever.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from snakesim.core.errors import InputError
from snakesim.core.files import atomic_write, check_writable
from snakesim.core.tally import Tally

if TYPE_CHECKING:
    import pandas as pd


MANIFEST = "manifest.json"
LOCK = ".snakesim.lock"
REJECTED = "rejected"
FORMAT = 2
BLOCK_KEY = b"snakesim_block"
# What a run folder may hold before its manifest exists (a run killed while starting).
ARTEFACT = re.compile(r"^(block-\d{6}\.(parquet|json)|\..+\.tmp|\.snakesim\.lock|rejected)$")


def _normal(data: dict) -> dict:
    """``data`` as it reads back from JSON (tuples become lists), for comparisons."""
    return json.loads(json.dumps(data))


def _stderr(message: str) -> None:
    print(f"snakesim: warning: {message}", file=sys.stderr)


def table_checksum(df: pd.DataFrame) -> str:
    """SHA-256 of a table's content: every column's name, type and values, in order."""
    import pandas as pd

    digest = hashlib.sha256()
    for name in df.columns:
        column = df[name]
        values = column.cat.codes.to_numpy() if isinstance(column.dtype, pd.CategoricalDtype) else column.to_numpy()
        values = np.ascontiguousarray(values)
        digest.update(f"{name}:{values.dtype.str}:{len(values)};".encode())
        digest.update(values.tobytes())
    return digest.hexdigest()


def tally_checksum(data: dict) -> str:
    """SHA-256 of a tally's canonical JSON."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class BadBlock(Exception):
    """A block file that is not what its run expects (the message says why)."""


class RunStore:
    """The run folder at ``path`` for a run described by ``manifest`` (checked, not yet created).

    Parameters
    ----------
    path : path-like
        The folder.
    manifest : dict
        What decides the run's games; its hash is every block's run key.
    warn : callable, optional
        Receives one line for each block set aside (stderr by default).

    Raises
    ------
    InputError
        If ``path`` is a file or a broken link, a folder that is not a run folder, or a run
        folder whose manifest differs (naming the differing fields).
    """

    def __init__(self, path: str | os.PathLike, manifest: dict, warn: Callable[[str], None] | None = None):
        self.path = Path(path)
        self.manifest = _normal({"snakesim_run": FORMAT, **manifest})
        self.key = tally_checksum(self.manifest)[:32]
        self.suffix = ".json" if self.manifest.get("summary_only") else ".parquet"
        self.warn = warn or _stderr
        self.resumed_games = 0
        self._lock_fd: int | None = None
        self._manifest_broken = False
        if self.path.is_symlink() and not self.path.exists():
            raise InputError("--out", f"{str(self.path)!r} is a broken symbolic link")
        if self.path.exists() and not self.path.is_dir():
            raise InputError("--out", f"{str(self.path)!r} is a file; a run folder (or a .parquet/.csv file) is needed")
        found = self.path / MANIFEST
        if found.exists():
            try:
                old = json.loads(found.read_text(encoding="utf-8"))
                if not isinstance(old, dict):
                    raise ValueError("not a JSON object")
            except (OSError, ValueError):
                # Cut short by a crash: set aside and written again by create(); the blocks
                # prove themselves against their own records.
                self._manifest_broken = True
            else:
                differ = sorted(k for k in set(old) | set(self.manifest) if old.get(k) != self.manifest.get(k))
                if differ:
                    raise InputError(
                        "--out",
                        f"{str(self.path)!r} holds a run with other parameters ({', '.join(differ)} differ); "
                        "use another folder, or delete this one to start again",
                    )
        elif self.path.is_dir() and any(not ARTEFACT.match(p.name) for p in self.path.iterdir()):
            raise InputError("--out", f"{str(self.path)!r} is not empty and is not a snakesim run folder")
        check_writable(self.path)

    @classmethod
    def open(cls, path: str | os.PathLike) -> RunStore:
        """An existing run folder, for reading."""
        path = Path(path)
        try:
            manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
            manifest.pop("snakesim_run")
        except (OSError, ValueError, KeyError, AttributeError, TypeError):
            raise InputError(str(path), "not a snakesim run folder (no readable manifest.json)") from None
        return cls(path, manifest)

    # ------------------------------------------------------------------ writing
    def create(self) -> None:
        """Make the folder, take its lock, clear abandoned temporary files, write the manifest.

        Raises InputError if another run holds the folder's lock.
        """
        self.path.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 64).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise InputError(
                "--out", f"{str(self.path)!r} is being written by another snakesim run (pid {holder}); wait for it"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock_fd = fd
        # Every writer holds the lock, so with it held no temporary file has a live writer.
        for stale in self.path.glob(".*.tmp"):
            stale.unlink(missing_ok=True)
        if self._manifest_broken:
            self._set_aside(self.path / MANIFEST, "unreadable (cut short by a crash?); written again")
        if not (self.path / MANIFEST).exists():
            text = json.dumps(self.manifest, indent=2)
            atomic_write(self.path / MANIFEST, lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))

    def close(self) -> None:
        """Release the folder's lock."""
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the descriptor releases the flock
            self._lock_fd = None

    def block_path(self, index: int) -> Path:
        return self.path / f"block-{index:06d}{self.suffix}"

    def done(self) -> set[int]:
        """Indices of the block files present (not yet verified)."""
        return {int(p.stem.split("-")[1]) for p in self.path.glob(f"block-*{self.suffix}")}

    def _record(self, index: int, first: int, count: int, checksum: str) -> dict:
        return {
            "run": self.key,
            "index": index,
            "seed": self.manifest.get("seed"),
            "first": first,
            "count": count,
            "sha256": checksum,
        }

    def write(self, index: int, first: int, count: int, result: pd.DataFrame | Tally) -> None:
        """Write one finished block (games ``first .. first+count-1``) with its record, atomically."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if isinstance(result, Tally):
            data = result.to_dict()
            text = json.dumps({"block": self._record(index, first, count, tally_checksum(data)), "tally": data})
            atomic_write(self.block_path(index), lambda tmp: Path(tmp).write_text(text, encoding="utf-8"))
            return
        record = json.dumps(self._record(index, first, count, table_checksum(result)))
        table = pa.Table.from_pandas(result, preserve_index=False)
        table = table.replace_schema_metadata({**(table.schema.metadata or {}), BLOCK_KEY: record.encode()})
        atomic_write(self.block_path(index), lambda tmp: pq.write_table(table, tmp))

    # ------------------------------------------------------------------ reading
    def load(self, index: int, first: int, count: int) -> pd.DataFrame | Tally:
        """Read block ``index`` and prove it is this run's games ``first .. first+count-1``.

        Raises
        ------
        BadBlock
            Saying why not: unreadable, no record, another run's, another place's, or a
            checksum that does not match its content.
        """
        import pandas as pd
        import pyarrow.parquet as pq

        path = self.block_path(index)
        try:
            if self.suffix == ".json":
                raw = json.loads(path.read_text(encoding="utf-8"))
                record, data = raw["block"], raw["tally"]
                content, result = tally_checksum(data), Tally.from_dict(data)
            else:
                table = pq.read_table(path)
                record = json.loads((table.schema.metadata or {})[BLOCK_KEY])
                result = table.to_pandas()
                content = table_checksum(result)
        except KeyError:
            raise BadBlock("has no block record (not written by this version of snakesim)") from None
        except Exception as err:  # any failure to parse means the file is damaged
            raise BadBlock(f"unreadable ({type(err).__name__}: {str(err)[:80]})") from None
        expected = self._record(index, first, count, content)
        if not isinstance(record, dict) or record.get("run") != self.key:
            raise BadBlock("belongs to another run (other rules, policies, seed or version)")
        wrong = [k for k in ("index", "seed", "first", "count") if record.get(k) != expected[k]]
        if wrong:
            raise BadBlock(f"is another block's ({', '.join(f'{k} {record.get(k)}' for k in wrong)})")
        if record.get("sha256") != content:
            raise BadBlock("is damaged (its content does not match its checksum)")
        if isinstance(result, pd.DataFrame):
            games = result["game"].to_numpy() if "game" in result else None
            if games is None or not np.array_equal(games, np.arange(first, first + count)):
                raise BadBlock("holds other game indices than its record says")
        elif result.games != count:
            raise BadBlock(f"counts {result.games} games, not {count}")
        return result

    def _set_aside(self, path: Path, why: str) -> Path:
        folder = self.path / REJECTED
        folder.mkdir(exist_ok=True)
        target = folder / path.name
        n = 1
        while target.exists():
            n += 1
            target = folder / f"{path.name}.{n}"
        os.replace(path, target)
        self.warn(f"{path}: {why}; moved to {target}")
        return target

    def reject(self, index: int, why: str) -> None:
        """Move a bad block to ``rejected/`` (named on stderr) so that it is played again."""
        self._set_aside(self.block_path(index), f"{why}; it will be played again")

    def blocks(self) -> int:
        """How many blocks the whole run has."""
        return -(-self.manifest["games"] // self.manifest["block_size"])

    def read_table(self) -> pd.DataFrame:
        """The whole run's table, metadata in ``attrs``.

        Raises InputError if the run is unfinished, a block is not provably this run's, or the
        game indices are not exactly ``first_game .. first_game + games - 1`` once each.
        """
        import pandas as pd

        if self.manifest.get("summary_only"):
            raise InputError(str(self.path), "a --summary-only run folder holds sums, not a per-game table")
        first, games, size = self.manifest["first_game"], self.manifest["games"], self.manifest["block_size"]
        done = self.done()
        if len(done) < self.blocks():
            message = f"unfinished run: {len(done)} of {self.blocks()} blocks; run its command again to finish it"
            raise InputError(str(self.path), message)
        parts = []
        for k in range(self.blocks()):
            start = first + k * size
            try:
                parts.append(self.load(k, start, min(size, first + games - start)))
            except BadBlock as bad:
                raise InputError(str(self.block_path(k)), f"{bad}; run the command again to replay it") from None
        df = pd.concat(parts, ignore_index=True)
        index = df["game"].to_numpy()
        if len(index) != games or not np.array_equal(index, np.arange(first, first + games)):
            duplicated = int(pd.Series(index).duplicated().sum())
            raise InputError(
                str(self.path), f"game indices are not {first}..{first + games - 1} ({duplicated} repeated)"
            )
        meta = {k: v for k, v in self.manifest.items() if k not in ("snakesim_run", "block_size", "summary_only")}
        df.attrs.update(meta)
        return df

    def __del__(self):
        with contextlib.suppress(Exception):
            self.close()
