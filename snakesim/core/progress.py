"""Progress bars on stderr, shown only for runs that last more than a couple of seconds."""

from __future__ import annotations

import sys

from tqdm import tqdm

SHOW_AFTER_SECONDS = 2.0


def progress_bar(total: int, enabled: bool, desc: str = "games", initial: int = 0) -> tqdm:
    """A tqdm bar over ``total`` games on stderr (``initial`` already done, for a resumed run);
    silent when ``enabled`` is false."""
    return tqdm(
        total=total,
        initial=initial,
        disable=not enabled,
        delay=SHOW_AFTER_SECONDS,
        unit=" games",
        unit_scale=True,
        desc=desc,
        file=sys.stderr,
        dynamic_ncols=True,
    )
