"""Progress bars on stderr, shown only for runs that last more than a couple of seconds.

A run whose games all cost about the same counts games (:func:`progress_bar`). A run that
mixes line-ups counts work instead (:func:`work_bar`): a look-ahead player's game costs a
few hundred to a few thousand times a greedy one's, so a bar over games would reach two
thirds in a blink and then sit there, its time left far too short. Each line-up's games
weigh what a few of them took to play (:func:`seconds_per_game`), measured before the bar.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tqdm import tqdm


SHOW_AFTER_SECONDS = 2.0


def progress_bar(total: int, enabled: bool, desc: str = "games", initial: int = 0) -> tqdm:
    """A tqdm bar over ``total`` games on stderr (``initial`` already done, for a resumed run);
    silent when ``enabled`` is false (and then tqdm is not even imported)."""
    if not enabled:
        return _Silent()
    from tqdm import tqdm

    return tqdm(
        total=total,
        initial=initial,
        delay=SHOW_AFTER_SECONDS,
        unit=" games",
        unit_scale=True,
        desc=desc,
        file=sys.stderr,
        dynamic_ncols=True,
    )


def work_bar(total: float, enabled: bool, desc: str) -> tqdm:
    """A bar over ``total`` units of work (estimated seconds, say) that shows the share done
    and the time left, not a count; silent when ``enabled`` is false."""
    if not enabled:
        return _Silent()
    from tqdm import tqdm

    return tqdm(
        total=total,
        delay=SHOW_AFTER_SECONDS,
        desc=desc,
        file=sys.stderr,
        dynamic_ncols=True,
        bar_format="{l_bar}{bar}| [{elapsed}<{remaining}]",
        smoothing=0,  # the run's average rate: the work is weighed, and it comes in bursts
    )


PILOT_SECONDS = 0.01  # what a line-up's pilot plays for, at least
PILOT_GAMES = (2, 1 << 14)  # and its fewest and most games


def seconds_per_game(spec, rules, players: int, seed: int, first: int, codes=None) -> float:
    """About how long one game of this line-up takes here: games ``first, first+1, ...``
    played in doubling batches on one thread until ``PILOT_SECONDS`` have passed (at least 2
    games, at most 16,384). The kernel must be loaded already (``compiling.prepare``)."""
    from snakesim.core.threads import using_threads

    played, spent, batch = 0, 0.0, 1
    with using_threads(1):  # the same for every line-up, however few games it needs
        while played < PILOT_GAMES[1] and (played < PILOT_GAMES[0] or spent < PILOT_SECONDS):
            start = time.perf_counter()
            spec.play_block(rules, players, seed, first + played, batch, policies=codes)
            spent += time.perf_counter() - start
            played += batch
            batch = min(2 * batch, PILOT_GAMES[1] - played)
    return spent / played


class _Silent:
    """What a disabled bar does: nothing."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n=1):
        pass

    def close(self):
        pass
