"""Files written safely: a folder checked for writing before a run, and atomic writes (a
temporary file beside the target, fsynced, renamed into place, the folder fsynced), so that a
failed or interrupted write never leaves a half-written file. Used by the tables
(``snakesim.core.results``), the run folders (``snakesim.core.store``) and the reports.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from snakesim.core.errors import InputError


def check_writable(folder: str | os.PathLike, field: str = "--out") -> None:
    """InputError (naming ``field``) unless ``folder`` exists or can be made, and can be written in."""
    folder = Path(folder).absolute()
    while not folder.exists():
        if folder.is_symlink():
            raise InputError(field, f"{str(folder)!r} is a broken symbolic link")
        folder = folder.parent
    if not folder.is_dir():
        raise InputError(field, f"cannot make a folder inside {str(folder)!r}: it is a file")
    if not os.access(folder, os.W_OK):
        raise InputError(field, f"cannot write in {str(folder)!r}: permission denied")


def file_stem(label: str) -> str:
    """A rule set's label as the start of a file's name: letters, digits, - and _ kept, every
    run of others one -; ``rules`` where nothing is left."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", label).strip("-") or "rules"


def current_umask() -> int:
    """The process's umask (reading it means setting it, so it is set back at once)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def fsync_path(path: str | os.PathLike, directory: bool = False) -> None:
    """Flush a file (or a folder's entries) to disk."""
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if directory else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, write) -> None:
    """Call ``write(tmp)`` on a temporary file beside ``path``, fsync it, rename it to ``path``
    and fsync the folder, so that after a crash ``path`` is either the old file or the new."""
    atomic_write_all([(path, write)])


def atomic_write_all(files) -> None:
    """Write several files as one: every ``(path, write)`` pair's temporary file is written and
    fsynced before any is renamed into place, so a failed write replaces nothing.

    Temporary names carry the writer's pid (``.NAME.PID.XXXX.tmp``)."""
    temps = []
    try:
        for path, write in files:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
            os.close(fd)
            temps.append(tmp)
            write(tmp)
            os.chmod(tmp, 0o666 & ~current_umask())  # mkstemp makes 0600; give the file the usual mode
            fsync_path(tmp)
        for (path, _), tmp in zip(files, temps, strict=True):
            os.replace(tmp, path)
    except BaseException:
        for tmp in temps:
            Path(tmp).unlink(missing_ok=True)
        raise
    for folder in {path.parent for path, _ in files}:
        fsync_path(folder, directory=True)
