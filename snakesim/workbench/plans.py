"""What a checked request asks the workbench to play: a typed value every panel reads by name.

``runs.check_request`` builds it from the page's JSON; the panel's ``complete`` adds its kind's
question (``question``: a plan of ``snakesim.questions``) and the texts its command line and
study file repeat as the page gave them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from snakesim.core.arms import Arm, RuleSource
    from snakesim.core.registry import GameSpec
    from snakesim.workbench.jobs import Limits


@dataclass
class RunPlan:
    """A request checked: its panel (``kind``), the game, players, games per rule set and seed,
    the rule sets (``arms`` built, ``tables`` as ``snakesim.core.arms`` takes them), what every
    rule set shares (``shared``: the feel switch), the baseline's players (``lineup``), the
    request itself and the server's limits; then what the panel adds: its question, and the
    page's own words for what matters (compare) and the figure it prefers (design); and, while
    it plays, the catalogue (``kept``) whose games a search takes instead of playing them again."""

    kind: Any
    spec: GameSpec
    players: int
    games: int
    seed: int
    arms: list[Arm]
    tables: list[dict]
    shared: RuleSource
    lineup: list[str]
    request: dict
    limits: Limits
    question: Any = None
    matters_text: str = ""
    prefer_text: str | None = None
    kept: Any = None  # (while it plays: the catalogue whose searched games a search takes, and keeps its own in)

    @property
    def feel(self) -> bool:
        """Whether the games record the game feel (the page's one switch)."""
        return bool(self.shared.options.get("feel", True))
