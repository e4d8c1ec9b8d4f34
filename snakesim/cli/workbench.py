"""The ``workbench`` command: the house-rule workbench, a page in your browser."""

from __future__ import annotations

import click

from snakesim.cli import cli


@cli.command()
@click.option("--port", type=int, default=8765, show_default=True, help="The port to listen on (0: any free one).")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to listen on. Only this machine can reach the default; another address (0.0.0.0: every "
    "network) lets other machines play games on this one, so it prints a warning.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in your web browser.")
@click.option(
    "--max-games",
    type=click.IntRange(1, 10**9),
    default=2_000_000,
    show_default=True,
    help="The most games one request may play (every rule set's together).",
)
@click.option(
    "--max-runs", type=click.IntRange(1, 64), default=1, show_default=True, help="The most runs played at once."
)
def workbench(port, host, open_browser, max_games, max_runs):
    """Start the house-rule workbench: a page where you change a rule and see what it does.

    Pick a game and its number of players, edit its rules in a form (or as TOML), put rule
    sets side by side, and play them: the page says what changes in words, with charts whose
    every value carries its 95% interval. It finds a fair handicap too, and gives you the
    rules file, a study file and a report to keep. The page's address holds the comparison,
    so a link reopens it.

    The page works without internet: everything it loads comes from this server. From its
    first moment it compiles every game's engine for this computer in the background, once
    (the page says how far it is), so that a first Play need not wait. Stop the server with
    Ctrl-C.

    \b
    Examples:
      snakesim workbench                  # then open http://127.0.0.1:8765/
      snakesim workbench --open --port 0  # any free port, in your browser
    """
    import webbrowser

    from snakesim.workbench.jobs import Limits
    from snakesim.workbench.serve import LOCAL_HOSTS, Workbench

    if host not in LOCAL_HOSTS:
        click.echo(
            f"snakesim: warning: listening on {host}: other machines that reach it can use this workbench and "
            "play games on this machine", err=True,
        )  # fmt: skip
    # (every game's engine compiled in the background from the first moment: a first Play need not wait)
    server = Workbench(host, port, Limits(max_games=max_games, max_runs=max_runs), warm=True)
    try:  # (from the first moment: a Ctrl-C just after the start stops it as cleanly)
        server.start()
        click.echo(f"snakesim workbench: {server.url}  (Ctrl-C stops it)")
        if open_browser:
            webbrowser.open(server.url)
        while server.thread.is_alive():  # (a join with no timeout is never woken by Ctrl-C)
            server.thread.join(0.5)
    except KeyboardInterrupt:
        click.echo("snakesim workbench: stopping", err=True)
    finally:
        server.stop()
