"""The ``stream-mf2`` command: the dispatcher.

::

    stream-mf2 [options] FILE|URL|-          whole-document JSON (or --jsonl: one item per line)
    stream-mf2 warc [options] FILE...        JSON Lines of items from WARC archives
    stream-mf2 tokens FILE|URL|-             tokenizer output, html5lib-tests format
    stream-mf2 tree FILE|URL|-               tree-construction dump, html5lib-tests format
    stream-mf2 conformance [PATH]            pass counts on the official microformats suites
    stream-mf2 wpt TEMPLATE.xml INPUT...     Website Parse Template blocks, JSON Lines
    stream-mf2 wpt lint TEMPLATE.xml [PAGE...]  check a template (and its blocks on pages)
    stream-mf2 xpath PAGE [--id X] [--text T]  full XPaths of elements, to write templates

One module per subcommand (``page``, ``warc``, ``wpt``, ``wpt_lint``, ``debug``, ``conformance``;
``dask`` holds the ``warc --dask`` options), all sharing :mod:`stream_mf2.cli._common`;
this module only picks one and turns errors into one line. User errors (unreadable
files, bad options, failed fetches, a closed output pipe) end with a one-line message
and a non-zero exit status, never a traceback.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, NoReturn

from stream_mf2.cli._common import EXIT_BROKEN_PIPE, PROG, UsageError, UserError, show_warnings
from stream_mf2.errors import StreamMF2Error

__all__ = ["COMMANDS", "main"]

Command = Callable[[Sequence[str], IO[bytes]], int]


def _warc(argv: Sequence[str], out: IO[bytes]) -> int:
    from stream_mf2.cli.warc import main as run

    return run(argv, out)


def _wpt(argv: Sequence[str], out: IO[bytes]) -> int:
    if argv and argv[0] == "lint":  # (a template file named lint: ./lint)
        from stream_mf2.cli.wpt_lint import cmd_lint

        return cmd_lint(argv[1:], out)
    from stream_mf2.cli.wpt import cmd_wpt

    return cmd_wpt(argv, out)


def _xpath(argv: Sequence[str], out: IO[bytes]) -> int:
    from stream_mf2.cli.wpt import cmd_xpath

    return cmd_xpath(argv, out)


def _tokens(argv: Sequence[str], out: IO[bytes]) -> int:
    from stream_mf2.cli.debug import cmd_tokens

    return cmd_tokens(argv, out)


def _tree(argv: Sequence[str], out: IO[bytes]) -> int:
    from stream_mf2.cli.debug import cmd_tree

    return cmd_tree(argv, out)


def _conformance(argv: Sequence[str], out: IO[bytes]) -> int:
    from stream_mf2.cli.conformance import cmd_conformance

    return cmd_conformance(argv, out)


def _page(argv: Sequence[str], out: IO[bytes]) -> int:
    from stream_mf2.cli.page import main as run

    return run(argv, out)


#: Subcommands by name (those of ``COMMAND_HELP``); anything else is the page command (``stream-mf2 FILE``).
COMMANDS: dict[str, Command] = {
    "warc": _warc,
    "tokens": _tokens,
    "tree": _tree,
    "conformance": _conformance,
    "wpt": _wpt,
    "xpath": _xpath,
}


def _not_a_command(args: Sequence[str]) -> str | None:
    """The message for ``stream-mf2 WORD INPUT...`` where WORD is neither a command nor a file
    (``stream-mf2 parse page.html``, ``stream-mf2 lint t.xml``), which the page command would
    only answer with "unrecognized arguments: page.html"; ``None`` for anything else."""
    import re

    word = args[0]
    if len(args) < 2 or args[1].startswith("-") or not re.fullmatch(r"[a-z][a-z-]*", word) or os.path.exists(word):
        return None
    if word == "lint":
        hint = f"templates are checked by '{PROG} wpt lint {args[1]}'"
    else:
        hint = f"a page is read by '{PROG} PAGE' (e.g. '{PROG} {args[1]}')"
    return f"no command {word!r} (and no file of that name): {hint}; the commands are {', '.join(COMMANDS)}"


def _fail(message: str, status: int = 1) -> NoReturn:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    raise SystemExit(status)


def _silence_stdout() -> None:
    # The reader went away: point stdout at /dev/null so the interpreter's final flush is quiet.
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    out = sys.stdout.buffer
    try:
        # notes of the parses (values emptied past a budget, …) on stderr while the command runs
        with show_warnings():
            if args and args[0] in COMMANDS:
                return COMMANDS[args[0]](args[1:], out)
            wrong = _not_a_command(args) if args else None
            if wrong is not None:
                raise UsageError(wrong)
            return _page(args, out)
    except BrokenPipeError:
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except UsageError as e:
        _fail(str(e), 2)
    except UserError as e:
        _fail(str(e))
    except StreamMF2Error as e:
        _fail(" ".join(str(e).split()) or type(e).__name__)
    except OSError as e:
        _fail(f"{e.strerror or e}" + (f": {e.filename}" if getattr(e, "filename", None) else ""))
