"""A game's result columns, declared once: name, dtype, and whether there is one per seat.

The kernel front allocates its output arrays from the declaration (in its order, which is
the order the kernel unpacks them), and the game's spec takes its column names from it.
"""

from __future__ import annotations

import numpy as np

COMMON = ("outcome", "winner", "length")  # every game has these three first


def allocate(columns, count: int, players: int) -> dict[str, np.ndarray]:
    """Empty output arrays for ``count`` games: ``(count,)``, or ``(count, players)`` per seat."""
    return {name: np.empty((count, players) if per_seat else count, dtype) for name, dtype, per_seat in columns}


def seat_columns(columns) -> tuple[str, ...]:
    return tuple(name for name, _, per_seat in columns if per_seat)


def game_columns(columns) -> tuple[str, ...]:
    return tuple(name for name, _, per_seat in columns if not per_seat and name not in COMMON)


def row_bytes(columns, players: int) -> int:
    """Bytes one game takes in a results table: its columns plus the ``game`` index."""
    return 8 + sum(np.dtype(dtype).itemsize * (players if per_seat else 1) for _, dtype, per_seat in columns)


def table_nulls(spec) -> dict:
    """Each of a game's columns whose value may mean "does not apply" (shown as null in a
    results table), with that value: the winner (-1: nobody won, a draw or an unfinished
    game), the feel figures', and the seat's step out where players go out (-1: never)."""
    from snakesim.core.feel import NULLS

    return {"winner": -1, **NULLS, **({spec.out_column: -1} if spec.out_column else {})}


def winners(df) -> np.ndarray:
    """A results table's ``winner`` column as the kernel gives it: each game's winning seat, -1
    where nobody won (null in the table; a table written before 0.3 holds -1 itself)."""
    return df["winner"].to_numpy(dtype=np.int64, na_value=-1)


def nullable(values: np.ndarray, sentinel):
    """A column whose ``sentinel`` (-1, or NaN) means "does not apply", as a pandas nullable
    array over the same values (no copy): Arrow and Parquet keep its nulls, and a mean skips them."""
    import pandas as pd

    if values.dtype.kind == "f":
        return pd.arrays.FloatingArray(values, np.isnan(values))
    return pd.arrays.IntegerArray(values, values == sentinel)


def kernel_values(column, dtype, sentinel) -> np.ndarray:
    """A table's column as the kernel gave it: its nulls back to ``sentinel``."""
    if sentinel is None:
        return column.to_numpy()
    return column.to_numpy(dtype=dtype, na_value=sentinel)


def identical(value, kernel_value) -> bool:
    """A reference engine's value equals the kernel's: exactly, and NaN for NaN (a figure a
    game did not record)."""
    value = np.asarray(value)
    return bool(np.array_equal(value, kernel_value, equal_nan=value.dtype.kind == "f"))
