"""Dask at the edges: a scheduler address that hangs or answers junk is one line within a
deadline; a local cluster listens on 127.0.0.1 only; a worker dying at start is retried once."""

import socket
import threading
import time

import pytest
from click.testing import CliRunner

from snakesim.cli import cli
from snakesim.core.backends import DaskBackend


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


class Listener:
    """A loopback TCP server that answers each connection with ``reply`` (or nothing) and
    stops by itself after ``lifetime`` seconds."""

    def __init__(self, reply: bytes | None, lifetime: float = 20):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.reply, self.deadline, self.held = reply, time.monotonic() + lifetime, []
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while time.monotonic() < self.deadline:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.held.append(conn)  # keep it open: a peer that never closes
            if self.reply is not None:
                conn.sendall(self.reply)
        for conn in self.held:
            conn.close()
        self.sock.close()

    def stop(self):
        self.deadline = 0
        self.thread.join(5)


@pytest.mark.parametrize(
    "reply,message",
    [
        (None, "no answer from 'tcp://127.0.0.1:{port}' within 2 s"),
        (b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n", "cannot reach a Dask scheduler at"),
        (b"\xff" * 64, "cannot reach a Dask scheduler at"),
    ],
    ids=["silent", "http", "junk"],
)
def test_a_bad_scheduler_is_one_line_within_the_deadline(monkeypatch, reply, message):
    monkeypatch.setenv("SNAKESIM_DASK_TIMEOUT", "2")
    server = Listener(reply)
    try:
        start = time.monotonic()
        r = invoke("run", "fortune", "-n", 100, "--backend", "dask", "--scheduler", f"tcp://127.0.0.1:{server.port}")
        elapsed = time.monotonic() - start
    finally:
        server.stop()
    assert r.exit_code == 2 and r.stdout == "", r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("snakesim: error: --scheduler: "), r.stderr
    assert message.format(port=server.port) in lines[0]
    assert elapsed < 10, elapsed  # one deadline, not minutes


def test_a_local_cluster_listens_on_loopback_only():
    with DaskBackend(workers=1) as backend:
        scheduler = backend.cluster.scheduler
        assert scheduler.address.startswith("tcp://127.0.0.1:")
        bound = [s.getsockname()[0] for s in scheduler.http_server._sockets.values()]
        assert bound and set(bound) == {"127.0.0.1"}, bound
        assert all(w.startswith("tcp://127.0.0.1:") for w in backend.client.scheduler_info()["workers"])


def test_a_worker_dying_at_start_is_retried_once_then_one_line(monkeypatch):
    import distributed

    attempts = []

    def flaky(*args, **kwargs):
        attempts.append(kwargs)
        raise RuntimeError("Nanny failed to start.")

    monkeypatch.setattr(distributed, "LocalCluster", flaky)
    r = invoke("run", "fortune", "-n", 100, "--backend", "dask", "--workers", 1)
    assert len(attempts) == 2 and r.exit_code == 2
    assert r.stderr.strip() == (
        "snakesim: error: --workers: the local Dask cluster did not start, twice (RuntimeError: Nanny failed to start.)"
    )
    monkeypatch.undo()
    original, real = distributed.LocalCluster, []

    def once_then_real(*args, **kwargs):  # fails the first time only: the run goes on
        real.append(kwargs)
        if len(real) == 1:
            raise RuntimeError("Nanny failed to start.")
        return original(*args, **kwargs)

    monkeypatch.setattr(distributed, "LocalCluster", once_then_real)
    r = invoke("run", "fortune", "-n", 1000, "--backend", "dask", "--workers", 1, "--json")
    assert r.exit_code == 0, r.output
    assert len(real) == 2
