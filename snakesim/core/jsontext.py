"""Results as strict JSON text, for ``--json`` output and the workbench's answers."""

from __future__ import annotations

import json
import math


def to_json(data) -> str:
    """``data`` as strict JSON at full precision: floats as Python writes them (17 significant
    digits, so 8.65e-14 stays 8.65e-14), numpy scalars as numbers, and NaN or infinity, which
    JSON cannot hold, as null (a quantile the survival curve never reaches, a value not defined)."""
    import numpy as np

    def clean(x):
        if isinstance(x, dict):
            return {str(k): clean(v) for k, v in x.items()}
        if isinstance(x, list | tuple):
            return [clean(v) for v in x]
        if isinstance(x, np.generic):
            x = x.item()
        if isinstance(x, float) and not math.isfinite(x):
            return None
        return x

    return json.dumps(clean(data), allow_nan=False)
