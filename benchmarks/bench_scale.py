"""Threads vs a local Dask cluster, side by side in one run (issue 7).

Plays the same 1,000,000 four-player Fortune games (a per-game table, and then only the
summary's sums) on the threads backend (2 numba threads) and on a local Dask cluster of 2
worker processes with one numba thread each, interleaved round by round. Prints games/s for
each and the Dask path's overhead in percent (target: within 25% of threads), medians over
rounds with their spread, with the cluster already running, and once with its start-up
counted; the load average before and after.

    python benchmarks/bench_scale.py [--games 1000000] [--chunk-size 65536]
"""

import argparse

from _common import interleaved, load, median_spread, timed

from snakesim.core.arms import Budget
from snakesim.core.backends import DaskBackend, ThreadsBackend
from snakesim.core.runner import simulate_spec, tally_spec
from snakesim.games import get_game


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--chunk-size", type=int, default=1 << 16)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    spec = get_game("fortune")
    rules = spec.rules()
    n, chunk = args.games, args.chunk_size

    def table(backend):
        return lambda: simulate_spec(spec, rules, 4, Budget(n, 1, block=chunk), backend=backend)

    def sums(backend):
        return lambda: tally_spec(spec, rules, 4, Budget(n, 1, block=chunk), backend=backend)

    threads = ThreadsBackend()
    table(threads)()  # compile or load the kernel before timing
    # Cold: one whole command's worth, starting and closing its own local cluster.
    before = load()
    t_cold, _ = timed(table(DaskBackend(workers=args.workers)))
    rows = []
    with DaskBackend(workers=args.workers) as dask:  # the runs below re-enter it and share its cluster
        for what, make in (("per-game table", table), ("summary only", sums)):
            runs = interleaved({"threads": make(threads), "dask": make(dask)}, args.repeats)
            rows.append((what, [t for t, _ in runs["threads"]], [t for t, _ in runs["dask"]]))
    print(f"Fortune, 4 players, {n:,} games in blocks of {chunk:,}; dask: {args.workers} local workers x 1 thread")
    print(f"  ({args.repeats} interleaved rounds; load {before} -> {load()})")
    for what, t_threads, t_dask in rows:
        print(f"  {what}:")
        print(f"    threads               {median_spread([n / t for t in t_threads], '{:,.0f}'):>28} games/s")
        overheads = [100 * (d / t - 1) for t, d in zip(t_threads, t_dask, strict=True)]
        print(f"    dask, cluster running {median_spread([n / t for t in t_dask], '{:,.0f}'):>28} games/s", end="")
        print(f"   overhead {median_spread(overheads, '{:+.1f}')}%")
    t_threads = rows[0][1]
    cold = 100 * (t_cold / min(t_threads) - 1)
    print("  per-game table, starting and closing a local cluster (one command, cold, once):")
    print(
        f"    dask                  {n / t_cold:12,.0f} games/s   overhead {cold:+6.1f}% (on the fastest threads round)"
    )


if __name__ == "__main__":
    main()
