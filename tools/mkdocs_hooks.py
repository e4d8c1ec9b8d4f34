"""MkDocs hooks: the reference pages written from the code itself, so they cannot drift.

A page of ``docs/`` names what it wants with a marker line, replaced at build time:

- ``<!-- snakesim:commands -->``: every command's ``--help``, from the click definitions;
- ``<!-- snakesim:rules GAME -->``: every rules option of GAME (default, allowed values, what it
  does, from the rules class) and its variants;
- ``<!-- snakesim:figures -->``: every figure of the registry (``snakesim.core.figures``);
- ``<!-- snakesim:study-keys -->``: every key of a study file, section by section
  (``snakesim.report.study``'s ``*_TYPES`` tables);
- ``<!-- snakesim:columns GAME -->``: the columns of GAME's results table, as its kernel
  declares them;
- ``<!-- snakesim:summary-columns -->``: the columns of a study's ``summary.csv``, every kind's
  rows in one shape (``snakesim.questions.rows``).

The build also fails (``make docs`` builds with ``--strict``) when a game's page leaves one of
its columns out of its "Columns of the results table".
"""

from __future__ import annotations

import re

MARKER = re.compile(r"^<!-- snakesim:([\w-]+)(?: (\w+))? -->$", re.M)


def on_page_markdown(markdown: str, page, config, files) -> str:
    """Replace each marker of the page by its table."""
    if page.file.src_uri.startswith("games/"):
        _check_columns_documented(page.file.src_uri.removeprefix("games/").removesuffix(".md"), markdown)
    return MARKER.sub(lambda m: MAKERS[m.group(1)](m.group(2)), markdown)


def _cell(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _rules(game: str) -> str:
    from snakesim.games import get_game

    spec = get_game(game)
    rules = spec.rules()
    rows = ["| option | what it does | default | allowed |", "|---|---|---|---|"]
    for name, f in spec.rules.specs().items():
        option = f.metadata["spec"]
        default = option.plain(getattr(rules, name))
        rows.append(f"| `{name}` | {_cell(f.metadata['help'])} | `{_cell(default)}` | {_cell(option.describe())} |")
    variants = ["", "| variant | what it is |", "|---|---|"]
    variants += [f"| `{name}` | {_cell(v.description)} |" for name, v in spec.rules.VARIANTS.items()]
    return "\n".join(rows + variants)


def _figures(_=None) -> str:
    from snakesim.core.figures import FIGURES, LENGTH_STATS, target_name, targets
    from snakesim.games import GAMES

    named = {figure: target for target, figure in LENGTH_STATS.items()}  # (length's three statistics)
    offered = set(targets())

    rows = ["| id | what it is | kind | unit | more / fewer, in words | a target as | smallest difference that matters "
            "| games |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for f in FIGURES:
        games = ", ".join(g.name for g in GAMES.values() if f.exists(g))
        target = named.get(f.id) or (target_name(f) if target_name(f) in offered else "")
        target = "`win_rate.SEAT`" if f.per_seat else f"`{target}`" if target else ""
        if f.matters is None:
            matters = ""
        elif f.relative:
            matters = f"{100 * f.matters:g}% of the value"
        else:
            points = 100 * f.matters
            matters = (f"{points:g} point" + ("" if points == 1 else "s")) if f.percent else f"{f.matters:g}"
        feel = " (game feel)" if f.feel else ""
        direction = f"{f.words[1]} / {f.words[2]}" if f.words else ""
        rows.append(f"| `{f.id}` | {_cell(f.about)}{feel} | {f.kind} | {_cell(f.unit or '')} | {_cell(direction)} | "
                    f"{target} | {matters} | {games} |")  # fmt: skip
    return "\n".join(rows)


def _study_keys(_=None) -> str:
    from snakesim.report import study

    def kind(k) -> str:
        return " or ".join(getattr(t, "__name__", str(t)) for t in (k if isinstance(k, tuple) else (k,)))

    itself = {**study.STUDY_TYPES, **dict.fromkeys(study.kinds(), list)}  # (each kind of section: a list of tables)
    sections = [("the study itself", itself, study.REQUIRED["study"])]
    sections += [(f"[[{kind}]]", k.types, k.required) for kind, k in study.kinds().items()]
    sections.append(("[[compare.arms]]", study.ARM_TYPES, study.REQUIRED["arm"]))
    parts = []
    for section, types, required in sections:
        parts += [f"### {section}", "", "| key | type | required |", "|---|---|---|"]
        parts += [f"| `{key}` | {kind(t)} | {'yes' if key in required else ''} |" for key, t in types.items()]
        parts.append("")
    return "\n".join(parts)


def _table(spec) -> list[tuple[str, object, bool]]:
    """The columns of a game's results table (with the game feel recorded), as its kernel
    declares them: those a table leaves out (a tie-break in a game without one) are left out."""
    import numpy as np

    from snakesim.core.columns import COMMON
    from snakesim.core.results import shown_columns

    shown = set(shown_columns(spec, {"lead_changes": np.zeros(1)}))
    return [c for c in spec.columns if c[2] or c[0] in COMMON or c[0] in shown]


def _columns(game: str) -> str:
    import numpy as np

    from snakesim.core.columns import table_nulls
    from snakesim.games import get_game

    spec = get_game(game)
    nulls = table_nulls(spec)
    rows = ["| column | type | one per seat | null where |", "|---|---|---|---|"]
    rows.append("| `game` | int64 | | |")
    for name, dtype, per_seat in _table(spec):
        shown = f"`{name}_k`" if per_seat else f"`{name}`"
        null = nulls.get(name)
        said = (
            ""
            if null is None
            else "a game it does not apply to (the kernel's NaN)"
            if null != null
            else f"a game it does not apply to (the kernel's {null})"
        )
        rows.append(f"| {shown} | {np.dtype(dtype).name} | {'yes' if per_seat else ''} | {said} |")
    return "\n".join(rows)


def _columns_of(game: str) -> list[str]:
    from snakesim.games import get_game

    return ["game"] + [f"{n}_k" if per_seat else n for n, _, per_seat in _table(get_game(game))]


def _check_columns_documented(game: str, markdown: str) -> None:
    """Fail the build when the game's page leaves a column of its table out."""
    from snakesim.games import NAMES

    if game not in NAMES:
        return
    section = markdown.partition("## Columns of the results table")[2]
    missing = [c for c in _columns_of(game) if f"`{c}`" not in section]
    if missing:
        raise ValueError(f"docs/games/{game}.md: its columns table leaves out {', '.join(missing)}")


def _commands(_=None) -> str:
    """Every command's ``--help``, as the command line prints it (88 columns wide)."""
    import click

    from snakesim.cli import cli

    wide = {"terminal_width": 88, "max_content_width": 88, "help_option_names": ["-h", "--help"]}  # (as cli's)
    top = click.Context(cli, info_name="snakesim", **wide)
    parts = ["## snakesim", "", "```", cli.get_help(top), "```", ""]
    for name in sorted(cli.commands):
        command = cli.commands[name]
        context = click.Context(command, info_name=name, parent=top, **wide)
        help_text = command.get_help(context)
        parts += [f"## snakesim {name}", "", command.get_short_help_str(limit=300), "", "```", help_text, "```", ""]
    return "\n".join(parts)


def _summary_columns(_=None) -> str:
    from snakesim.questions.rows import COLUMNS

    rows = ["| column | what it holds |", "|---|---|"]
    return "\n".join(rows + [f"| `{name}` | {_cell(about)} |" for name, about in COLUMNS.items()])


MAKERS = {"commands": _commands, "rules": _rules, "figures": _figures, "study-keys": _study_keys, "columns": _columns,
          "summary-columns": _summary_columns}  # fmt: skip

__all__ = ["on_page_markdown"]
