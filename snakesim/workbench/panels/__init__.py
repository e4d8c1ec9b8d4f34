"""The workbench's kinds of run, one module each, so that a new kind (a sweep, a tune, a
skill test) is one Python module here and one JavaScript module in ``static/``, and no
``kind == ...`` anywhere else.

A panel module holds, for its kind (``Panel`` below says it in types):

- ``KIND``, the request's ``kind``; ``NOUN``, what the page calls a run of it; ``SCRIPT``, its
  JavaScript module in ``static/``; ``COUNTS_WORK``, whether its games are known before it
  plays (so that its bar counts work);
- ``rule_sets(request, limits)``: the rule sets it plays and its games per rule set, checked;
- ``complete(plan)``: the rest of its request checked into the plan (a ``RunPlan``: its
  ``question``, a plan of ``snakesim.questions``); the games it will play
  (0 when not known ahead);
- ``describe(request)``: what it plays, in words;
- ``play(plan, backend)``: what the page shows;
- ``command_args(plan)``: its command line's options past the common ones;
- ``question(plan)`` and ``study(plan)``: a study file's question and its section;
- ``report(job, arms_shown)``: its section of the report (Markdown, with a ``CHARTS-KIND``
  line where its charts go) and its charts.

``PANELS`` lists them in the order the page, a study and a report show them.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol

from snakesim.core.errors import InputError
from snakesim.workbench.panels import balance, compare, design

if TYPE_CHECKING:
    from snakesim.workbench.jobs import Job, Limits
    from snakesim.workbench.plans import RunPlan


class Panel(Protocol):
    """What a panel module provides (see the module's docstring)."""

    KIND: str
    NOUN: str
    SCRIPT: str
    COUNTS_WORK: bool

    def rule_sets(self, request: dict, limits: Limits) -> tuple[list[Any], int]: ...
    def complete(self, plan: RunPlan) -> int: ...
    def describe(self, request: dict) -> str: ...
    def play(self, plan: RunPlan, backend: Any) -> dict: ...
    def command_args(self, plan: RunPlan) -> list[str]: ...
    def question(self, plan: RunPlan) -> str: ...
    def study(self, plan: RunPlan) -> list[str]: ...
    def report(self, job: Job, arms_shown: bool) -> tuple[list[str], list[dict]]: ...


PANELS: dict[str, ModuleType] = {m.KIND: m for m in (compare, balance, design)}
DEFAULT = compare.KIND  # (a request that names no kind: the page's first versions sent none)


def described_panels() -> dict[str, Panel]:
    """A panel for each kind of question that describes itself and has no panel of its own."""
    from snakesim.questions import described
    from snakesim.workbench.panels.described import DescribedPanel

    return {k: DescribedPanel(m) for k, m in described().items() if k not in PANELS}  # type: ignore[misc]


def every() -> dict[str, Panel]:
    """Every panel by kind, in the order the page, a study and a report show them: ``PANELS``,
    then those of the kinds that describe themselves."""
    return {**PANELS, **described_panels()}  # type: ignore[dict-item]


def listed() -> list[dict]:
    """Every panel as the page loads it, in the order it shows them: its kind, its noun and its
    script; a described kind's title and fields besides (``DescribedPanel.description``)."""
    out = [{"kind": p.KIND, "noun": p.NOUN, "script": p.SCRIPT} for p in PANELS.values()]
    return out + [p.description() for p in described_panels().values()]  # type: ignore[attr-defined]


def panel(kind: Any) -> Panel:
    """The panel of ``kind``: one of ``PANELS``, or one made from a kind of question that
    describes itself (``snakesim.questions.described``); InputError naming ``kind`` and the
    kinds there are otherwise."""
    others = described_panels()
    if not isinstance(kind, str) or (kind not in PANELS and kind not in others):
        raise InputError("kind", f"expected one of {', '.join([*PANELS, *others])}, got {kind!r}")
    return PANELS[kind] if kind in PANELS else others[kind]  # type: ignore[return-value]
