"""The results table: one row per game, plus the run's metadata.

Columns: ``game, outcome, winner, length``, then each per-seat result as ``NAME_0 ..
NAME_{n-1}``, then the game's own columns. A figure the run did not record is not a column (no
game-feel columns without ``feel = true``; no ``tie_break`` in a game without a tie-break), and
a value that does not apply is null, never a placeholder: a game without a winner has no
``decided``, ``comeback``, ``deficit`` or ``tie_break``, a quarter without a sole leader no
``leader_qK``, and a seat that never went out no ``out_at_K``. So a mean in pandas, Polars or
DuckDB counts exactly the games the figure is about. The metadata (game, variant, options, players,
seed, games, package version) travels in ``DataFrame.attrs`` and, on disk, in the Parquet
schema metadata (key ``snakesim``) or a ``.meta.json`` file beside a CSV, which holds the
CSV's checksum so that the pair is read together or refused.

Files are written to a temporary name in the same folder, fsynced and renamed into place
(``snakesim.core.files``), so a failed or interrupted write never leaves a half-written table.
A run folder's blocks are read through ``snakesim.core.store``, which does not import this
module.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from snakesim.core import feel
from snakesim.core.columns import nullable, table_nulls
from snakesim.core.errors import InputError
from snakesim.core.files import atomic_write, atomic_write_all, check_writable
from snakesim.core.registry import GameSpec
from snakesim.core.store import RunStore

if TYPE_CHECKING:
    import pandas as pd


FORMATS = (".parquet", ".csv")
PARQUET_ROWS = 1 << 20  # rows per Parquet row group (and per slice converted at a time)
META_KEY = b"snakesim"


def build_table(spec: GameSpec, columns: dict[str, np.ndarray], seed: int, first: int, meta: dict) -> pd.DataFrame:
    """Turn a kernel's column arrays into the results DataFrame (sharing their memory).

    Parameters
    ----------
    spec : GameSpec
        The game, for its column names and outcome labels.
    columns : dict of arrays
        What ``spec.play_block`` returned (per-seat arrays are 2-D).
    seed, first : int
        The run's seed and the index of the first game in ``columns``.
    meta : dict
        Run metadata, stored in ``DataFrame.attrs``.
    """
    import pandas as pd

    count = len(columns["outcome"])
    nulls = table_nulls(spec)
    data = {  # (the seed is the same in every row: it is in the metadata, not a column)
        "game": np.arange(first, first + count, dtype=np.int64),
        "outcome": pd.Categorical.from_codes(columns["outcome"], categories=list(spec.outcomes)),
        "winner": _shown(columns["winner"], nulls["winner"]),
        "length": columns["length"],
    }
    for name in spec.seat_columns:
        for seat in range(columns[name].shape[1]):
            data[f"{name}_{seat}"] = _shown(columns[name][:, seat], nulls.get(name))
    for name in shown_columns(spec, columns):
        data[name] = _shown(columns[name], nulls.get(name))
    df = pd.DataFrame(data, copy=False)  # the columns are the kernel's arrays, not copies of them
    df.attrs.update(meta)
    return df


def feel_recorded(columns: dict[str, np.ndarray]) -> bool:
    """Whether a block's games recorded the game feel (``feel = true``): every recorded game
    counts its lead changes, 0 or more; an unrecorded one holds -1."""
    changes = columns.get("lead_changes")
    return changes is not None and bool((np.asarray(changes) >= 0).any())


def shown_columns(spec: GameSpec, columns: dict[str, np.ndarray]) -> list[str]:
    """The game's own columns a table shows: the feel figures only where recorded, the
    tie-break only in a game that has one."""
    recorded = feel_recorded(columns)
    return [name for name in spec.game_columns
            if (recorded or name not in feel.NAMES) and (name != "tie_break" or spec.tie_break)]  # fmt: skip


def _shown(values: np.ndarray, sentinel):
    return values if sentinel is None else nullable(values, sentinel)


def check_output_path(path: str | os.PathLike) -> Path:
    """Return ``path`` if its suffix is a known format and its folder can be made and written.

    Checked before a run, so that a bad path costs nothing; nothing is created here.
    """
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise InputError("--out", f"expected a file ending in {' or '.join(FORMATS)}, got {str(path)!r}")
    if path.is_dir():
        raise InputError("--out", f"{str(path)!r} is a folder; give a file name")
    if path.is_symlink() and not path.exists():
        raise InputError("--out", f"{str(path)!r} is a broken symbolic link")
    check_writable(path.absolute().parent)
    return path


def write_table(df: pd.DataFrame, path: str | os.PathLike) -> Path:
    """Write ``df`` (with its ``attrs`` metadata) to Parquet or CSV, atomically."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = check_output_path(path)
    meta = json.dumps(df.attrs, sort_keys=True)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.suffix.lower() == ".parquet":
            # Converted and written a slice at a time: a copy of the whole table in Arrow's
            # memory would double the run's peak (10**7 Fortune games: 0.54 GB more).
            schema = pa.Schema.from_pandas(df.iloc[:0], preserve_index=False)
            schema = schema.with_metadata({**(schema.metadata or {}), META_KEY: meta.encode()})

            def write_parquet(tmp):
                with pq.ParquetWriter(tmp, schema) as writer:
                    for start in range(0, max(len(df), 1), PARQUET_ROWS):
                        part = df.iloc[start : start + PARQUET_ROWS]
                        writer.write_table(pa.Table.from_pandas(part, schema=schema, preserve_index=False))

            atomic_write(path, write_parquet)
        else:
            # The CSV and its metadata are written as a pair, and the metadata names the CSV's
            # checksum, so a CSV can never be read with another run's metadata.
            digest = {}

            def write_csv(tmp):
                df.to_csv(tmp, index=False)
                digest["csv_sha256"] = _file_sha256(tmp)

            def write_meta(tmp):  # runs after write_csv, before either file is renamed
                meta = {**df.attrs, **digest, CSV_TYPES: _types(df)}
                Path(tmp).write_text(json.dumps(meta, sort_keys=True) + "\n")

            atomic_write_all([(path, write_csv), (_meta_path(path), write_meta)])
    except OSError as err:
        raise InputError("--out", f"cannot write {str(path)!r}: {err.strerror or err}") from None
    return path


def read_table(path: str | os.PathLike) -> pd.DataFrame:
    """Read a table written by :func:`write_table`, or the blocks of a run folder (``run
    --out DIR``), metadata included."""
    import pandas as pd
    import pyarrow.parquet as pq

    path = Path(path)
    if path.is_dir():
        return RunStore.open(path).read_table()
    if path.suffix.lower() == ".parquet":
        table = pq.read_table(path)
        df = table.to_pandas()
        raw = (table.schema.metadata or {}).get(META_KEY)
        df.attrs = json.loads(raw) if raw else {}
    else:
        df = pd.read_csv(path)
        meta_path = _meta_path(path)
        meta = json.loads(meta_path.read_text()) if meta_path.exists() else {}
        expected = meta.pop("csv_sha256", None)
        if meta and expected != _file_sha256(path):
            raise InputError(str(meta_path), f"this metadata does not belong to {path.name} (its checksum differs)")
        for name, kind in meta.pop(CSV_TYPES, {}).items():  # (a CSV holds text: its columns' types come back)
            df[name] = pd.Categorical(df[name], categories=kind[1]) if isinstance(kind, list) else df[name].astype(kind)
        df.attrs = meta
    return df


CSV_TYPES = "csv_types"  # a CSV's metadata: each column's type (categories in their order, nullable integers)


def _types(df: pd.DataFrame) -> dict:
    return {name: ["category", [str(c) for c in col.cat.categories]] if col.dtype == "category" else str(col.dtype)
            for name, col in df.items()}  # fmt: skip


def _file_sha256(path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _meta_path(path: Path) -> Path:
    return path.with_name(path.name + ".meta.json")
