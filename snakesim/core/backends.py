"""Where blocks of games are played: numba threads in this process, or a Dask cluster.

A run is a list of blocks of game indices. A backend plays each block with a task function
and yields ``(block, result)`` as blocks finish, in any order; the runner puts results back
in block order, so the backend can never change a result (game ``i`` draws only from its own
stream).

- :class:`ThreadsBackend` (the default) plays the blocks one after the other, each on all
  numba threads of this process.
- :class:`DaskBackend` submits one task per block to a Dask distributed cluster: an existing
  one (``scheduler="tcp://host:port"``) or a local cluster of worker processes that it starts
  and closes. Numba's traps with worker processes are avoided: the kernel is compiled (or
  loaded from the on-disk cache) before any task runs, by this process for a local cluster or
  by each remote worker in turn, so no two processes write the cache at once; and each worker
  plays with one numba thread, since the cluster already runs one task per core.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence

from snakesim.core.defaults import BACKENDS
from snakesim.core.errors import InputError
from snakesim.core.threads import using_threads


def max_local_workers() -> int:
    """The most worker processes a local cluster may start: 4 per core (more only thrash)."""
    return 4 * (os.cpu_count() or 1)


class ThreadsBackend:
    """Play blocks in this process on ``threads`` threads (all cores if None)."""

    name = "threads"
    live = True  # its kernels report games as they finish (threads.reporting), block by block

    def __init__(self, threads: int | None = None):
        self.threads = threads

    def __enter__(self) -> ThreadsBackend:
        return self

    def __exit__(self, *exc) -> None:
        return None

    def warm_up(self, task: Callable, args: tuple) -> None:
        """Nothing to prepare: the runner has loaded or compiled the kernel in this process."""

    def map(self, task: Callable, blocks: Sequence[tuple[int, int, int]], args: tuple) -> Iterator[tuple[int, object]]:
        with using_threads(self.threads):
            for index, start, count in blocks:
                yield index, task(*args, start, count)


def _on_worker(task: Callable, *args):
    # One thread per task: the cluster runs one task per core already.
    with using_threads(1):
        return task(*args)


class DaskBackend:
    """Play blocks as tasks on a Dask distributed cluster.

    Parameters
    ----------
    scheduler : str, optional
        Address of a running scheduler (``tcp://HOST:PORT``). Without it, a local cluster of
        ``workers`` processes (one thread each) is started on entry and closed on exit.
    workers : int, optional
        Worker processes of the local cluster; the number of cores if None.
    """

    name = "dask"
    live = False  # games are counted when a task's block comes back

    def __init__(self, scheduler: str | None = None, workers: int | None = None):
        if scheduler is not None and workers is not None:
            raise InputError("--workers", "--workers starts a local cluster; it cannot be used with --scheduler")
        if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int) or workers < 1):
            raise InputError("--workers", f"expected a positive number of worker processes, got {workers!r}")
        if workers is not None and workers > max_local_workers():
            raise InputError(
                "--workers",
                f"expected at most {max_local_workers()} local worker processes (4 per core here), got {workers}",
            )
        self.scheduler = scheduler
        self.workers = workers
        self.cluster = None
        self.client = None
        self._warm: set[str] = set()  # games whose kernel each remote worker has loaded
        self._depth = 0  # nested `with` blocks share one cluster (a comparison's many runs)

    def __enter__(self) -> DaskBackend:
        from distributed import Client

        self._depth += 1
        if self.client is not None:
            return self
        if self.scheduler is not None:
            probe_scheduler(self.scheduler, connect_timeout())
            try:
                self.client = Client(self.scheduler, timeout=f"{connect_timeout()}s")
            except (OSError, TimeoutError, ValueError) as err:
                message = f"cannot reach a Dask scheduler at {self.scheduler!r} ({err})"
                raise InputError("--scheduler", message) from None
        else:
            self.cluster = self._start_local_cluster()
            self.client = Client(self.cluster)
        return self

    def _start_local_cluster(self):
        """A local cluster of one-thread workers, its scheduler and dashboard on 127.0.0.1 only.

        A worker that dies while the cluster starts (a transient failure) is given one more
        try; a second failure is a one-line error.
        """
        import logging

        from distributed import LocalCluster

        # Worker processes import numba before a Nanny's ``env`` reaches them, so they must
        # inherit NUMBA_NUM_THREADS=1 from this process's environment at spawn time.
        saved = os.environ.get("NUMBA_NUM_THREADS")
        os.environ["NUMBA_NUM_THREADS"] = "1"
        try:
            for attempt in (1, 2):
                try:
                    return LocalCluster(
                        n_workers=self.workers or os.cpu_count() or 1,
                        threads_per_worker=1,
                        processes=True,
                        host="127.0.0.1",  # nothing of it listens beyond this machine
                        dashboard_address="127.0.0.1:0",  # any free port: never clash with another cluster
                        silence_logs=logging.ERROR,
                    )
                except Exception as err:  # a Nanny that failed to start, a port taken meanwhile
                    if attempt == 2:
                        raise InputError(
                            "--workers", f"the local Dask cluster did not start, twice ({type(err).__name__}: {err})"
                        ) from None
        finally:
            if saved is None:
                del os.environ["NUMBA_NUM_THREADS"]
            else:
                os.environ["NUMBA_NUM_THREADS"] = saved

    def __exit__(self, *exc) -> None:
        self._depth -= 1
        if self._depth > 0:
            return
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        self.client = self.cluster = None

    def warm_up(self, task: Callable, args: tuple) -> None:
        """Compile the kernel (or load it from the cache) in this process before any block is
        submitted: local workers then only read the cache. Cheap once cached."""
        task(*args, 0, 1)

    def _warm_workers(self, task: Callable, args: tuple) -> None:
        # Remote workers may not share this machine's cache: each plays one game, one worker
        # at a time, so that two processes never write the same cache file at once.
        game = args[0].name
        if game in self._warm or self.scheduler is None:
            return
        for worker in self.client.scheduler_info()["workers"]:
            self.client.submit(_on_worker, task, *args, 0, 1, workers=[worker], pure=False).result()
        self._warm.add(game)

    def map(self, task: Callable, blocks: Sequence[tuple[int, int, int]], args: tuple) -> Iterator[tuple[int, object]]:
        from distributed import as_completed

        self._warm_workers(task, args)
        futures = {}
        for index, start, count in blocks:
            futures[self.client.submit(_on_worker, task, *args, start, count, pure=False)] = index
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            for future in futures:  # on Ctrl-C or an error: stop what is still queued
                future.cancel()


def connect_timeout() -> float:
    """Seconds allowed to reach a scheduler, handshake included (``SNAKESIM_DASK_TIMEOUT``, 10)."""
    try:
        return max(0.1, float(os.environ.get("SNAKESIM_DASK_TIMEOUT", "10")))
    except ValueError:
        raise InputError("SNAKESIM_DASK_TIMEOUT", "expected a number of seconds") from None


def probe_scheduler(address: str, timeout: float) -> None:
    """Ask ``address`` who it is, within one deadline for connection, handshake and answer.

    distributed's own ``connect`` waits for the handshake without a deadline (pointed at an
    HTTP port it hung for minutes) and trusts a junk answer's frame lengths (one asked for
    3 EiB); this probe bounds both, so the Client is made only for a real scheduler.

    Raises
    ------
    InputError
        If nothing answers in time, or what answers is not a Dask scheduler.
    """
    import asyncio
    import concurrent.futures

    from distributed.comm import connect
    from distributed.security import Security

    tls = Security().get_connection_args("client")  # TLS as Dask's configuration sets it, if at all

    async def identity():
        # The connection's own retries end first, so a refused port says so; the overall
        # deadline below still bounds the handshake and the answer.
        comm = await connect(address, timeout=0.8 * timeout, **tls)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    def ask():
        return asyncio.run(asyncio.wait_for(identity(), timeout))

    try:
        # A thread of its own, so that a caller already inside an event loop can probe too.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            reply = pool.submit(ask).result()
    except TimeoutError:
        message = f"no answer from {address!r} within {timeout:g} s; is a Dask scheduler listening there?"
        raise InputError("--scheduler", message) from None
    except Exception as err:  # junk on the wire: any failure to read it is the same answer
        detail = f"{type(err).__name__}: {str(err)[:100]}"
        raise InputError("--scheduler", f"cannot reach a Dask scheduler at {address!r} ({detail})") from None
    if not isinstance(reply, dict) or reply.get("type") != "Scheduler":
        raise InputError("--scheduler", f"{address!r} answered, but not as a Dask scheduler")


def make_backend(name: str = "threads", threads=None, scheduler=None, workers=None):
    """The backend called ``name`` (``threads`` or ``dask``), checking its options."""
    if name not in BACKENDS:
        raise InputError("--backend", f"unknown backend {name!r}; expected one of {', '.join(BACKENDS)}")
    if name == "threads":
        if scheduler is not None or workers is not None:
            option = "--scheduler" if scheduler is not None else "--workers"
            raise InputError(option, "needs --backend dask")
        return ThreadsBackend(threads)
    if threads is not None:
        raise InputError("--threads", "each Dask worker plays with one numba thread; use --workers instead")
    return DaskBackend(scheduler, workers)
