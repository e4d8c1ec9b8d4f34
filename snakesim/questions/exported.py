"""A kept answer's tables as Parquet (``snakesim results export``): the tables its ``--json``
holds, and each rule set's per-game table, played again where the answer names its rule sets
whole (a comparison: every option of every rule set and its hash), since the catalogue keeps
no per-game table and game i of seed s is always the same game."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from snakesim.core.arms import Arm, Budget
from snakesim.core.errors import InputError
from snakesim.core.files import file_stem
from snakesim.games import get_game


def tables(answer: dict, within: str = "") -> dict[str, pd.DataFrame]:
    """Every table an answer's JSON holds (each list of records, at its top or one level down:
    a workbench answer's ``result.rows``; a rule set's options, further down, are no table), by
    its key's path: nested records flattened to dotted columns, a cell that is itself a list
    kept as its JSON text."""
    out = {}
    for name, value in answer.items():
        path = f"{within}{name}"
        if isinstance(value, dict) and not within:
            out.update(tables(value, f"{path}."))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            frame = pd.json_normalize(value)
            for column in frame.columns:
                if frame[column].map(lambda v: isinstance(v, (list, dict))).any():
                    frame[column] = frame[column].map(lambda v: v if v is None else json.dumps(v))
            out[path] = frame
    return out


def names_rule_sets(answer: dict) -> bool:
    """Whether ``answer`` names its rule sets whole (every option and its hash: a comparison),
    so that its games can be played again."""
    return isinstance(answer.get("options"), dict) and isinstance(answer.get("rules_hash"), dict) and "game" in answer


def rule_sets(answer: dict) -> list[Arm]:
    """The rule sets an answer names whole (each one's every option, its players and rules'
    hash: a comparison's), rebuilt and checked against their hashes; none where it does not."""
    if not names_rule_sets(answer):
        return []
    options, hashes = answer["options"], answer["rules_hash"]
    spec = get_game(answer["game"])
    arms = []
    for label in answer.get("variants") or list(options):
        rules = spec.rules().updated(options[label])
        if rules.rules_hash() != hashes.get(label):  # (never a table of games other than the answer's)
            raise InputError("ID", f"the rules of {label!r} do not rebuild to the answer's own (hash "
                             f"{hashes.get(label)}): its games cannot be played again by this code")  # fmt: skip
        seats = tuple((answer.get("policies") or {}).get(label) or ())
        arms.append(Arm(label, label, rules, seats))
    return arms


def games(answer: dict, arm: Arm, *, backend=None, progress: bool = False) -> pd.DataFrame:
    """The per-game table of ``arm``'s games in ``answer`` (games 0 to ``games``-1 of its seed),
    played again: what ``snakesim run --out`` writes."""
    from snakesim.questions import run

    plan = run.ask(answer["game"], answer["players"], Budget(answer["games"], answer["seed"]), arm)
    return run.games(plan, backend=backend, progress=progress)


def export(answer: dict, folder: Path, *, replay: bool = True, backend=None, progress: bool = False) -> list[Path]:
    """Write ``answer``'s tables (``NAME.parquet``) and, where ``replay``, its rule sets'
    per-game tables (``games-LABEL.parquet``, played again) into ``folder``, all together or
    none; the files."""
    from snakesim.core.files import atomic_write_all

    frames = {f"{name}.parquet": frame for name, frame in tables(answer).items()}
    for arm in rule_sets(answer) if replay else []:
        frames[f"games-{file_stem(arm.label)}.parquet"] = games(answer, arm, backend=backend, progress=progress)
    if not frames:
        raise InputError("ID", "this answer holds no table to export")
    folder.mkdir(parents=True, exist_ok=True)
    files = [(folder / name, lambda tmp, f=frame: f.to_parquet(tmp, index=False)) for name, frame in frames.items()]
    atomic_write_all(files)
    return [path for path, _ in files]
