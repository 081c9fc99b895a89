"""Which modules the compiled build compiles: a folder rule, read by ``setup.py`` too.

The parse path is compiled with mypyc: every module in the folders
:data:`COMPILED_FOLDERS` (the core, the HTML engine, the mf2, JSON-LD, head-metadata,
microdata and RDFa consumers) and the
modules :data:`COMPILED_FILES` (the bottom layer's events and the WPT matcher's
per-element modules), except the folders in :data:`PURE_FOLDERS` (the
html5lib-tests format helpers). Everything else stays pure Python: I/O, WARC, the
command line and the rest of the WPT consumer (its loader, model and tools) import
optional or heavy third-party modules, or gain nothing from compilation.

This module imports nothing from the package, so ``setup.py`` runs it by path
(without importing the package, whose dependencies a build environment lacks).
"""

from __future__ import annotations

from pathlib import Path

#: Folders (relative to the package) whose modules are all compiled.
COMPILED_FOLDERS: tuple[str, ...] = ("core", "html", "mf2", "jsonld", "metadata", "microdata", "rdfa")
#: Folders inside those that stay pure Python.
PURE_FOLDERS: tuple[str, ...] = ("html/testing",)
#: Single modules outside those folders that are compiled: the bottom layer's events
#: (``errors.py`` stays pure: pure modules subclass its exceptions, and a compiled ``__init__``
#: refuses an interpreted subclass, ``MissingExtra`` and the WARC output's ``OutputExtraMissing``)
#: and the WPT matcher.
COMPILED_FILES: tuple[str, ...] = (
    "events.py",
    # The WPT matcher: the modules that run per element and per match. The rest of wpt/
    # stays pure: ``__init__`` has a lazy module ``__getattr__``; ``model.py`` holds an
    # exception subclassing ``errors.py``'s and a ``threading.local``, and with ``events.py``
    # the values the pure loader and tools build; the loader, the pattern compiler and the
    # tools (records, JSON-LD, lines, find, skeleton) run once per template or per page.
    "wpt/_html.py",
    "wpt/_match.py",
    "wpt/_misnest.py",
    "wpt/_objects.py",
    "wpt/_paths.py",
    "wpt/_pending.py",
    "wpt/_source.py",
)


def compiled_modules(package_dir: Path, package: str = "stream_mf2") -> tuple[str, ...]:
    """The dotted names of the compiled modules under ``package_dir``, sorted."""
    found: set[str] = set()
    paths = [package_dir / name for name in COMPILED_FILES]
    for folder in COMPILED_FOLDERS:
        paths += (package_dir / folder).rglob("*.py")
    pure = [package_dir / folder for folder in PURE_FOLDERS]
    for path in paths:
        if any(path.is_relative_to(p) for p in pure):
            continue
        parts = path.relative_to(package_dir).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found.add(".".join((package, *parts)))
    return tuple(sorted(found))
