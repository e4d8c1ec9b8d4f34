"""A stand-in for the workbench's background process that compiles the engines
(``snakesim.games.warm``), for tests that need one engine to stay compiling until they say."""

from __future__ import annotations

import sys

SCRIPT = """
import json, os, subprocess, sys, time
folder = sys.argv[1]
def write(name, text):  # (whole or absent: a test reads a file as soon as it exists)
    path = os.path.join(folder, name)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)
def state(engine, s):
    write(engine + ".json", json.dumps({{"state": s}}))
if {worker}:
    worker = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    write("worker", str(worker.pid))  # (it was read empty once, between its creation and its write)
for engine in {ready!r}:
    state(engine, "ready")
state({compiling!r}, "compiling")
while not os.path.exists(os.path.join(folder, "release")):
    time.sleep(0.02)
for engine in {then!r}:
    state(engine, "ready")
time.sleep(60)
"""


def stand_in(compiling: str, then: tuple[str, ...], ready: tuple[str, ...] = (), worker: bool = False) -> list[str]:
    """The command of a stand-in that writes ``ready`` engines ready, keeps ``compiling``
    compiling until the test leaves a file named "release" in the folder, then writes ``then``
    ready; with ``worker``, it starts a worker process of its own (its pid in the file
    "worker"), as the real one does. ``Background`` adds the folder and the games after it."""
    script = SCRIPT.format(compiling=compiling, then=tuple(then), ready=tuple(ready), worker=worker)
    return [sys.executable, "-c", script]
