"""The defaults of the WPT matcher's limits, in a module that imports nothing.

The core resolves every parse option to a number when a parser is made (``None``
means "this default"), with or without a template; reading these here keeps a parse
without a template from loading the WPT model (dataclasses, threading, URL parsing).
The parse options are documented in :mod:`stream_mf2.core.options`.
"""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_MAX_MISNEST_NODES", "DEFAULT_MAX_PATTERN_CHARS", "DEFAULT_MAX_PATTERN_SECONDS"]

#: Default window for patterns over the page source, in characters (``max_pattern_chars``).
DEFAULT_MAX_PATTERN_CHARS: Final = 64 * 1024
#: Default time the patterns of one page may take together, in seconds of CPU time (the
#: ``max_pattern_seconds`` parse option); outside a parse (:meth:`~stream_mf2.wpt.Wpt.choose`
#: called directly), each search's limit.
DEFAULT_MAX_PATTERN_SECONDS: Final = 1.0
#: Default of ``max_misnest_nodes``: elements held below open formatting elements at once.
DEFAULT_MAX_MISNEST_NODES: Final = 4096
