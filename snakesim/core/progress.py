"""Progress bars on stderr, shown only for runs that last more than a couple of seconds."""

from __future__ import annotations

import sys
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
