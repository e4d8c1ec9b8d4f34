"""Starting and stopping the workbench's server: in the foreground for ``snakesim workbench``,
or on a background thread for tests and notebooks."""

from __future__ import annotations

import asyncio
import os
import socket
import threading

from snakesim.core.errors import InputError
from snakesim.workbench.jobs import Jobs, Limits

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")


def host_names(host: str) -> set[str]:
    """The names a request's Host header may give for a server listening on ``host``: this
    machine's loopback names, and for another address that address and this machine's names."""
    names = {"127.0.0.1", "localhost", "[::1]"}
    if host not in LOCAL_HOSTS:
        hostname = socket.gethostname()
        names |= {hostname, socket.getfqdn()}
        if host not in ("0.0.0.0", "::", ""):
            names.add(f"[{host}]" if ":" in host else host)
        else:
            try:
                names |= set(socket.gethostbyname_ex(hostname)[2])
            except OSError:
                pass
    return names


class Workbench:
    """The workbench's server on ``host:port`` (port 0: a free one), not yet listening; its
    answers kept in the catalogue ``catalogue`` (None: ``$SNAKESIM_HOME``'s, else the user's
    data folder's). With ``warm``, a background process compiles every game's default engine
    from the moment it starts (``snakesim.games.warm.Background``), the page's first game first."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, limits: Limits | None = None,
                 catalogue: str | os.PathLike | None = None, warm: bool = False):  # fmt: skip
        if not isinstance(port, int) or not 0 <= port <= 65535:
            raise InputError("--port", f"expected a port from 0 to 65,535, got {port!r}")
        self.host, self.port = host, port
        self.jobs = Jobs(limits or Limits(), catalogue)
        self.loop: asyncio.AbstractEventLoop | None = None
        self.server = None
        self.thread: threading.Thread | None = None
        self._ready = threading.Event()
        self.warm = warm

    @property
    def url(self) -> str:
        """The address a browser on this machine opens (127.0.0.1 for a server on every interface)."""
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "::", "") else self.host
        return f"http://{f'[{shown}]' if ':' in shown else shown}:{self.port}/"

    async def _listen(self) -> None:
        from tornado.httpserver import HTTPServer
        from tornado.netutil import bind_sockets

        from snakesim.workbench.server import MAX_BODY, make_app

        try:
            sockets = bind_sockets(self.port, self.host)
        except OSError as err:
            raise InputError("--port", f"cannot listen on {self.host}:{self.port} ({err.strerror})") from None
        self.port = sockets[0].getsockname()[1]
        app = make_app(self.port, host_names(self.host), jobs=self.jobs)
        self.server = HTTPServer(app, max_body_size=16 * MAX_BODY)  # (beyond: the connection is closed)
        self.server.add_sockets(sockets)

    def serve(self) -> None:
        """Listen and serve until Ctrl-C (or :meth:`stop`); then cancel every run and return."""
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        try:
            await self._listen()
        finally:
            self._ready.set()
        await self._stopped.wait()

    def start(self) -> Workbench:
        """Serve on a background thread; return once listening (InputError if it cannot)."""
        errors: list[BaseException] = []

        def run():
            try:
                self.serve()
            except BaseException as err:  # (reported to the caller of start)
                errors.append(err)
                self._ready.set()

        self.thread = threading.Thread(target=run, daemon=True, name="snakesim-workbench")
        self.thread.start()
        self._ready.wait()
        if errors:
            raise errors[0]
        if self.warm and self.jobs.warming is None:
            import tempfile

            from snakesim.games import NAMES
            from snakesim.games.warm import Background

            self._states = tempfile.TemporaryDirectory(prefix="snakesim-engines-")
            # (the page opens on the first game; the look-ahead players' engines follow the defaults)
            self.jobs.warming = Background(list(NAMES), self._states.name, thinking=True)
        return self

    def stop(self) -> None:
        """Stop serving, cancel the runs under way and end the background compiling."""
        self.jobs.cancel_all()
        if self.jobs.warming is not None:
            self.jobs.warming.stop()
        try:  # (the server stops listening first, then the loop ends)
            if self.server is not None and self.loop is not None:
                self.loop.call_soon_threadsafe(self.server.stop)
            if self.loop is not None:
                self.loop.call_soon_threadsafe(self._stopped.set)
        except RuntimeError:  # the loop has ended already
            pass
        if self.thread is not None:
            self.thread.join(timeout=10)
