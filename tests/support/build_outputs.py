"""What the pure and the compiled build must agree on, byte for byte.

Every official suite page and every fixture, parsed with every option set, as
JSON lines: the ``parse()`` result, and the event stream of a :class:`Parser`
with parse errors collected (events, ``errors``, encoding). Run as
``python -m tests.support.build_outputs OUT`` to write them with whichever
``stream_mf2`` the interpreter imports (``tests/architecture/test_build_identical.py`` runs
it once in process and once with the pure source in a subprocess).
"""

from __future__ import annotations

import dataclasses
import sys
from typing import IO, Any

import orjson

import stream_mf2
from tests.support.suites import mf2_pages

#: The option sets compared: each option on, and all of them together.
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"text": "normalized"},
    {"lang": True, "metaformats": True},
    {"filter_roots": True},
    {"stream_children": True},
    {"text": "normalized", "lang": True, "metaformats": True, "filter_roots": True, "stream_children": True},
]


def _event(event: Any) -> dict[str, Any]:
    fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
    return {"event": type(event).__name__, **fields}


def write_outputs(out: IO[bytes]) -> int:
    """Write one JSON line per page and option set (and per page, one line of events); return the line count."""
    lines = 0
    for param in mf2_pages():
        path, url = param.values
        data = path.read_bytes()
        name = path.as_posix().rsplit("/tests/", 1)[-1] if "/tests/" in path.as_posix() else path.name
        for options in OPTION_SETS:
            result = stream_mf2.parse(data, url, **options)
            out.write(orjson.dumps({"page": name, "options": options, "result": result}, option=orjson.OPT_SORT_KEYS))
            out.write(b"\n")
            lines += 1
        parser = stream_mf2.Parser(url, collect_parse_errors=True, metaformats=True, stream_children=True)
        events = [*parser.feed_events(data), *parser.close_events()]
        record = {"page": name, "events": [_event(e) for e in events], "errors": parser.errors,
                  "encoding": parser.encoding}
        out.write(orjson.dumps(record, option=orjson.OPT_SORT_KEYS))
        out.write(b"\n")
        lines += 1
    return lines


if __name__ == "__main__":
    with open(sys.argv[1], "wb") as f:
        write_outputs(f)
    print("compiled" if stream_mf2.COMPILED else "pure")
