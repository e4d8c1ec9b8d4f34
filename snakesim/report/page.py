"""Self-contained HTML pages with the interactive charts: a study's ``report.html`` and the
workbench's report download.

The charts' data (``snakesim.report.charts``) sits in the page as JSON, and the script that
draws them (``static/charts.js``, the workbench's own) and its styles are inlined, so the
file opens offline, from disk or a mail, with nothing fetched.
"""

from __future__ import annotations

import html
from importlib import resources
from typing import TYPE_CHECKING

from snakesim.core.jsontext import to_json

if TYPE_CHECKING:
    import pandas as pd

BASE_STYLE = (
    "body{font-family:sans-serif;max-width:70em;margin:2em auto;padding:0 1em;line-height:1.45}"
    "h1,h2{overflow-wrap:anywhere}table{border-collapse:collapse;font-size:.85em;display:block;overflow-x:auto}"
    "td,th{border:1px solid #ccc;padding:.2em .5em;vertical-align:top}img{max-width:100%}"
    "code{background:#f4f4f4;padding:0 .2em;overflow-wrap:anywhere}"
    "pre{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f4f4;padding:.4em .6em}pre code{padding:0}"
)


def asset(name: str) -> str:
    """One of the chart script's files (``charts.js``, ``charts.css``), as text."""
    return resources.files("snakesim.report").joinpath(f"static/{name}").read_text(encoding="utf-8")


def charts_html(charts: list[dict]) -> str:
    """The charts as page elements: one box each, the data beside it as JSON."""
    data = to_json(charts).replace("</", "<\\/")  # (no "</script>" inside the data)
    return f'<div class="snakesim-charts"><script type="application/json">{data}</script></div>'


def page(title: str, body: str) -> str:
    """A complete HTML page around ``body`` with the chart script and styles inlined."""
    script = asset("charts.js").replace("</", "<\\/")
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{html.escape(title)}</title><style>{BASE_STYLE}{asset('charts.css')}</style></head><body>\n{body}"
        f"<script>{script}</script></body></html>\n"
    )


def markdown_table(df: pd.DataFrame) -> str:
    """A table as Markdown (a study's sections, the workbench's report)."""
    cols = [str(c) for c in df.columns]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in df.itertuples(index=False):
        out.append("| " + " | ".join(_plain(v) for v in row) + " |")
    return "\n".join(out)


def _plain(v) -> str:
    """A table cell as Markdown: a float to 4 digits; a ``|`` escaped, so it cannot split the cell."""
    return (f"{v:.4g}" if isinstance(v, float) else str(v)).replace("|", "\\|")
