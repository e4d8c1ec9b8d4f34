"""A run folder (``--out DIR``): one file per finished block and a manifest, so that a long
run survives interruption and resumes where it stopped.

``manifest.json`` records everything that decides the games (game, rules, policies, players,
seed, game range, block size, summary-only, package version). Each finished block is written
to a temporary name and renamed, so a file ``block-000012.parquet`` (or ``.json`` for a
summary-only run's tally) is always complete. Running the same command again plays only the
missing blocks; a folder made with other parameters is refused, never mixed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd

from snakesim.core.errors import InputError
from snakesim.core.results import atomic_write, check_writable
from snakesim.core.tally import Tally

MANIFEST = "manifest.json"
FORMAT = 1


def _normal(data: dict) -> dict:
    """``data`` as it reads back from JSON (tuples become lists), for comparisons."""
    return json.loads(json.dumps(data))


class RunStore:
    """The run folder at ``path`` for a run described by ``manifest`` (checked, not yet created).

    Raises
    ------
    InputError
        If ``path`` is a file, a folder that is not a run folder, or a run folder whose
        manifest differs (naming the differing fields).
    """

    def __init__(self, path: str | os.PathLike, manifest: dict):
        self.path = Path(path)
        self.manifest = _normal({"snakesim_run": FORMAT, **manifest})
        self.suffix = ".json" if self.manifest.get("summary_only") else ".parquet"
        if self.path.exists() and not self.path.is_dir():
            raise InputError("--out", f"{str(self.path)!r} is a file; a run folder (or a .parquet/.csv file) is needed")
        found = self.path / MANIFEST
        if found.exists():
            try:
                old = json.loads(found.read_text(encoding="utf-8"))
            except (OSError, ValueError) as err:
                raise InputError("--out", f"cannot read {found}: {err}") from None
            differ = sorted(k for k in set(old) | set(self.manifest) if old.get(k) != self.manifest.get(k))
            if differ:
                raise InputError(
                    "--out",
                    f"{str(self.path)!r} holds a run with other parameters ({', '.join(differ)} differ); "
                    "use another folder, or delete this one to start again",
                )
        elif self.path.is_dir() and any(self.path.iterdir()):
            raise InputError("--out", f"{str(self.path)!r} is not empty and is not a snakesim run folder")
        check_writable(self.path)

    @classmethod
    def open(cls, path: str | os.PathLike) -> RunStore:
        """An existing run folder, for reading."""
        path = Path(path)
        try:
            manifest = json.loads((path / MANIFEST).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise InputError(str(path), "not a snakesim run folder (no readable manifest.json)") from None
        manifest.pop("snakesim_run", None)
        return cls(path, manifest)

    def create(self) -> None:
        """Make the folder and write the manifest (once the run's inputs are all checked)."""
        self.path.mkdir(parents=True, exist_ok=True)
        for stale in self.path.glob(".*.tmp"):  # left by a write that was killed
            stale.unlink()
        if not (self.path / MANIFEST).exists():
            atomic_write(self.path / MANIFEST, lambda tmp: Path(tmp).write_text(json.dumps(self.manifest, indent=2)))

    def block_path(self, index: int) -> Path:
        return self.path / f"block-{index:06d}{self.suffix}"

    def done(self) -> set[int]:
        """Indices of the finished blocks."""
        return {int(p.stem.split("-")[1]) for p in self.path.glob(f"block-*{self.suffix}")}

    def write(self, index: int, result: pd.DataFrame | Tally) -> None:
        """Write one finished block atomically."""
        if isinstance(result, Tally):
            atomic_write(self.block_path(index), lambda tmp: Path(tmp).write_text(json.dumps(result.to_dict())))
        else:
            atomic_write(self.block_path(index), lambda tmp: result.to_parquet(tmp, index=False))

    def read(self, index: int) -> pd.DataFrame | Tally:
        path = self.block_path(index)
        if self.suffix == ".json":
            return Tally.from_dict(json.loads(path.read_text(encoding="utf-8")))
        return pd.read_parquet(path)

    def blocks(self) -> int:
        """How many blocks the whole run has."""
        return -(-self.manifest["games"] // self.manifest["block_size"])

    def read_table(self) -> pd.DataFrame:
        """The whole run's table, metadata in ``attrs``; InputError if it is not finished."""
        if self.manifest.get("summary_only"):
            raise InputError(str(self.path), "a --summary-only run folder holds sums, not a per-game table")
        done = self.done()
        if len(done) < self.blocks():
            message = f"unfinished run: {len(done)} of {self.blocks()} blocks; run its command again to finish it"
            raise InputError(str(self.path), message)
        df = pd.concat([self.read(k) for k in range(self.blocks())], ignore_index=True)
        meta = {k: v for k, v in self.manifest.items() if k not in ("snakesim_run", "block_size", "summary_only")}
        df.attrs.update(meta)
        return df
