"""Checked by mypy (tests/core/test_typed_options.py): a misspelled parse option is a type error.

Each ``# type: ignore[...]`` below must be needed (``Parser`` takes ``**unknown: Never``, so
a misspelling there is an ``arg-type`` error): the check runs mypy with
``--warn-unused-ignores``, so if mypy stopped flagging the misspelling, the
unused ignore would be reported and the test would fail.
"""

from __future__ import annotations

import stream_mf2
from stream_mf2 import ParseOptions

stream_mf2.parse("<p>", metaformtas=True)  # type: ignore[call-arg]
stream_mf2.iter_items(b"<p>", metaformtas=True)  # type: ignore[call-arg]
stream_mf2.iter_events(b"<p>", lnag=True)  # type: ignore[call-arg]
stream_mf2.aiter_items(b"<p>", max_dpeth=3)  # type: ignore[call-arg]
stream_mf2.aiter_events(b"<p>", txt="spec")  # type: ignore[call-arg]
stream_mf2.Parser(metaformtas=True)  # type: ignore[arg-type]
stream_mf2.parse("<p>", text="bogus")  # type: ignore[arg-type]

good: ParseOptions = {"metaformats": True, "text": "normalized", "max_depth": 512}
stream_mf2.parse("<p>", **good)
