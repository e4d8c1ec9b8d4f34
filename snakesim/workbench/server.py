"""The workbench's web server: the page, its scripts, and a small JSON API over the library.

Tornado serves it: it comes with Dask distributed (already a dependency), is the server under
Jupyter, and runs the page and the API in one thread while runs play on their own threads.

Endpoints (every answer JSON, every error ``{"error": "field: what is allowed"}``):

- ``GET /`` the page; ``GET /static/NAME`` its scripts and styles (the package's files only);
- ``GET /api/games`` every game's form (``forms.game_form``);
- ``POST /api/rules`` ``{game, toml, set}``: the checked rules (``forms.rules_view``);
- ``POST /api/runs`` a run request (``runs.check_request``): ``{id}`` at once, 202; the same
  question answered before by this code is answered from the catalogue (a run already done,
  its ``catalogue`` saying which answer and when it was played), unless the request says
  ``"fresh": true``;
- ``GET /api/runs`` the runs under way and the finished ones kept, without their results (any
  page of this server may see and cancel a run; only the page that started it shows its result);
- ``GET /api/runs/ID`` its state, and its result once done (with its ``link``, ``c42``, once its
  answer is kept in the catalogue); ``GET /api/runs/c42`` the answer kept there, as the finished
  run it was, on this server or after a restart; ``DELETE /api/runs/ID`` cancels it;
- ``GET /api/answers`` the workbench's earlier answers in the catalogue, newest first
  (``answers.listed``);
- ``POST /api/download/rules`` ``{game, toml, name}``: the rules as a TOML file;
- ``POST /api/download/study`` ``{compare, balance}`` (run requests by panel, any may be
  null): a study TOML that plays them again;
- ``GET /api/report?compare=ID&balance=ID`` (a finished run or a kept answer by panel, any may
  be left out): the runs' report, one self-contained HTML file.

Safe by default: it listens on 127.0.0.1; a request whose ``Host`` is not the server's own
address, or whose ``Origin`` is another site, is refused (DNS rebinding, cross-site posts);
bodies are capped; every value goes through the rules' validation; games per request and
runs at once are capped (``jobs.Limits``); nothing is read or written but the package's
static files and the catalogue of answers (``snakesim.workbench.answers``).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import tornado.web

from snakesim.core.errors import InputError
from snakesim.core.jsontext import to_json
from snakesim.workbench.jobs import Busy, Jobs, Limits
from snakesim.workbench.panels import DEFAULT, PANELS, every, listed
from snakesim.workbench.panels.described import DescribedPanel

MAX_BODY = 64 * 1024  # a request's JSON: a few rule sets' TOML fits many times over
# What /static/ serves: the package's own files, by name. The page is ES modules, one a part
# (app.js imports the others, and each panel's module that /api/games names), loaded as they
# are: no build step.
MODULES = ("app", "address", "earlier", "editor", "engines", "keep", "results", "rulesets", "runs", "util")
SCRIPTS = [f"{m}.js" for m in MODULES] + [p.SCRIPT for p in PANELS.values()] + [DescribedPanel.SCRIPT]
STATIC = {
    **{name: ("snakesim.workbench", f"static/{name}", "text/javascript") for name in SCRIPTS},
    "app.css": ("snakesim.workbench", "static/app.css", "text/css"),
    "charts.js": ("snakesim.report", "static/charts.js", "text/javascript"),
    "charts.css": ("snakesim.report", "static/charts.css", "text/css"),
}


def static_text(name: str) -> str:
    """One of the package's static files, as text."""
    package, path, _ = STATIC[name]
    return resources.files(package).joinpath(path).read_text(encoding="utf-8")


class Base(tornado.web.RequestHandler):
    """Checks every request's Host and Origin; errors as one JSON line."""

    def initialize(self, jobs: Jobs, hosts: frozenset[str]):
        """Keep the server's runs and the Host names it answers to (tornado passes them)."""
        self.jobs = jobs
        self.hosts = hosts

    def prepare(self):
        """Refuse a request with a foreign Host or Origin, or a body too large to read."""
        host = self.request.headers.get("Host", "")
        if host.lower() not in self.hosts:
            self.fail(403, "Host", f"{host!r} is not this server's address ({', '.join(sorted(self.hosts))})")
            return
        origin = self.request.headers.get("Origin")
        if origin is not None and origin.lower() not in {f"http://{h}" for h in self.hosts}:
            self.fail(403, "Origin", f"requests from {origin!r} are refused; use the page this server serves")
            return
        if self.request.method in ("POST", "PUT", "DELETE") and len(self.request.body) > MAX_BODY:
            self.fail(413, "request", f"the page sent {len(self.request.body):,} bytes, more than the {MAX_BODY:,} "
                      "this server reads; a game's complete rules take about 2,000")  # fmt: skip

    def set_default_headers(self):
        """Headers on every answer: no sniffing, no caching, no referrer."""
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")

    def fail(self, status: int, field: str, message: str) -> None:
        """Finish with ``status`` and one JSON line naming ``field``, as the command line's errors do."""
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": f"{field}: {message}"}))

    def send(self, data: Any, status: int = 200) -> None:
        """Finish with ``data`` as JSON."""
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.finish(to_json(data))

    def body(self) -> Any:
        """The request's JSON; InputError if it is not JSON."""
        try:
            return json.loads(self.request.body or b"null")
        except (ValueError, RecursionError):
            raise InputError("request", "expected a JSON body") from None

    def write_error(self, status_code: int, **kwargs):
        """An error tornado raises itself (a bad method, say) as one JSON line too."""
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": f"request: {self._reason}"}))

    def handled(self, action) -> None:
        """Run ``action()``; an InputError becomes a 400 with its one line."""
        try:
            action()
        except InputError as err:
            self.fail(400, err.field, err.message)


class Page(Base):
    """``GET /``: the workbench's page, with its content security policy."""

    def get(self):
        """The page."""
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Content-Security-Policy", CSP)
        self.finish(resources.files("snakesim.workbench").joinpath("static/index.html").read_text(encoding="utf-8"))


# Everything the page loads comes from this server; no inline script, nothing from outside.
CSP = "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'; object-src 'none'"


class Static(Base):
    """``GET /static/NAME``: one of the page's own files (``STATIC``), nothing else."""

    def get(self, name: str):
        """The file ``name`` with its type, or 404."""
        if name not in STATIC:
            self.fail(404, "static", f"no file {name!r}")
            return
        self.set_header("Content-Type", STATIC[name][2] + "; charset=utf-8")
        self.finish(static_text(name))


class Games(Base):
    """``GET /api/games``: every game's form, the panels and the server's limits."""

    def get(self):
        """The games, panels and limits as JSON."""
        from snakesim.games import GAMES
        from snakesim.workbench.forms import MAX_TOML_CHARS, game_form
        from snakesim.workbench.rulesets import MAX_NAME

        limits = self.jobs.limits
        self.send({"games": [game_form(spec) for spec in GAMES.values()],
                   "panels": listed(),
                   "limits": {"max_games": limits.max_games, "max_arms": limits.max_arms, "max_name": MAX_NAME,
                              "max_toml": MAX_TOML_CHARS}})  # fmt: skip


class RulesCheck(Base):
    """``POST /api/rules``: a rules text (and ``set`` strings) checked into complete rules, or one line."""

    def post(self):
        """The checked rules' view (TOML, changes, summary, hash), or 400 with one line."""

        def action():
            from snakesim.games import get_game
            from snakesim.workbench.forms import rules_from_text, rules_view

            data = _object(self.body())
            spec = get_game(_text(data, "game"))
            self.send(rules_view(rules_from_text(spec, data.get("toml", ""), data.get("set", []))))

        self.handled(action)


class Runs(Base):
    """``/api/runs``: the runs kept (GET), or a run checked and started (POST; 202 and its id)."""

    def get(self):
        """Every run kept, without results."""
        self.send({"runs": [job.status(result=False) for job in self.jobs.all()]})

    def post(self):
        """Check the request and start its run (or answer it from the catalogue, unless it says
        ``"fresh": true``): 202 with its id; 429 while another runs; 400 with one line."""

        def action():
            from snakesim.workbench.answers import served
            from snakesim.workbench.runs import check_request, play

            request = self.body()
            fresh = False
            if isinstance(request, dict) and "fresh" in request:
                request = dict(request)
                fresh = request.pop("fresh")
                if not isinstance(fresh, bool):
                    raise InputError("fresh", f"expected true or false, got {fresh!r}")
            job, plan = check_request(request, self.jobs.limits)
            earlier = None if fresh else served(job, plan, self.jobs.catalogue)
            if earlier is not None:
                self.jobs.add(earlier)
                self.send({"id": earlier.id}, 202)
                return
            try:
                self.jobs.start(job, lambda j: play(j, plan, catalogue=self.jobs.catalogue, fresh=fresh,
                                                    warming=self.jobs.warming))  # fmt: skip
            except Busy as busy:
                self.set_status(429)
                self.set_header("Content-Type", "application/json")
                self.finish(json.dumps({"error": f"runs: {busy}", "running": busy.running}))
                return
            self.send({"id": job.id}, 202)

        self.handled(action)


class Run(Base):
    """``/api/runs/ID``: a run's state and result (GET), or the run cancelled (DELETE)."""

    def get(self, job_id: str):
        """The run's state, progress and (when done) result, or the answer the catalogue keeps
        under that link (``c42``); 404 if neither."""
        job = self.jobs.answer(job_id)
        if job is None:
            self.fail(404, "run", "no such run: none under way or finished here, and no answer the catalogue keeps "
                      "under that id")  # fmt: skip
            return
        self.send(job.status())

    def delete(self, job_id: str):
        """Cancel the run (it stops at its next finished block); its state."""
        job = self.jobs.cancel(job_id)
        if job is None:
            self.fail(404, "run", "no such run")
            return
        self.send(job.status())


class Answers(Base):
    """``GET /api/answers``: the workbench's earlier answers kept in the catalogue, newest first."""

    def get(self):
        """Each answer's line (its link, kind, game, players, games, rule sets, when) and how many more."""
        from snakesim.workbench.answers import listed

        self.send(listed(self.jobs.catalogue))


class Engines(Base):
    """``GET /api/engines``: each game's engine as the background process gets it ready
    (``snakesim.games.warm.Background``): ``pending``, ``compiling``, ``ready`` or ``failed``;
    none where the server compiles nothing ahead."""

    def get(self):
        """Each game's state, and its seconds once ready."""
        warming = self.jobs.warming
        self.send({"engines": {} if warming is None else warming.states()})


class Report(Base):
    """``GET /api/report?KIND=ID...``: one HTML report of the finished runs named, one a panel."""

    def get(self):
        """The HTML report of the finished runs named by kind, or one line."""
        from snakesim.workbench.keep import report_html

        found = {}
        for kind in every():
            job_id = self.get_query_argument(kind, None)
            if job_id is None:
                continue
            job = self.jobs.answer(job_id)
            if job is None or job.state != "done" or job.kind != kind:
                self.fail(404, kind, "no finished run with that id on this server or in its catalogue of answers")
                return
            found[kind] = job
        if not found:
            asked = ", ".join(f"?{kind}=ID" for kind in every())
            self.fail(400, "report", f"name a finished run: {asked}, or several")
            return
        _attachment(self, "snakesim-report.html", "text/html; charset=utf-8")
        self.finish(report_html(found))


class DownloadRules(Base):
    """``POST /api/download/rules``: a rule set's complete rules as a TOML file."""

    def post(self):
        """The rules as a TOML attachment named after the rule set."""

        def action():
            from snakesim.games import get_game
            from snakesim.workbench.forms import rules_from_text, rules_view
            from snakesim.workbench.rulesets import file_name

            data = _object(self.body())
            spec = get_game(_text(data, "game"))
            view = rules_view(rules_from_text(spec, data.get("toml", "")))
            _attachment(self, file_name(str(data.get("name") or "rules")), "application/toml; charset=utf-8")
            self.finish(f"# {spec.title}: rules {view['hash']}, from the snakesim workbench\n" + view["toml"])

        self.handled(action)


class DownloadStudy(Base):
    """``POST /api/download/study``: a study file that plays the page's requests again."""

    def post(self):
        """The study as a TOML attachment named after the game."""

        def action():
            from snakesim.workbench.keep import study_toml
            from snakesim.workbench.runs import check_request

            data = _object(self.body())
            plans = {}
            for kind in every():
                if data.get(kind) is not None:
                    request = _object(data[kind])
                    if request.get("kind", DEFAULT) != kind:
                        raise InputError(f"{kind}.kind", f"expected {kind!r}")
                    plans[kind] = check_request(request, self.jobs.limits)[1]
            text = study_toml(plans)  # (checked: one game, one seed)
            game = next(iter(plans.values())).spec.name
            _attachment(self, f"{game}-study.toml", "application/toml; charset=utf-8")
            self.finish(text)

        self.handled(action)


def _attachment(handler: Base, name: str, kind: str) -> None:
    handler.set_header("Content-Type", kind)
    handler.set_header("Content-Disposition", f'attachment; filename="{name}"')


def _object(data: Any) -> dict:
    if not isinstance(data, dict):
        raise InputError("request", "expected a JSON object")
    return data


def _text(data: dict, key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise InputError(key, f"expected text, got {type(value).__name__}")
    return value


def make_app(port: int, names: set[str], limits: Limits | None = None, jobs: Jobs | None = None):
    """The workbench's tornado application for a server on ``port`` whose requests' Host may
    name it as any of ``names`` (``serve.host_names``)."""
    hosts = frozenset(f"{h}:{port}".lower() for h in names)
    settings = {"jobs": jobs or Jobs(limits or Limits()), "hosts": hosts}
    return tornado.web.Application(
        [
            (r"/", Page, settings),
            (r"/static/([A-Za-z0-9_.-]+)", Static, settings),
            (r"/api/games", Games, settings),
            (r"/api/rules", RulesCheck, settings),
            (r"/api/runs", Runs, settings),
            (r"/api/runs/([A-Za-z0-9_-]+)", Run, settings),
            (r"/api/answers", Answers, settings),
            (r"/api/engines", Engines, settings),
            (r"/api/report", Report, settings),
            (r"/api/download/rules", DownloadRules, settings),
            (r"/api/download/study", DownloadStudy, settings),
        ],
        default_handler_class=NotFound,
        default_handler_args=settings,
        compress_response=True,
    )


class NotFound(Base):
    """Any other path: 404 as one JSON line (after the Host and Origin checks)."""

    def prepare(self):
        """404 for any path this server does not serve."""
        super().prepare()
        if not self._finished:
            self.fail(404, "path", f"no page {self.request.path!r}")
