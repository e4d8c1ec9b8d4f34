"""Threads vs a local Dask cluster, side by side in one run (issue 7).

Plays the same 1,000,000 four-player Fortune games (a per-game table, and then only the
summary's sums) on the threads backend (2 numba threads) and on a local Dask cluster of 2
worker processes with one numba thread each. Prints games/s for each and the Dask path's
overhead in percent (target: within 25% of threads), both with the cluster already running
and with its start-up counted.

    python benchmarks/bench_scale.py [--games 1000000] [--chunk-size 65536]
"""

import argparse

from _common import best_of

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
        return lambda: simulate_spec(spec, rules, 4, n, 1, chunk_size=chunk, backend=backend)

    def sums(backend):
        return lambda: tally_spec(spec, rules, 4, n, 1, chunk_size=chunk, backend=backend)

    threads = ThreadsBackend()
    table(threads)()  # compile or load the kernel before timing
    # Cold: one whole command's worth, starting and closing its own local cluster.
    t_cold, _ = best_of(1, table(DaskBackend(workers=args.workers)))
    rows = []
    with DaskBackend(workers=args.workers) as dask:  # the runs below re-enter it and share its cluster
        for what, make in (("per-game table", table), ("summary only", sums)):
            t_threads, _ = best_of(args.repeats, make(threads))
            t_dask, _ = best_of(args.repeats, make(dask))
            rows.append((what, t_threads, t_dask))
    print(f"Fortune, 4 players, {n:,} games in blocks of {chunk:,}; dask: {args.workers} local workers x 1 thread")
    for what, t_threads, t_dask in rows:
        print(f"  {what}:")
        print(f"    threads               {n / t_threads:12,.0f} games/s")
        overhead = 100 * (t_dask / t_threads - 1)
        print(f"    dask, cluster running {n / t_dask:12,.0f} games/s   overhead {overhead:+6.1f}%")
    t_threads = rows[0][1]
    print("  per-game table, starting and closing a local cluster (one command, cold):")
    print(f"    dask                  {n / t_cold:12,.0f} games/s   overhead {100 * (t_cold / t_threads - 1):+6.1f}%")


if __name__ == "__main__":
    main()
