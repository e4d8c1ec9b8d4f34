"""The workbench's panel for a kind of question that describes itself (``snakesim.questions``):
its request is the common one (game, players, games, seed, one rule set as ``arm``) and the
kind's own fields; it plays through the kind's ``ask`` and ``play`` and answers with its
findings and its rows. The server answers it through its HTTP API; the page does not draw it
yet (it draws the panels of ``PANELS``)."""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from snakesim.core.arms import Budget
from snakesim.core.errors import InputError
from snakesim.core.rules import Int, inline
from snakesim.questions import DESCRIBED_GAMES

if TYPE_CHECKING:
    from snakesim.workbench.jobs import Job, Limits
    from snakesim.workbench.plans import RunPlan


class DescribedPanel:
    """A panel made from a question module's description (``KIND``, ``TITLE``, ``FIELDS``,
    ``ask``, ``play``, ``rows``), with what ``panels.Panel`` asks of a panel."""

    SCRIPT = ""  # (no page module yet)
    COUNTS_WORK = True  # (one rule set, its games known ahead)
    COMMAND = False  # (no command of its own: a study file asks it on the command line)

    def __init__(self, question: ModuleType):
        self.q = question
        self.KIND, self.NOUN = question.KIND, question.TITLE

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
        return {"findings": [{"arm": None, "text": t} for t in answer.findings],
                "rows": self.q.rows(answer).to_dict(orient="records"), "charts": []}  # fmt: skip

    def command_args(self, plan: RunPlan) -> list[str]:
        """None: the kind has no command of its own (a study file asks it on the command line)."""
        return []

    def question(self, plan: RunPlan) -> str:
        """The question a study file of this run asks, in a sentence."""
        return f"{self.q.TITLE}: {plan.players} players of {plan.spec.name.title()}?"

    def study(self, plan: RunPlan) -> list[str]:
        """Its section of a study file: the players, the games and its own fields."""
        lines = [f"[[{self.KIND}]]", f"players = {plan.players}", f"games = {plan.games}"]
        return lines + [f"{name} = {inline(plan.request.get(name, default))}"
                        for name, (_, default) in self.q.FIELDS.items()]  # fmt: skip

    def report(self, job: Job, arms_shown: bool) -> tuple[list[str], list[dict]]:
        """Its section of the report: its title and its findings."""
        from snakesim.workbench.rulesets import findings_text

        return [f"## {self.q.TITLE}", "", *findings_text(job.result["findings"]), ""], []
