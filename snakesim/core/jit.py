"""The numba options every kernel uses, in one place.

Two decorators:

- :func:`njit` for the hot code (a game's turn loop, the random stream). It is compiled
  without numba's reference counting (``_nrt=False``): such code receives every array from
  its caller and allocates nothing. With reference counting on, numba leaves an atomic
  incref/decref pair around many array-argument calls inside branchy loops, which made the
  Fortune kernel 3-4 times slower (benchmarks/bench_fortune.py). A function that tries to
  allocate under this decorator fails to compile, so the rule cannot be broken silently.
  Calls from other compiled code go to a twin compiled as :func:`njit_inner`.
- :func:`njit_inner`: :func:`njit` for code that only other compiled code calls (a kernel's
  helpers), compiled without the wrappers that let Python call it, and only as far as LLVM
  IR for its callers to link in (:func:`_link_only_helpers`); not cached on its own, since
  the cached kernel that calls it holds its code.

No compiled code allocates: a kernel's scratch arrays are made in numpy by its Python front,
one set per block of games (``snakesim.core.threads`` spreads the blocks over threads).

:func:`njit` caches compiled code on disk (``cache=True``); both use ``error_model="numpy"``
(integer division without Python's zero check; the kernels never divide by zero).

Three changes to numba's own workings, each checked and skipped if numba works otherwise:
helpers are compiled only as far as LLVM IR for their callers to link in
(:func:`_link_only_helpers`), the compile flags that type inference hashes and compares on
every overload lookup get their values quicker (:func:`_quicker_flag_values`), and the error
texts of the overloads it tries and rejects are marked up without colorama's stream wrapping
(:func:`_quicker_error_markup`).

numba's cache checks only the file that defines a kernel, not the functions it inlines from
other files: after an edit to ``rng.py`` a cached kernel would still run the old generator.
So each module's kernels are cached in a folder named after a fingerprint of the sources the
module imports from snakesim, directly or not (under ``NUMBA_CACHE_DIR`` if set, else the user
cache folder): an edit to ``rng.py`` recompiles every game, an edit to the command line or to
one game's kernel recompiles nothing else.
"""

import ast
import functools
import hashlib
import os
import re
import sys
from pathlib import Path

import numba
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import CPUDispatcher

PACKAGE = Path(__file__).resolve().parents[1]


def _module_file(name: str) -> Path | None:
    """The source file of snakesim module ``name``, or None if it is not one."""
    parts = name.split(".")
    if parts[0] != PACKAGE.name:
        return None
    base = PACKAGE.parent.joinpath(*parts)
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


# Import statements that name snakesim, wherever they stand (inside functions too), with a
# parenthesised name list over several lines. Parsing only these (not the whole file) keeps a
# command's start-up short: the whole files' syntax trees cost ~50 ms for one game.
_IMPORT_LINES = re.compile(
    rf"^[ \t]*(?:from[ \t]+{PACKAGE.name}\b[\w.]*[ \t]+import[ \t]+(?:\([^)]*\)|[^\n]*)"
    rf"|import[ \t]+{PACKAGE.name}\b[^\n]*)",
    re.MULTILINE,
)


def _names(tree: ast.AST) -> set[str]:
    """The module names (and ``module.name`` pairs) the import statements in ``tree`` name."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names)  # (a submodule or a name)
    return names


@functools.cache
def _imports(path: Path) -> frozenset[str]:
    """The snakesim modules ``path`` imports anywhere (function-level imports included).

    Each matching statement is parsed on its own; one that does not parse (a line of a
    docstring, say) is skipped. tests/test_startup.py checks the answer against a walk of
    every source file's whole syntax tree."""
    names = set()
    for match in _IMPORT_LINES.finditer(path.read_text(encoding="utf-8")):
        try:
            names |= _names(ast.parse(match.group(0).strip()))
        except SyntaxError:
            continue
    return frozenset(n for n in names if n.split(".")[0] == PACKAGE.name)


def source_closure(path: Path) -> list[Path]:
    """``path`` and every snakesim source it imports, directly or not, sorted."""
    seen: set[Path] = set()
    todo = [path]
    while todo:
        current = todo.pop()
        if current not in seen:
            seen.add(current)
            todo.extend(f for f in map(_module_file, _imports(current)) if f is not None)
    return sorted(seen)


@functools.cache
def source_fingerprint(path: Path) -> str:
    """A hash of the sources of :func:`source_closure`: the name of a module's cache folder."""
    digest = hashlib.sha256()
    for source in source_closure(path):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


def cache_base() -> Path:
    """The folder under which numba caches compiled kernels (``NUMBA_CACHE_DIR``, else the user cache)."""
    return Path(
        os.environ.get("NUMBA_CACHE_DIR")
        or os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "snakesim", "numba")
    )


def _compile(options: dict, fn):
    """``numba.njit(**options)(fn)``, cached in the folder of ``fn``'s module's fingerprint
    (numba reads ``config.CACHE_DIR`` when a function is decorated), compiled for plain
    argument types only (see :func:`_unliteral_calls`)."""
    source = getattr(sys.modules.get(fn.__module__), "__file__", None)
    if not options.get("cache") or source is None or not Path(source).is_file():  # (code typed in: no cache)
        return _unliteral_calls(numba.njit(**{**options, "cache": False})(fn))
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(cache_base() / source_fingerprint(Path(source).resolve()))
    try:
        return _unliteral_calls(numba.njit(**options)(fn))
    finally:
        numba.config.CACHE_DIR = saved


def _unliteral_calls(dispatcher):
    """Make calls from other compiled code compile ``dispatcher`` for plain types only.

    A call whose argument is a constant (``f(board, 0)``) is typed with a literal
    (``Literal[int](0)``), and numba compiled a separate copy of the callee, and of everything
    it calls, for each such call: the Sssnake kernel compiled its placement code three times.
    Here the callee is always compiled for the constants' plain types, and the calls match it.
    """
    compile_for = dispatcher.get_call_template

    def get_call_template(args, kws):
        return compile_for(
            tuple(numba.types.unliteral(a) for a in args), {k: numba.types.unliteral(v) for k, v in kws.items()}
        )

    dispatcher.get_call_template = get_call_template
    return dispatcher


def _link_only_helpers() -> None:
    """Make numba stop at LLVM IR for snakesim's wrapper-less helpers (:func:`njit_inner`).

    numba finalises the library of every function it compiles: it links in its callees'
    optimised IR, optimises the whole module again at O3 and generates its machine code. A
    helper's machine code never runs (nothing outside compiled code can call it) and each of
    its callers links and optimises its IR again, so a kernel whose helpers call helpers four
    levels deep was optimised and code-generated up to four times over: 6 of the Sssnake
    kernel's 11 s of compiling. Here a helper's library only links its callees' IR (kept for
    its callers); the kernel that Python calls optimises and generates the whole tree once.
    Only snakesim's own functions without a Python wrapper are treated so; if numba's
    internals ever differ from what this expects, nothing is changed.
    """
    from numba import _dynfunc
    from numba.core import codegen, cpu

    library_class, context_class = codegen.CPUCodeLibrary, cpu.CPUContext
    needs = ("finalize", "_get_module_for_linking", "_raise_if_finalized", "_ensure_finalized")
    if not all(hasattr(library_class, name) for name in needs):
        return
    get_executable, finalize = context_class.get_executable, library_class.finalize

    def link_only_executable(self, library, fndesc, env):
        # (A library loaded from the cache is finalised already, and its wrapper is in its
        # object code, not in its module: it is never a helper being compiled.)
        if not library._finalized and fndesc.modname.startswith(f"{PACKAGE.name}."):
            try:
                library._final_module.get_function(fndesc.llvm_cpython_wrapper_name)
            except NameError:  # no wrapper: a helper that only compiled code calls
                library._snakesim_link_only = True
                name = fndesc.qualname.split(".")[-1]
                return _dynfunc.make_function(fndesc.lookup_module(), name, "link only", 0, env, (library,))
        return get_executable(self, library, fndesc, env)

    def link_only_finalize(self):
        if not getattr(self, "_snakesim_link_only", False):
            return finalize(self)
        self._raise_if_finalized()
        for library in dict.fromkeys(self._linking_libraries):  # (in order, once each)
            self._reload_init.update(library._reload_init)
            self._final_module.link_in(library._get_module_for_linking(), preserve=True)
        self._final_module.verify()
        self._finalized = True

    context_class.get_executable = link_only_executable
    library_class.finalize = link_only_finalize


_link_only_helpers()


def _quicker_flag_values() -> None:
    """Make numba's compile flags quicker to hash and compare.

    Type inference looks up every overloaded call in a cache keyed by the flags it compiles
    with (``typing.templates.Template._get_impl``: 20,000 lookups for the Sssnake kernel), and
    each lookup hashes the flags and compares them, both through ``TargetConfig.values()``,
    which calls one property per option (22) to build the dict of their values. The same dict
    is every option's default updated with the values set: a game's first command compiled
    0.13-0.22 s quicker (Sssnake 5.47 -> 5.25 s in one process, 3 interleaved runs). The quick
    version is checked against numba's own on flags as numba sets them, and if they ever
    differ (a numba whose options work otherwise), nothing is changed.
    """
    from numba.core import targetconfig
    from numba.core.compiler import Flags

    config = targetconfig.TargetConfig
    if not isinstance(getattr(config, "values", None), type(_quicker_flag_values)):
        return
    own = config.values

    def values(self):
        cls = type(self)
        defaults = cls.__dict__.get("_snakesim_defaults")
        if defaults is None:  # (once a class: its options and their defaults are fixed)
            defaults = {name: option.default for name, option in cls.options.items()}
            cls._snakesim_defaults = defaults
        return {**defaults, **self._values}

    try:
        samples = [Flags(), Flags()]
        samples[1].nrt, samples[1].no_cpython_wrapper, samples[1].error_model = True, True, "numpy"
        if all(values(flags) == own(flags) and list(values(flags)) == list(own(flags)) for flags in samples):
            config.values = values
    except Exception:  # (options that work otherwise: numba's own way stays)
        return


_quicker_flag_values()


def _quicker_error_markup() -> None:
    """Make numba's error texts quicker to mark up.

    Typing a kernel tries many overloads that do not match, and each failure builds an error
    text that numba marks up (``errors.HighlightColorScheme._markup``) inside colorama's
    ``init()``/``deinit()``, which wrap and unwrap ``sys.stdout`` and ``sys.stderr`` each time:
    11,000 times for the Sssnake kernel, and a swap of the process's output streams from
    whichever thread compiles. The text is the same without it: the style codes, the message
    and the reset. numba does this only where colorama is installed (mkdocs-material, which
    ``make docs`` installs, brings it); there, a first compile from an empty cache, AVX2 code,
    3 interleaved rounds: Sssnake 6.73 -> 6.38 s, Hisss 3.58 -> 3.48 s. Checked against numba's own on samples as
    numba marks them up; if they ever differ (a numba that marks up otherwise), nothing is
    changed.
    """
    from numba.core import errors

    scheme = getattr(errors, "HighlightColorScheme", None)  # (absent where colorama is: nothing to skip)
    if scheme is None or not callable(getattr(scheme, "_markup", None)):
        return
    try:
        from colorama import Fore, Style
    except ImportError:
        return
    own = scheme._markup
    bright, reset = Style.BRIGHT, Style.RESET_ALL

    def markup(self, msg, color=None, style=bright):
        return f"{color or ''}{style or ''}{msg}{reset}"

    try:
        sample = scheme()
        cases = [("a message", None, bright), ("x\ny", Fore.YELLOW, bright), ("é", Fore.RED, None), ("", None, None)]
        if all(markup(sample, *case) == own(sample, *case) for case in cases):
            scheme._markup = markup
            scheme._snakesim_own_markup = own  # (numba's own, for a benchmark to compare)
    except Exception:  # (a scheme that works otherwise: numba's own way stays)
        return


_quicker_error_markup()


# (no_cfunc_wrapper: nothing calls C.) A function called from several places in a hot loop is
# inlined by LLVM (``njit(forceinline=True)``: compiled once, then inlined at every call), not
# by numba (``inline="always"``), which types and lowers it again at every call site: Fortune's
# first compile 4.95 -> 4.15 s, its games as fast (issue 56; docs/explanation/performance.md).
# numba's inlining stays where LLVM's measured slower (the random stream's step and deal: 9% for
# Fortune's AVX2 code) or compiled no quicker (Rainbow's and Hisss's turn, called once).
# forceinline is False here since numba otherwise hands it down to all a forceinline one calls.
JIT_OPTIONS = {"cache": True, "nogil": True, "error_model": "numpy", "no_cfunc_wrapper": True, "forceinline": False}
# A helper's, on top: no wrapper for calls from Python, compiled to IR only, so not cached.
INNER_OPTIONS = {"cache": False, "no_cpython_wrapper": True}


class _Helper(CPUDispatcher):
    """A helper's dispatcher (:func:`njit_inner`): compiled code calls it; Python cannot, since
    it has no wrapper (numba would jump to an empty address and crash the process)."""

    def __call__(self, *args, **kwargs):
        raise TypeError(
            f"{self.py_func.__qualname__} is a helper that only compiled code calls (njit_inner); "
            "call it from a compiled function, or compile it with njit"
        )


class _Twinned(CPUDispatcher):
    """A dispatcher whose calls from other compiled code go to its twin, a helper compiled to
    IR only (:func:`njit_inner`); calls from Python compile and run the dispatcher itself."""

    vectorize = True  # (see njit)

    @property
    def _numba_type_(self):
        return numba.types.Dispatcher(getattr(self, "inner", self))

    def compile(self, sig):
        if self.vectorize:
            return super().compile(sig)
        # (numba's own lock, held around the switch: no other thread compiles meanwhile)
        with global_compiler_lock:
            saved = numba.config.LOOP_VECTORIZE, numba.config.SLP_VECTORIZE
            numba.config.LOOP_VECTORIZE = numba.config.SLP_VECTORIZE = False  # (read by each LLVM pass pipeline)
            try:
                return super().compile(sig)
            finally:
                numba.config.LOOP_VECTORIZE, numba.config.SLP_VECTORIZE = saved


def njit(fn=None, *, vectorize=True, **extra):
    """``numba.njit`` for hot code that allocates nothing (no reference counting).

    Python calls the function itself (compiled with its wrappers, and cached); compiled code
    calls its twin (``.inner``, compiled as :func:`njit_inner`), so a function that tests or
    the Python front call, and kernels call too, costs a kernel's compile no more than a helper.

    ``vectorize=False`` compiles a kernel, and the helpers it links in, without LLVM's loop and
    SLP vectorizers: for code whose loops are short and branchy (Sssnake's), whose vector
    versions only lengthen the compile (Sssnake: 0.15-0.3 s of 6; its games no slower).
    """
    if fn is None:
        return functools.partial(njit, vectorize=vectorize, **extra)
    options = {**JIT_OPTIONS, "_nrt": False, **extra}
    dispatcher = _compile(options, fn)
    dispatcher.__class__ = _Twinned
    dispatcher.vectorize = vectorize
    dispatcher.inner = _helper(_compile({**options, **INNER_OPTIONS}, fn))
    return dispatcher


def _helper(dispatcher):
    dispatcher.__class__ = _Helper
    return dispatcher


def njit_inner(fn=None, **extra):
    """:func:`njit` for code that only compiled code calls: no wrapper for calls from Python.

    numba writes, for every function it compiles, the code that converts each argument from
    a Python object and back; for a kernel's helpers, passed tuples of a dozen arrays, that
    was a fifth of the kernel's compile time, for calls that never come. Calling such a
    function from Python raises TypeError.
    """
    if fn is None:
        return functools.partial(njit_inner, **extra)
    return _helper(_compile({**JIT_OPTIONS, "_nrt": False, **INNER_OPTIONS, **extra}, fn))


def target_features() -> tuple[str, str]:
    """The processor numba compiles for and its features (``"+avx2,+avx512dq,..."``; empty
    when they are the named processor's own).

    ``NUMBA_CPU_NAME`` and ``NUMBA_CPU_FEATURES`` change them: ``NUMBA_CPU_NAME=haswell
    NUMBA_CPU_FEATURES=`` compiles AVX2 code on a machine with AVX-512 (``NUMBA_CPU_NAME``
    alone keeps this machine's features). numba's cache keeps the code of each apart.
    """
    from llvmlite import binding

    features = numba.config.CPU_FEATURES
    if features is None:
        features = binding.get_host_cpu_features().flatten()
    return numba.config.CPU_NAME or binding.get_host_cpu_name(), features


# The features that matter here of processors named with NUMBA_CPU_FEATURES= (their own);
# a processor not listed is taken to have none of them, which only costs speed.
_AVX2 = ("avx2",)
_AVX512 = ("avx2", "avx512f", "avx512bw", "avx512dq")
_OWN_FEATURES = {
    **dict.fromkeys(("haswell", "broadwell", "skylake", "alderlake", "znver1", "znver2", "znver3", "x86-64-v3"), _AVX2),
    **dict.fromkeys(("skylake-avx512", "cascadelake", "cooperlake", "icelake-server", "icelake-client", "tigerlake",
                     "sapphirerapids", "emeraldrapids", "graniterapids", "znver4", "znver5", "x86-64-v4"), _AVX512),
}  # fmt: skip


def target_has(feature: str) -> bool:
    """Whether the code numba compiles may use the processor feature ``feature`` (``"avx2"``,
    ``"avx512dq"``, ...); the kernels choose between ways of computing the same values by it."""
    name, features = target_features()
    if features:
        return f"+{feature}" in features.split(",")
    return feature in _OWN_FEATURES.get(name, ())
