"""The workbench's answer time: a comparison of two rule sets, 100,000 games each with the
game feel on, asked of the server over HTTP and polled as the page does, against the same
comparison called directly (``compare_variants``), for every game, in one process.

Kernels are loaded before timing (a first run also compiles; ``bench_startup`` measures
that). Each round times both ways back to back; the median over rounds is printed with its
spread and the machine's load. The page asks for fresh games each time (``"fresh": true``: the
same question asked again is otherwise answered from the catalogue, which is timed apart), and
its answers are kept in a catalogue of the benchmark's own. Also the size of the page's report
download.

    python benchmarks/bench_workbench.py [--games 100000] [--repeats 3]
"""

from __future__ import annotations

import http.client
import json
import tempfile
import time
from pathlib import Path

from _common import arguments, interleaved, load, median_spread, per_round, print_table

from snakesim.analysis.compare import compare_variants
from snakesim.core.arms import Budget, RuleSource
from snakesim.games import get_game
from snakesim.workbench.jobs import Limits
from snakesim.workbench.serve import Workbench

CASES = (  # game, players, the second arm as the page sends it (TOML) and as compare_variants takes it
    ("fortune", 4, "start_coins = 10", {"name": "house", "set": ["start_coins=10"]}),
    ("rainbow", 4, 'variant = "wild-snake"', {"name": "house", "variant": "wild-snake"}),
    ("hisss", 4, 'variant = "claim-joined"', {"name": "house", "variant": "claim-joined"}),
    ("sssnake", 3, 'variant = "no-ones"', {"name": "house", "variant": "no-ones"}),
)


def ask(server, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=600)
    data = None if body is None else json.dumps(body).encode()
    conn.request(method, path, body=data, headers={"Host": f"127.0.0.1:{server.port}",
                                                   "Content-Type": "application/json"})  # fmt: skip
    response = conn.getresponse()
    text = response.read()
    conn.close()
    return text


def main() -> None:
    args = arguments(__doc__, games=100_000, reference_games=None, repeats=3)
    before = load()
    kept = Path(tempfile.mkdtemp(prefix="bench-workbench-")) / "catalogue.sqlite"  # (never the user's catalogue)
    server = Workbench(limits=Limits(max_games=10**8), catalogue=kept).start()
    rows = []
    try:
        for game, players, second, house in CASES:
            spec, games = get_game(game), args.games
            request = {"kind": "compare", "game": game, "players": players, "games": games, "seed": 1, "feel": True,
                       "arms": [{"name": "standard", "toml": ""}, {"name": "house", "toml": second}]}  # fmt: skip
            arms = [{"name": "standard"}, house]
            last = {}

            def page(request=request, last=last, fresh=True):
                job = json.loads(ask(server, "POST", "/api/runs", {**request, "fresh": fresh}))["id"]
                while True:
                    status = json.loads(ask(server, "GET", f"/api/runs/{job}"))
                    if status["state"] in ("done", "failed", "cancelled"):
                        assert status["state"] == "done", status
                        last["id"] = job
                        return
                    time.sleep(0.1)  # (the page polls every 0.25 s)

            def direct(spec=spec, players=players, games=games, arms=arms):
                compare_variants(spec, players, arms, Budget(games, 1), RuleSource(options={"feel": True}))

            direct()  # kernels loaded before timing
            timed = interleaved({"page": page, "direct": direct}, args.repeats)
            on_page, called = ([t for t, _ in timed[k]] for k in ("page", "direct"))
            size = len(ask(server, "GET", f"/api/report?compare={last['id']}"))
            started = time.perf_counter()
            page(fresh=False)
            served = time.perf_counter() - started
            rows += [
                (
                    f"{game}: the page's answer (s)",
                    median_spread(on_page),
                    f"2 arms x {games:,} games, {players} players",
                ),
                (f"{game}: compare_variants (s)", median_spread(called), ""),
                (f"{game}: page / direct", per_round(on_page, called), f"x; report download {size / 1024:.0f} KB"),
                (f"{game}: asked again, from the catalogue (s)", f"{served:.2f}", "one answer, polled as the page"),
            ]
    finally:
        server.stop()
    print_table(f"The workbench's answer time; {args.repeats} interleaved rounds, all threads", rows, before)


if __name__ == "__main__":
    main()
