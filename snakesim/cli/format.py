"""Readable text for the terminal: summaries, option tables."""

from __future__ import annotations


def pct(x: float) -> str:
    return f"{100 * x:6.2f}%"


def interval(ci) -> str:
    return f"[{100 * ci[0]:.2f}%, {100 * ci[1]:.2f}%]"


def describe_changes(changes: dict) -> str:
    if not changes:
        return "all defaults"
    parts = []
    for name, value in changes.items():
        if isinstance(value, dict):
            parts += [f"{name}.{k}={v}" for k, v in value.items()]
        else:
            parts.append(f"{name}={str(value).lower() if isinstance(value, bool) else value}")
    return ", ".join(parts)


def format_summary(s: dict, title: str, length_unit: str, changes: dict) -> str:
    """The run summary shown by ``snakesim run``."""
    level = round(100 * s["level"])
    lines = [
        f"{title}",
        f"{s['players']} players, variant {s.get('variant', '?')} ({describe_changes(changes)}), "
        f"{s['games']:,} games, seed {s.get('seed', '?')}",
        "",
        f"{'':12}{'rate':>8}   {level}% interval",
    ]
    for seat, (rate, ci) in enumerate(zip(s["win_rate"], s["win_ci"], strict=True)):
        lines.append(f"{'seat ' + str(seat) + ' wins':12}{pct(rate):>8}   {interval(ci)}")
    lines.append(f"{'draw':12}{pct(s['draw_rate']):>8}   {interval(s['draw_ci'])}")
    lines.append(f"{'unfinished':12}{pct(s['unfinished_rate']):>8}   {interval(s['unfinished_ci'])}")
    n = s["length"]
    lines += [
        "",
        f"length ({length_unit}): mean {n['mean']:.2f} [{n['mean_ci'][0]:.2f}, {n['mean_ci'][1]:.2f}], "
        f"median {n['median']:g}, 95th percentile {n['p95']:g}, max {n['max']:,}",
    ]
    return "\n".join(lines)


def format_table(rows: list[dict], columns: list[str]) -> str:
    """A plain left-aligned text table."""
    widths = {c: max(len(c), *(len(str(r[c])) for r in rows)) for c in columns}
    out = ["  ".join(c.ljust(widths[c]) for c in columns).rstrip()]
    out += ["  ".join(str(r[c]).ljust(widths[c]) for c in columns).rstrip() for r in rows]
    return "\n".join(out)
