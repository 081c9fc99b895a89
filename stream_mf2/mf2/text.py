"""Text of an element: the spec's textContent variants.

``"spec"`` text is DOM textContent with ``<script>``/``<style>`` dropped and,
where the spec asks for it, each ``<img>`` replaced by its ``alt`` (or by its
resolved ``src`` with a space on both sides), trimmed of ASCII whitespace.

``"normalized"`` text is the whitespace-normalising variant of the
textContent-parsing draft that mf2py and php-mf2 implement (see
:func:`normalized_text`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator
from typing import Final, TypeGuard, cast

from stream_mf2.html.dom import Element, Node, ParentNode, Text

from .urls import resolve

ASCII_WS: Final = " \t\n\f\r"

#: Elements whose content is never text (by local name, in any namespace).
SKIP: Final = frozenset({"script", "style", "template"})

_SPACE_RUN: Final = re.compile(r" {2,}")

#: ``replace_images`` values: ``False`` leaves ``<img>`` out of text; ``True`` replaces
#: each by its ``alt``, else its resolved ``src`` (p-* and e-* values); ``ALT_ONLY``
#: replaces each by its ``alt`` and leaves out those without one (the implied ``name``:
#: the official suite's expectations, mf2py and mf2dom agree; no image URL in a name).
ALT_ONLY = 2


def trim(value: str) -> str:
    """Remove leading and trailing ASCII whitespace."""
    return value.strip(ASCII_WS)


def image_text(img: Element, base: str | None, alt_only: bool = False) -> str:
    """What an ``<img>`` stands for in text with images replaced: ``alt``, else `` src `` resolved
    (unless ``alt_only``)."""
    alt = img.attrs.get("alt")
    if alt is not None:
        return alt
    if alt_only:
        return ""
    src = img.attrs.get("src")
    if src is not None:
        return " " + resolve(src, base) + " "
    return ""


def raw_text(element: ParentNode, base: str | None, replace_images: int) -> str:
    """Untrimmed textContent without script/style, images optionally replaced."""
    parts: list[str] = []
    stack: list[Node] = list(reversed(element.children))
    while stack:
        node = stack.pop()
        if type(node) is Text:
            parts.append(node.data)
        elif isinstance(node, Element):
            name = node.name
            if name in SKIP:
                continue
            if replace_images and name == "img":
                parts.append(image_text(node, base, replace_images == ALT_ONLY))
                continue
            stack.extend(reversed(node.children))
    return "".join(parts)


# Markers in the normalised algorithm's token list (strings are text).
_P_BEFORE: Final = 1  # a paragraph starts: at least one line break before what follows
_P_AFTER: Final = 0  # a paragraph ended (its own "\n" token follows)
_PRE_BEFORE: Final = 2  # preformatted text follows: spaces before it are dropped
_PRE_AFTER: Final = 3
_PRE_EMPTY: Final = 4  # an empty <pre>: reads exactly as _PRE_BEFORE, "", _PRE_AFTER
_P_END: Final = "</p>"  # stack marker: leaving a <p>
# A negative token -n is text of n line breaks (see _newline_count).
_NEWLINES: Final = re.compile(r"[\n\t\r]+")


def _normalized_tokens(element: ParentNode, base: str | None, replace_images: int) -> list[str | int]:
    """The normalised algorithm's token list for ``element``'s content (one walk, no index kept)."""
    tokens: list[str | int] = []
    _normalized_pieces(element, base, replace_images, tokens, {})
    return tokens


def normalized_text(element: ParentNode, base: str | None, replace_images: int) -> str:
    """Whitespace-normalised text, as mf2py and php-mf2 compute it.

    Based on the textContent-parsing draft (microformats.org/wiki/textcontent-parsing):
    tabs and line breaks in text become spaces and space runs collapse; an
    image becomes its ``alt`` (or resolved ``src``) between spaces; ``<br>``
    is a line break; ``<pre>`` text is kept as written; a ``<p>`` is separated
    from what precedes it by a line break and from a following paragraph by
    an empty line; script, style and template content is dropped. Stand-alone
    spaces next to other spaces or paragraph edges go, spaces next to line
    breaks go (outside ``<pre>``), and the ends are trimmed.
    """
    return _finish_normalized(_normalized_tokens(element, base, replace_images))


def _finish_normalized(tokens: list[str | int]) -> str:
    """The normalised text from a token list (which it changes)."""
    last = len(tokens) - 1
    for i, token in enumerate(tokens):
        if token == " " and (
            i == 0
            or i == last
            or tokens[i - 1] == " "
            or tokens[i - 1] in (_P_BEFORE, _P_AFTER)
            or tokens[i + 1] == " "
            or tokens[i + 1] in (_P_BEFORE, _P_AFTER)
        ):
            tokens[i] = ""
    start, end = 0, len(tokens)
    while start < end and _blank_edge(tokens[start]):
        start += 1
    while end > start and _blank_edge(tokens[end - 1]):
        end -= 1
    kept = tokens[start:end]
    if kept and isinstance(kept[0], str):
        kept[0] = kept[0].lstrip()
    if kept and isinstance(kept[-1], str):
        kept[-1] = kept[-1].rstrip()
    parts: list[str] = []
    breaks = 0
    in_pre = False
    for token in kept:
        if isinstance(token, int) and token < 0:
            token = "\n" * -token  # line breaks (see _newline_count), read as the text they stand for
        if isinstance(token, int):
            if token in (_P_BEFORE, _P_AFTER):
                breaks = max(breaks, token)
            elif token == _PRE_BEFORE:
                in_pre = True
                _strip_trailing_spaces(parts)
            elif token == _PRE_EMPTY:
                # as _PRE_BEFORE, "", _PRE_AFTER: the part is appended even when empty,
                # so that no space is dropped from the start of the next text
                _strip_trailing_spaces(parts)
                parts.append("\n" * breaks)
                breaks = 0
            else:
                in_pre = False
            continue
        if in_pre:
            parts.append("\n" * breaks + token)
            breaks = 0
            continue
        if breaks:
            _strip_trailing_spaces(parts)
            parts.append("\n" * breaks)
            breaks = 0
        if parts and parts[-1].endswith(("\n", " ")):
            token = token.lstrip(" ")  # no space after a line break, no run of spaces
        if token.startswith("\n"):
            _strip_trailing_spaces(parts)
        if token:
            parts.append(token)
    return "".join(parts)


def _newline_count(token: str | int) -> int:
    """The number of line breaks of a token of line breaks only (text or a negative
    count), else 0.

    A negative token ``-n`` is text of ``n`` line breaks. Only the index writes
    it (in the short equivalents of weak runs and blank ends): the line breaks
    such an equivalent stands for grow with the nesting depth, and as a string
    every level would copy and scan them again (quadratic in the depth); as a
    count each level costs the same."""
    if isinstance(token, int):
        return -token if token < 0 else 0
    return len(token) if token and not token.strip("\n") else 0


def _compress_blank(run: list[str | int]) -> list[str | int]:
    """A shorter run of blank tokens (see :func:`_blank_edge`) that
    :func:`_finish_normalized` treats exactly as ``run``, wherever it stands.

    Local rewrites, each an equivalence in any context: adjacent paragraph
    markers become the larger one (only the largest counts for the line
    breaks, and a space next to either is dropped); adjacent newline tokens
    join; three or more spaces in a row act as two (all but the last are
    dropped); a space between a text token and a paragraph marker is always
    dropped without effect, and so is text of spaces right after a newline
    token (the finishing strips it, and the space pass never looks past a
    newline token); ``marker, N1, P_BEFORE, N2`` with newline tokens
    N1 and N2 gives the same line breaks as ``marker, N1 + N2 + newline``.
    A space right after a marker is always emptied by the space pass (which
    has then passed its left neighbour, the marker), so it is written as
    the empty text it becomes. Empty text only flushes the pending line
    breaks, which a newline token before it has already done, and its
    neighbours see neither a space nor a marker in it: so it goes after a
    newline token or another empty text, and ``N1, P_BEFORE, ""`` gives the
    same line breaks as ``N1 + newline`` (the line break it flushes). P_AFTER never
    adds line breaks (it is 0), so between two newline tokens (neither of
    them a space for the space pass) it goes and they join.
    Every newline token is written as a count (a negative token, see
    :func:`_newline_count`), so that neither the tokens nor their size grow with the
    nesting: nested values whose blank ends repeat at every level stay short.
    """
    out: list[str | int] = []
    for token in run:
        newlines = _newline_count(token)
        if newlines:
            if len(out) >= 2 and out[-1] == _P_AFTER and _newline_count(out[-2]):
                out.pop()  # P_AFTER between two newline tokens
            last = _newline_count(out[-1]) if out else 0
            if last:
                out.pop()
                newlines += last
            if len(out) >= 3 and out[-1] == _P_BEFORE and _is_marker(out[-3]):
                before = _newline_count(out[-2])
                if before:
                    out.pop()
                    out[-1] = -(before + newlines + 1)
                    continue
            out.append(-newlines)
            continue
        if _is_marker(token):
            while len(out) >= 2 and out[-1] == " " and not _is_marker(out[-2]):
                out.pop()  # a space between a text token and a marker
            if out and _is_marker(out[-1]):
                out[-1] = max(out[-1], token)
                continue
        elif isinstance(token, str):  # (any int is a marker or a count here)
            if token == " " and out and _is_marker(out[-1]):
                token = ""  # what the space pass makes of it
            if token and out and not token.strip(" ") and _newline_count(out[-1]):
                continue  # spaces right after a newline token
            if token == " ":
                if len(out) >= 2 and out[-1] == " " and out[-2] == " ":
                    continue
            elif token == "":
                if out and (out[-1] == "" or _newline_count(out[-1])):
                    continue
                if len(out) >= 2 and out[-1] == _P_BEFORE:
                    before = _newline_count(out[-2])
                    if before:
                        out.pop()
                        out[-1] = -(before + 1)
                        continue
        out.append(token)
    return out


def _is_marker(token: str | int) -> TypeGuard[int]:
    """A marker token (not text, nor a count of line breaks)."""
    return isinstance(token, int) and token >= 0


def _strip_trailing_spaces(parts: list[str]) -> None:
    """No spaces directly before a line break (the draft's rule)."""
    while parts:
        stripped = parts[-1].rstrip(" ")
        if stripped:
            parts[-1] = stripped
            return
        parts.pop()


def _blank_edge(token: str | int) -> bool:
    """Dropped at either end: empty or whitespace-only text, paragraph markers."""
    if isinstance(token, str):
        return token == "" or token.isspace()
    return token in (_P_BEFORE, _P_AFTER) or token < 0


# -- reading long runs of weak tokens in constant time ---------------------------------------
#
# Tokens fall in two classes for the index below. *Stops*: text with a character other than a
# space or a line break (or with both), the markers of a non-empty ``<pre>`` and its text, and
# _PRE_EMPTY. *Weak* tokens between stops: paragraph markers and text of spaces only or line breaks
# only. A maximal row of weak tokens between two stops is a *run*. A *unit* is a _PRE_EMPTY or a
# ``<pre>`` of only spaces or only line breaks (its three tokens); a row of units with only runs
# between them is a *chain*. Every stop sets the finishing's pending line breaks to zero and is
# neither a space nor a paragraph marker, so what a run does depends on nothing before its left
# stop but whether the text so far ends with a space or line break: that is what makes the short
# equivalents below exact in any context.

#: Runs longer than this are replaced by their equivalent of at most four tokens when read.
_LONG_RUN: Final = 4


def _run_equivalent(run: list[str | int]) -> tuple[list[str | int], int]:
    """A run (weak tokens between two stops) as at most four tokens that
    :func:`_finish_normalized` reads exactly as ``run`` there, and the number of
    line breaks the run gives between two _PRE_EMPTY stops.

    With its neighbours stops, the space pass over the run is local and is done
    here. The finishing then appends, before anything else, the first text if it
    starts with a space and no paragraph starts before it (only when the text so
    far does not end with a space or line break; the run's later text is cut
    from it by the next line break or stop, so only the string itself matters).
    Every later piece of text is reduced to its line breaks, each of which drops
    the trailing spaces first, so together they act as one token of line breaks.
    A paragraph start after the last text stays pending for the next stop.
    """
    tokens = list(run)
    last = len(tokens) - 1
    for i, token in enumerate(tokens):  # the space pass of _finish_normalized
        if token == " " and (
            (i > 0 and (tokens[i - 1] == " " or tokens[i - 1] in (_P_BEFORE, _P_AFTER)))
            or (i < last and (tokens[i + 1] == " " or tokens[i + 1] in (_P_BEFORE, _P_AFTER)))
        ):
            tokens[i] = ""
    lead = ""
    newlines = 0
    breaks = 0
    started = False  # text or a line break has been appended
    for token in tokens:
        if _is_marker(token):
            breaks = max(breaks, token)
            continue
        if breaks:
            newlines += 1
            breaks = 0
            started = True
        if isinstance(token, int):  # a count of line breaks
            newlines -= token
            started = True
            continue
        if not token:
            continue
        if not started:
            started = True
            if token[0] == " ":
                lead = token
                continue
        newlines += len(token.lstrip(" "))
    out: list[str | int] = [lead, ""] if lead else []  # "": the space pass must not see lead next to a marker
    if newlines:
        out.append(-newlines)
    if breaks:
        out.append(_P_BEFORE)
    return out, newlines + breaks


class _NormalizedIndex:
    """:class:`TextIndex`'s index of one normalised token list.

    ``nonblank_counts[i]``: the number of non-blank tokens (see :func:`_blank_edge`)
    before position ``i``; ``nonblank``: their positions. ``special``: in order,
    the positions where reading must not go token by token: the start of every
    unit and of every run longer than ``long_run`` (:data:`_LONG_RUN`; tests set
    it lower to send short runs through their equivalents too).
    ``runs``: a long run's start -> its equivalent and the stop after it.
    ``chains``: a unit's start -> ``[last, newlines, pending, own]``: the start of
    the last unit of its chain; a running sum over the token list of the line
    breaks of the runs between two units and of the units' own text, up to and
    including this unit; whether the run before it ends with a pending paragraph
    start; and the line breaks of its own text.
    """

    __slots__ = ("chains", "long_run", "newlines", "nonblank", "nonblank_counts", "runs", "special")

    def __init__(self, long_run: int = _LONG_RUN) -> None:
        self.long_run = long_run
        self.nonblank_counts = [0]
        self.nonblank: list[int] = []
        self.special: list[int] = []
        self.runs: dict[int, tuple[list[str | int], int]] = {}
        self.chains: dict[int, list[int]] = {}
        self.newlines = 0

    def add(self, tokens: list[str | int]) -> None:
        """Index the tokens one walk has appended (no span reaches across walks, so
        no run or chain does either)."""
        start = len(self.nonblank_counts) - 1
        nonblank, nonblank_counts = self.nonblank, self.nonblank_counts
        count = nonblank_counts[-1]
        special = self.special
        long_run = self.long_run
        chain: list[int] = []
        run_start = -1
        after: bool | None = None  # is the last stop a <pre> unit (None: no stop yet)
        in_pre = False
        unit_end = -1
        for i in range(start, len(tokens)):
            token = tokens[i]
            if i < unit_end:  # the text and end marker of a <pre> unit
                if token == _PRE_AFTER:
                    nonblank.append(i)
                    count += 1
                nonblank_counts.append(count)
                continue
            if isinstance(token, str):
                if token and not token.isspace():
                    nonblank.append(i)
                    count += 1
                elif not in_pre and (not token.strip(" ") or not token.strip("\n")):
                    nonblank_counts.append(count)  # weak text
                    if run_start < 0:
                        run_start = i
                    continue
                nonblank_counts.append(count)
                if not chain and (run_start < 0 or i - run_start <= long_run):
                    # the common case: a text stop after no run or a short one, no chain open
                    run_start = -1
                    after = False
                    continue
                unit = False
            else:
                in_pre = token == _PRE_BEFORE
                if token < _PRE_BEFORE:  # a paragraph marker or a count of line breaks: weak
                    nonblank_counts.append(count)
                    if run_start < 0:
                        run_start = i
                    continue
                nonblank.append(i)
                count += 1
                nonblank_counts.append(count)
                unit = token == _PRE_EMPTY
                unit_newlines = 0
                if in_pre:
                    text = tokens[i + 1]
                    assert isinstance(text, str)
                    if not text.strip(" ") or not text.strip("\n"):
                        unit = True
                        unit_end = i + 3
                        in_pre = False
                        unit_newlines = text.count("\n")
            newlines = pending = 0
            if run_start >= 0:
                is_long = i - run_start > long_run
                if after is not None and (is_long or (unit and after)):
                    equivalent, newlines = _run_equivalent(tokens[run_start:i])
                    pending = int(bool(equivalent) and equivalent[-1] == _P_BEFORE)
                    if is_long:
                        self.runs[run_start] = (equivalent, i)
                        special.append(run_start)
                run_start = -1
            if unit:
                if after:
                    self.newlines += newlines
                else:
                    pending = 0
                self.newlines += unit_newlines
                self.chains[i] = [i, self.newlines, pending, unit_newlines]
                chain.append(i)
                special.append(i)
            elif chain:
                for position in chain:
                    self.chains[position][0] = chain[-1]
                chain = []
            after = unit
        for position in chain:
            self.chains[position][0] = chain[-1]

    def core(self, tokens: list[str | int], start: int, end: int) -> tuple[int, int] | None:
        """The first and last non-blank positions of ``tokens[start:end]``, or ``None``."""
        first, last = self.nonblank_counts[start], self.nonblank_counts[end]
        if first == last:
            return None
        return self.nonblank[first], self.nonblank[last - 1]

    def read(self, tokens: list[str | int], first: int, last: int) -> list[str | int]:
        """``tokens[first : last + 1]`` (``first`` and ``last`` stops) with every chain
        and long run replaced by its short equivalent: :func:`_finish_normalized` reads
        the two alike in any context. Costs the stops outside chains and the short
        runs, not the chains and long runs.

        A unit strips the trailing spaces before it and then appends its text after
        the pending line break, if any; the next unit or line break strips the
        spaces it leaves. So between two units a run gives only line breaks, whatever
        came before, and a unit inside a chain gives only the line breaks of its
        text. A chain therefore reads as its first and last units with the sum of
        those line breaks between them, the last one as a pending paragraph start
        when the run before the last unit ends with one (that decides whether the
        text after the chain follows a line break)."""
        out: list[str | int] = []
        special, chains = self.special, self.chains
        end = last + 1
        position = first
        k = bisect_left(special, first)
        while k < len(special) and special[k] < end:
            at = special[k]
            out += tokens[position:at]
            chain = chains.get(at)
            if chain is not None:
                to = chain[0]
                if to > last:
                    # a chain cut by ``last`` ends there: tokens between two stops are weak,
                    # so the non-blank ``last`` ends a unit of the chain
                    to = last if tokens[last] == _PRE_EMPTY else last - 2
                position = at + (1 if tokens[at] == _PRE_EMPTY else 3)
                out += tokens[at:position]
                if to > at:
                    _, newlines, pending, own = chains[to]
                    newlines -= chain[1] + own
                    if newlines > pending:
                        out.append(pending - newlines)  # a count of line breaks
                    if pending:
                        out.append(_P_BEFORE)
                    position = to + (1 if tokens[to] == _PRE_EMPTY else 3)
                    out += tokens[to:position]
            else:
                equivalent, position = self.runs[at]
                out += equivalent
            k = bisect_left(special, position, k)
        out += tokens[position:end]
        return out


class _RawIndex:
    """:class:`TextIndex`'s index of one raw piece list (the ``"spec"`` mode).

    ``nonblank``: the positions of the pieces that hold a character other than
    ASCII whitespace, in order, so a query finds the first and last of its span
    by bisection and reads only what lies between them (the rest is trimmed).
    ``refs``: the blank runs that copies stand for. An ``int`` piece ``i`` reads
    as the pieces ``refs[i]`` (which may hold references in turn); every run
    referred to holds two pieces or more, each at least one character, so
    expanding a reference costs no more than the text it gives.
    ``ref_at``: the positions of the reference pieces, in order, so that
    :meth:`expand` copies the text pieces between them as slices.
    """

    __slots__ = ("nonblank", "ref_at", "refs", "scanned")

    def __init__(self) -> None:
        self.nonblank: list[int] = []
        self.refs: list[tuple[int, int]] = []
        self.ref_at: list[int] = []
        self.scanned = 0  # pieces before this are in ``nonblank`` (or ``ref_at``) if non-blank (a reference)

    def sync(self, pieces: list[str | int]) -> None:
        """Index the pieces appended since the last call (by any walk)."""
        scanned = self.scanned
        if scanned == len(pieces):
            return
        nonblank = self.nonblank
        for position in range(scanned, len(pieces)):
            piece = pieces[position]
            # Non-blank: a character other than ASCII whitespace. A piece that is not all
            # (Unicode) whitespace has one; ``strip`` decides the rare rest (U+000B, U+00A0, ...)
            # without a regular expression or a copy of the common blank piece.
            if isinstance(piece, str):
                if piece and (not piece.isspace() or piece.strip(ASCII_WS)):
                    nonblank.append(position)
            else:
                self.ref_at.append(position)
        self.scanned = len(pieces)

    def copy(self, pieces: list[str | int], start: int, end: int) -> None:
        """Append the indexed pieces ``start:end`` to ``pieces`` and index the copy.

        The copy's positions in the index are those of the original, shifted: they are
        taken from the index rather than found by scanning the copy again, so a copy
        costs no Python-level work per piece (nested values copy the same core of
        pieces at every level: scanning each copy would be quadratic in the depth)."""
        self.sync(pieces)
        delta = len(pieces) - start
        for positions in (self.nonblank, self.ref_at):
            copied = positions[bisect_left(positions, start) : bisect_left(positions, end)]
            positions.extend(map(delta.__add__, copied))
        pieces.extend(pieces[start:end])
        self.scanned = len(pieces)

    def core(self, start: int, end: int) -> tuple[int, int] | None:
        """First and last non-blank piece in ``start:end`` (indexed), or ``None``."""
        nonblank = self.nonblank
        at = bisect_left(nonblank, start)
        if at == len(nonblank) or nonblank[at] >= end:
            return None
        return nonblank[at], nonblank[bisect_left(nonblank, end, at) - 1]

    def reference(self, pieces: list[str | int], start: int, end: int) -> None:
        """Append the blank pieces ``start:end`` to ``pieces``: a single piece as it
        is, longer runs as one reference."""
        if end - start == 1:
            pieces.append(pieces[start])
        elif end > start:
            pieces.append(len(self.refs))
            self.refs.append((start, end))

    def expand(self, pieces: list[str | int], start: int, end: int) -> list[str]:
        """The text pieces ``start:end`` read as, references expanded."""
        refs = self.refs
        if not refs:
            # no reference was made, so no piece is an int: the slice is the answer
            return cast("list[str]", pieces[start:end])
        ref_at = self.ref_at
        out: list[str] = []
        stack: list[tuple[int, int]] = [(start, end)]
        while stack:
            position, end = stack.pop()
            # the text pieces up to the next reference are copied as one slice
            at = bisect_left(ref_at, position)
            while at < len(ref_at) and ref_at[at] < end:
                where = ref_at[at]
                out += cast("list[str]", pieces[position:where])
                position = where + 1
                piece = pieces[where]
                assert isinstance(piece, int)  # ref_at holds the positions of the int pieces
                if position < end:
                    stack.append((position, end))
                stack.append(refs[piece])
                break
            else:
                out += cast("list[str]", pieces[position:end])
        return out


def element_text(element: ParentNode, base: str | None, mode: str, replace_images: int) -> str:
    """Trimmed text of ``element`` in the given mode (``"spec"`` or ``"normalized"``)."""
    if mode == "normalized":
        return normalized_text(element, base, replace_images)
    return trim(raw_text(element, base, replace_images))


class TextIndex:
    """The text of elements of one item and the items nested in it, without walking any node twice.

    Property values of nested elements each need the text of their own
    subtree; computing each from scratch costs the subtree's size per level,
    which is quadratic in the nesting depth. The index keeps, per text
    variant (images replaced or not), one flat list of text pieces and, for
    every element it has walked, the slice of pieces that is its text. A query
    for an element not yet walked walks its subtree, appending pieces; an
    element met there that an earlier query already walked is not walked
    again: its pieces are copied (which costs no more than the answer). So
    every node is walked at most once per variant and a query costs the
    length of its answer. Empty pieces are left out, so that a slice is never
    longer than the answer.

    In the ``"spec"`` mode the pieces are text. Blank pieces (ASCII whitespace
    only) at the ends of a value are trimmed, so a run of them at the end of
    every level of a nested value must not be read again per level: an index
    of the non-blank pieces (:class:`_RawIndex`) lets a query read only from
    its first to its last non-blank piece, and a copied element's blank ends
    of two pieces or more become one reference piece standing for them.

    In the ``"normalized"`` mode the pieces are the algorithm's tokens. Blank
    tokens (paragraph markers, line breaks, spaces) are dropped at the ends of
    a value, so a run of them at the end of every level of a nested value must
    not be read again per level: an index of the non-blank tokens lets a query
    skip the blank ends in constant time, and a copied element's blank ends are
    shortened to an equivalent few tokens (:func:`_compress_blank`). Between
    its first and last non-blank token a value is read through the same index
    (:class:`_NormalizedIndex`): a chain of ``<pre>`` elements that are empty or
    hold only spaces or only line breaks (not blank: they keep the line breaks
    and a space next to them) with only paragraph markers, spaces and line
    breaks between them, and any long run of those weak tokens, is read as a
    short equivalent in constant time, and a copied element gets the same short
    equivalents. A query then costs the other tokens between its first and last
    non-blank one, which all give text to the answer.

    Elements a walk does not enter (script, style, template, replaced images,
    ``pre`` and ``br`` in the normalised mode) are answered by the plain
    functions when queried directly.
    """

    __slots__ = ("_base", "_long_run", "_mode", "_normalized", "_raw", "_variants")

    def __init__(self, base: str | None, mode: str, *, long_run: int = _LONG_RUN) -> None:
        self._base = base
        self._mode = mode
        self._long_run = long_run  # see _NormalizedIndex
        # (replace_images, raw) -> (pieces, element -> (start, end))
        self._variants: dict[tuple[int, bool], tuple[list[str | int], dict[ParentNode, tuple[int, int]]]] = {}
        # the normalised variants' token lists, per replace_images, indexed
        self._normalized: dict[int, _NormalizedIndex] = {}
        # the raw variants' blank-run index, per replace_images
        self._raw: dict[int, _RawIndex] = {}

    def text(self, element: Element, replace_images: int) -> str:
        """``element_text(element, base, mode, replace_images)``."""
        children = element.children
        if len(children) == 1 and type(children[0]) is Text and self._mode != "normalized":
            # Most property elements hold one text node: its text needs no index
            # entry (an enclosing query walks it once, as it would any node).
            return children[0].data.strip(ASCII_WS)
        if self._mode == "normalized":
            pieces, span = self._span(element, replace_images, False)
            index = self._normalized[replace_images]
            # (arguments spelled out: a compiled call with *args goes through the generic call path)
            core = index.core(pieces, span[0], span[1])
            return "" if core is None else _finish_normalized(index.read(pieces, core[0], core[1]))
        return self._raw_text(element, replace_images)

    def inner_text(self, element: Element) -> str:
        """``trim(raw_text(element, None, False))``: the value-class pattern's text."""
        children = element.children
        if len(children) == 1 and type(children[0]) is Text:
            return children[0].data.strip(ASCII_WS)
        return self._raw_text(element, False)

    def _raw_text(self, element: Element, replace_images: int) -> str:
        """The trimmed raw text of ``element``: only the pieces from its first to its
        last non-blank one are read, so blank ends cost nothing however long."""
        pieces, span = self._span(element, replace_images, True)
        raw = self._raw_index(replace_images, pieces)
        core = raw.core(span[0], span[1])
        if core is None:
            return ""
        return "".join(raw.expand(pieces, core[0], core[1] + 1)).strip(ASCII_WS)

    def _raw_index(self, replace_images: int, pieces: list[str | int]) -> _RawIndex:
        """The raw variant's index, brought up to date with ``pieces`` (which the
        e-* html walk may have extended: see :meth:`recorder`)."""
        raw = self._raw.get(replace_images)
        if raw is None:
            raw = self._raw[replace_images] = _RawIndex()
        raw.sync(pieces)
        return raw

    def recorder(self, element: Element) -> tuple[list[str | int], dict[ParentNode, tuple[int, int]]] | None:
        """Where a walk of ``element`` that is about to happen anyway may record its
        ``text(element, True)`` pieces: ``(pieces, spans)``, to be filled as
        :func:`_raw_pieces` would. ``None`` when there is nothing to record (the
        ``"normalized"`` mode, or ``element`` is already indexed or needs no entry).

        The e-* value's html serialisation walks the subtree its text needs, so
        the two share one walk.
        """
        if self._mode == "normalized":
            return None
        children = element.children
        if not children or (len(children) == 1 and type(children[0]) is Text):
            return None
        variant = self._variants.get((True, True))
        if variant is None:
            variant = self._variants[(True, True)] = ([], {})
        return None if element in variant[1] else variant

    def _span(self, element: Element, replace_images: int, raw: bool) -> tuple[list[str | int], tuple[int, int]]:
        key = (replace_images, raw)
        variant = self._variants.get(key)
        if variant is None:
            variant = self._variants[key] = ([], {})
            if not raw:
                self._normalized[replace_images] = _NormalizedIndex(self._long_run)
        pieces, spans = variant
        span = spans.get(element)
        if span is None:
            if raw:
                raw_index = self._raw_index(replace_images, pieces)
                _raw_pieces(element, self._base, replace_images, pieces, spans, raw_index)
            else:
                index = self._normalized[replace_images]
                _normalized_pieces(element, self._base, replace_images, pieces, spans, index)
                index.add(pieces)
            span = spans[element]
        return pieces, span


def _raw_pieces(
    root: Element,
    base: str | None,
    replace_images: int,
    pieces: list[str | int],
    spans: dict[ParentNode, tuple[int, int]],
    index: _RawIndex,
) -> None:
    """Append :func:`raw_text` of ``root`` to ``pieces`` as pieces; record the span of
    every element entered (``root`` included; elements without children need none).

    ``index``: :class:`TextIndex`'s index of the pieces before this walk. An element
    walked by an earlier query is copied with each blank run at its ends (two pieces
    or more) replaced by one reference to it (:meth:`_RawIndex.reference`), so that
    blank ends repeated at every level of nested values do not pile up."""
    # One iterator over child nodes per open element, and beside it the element and where its pieces start.
    # The innermost iterator is ``current`` (a local: ``stack[-1]`` is a generic subscript in CPython 3.11).
    current: Iterator[Node] | None = iter(root.children)
    stack: list[Iterator[Node]] = []
    open_elements: list[tuple[Element, int]] = [(root, len(pieces))]
    while current is not None:
        for node in current:
            if type(node) is Text:
                data = node.data
                if data:
                    pieces.append(data)
            elif type(node) is Element:
                name = node.name
                if name in SKIP:
                    continue
                if replace_images and name == "img":
                    data = image_text(node, base, replace_images == ALT_ONLY)
                    if data:
                        pieces.append(data)
                    continue
                children = node.children
                if not children:
                    continue
                span = spans.get(node)
                if span is not None:  # walked by an earlier query: copy, do not walk again
                    start = len(pieces)
                    core = index.core(span[0], span[1])
                    if core is None:
                        index.reference(pieces, span[0], span[1])
                    else:
                        index.reference(pieces, span[0], core[0])
                        index.copy(pieces, core[0], core[1] + 1)
                        index.reference(pieces, core[1] + 1, span[1])
                    spans[node] = (start, len(pieces))
                    continue
                stack.append(current)
                current = iter(children)
                open_elements.append((node, len(pieces)))
                break
        else:
            current = stack.pop() if stack else None
            element, start = open_elements.pop()
            spans[element] = (start, len(pieces))


def _normalized_pieces(
    root: ParentNode,
    base: str | None,
    replace_images: int,
    tokens: list[str | int],
    spans: dict[ParentNode, tuple[int, int]],
    index: _NormalizedIndex | None = None,
) -> None:
    """Append the normalised algorithm's tokens for ``root``'s content to ``tokens``;
    record the span of every element entered (``root`` included).

    ``index``: :class:`TextIndex`'s index of the tokens before this walk. With it,
    an element walked by an earlier query is copied with the blank runs at its
    ends compressed (:func:`_compress_blank`) and its chains of empty (or blank)
    ``<pre>`` and long runs of weak tokens shortened (:meth:`_NormalizedIndex.read`), so
    that what repeats at every level of nested values does not pile up."""
    stack: list[Node | tuple[ParentNode, int]] = [(root, len(tokens))]
    stack.extend(reversed(root.children))
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is tuple:
            element, start = cast("tuple[ParentNode, int]", node)  # the exact type was tested
            spans[element] = (start, len(tokens))
            if element is not root and type(element) is Element and element.name == "p":
                tokens.extend((_P_AFTER, "\n"))
            continue
        if kind is Text:
            value = _SPACE_RUN.sub(" ", _NEWLINES.sub(" ", cast(Text, node).data))  # the exact type was tested
            if value:
                tokens.append(value)
            continue
        if kind is not Element:
            continue
        assert isinstance(node, Element)
        name = node.name
        if name in SKIP:
            continue
        if name == "pre":
            value = raw_text(node, base, False)
            if value:
                tokens.extend((_PRE_BEFORE, value, _PRE_AFTER))
            else:
                tokens.append(_PRE_EMPTY)
        elif name == "img":
            if replace_images:
                alt = node.attrs.get("alt")
                if alt is None and "src" in node.attrs and replace_images != ALT_ONLY:
                    alt = resolve(node.attrs["src"], base)
                if alt is not None:
                    tokens.extend((" ", alt, " ") if alt else (" ", " "))
        elif name == "br":
            tokens.append("\n")
        else:
            if name == "p":
                tokens.append(_P_BEFORE)
            span = spans.get(node)
            if span is not None:  # walked by an earlier query: copy, do not walk again
                start = len(tokens)
                core = None if index is None else index.core(tokens, span[0], span[1])
                if index is None:
                    tokens.extend(tokens[span[0] : span[1]])
                elif core is None:
                    tokens.extend(_compress_blank(tokens[span[0] : span[1]]))
                else:
                    first, last = core
                    tokens.extend(_compress_blank(tokens[span[0] : first]))
                    tokens.extend(index.read(tokens, first, last))
                    tokens.extend(_compress_blank(tokens[last + 1 : span[1]]))
                spans[node] = (start, len(tokens))
                if name == "p":
                    tokens.extend((_P_AFTER, "\n"))
                continue
            stack.append((node, len(tokens)))
            stack.extend(reversed(node.children))
