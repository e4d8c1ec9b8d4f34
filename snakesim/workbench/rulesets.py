"""The page's rule sets as the server takes them and gives them back: a label checked as the
command line takes it, an arm of a request made into what ``snakesim.core.arms`` builds, each
rule set as played (its changes, hash and players), its download's file name, and the words a
report uses for them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from snakesim.core.errors import InputError
from snakesim.core.files import file_stem
from snakesim.core.policies import player_words
from snakesim.core.rules import as_toml, change_settings, describe_changes
from snakesim.workbench.forms import SWITCHES, check_policies, rules_from_text

if TYPE_CHECKING:
    from snakesim.workbench.plans import RunPlan

MAX_NAME = 40
# An arm's label: what the command line's LABEL=... takes without quoting (no = , or quotes).
LABEL = re.compile(rf"^[\w][\w .+()-]{{0,{MAX_NAME - 1}}}$")
LABEL_ALLOWED = f"1 to {MAX_NAME} letters, digits, spaces or - _ . + ( ), starting with a letter or digit"


def check_label(name: Any, where: str = "name") -> str:
    """A rule set's label, stripped; InputError naming ``where`` unless it is 1 to 40 letters,
    digits, spaces or ``- _ . + ( )`` (what the command line's ``LABEL=`` takes unquoted)."""
    if not isinstance(name, str) or not LABEL.match(name.strip()):
        shown = "nothing" if not isinstance(name, str) or not name.strip() else repr(name)
        raise InputError(where, f"expected a label of {LABEL_ALLOWED}, got {shown}")
    return name.strip()


def arm_table(spec, players: int, arm: Any, k: int, lineup: list[str]) -> dict:
    """The ``k``-th rule set of a request as ``snakesim.core.arms`` takes it: a label, the
    rules' option settings and the seats' policies (the line-up's unless it has its own)."""
    where = f"arms[{k}]"
    if not isinstance(arm, dict):
        raise InputError(where, "expected a rule set: {name, toml, policies}")
    name = check_label(arm.get("name"), f"{where}.name")
    try:
        rules = rules_from_text(spec, arm.get("toml", ""))
        own = arm.get("policies")
        seats = lineup if own is None else check_policies(spec, players, own)
    except InputError as err:
        raise InputError(f"{name}: {err.field}", err.message) from None
    out = {"name": name, "set": change_settings(rules.changes())}
    if seats:
        out["policies"] = seats
    return out


def arms_played(plan: RunPlan) -> list[dict]:
    """Each rule set as the page, the report and the study name it: its label, what it changes
    from the standard game (as TOML and in a line), its hash and its players."""
    lineup = list(plan.lineup)
    out = []
    for a in plan.arms:
        changes = {k: v for k, v in a.rules.changes().items() if k not in SWITCHES}
        out.append({"name": a.label, "rules_hash": a.rules.rules_hash(), "policies": list(a.seats),
                    "own_players": list(a.seats) != lineup, "changes": as_toml(changes) if changes else "",
                    "summary": describe_changes(changes)})  # fmt: skip
    return out


def file_name(label: str) -> str:
    """The file a label's rules download as (``core.files.file_stem``, then ``.toml``)."""
    return file_stem(label) + ".toml"


def arms_text(arms: list[dict]) -> list[str]:
    """Each rule set as a Markdown list item: what it changes from the standard game and who
    plays it; then how each kind of player plays."""
    out = []
    for k, a in enumerate(arms):
        changes = f"`{a['summary']}`" if a["changes"] else "the standard rules, unchanged"
        who = ", ".join(a["policies"])
        line = f"- **{a['name']}**{' (the baseline)' if k == 0 else ''}: {changes}"
        if who:
            line += f"; players, in the order they play: {who}" + (" (its own)" if a.get("own_players") else "")
        out.append(line)
    kinds = sorted({p for a in arms for p in a["policies"]})
    if kinds:
        out += ["", "Who plays: " + "; ".join(f"**{p}** {player_words(p)}" for p in kinds) + "."]
    return out


def findings_text(findings: list[dict]) -> list[str]:
    """Findings as Markdown list items, each led by its rule set's label when it has one."""
    return [f"- **{f['arm']}**: {f['text']}" if f.get("arm") else f"- {f['text']}" for f in findings]
