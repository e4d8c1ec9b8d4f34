"""The workbench's panel for a kind of question that describes itself (``snakesim.questions``):
its request is the common one (game, players, games, seed, one rule set as ``arm``) and the
kind's own fields; it plays through the kind's ``ask`` and ``play`` and answers with its
findings and its rows. The page draws its section from the same description
(``static/panel-described.js``: a box a field, its findings and its rows)."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from snakesim.core.arms import Budget
from snakesim.core.errors import InputError
from snakesim.core.rules import Int, inline
from snakesim.questions import DESCRIBED_GAMES
from snakesim.questions.rows import tidy

if TYPE_CHECKING:
    from snakesim.workbench.jobs import Job, Limits
    from snakesim.workbench.plans import RunPlan


class DescribedPanel:
    """A panel made from a question module's description (``KIND``, ``TITLE``, ``FIELDS``,
    ``ask``, ``play``, ``rows``), with what ``panels.Panel`` asks of a panel."""

    SCRIPT = "panel-described.js"  # (one module for every such kind: it draws the section from the description)
    COUNTS_WORK = True  # (one rule set, its games known ahead)
    COMMAND = False  # (no command of its own: a study file asks it on the command line)

    def __init__(self, question: ModuleType):
        self.q = question
        self.KIND, self.NOUN = question.KIND, question.TITLE

    def description(self) -> dict:
        """What the page draws its section from: the kind, its title and each field's name, type
        (``int``, ``float``, ``bool`` or ``str``) and default."""
        fields = [{"name": name, "type": kind.__name__, "default": default}
                  for name, (kind, default) in self.q.FIELDS.items()]  # fmt: skip
        return {"kind": self.KIND, "noun": self.NOUN.lower(), "script": self.SCRIPT, "title": self.q.TITLE,
                "games": DESCRIBED_GAMES, "fields": fields}  # fmt: skip

    def rule_sets(self, request: dict, limits: Limits) -> tuple[list[Any], int]:
        """The one rule set it plays (the request's ``arm``) and its games."""
        return [request.get("arm")], Int(1, limits.max_games).check("games", request.get("games", DESCRIBED_GAMES))

    def complete(self, plan: RunPlan) -> int:
        """The kind's own fields, checked by type, then its question (``plan.question``); its games."""
        fields = {}
        for name, (kind, default) in self.q.FIELDS.items():
            value = plan.request.get(name, default)
            if isinstance(value, bool) != (kind is bool) or not isinstance(value, kind):
                raise InputError(name, f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
            fields[name] = value
        plan.question = self.q.ask(plan.spec, plan.players, Budget(plan.games, plan.seed), source=plan.arms[0],
                                   **fields)  # fmt: skip
        return plan.games

    def describe(self, request: dict) -> str:
        """What a run of it plays, in words."""
        return f"{self.q.TITLE.lower()}, {request.get('games', DESCRIBED_GAMES):,} games"

    def play(self, plan: RunPlan, backend: Any) -> dict:
        """Play it; its findings and its rows."""
        answer = self.q.play(plan.question, backend=backend)
        rows = tidy(self.KIND, self.q.rows(answer)).dropna(axis=1, how="all")  # (the columns it fills)
        return {"findings": [{"arm": None, "text": t} for t in answer.findings],
                "rows": rows.to_dict(orient="records"), "charts": []}  # fmt: skip

    def command_args(self, plan: RunPlan) -> list[str]:
        """None: the kind has no command of its own (a study file asks it on the command line)."""
        return []

    def question(self, plan: RunPlan) -> str:
        """The question a study file of this run asks, in a sentence."""
        return f"{self.q.TITLE}: {plan.players} players of {plan.spec.name.title()}?"

    def study(self, plan: RunPlan) -> list[str]:
        """Its section of a study file: the players, the games, the rule set as its settings and
        its players, and the kind's own fields."""
        arm = plan.tables[0]
        feel = [] if plan.shared.options.get("feel", True) else ["feel=false"]
        title = f"{self.q.TITLE}: {arm['name']}"
        lines = [f"[[{self.KIND}]]", f"title = {inline(title)}",
                 f"players = {plan.players}", f"games = {plan.games}"]  # fmt: skip
        if arm["set"] or feel:
            lines.append(f"set = {inline(arm['set'] + feel)}")
        if arm.get("policies"):
            lines.append(f"policies = {inline(arm['policies'])}")
        return lines + [f"{name} = {inline(plan.request.get(name, default))}"
                        for name, (_, default) in self.q.FIELDS.items()]  # fmt: skip

    def report(self, job: Job, arms_shown: bool) -> tuple[list[str], list[dict]]:
        """Its section of the report: its title and its findings."""
        from snakesim.workbench.rulesets import findings_text

        return [f"## {self.q.TITLE}", "", *findings_text(job.result["findings"]), ""], []
