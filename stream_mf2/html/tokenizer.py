"""The push-based WHATWG HTML tokenizer (HTML Standard 13.2.5).

:class:`Tokenizer` receives text through :meth:`Tokenizer.feed` in chunks of
any size, split anywhere, and calls a :class:`TokenSink` as tokens complete.
:meth:`Tokenizer.close` runs the end-of-file steps of whatever state the
tokenizer is in and calls ``sink.eof()``. The tokens are the same however the
input is split; only the number of ``characters()`` calls for a text run may
differ.

How it is built
---------------
Each state of the spec is an integer and a method; the main loop dispatches
through a list indexed by state. The states where documents spend their time
(data, RCDATA, RAWTEXT, script data, tag and attribute names, attribute values,
comments, DOCTYPE identifiers, CDATA sections) consume whole runs with
precompiled regular expressions, so there is no per-character Python loop in the
common case. In the data state one match takes the text before a plainly
written tag, the tag, and often the text and end tag after it (and a second pair); it looks only at
input before the next ``&`` or NUL, so text and quoted values are scanned as
"anything but one character" runs. In RAWTEXT and script data one search finds
the next place that matters (the appropriate end tag, ``<!--``). Character
references are only decoded where an ``&`` occurs: a named one with its ``;`` is
looked up directly, and a start tag whose values hold error-free references is
still read in one match. All of these fall back to the states, which are exact,
when anything is unusual, and error collection is exact either way.

A state method returns ``False`` when it cannot go on without more input.
Consumed input is dropped at the end of every ``feed()``. What stays unconsumed
is short lookahead only: ``<!--``/``<!DOCTYPE``/``<![CDATA[`` (7 characters),
``PUBLIC``/``SYSTEM`` after a DOCTYPE name (6), a named character reference
(at most the longest name, 32 characters), and a tag cut off by the end of a chunk when it
is at most 2,048 characters long (so that the next ``feed()`` can match it whole
on the fast path; longer ones go through the states). Everything else is folded
into the unfinished token; numeric character references are read by states of
their own and keep a single number. So the tokenizer holds at most the
unfinished token and a bounded lookahead (see :attr:`Tokenizer.pending_chars`).

Input preprocessing (13.2.3.5): CR LF and lone CR become LF; a CR at the end of
a chunk is remembered so that an LF at the start of the next one is dropped.

Stopping after a token
----------------------
For the encoding change a ``<meta>`` can cause (HTML 13.2.3.4), a sink callback
may call :meth:`Tokenizer.suspend`: ``feed()`` then returns right after the token
being emitted, leaving the rest of its input unconsumed. The caller either
calls :meth:`Tokenizer.resume`, or :meth:`Tokenizer.discard_unconsumed` and
feeds the rest of the input again (decoded differently). With ``count_raw`` set
before the first ``feed()``, :attr:`Tokenizer.raw_consumed` says how many
characters of the input *as fed* (before CR LF became LF) have been consumed, so
the caller knows where to resume; the cost is a list of the CR LF positions still
in the unconsumed input.

Limits
------
``max_token_chars`` (default :data:`DEFAULT_MAX_TOKEN_CHARS`, 16 MiB characters)
caps how much input a single tag (with its attributes), comment or DOCTYPE may
span, and how much unconsumed lookahead may be held. Going over raises
:class:`stream_mf2.errors.LimitExceeded` with ``limit="max_token_chars"``.
Text runs (data, RCDATA, RAWTEXT, script data, PLAINTEXT, CDATA) are not capped:
they are handed to ``sink.characters()`` in pieces as input arrives, so an
arbitrarily long text node streams through in bounded memory.

Parse errors
------------
With ``collect_errors=True`` every parse error is appended to
:attr:`Tokenizer.errors` as ``(code, line, col)`` using the spec's error codes;
positions are 1-based and follow the convention of the html5lib-tests suite
(the column of the character being looked at, or one past the end at EOF,
counted in UTF-16 code units, so a character outside the BMP takes two).
Parse errors are never raised. Errors found while preprocessing the input
stream (control characters, noncharacters, surrogates) are reported in order
with the tokenizer's own.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from typing import Final, Protocol

from stream_mf2.errors import LimitExceeded, ParserStateError
from stream_mf2.html.charrefs import NAMED, match_named, numeric_reference

__all__ = ["DEFAULT_MAX_TOKEN_CHARS", "STATE_NAMES", "TokenSink", "Tokenizer"]

#: Default for ``max_token_chars``: 16 MiB characters.
DEFAULT_MAX_TOKEN_CHARS: Final = 16 * 1024 * 1024


class TokenSink(Protocol):
    """What the tokenizer calls as tokens complete.

    Text is flushed (``characters``) before every other token and at the end of
    each ``feed()``, so a sink never waits for text that has arrived. From inside
    a call the sink may drive the tokenizer back: :meth:`Tokenizer.switch_to`
    with an html5lib-tests state name and :attr:`Tokenizer.last_start_tag` (the
    tree builder does, for RCDATA, RAWTEXT, script data and PLAINTEXT), or
    :meth:`Tokenizer.suspend` (the encoding change a ``<meta>`` can cause).
    :attr:`Tokenizer.markup_end` and ``markup_before`` are set before the sink
    hears of a tag, comment or DOCTYPE. ``docs/internals/pipeline.md`` has the
    whole contract.
    """

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
        """A start tag; ``name`` is lowercased, the first of duplicate attributes wins."""

    def end_tag(self, name: str) -> None:
        """An end tag; attributes on end tags are dropped (a parse error)."""

    def characters(self, data: str) -> None:
        """Text; one run of text may arrive in several calls."""

    def comment(self, data: str) -> None:
        """A comment (also bogus comments)."""

    def doctype(self, name: str | None, public_id: str | None, system_id: str | None, force_quirks: bool) -> None:
        """A DOCTYPE token; missing parts are ``None``."""

    def eof(self) -> None:
        """End of input; called once, by :meth:`Tokenizer.close`."""

    def cdata_allowed(self) -> bool:
        """Asked at ``<![CDATA[``: is the adjusted current node in a foreign namespace?"""

    # Optional (looked up once, when the tokenizer is made):
    # ``start_text_end(name, attrs, self_closing, text, end_name) -> bool`` takes a
    # start tag, the text right after it and the end tag after that at once, or
    # returns False having done nothing (the tokenizer then makes the separate calls).
    # ``attach_tokenizer(tokenizer)`` is called once, at the end of the tokenizer's
    # construction, with the tokenizer (the tree builder steers it and passes it on to
    # its tree sink, which reads its markup positions).


class TokenCalls:
    """The tokenizer's per-token calls of its sink, as methods of one base class.

    The tree builder derives from it, so the tokenizer calls it through a
    base-class reference: a compiled build makes such a call a direct native call
    instead of a Python-level call of a bound method (which also parses its
    arguments anew each time). Any other :class:`TokenSink` is reached through a
    forwarding subclass. The methods mean what :class:`TokenSink`'s do;
    ``start_text_end`` is the optional fused call (``False``: not taken).
    """

    __slots__ = ()

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
        """A start tag (:meth:`TokenSink.start_tag`)."""
        raise NotImplementedError

    def end_tag(self, name: str) -> None:
        """An end tag (:meth:`TokenSink.end_tag`)."""
        raise NotImplementedError

    def characters(self, data: str) -> None:
        """Text (:meth:`TokenSink.characters`)."""
        raise NotImplementedError

    def start_text_end(self, name: str, attrs: dict[str, str], self_closing: bool, text: str, end: str) -> bool:
        """The optional fused call (see :class:`TokenSink`); this default never takes it."""
        return False


class _ForwardedTokens(TokenCalls):
    """:class:`TokenCalls` of a sink that does not derive from it: every call goes to the sink."""

    __slots__ = ("_fused", "_sink")

    def __init__(self, sink: TokenSink) -> None:
        self._sink = sink
        self._fused: Callable[[str, dict[str, str], bool, str, str], bool] | None = getattr(
            sink, "start_text_end", None
        )

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
        self._sink.start_tag(name, attrs, self_closing)

    def end_tag(self, name: str) -> None:
        self._sink.end_tag(name)

    def characters(self, data: str) -> None:
        self._sink.characters(data)

    def start_text_end(self, name: str, attrs: dict[str, str], self_closing: bool, text: str, end: str) -> bool:
        return self._fused is not None and self._fused(name, attrs, self_closing, text, end)


# --- states ---------------------------------------------------------------------------
# (one Final constant a line: compiled code reads them as native ints)
# Each state's handler (see _build_tables) has a comment naming the state's section of the HTML
# Standard (13.2.5.1-13.2.5.80) and its anchor in parsing.html; its end-of-file steps are the _eof_*
# method paired with it there. The character reference, named character reference and numeric
# character reference end states have no constant here: their anchors are at _charref and
# _numeric_end. tests/html/test_spec_anchors.py checks that every state has exactly one anchor.
DATA: Final = 0
RCDATA: Final = 1
RAWTEXT: Final = 2
SCRIPT_DATA: Final = 3
PLAINTEXT: Final = 4
TAG_OPEN: Final = 5
END_TAG_OPEN: Final = 6
TAG_NAME: Final = 7
RCDATA_LT: Final = 8
RCDATA_END_TAG_OPEN: Final = 9
RCDATA_END_TAG_NAME: Final = 10
RAWTEXT_LT: Final = 11
RAWTEXT_END_TAG_OPEN: Final = 12
RAWTEXT_END_TAG_NAME: Final = 13
SCRIPT_LT: Final = 14
SCRIPT_END_TAG_OPEN: Final = 15
SCRIPT_END_TAG_NAME: Final = 16
SCRIPT_ESCAPE_START: Final = 17
SCRIPT_ESCAPE_START_DASH: Final = 18
SCRIPT_ESCAPED: Final = 19
SCRIPT_ESCAPED_DASH: Final = 20
SCRIPT_ESCAPED_DASH_DASH: Final = 21
SCRIPT_ESCAPED_LT: Final = 22
SCRIPT_ESCAPED_END_TAG_OPEN: Final = 23
SCRIPT_ESCAPED_END_TAG_NAME: Final = 24
SCRIPT_DOUBLE_ESCAPE_START: Final = 25
SCRIPT_DOUBLE_ESCAPED: Final = 26
SCRIPT_DOUBLE_ESCAPED_DASH: Final = 27
SCRIPT_DOUBLE_ESCAPED_DASH_DASH: Final = 28
SCRIPT_DOUBLE_ESCAPED_LT: Final = 29
SCRIPT_DOUBLE_ESCAPE_END: Final = 30
BEFORE_ATTR_NAME: Final = 31
ATTR_NAME: Final = 32
AFTER_ATTR_NAME: Final = 33
BEFORE_ATTR_VALUE: Final = 34
ATTR_VALUE_DQ: Final = 35
ATTR_VALUE_SQ: Final = 36
ATTR_VALUE_UQ: Final = 37
AFTER_ATTR_VALUE_QUOTED: Final = 38
SELF_CLOSING_START_TAG: Final = 39
BOGUS_COMMENT: Final = 40
MARKUP_DECLARATION_OPEN: Final = 41
COMMENT_START: Final = 42
COMMENT_START_DASH: Final = 43
COMMENT: Final = 44
COMMENT_LT: Final = 45
COMMENT_LT_BANG: Final = 46
COMMENT_LT_BANG_DASH: Final = 47
COMMENT_LT_BANG_DASH_DASH: Final = 48
COMMENT_END_DASH: Final = 49
COMMENT_END: Final = 50
COMMENT_END_BANG: Final = 51
DOCTYPE: Final = 52
BEFORE_DOCTYPE_NAME: Final = 53
DOCTYPE_NAME: Final = 54
AFTER_DOCTYPE_NAME: Final = 55
AFTER_DOCTYPE_PUBLIC_KEYWORD: Final = 56
BEFORE_DOCTYPE_PUBLIC_ID: Final = 57
DOCTYPE_PUBLIC_ID_DQ: Final = 58
DOCTYPE_PUBLIC_ID_SQ: Final = 59
AFTER_DOCTYPE_PUBLIC_ID: Final = 60
BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDS: Final = 61
AFTER_DOCTYPE_SYSTEM_KEYWORD: Final = 62
BEFORE_DOCTYPE_SYSTEM_ID: Final = 63
DOCTYPE_SYSTEM_ID_DQ: Final = 64
DOCTYPE_SYSTEM_ID_SQ: Final = 65
AFTER_DOCTYPE_SYSTEM_ID: Final = 66
BOGUS_DOCTYPE: Final = 67
CDATA_SECTION: Final = 68
CDATA_SECTION_BRACKET: Final = 69
CDATA_SECTION_END: Final = 70
AMBIGUOUS_AMPERSAND: Final = 71
NUMERIC_CHARREF: Final = 72
HEX_CHARREF_START: Final = 73
DEC_CHARREF_START: Final = 74
HEX_CHARREF: Final = 75
DEC_CHARREF: Final = 76
N_STATES: Final = 77

#: State names accepted by :meth:`Tokenizer.switch_to` (html5lib-tests spellings).
STATE_NAMES: Final[dict[str, int]] = {
    "Data state": DATA,
    "PLAINTEXT state": PLAINTEXT,
    "RCDATA state": RCDATA,
    "RAWTEXT state": RAWTEXT,
    "Script data state": SCRIPT_DATA,
    "CDATA section state": CDATA_SECTION,
}

# States in which no token is open: suspending there holds no token memory.
_TEXT_STATES: Final = frozenset(
    {
        DATA,
        RCDATA,
        RAWTEXT,
        SCRIPT_DATA,
        PLAINTEXT,
        SCRIPT_ESCAPED,
        SCRIPT_ESCAPED_DASH,
        SCRIPT_ESCAPED_DASH_DASH,
        SCRIPT_DOUBLE_ESCAPED,
        SCRIPT_DOUBLE_ESCAPED_DASH,
        SCRIPT_DOUBLE_ESCAPED_DASH_DASH,
        SCRIPT_DOUBLE_ESCAPED_LT,
        SCRIPT_DOUBLE_ESCAPE_START,
        SCRIPT_DOUBLE_ESCAPE_END,
        SCRIPT_ESCAPE_START,
        SCRIPT_ESCAPE_START_DASH,
        CDATA_SECTION,
        CDATA_SECTION_BRACKET,
        CDATA_SECTION_END,
        # Character references hold no token memory of their own (numeric ones
        # keep one saturated number); inside an attribute value the tag's span
        # is still checked when it is emitted.
        AMBIGUOUS_AMPERSAND,
        NUMERIC_CHARREF,
        HEX_CHARREF_START,
        DEC_CHARREF_START,
        HEX_CHARREF,
        DEC_CHARREF,
    }
)

_WS: Final = frozenset("\t\n\f ")
_ALPHA: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_ALNUM: Final = _ALPHA | frozenset("0123456789")
_ASCII_LOWER: Final = {ord(c): ord(c) + 32 for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"}

# Runs consumed in one step by the busy states.
_DATA_STOP: Final = re.compile(r"[<&\0]")
_RCDATA_STOP: Final = _DATA_STOP
_RAWTEXT_STOP: Final = re.compile(r"[<\0]")
_TAG_NAME_RUN: Final = re.compile(r"[^\t\n\f />\0]+")
_ATTR_NAME_RUN: Final = re.compile(r"[^\t\n\f />=\0\"'<]+")
_ATTR_DQ_RUN: Final = re.compile(r'[^"&\0]+')
_ATTR_SQ_RUN: Final = re.compile(r"[^'&\0]+")
_ATTR_UQ_RUN: Final = re.compile(r"[^\t\n\f >&\0\"'<=`]+")
_WS_RUN: Final = re.compile(r"[\t\n\f ]+")
_COMMENT_RUN: Final = re.compile(r"[^<\-\0]+")
_BOGUS_COMMENT_RUN: Final = re.compile(r"[^>\0]+")
_DOCTYPE_NAME_RUN: Final = re.compile(r"[^\t\n\f >\0]+")
_DQ_ID_RUN: Final = re.compile(r'[^"\0>]+')
_SQ_ID_RUN: Final = re.compile(r"[^'\0>]+")
_ESCAPED_RUN: Final = re.compile(r"[^\-<\0]+")
_ALPHA_RUN: Final = re.compile(r"[A-Za-z]+")

# A plainly written tag, matched in one go together with the text before it.
# The data state matches it only within a stretch of input free of "&" and NUL
# (``endpos`` is the next one), so the expressions need not exclude them: text and
# quoted values are then runs of "anything but one character", which the regular
# expression engine scans much faster than a character class. Two kinds of start
# tag, tried in this order:
#
# * common: no ASCII capital in the tag or attribute names (so nothing needs
#   lowercasing). The first attributes, up to three, written ``name="value"``
#   are captured by the expression itself (name, value), so most tags
#   need no second pass; the rest, from the first one written otherwise, are
#   left to ``_SIMPLE_ATTR.findall``.
# * general: names with capitals; they are lowercased through ``_NAME_CACHE``.
#
# End tags likewise: a lowercase name is used as is. The text and lowercase end
# tag that often follow a tag are matched with it, saving a match; after a start
# tag they count only if the tree builder left the tokenizer in the data state
# (the end tags cannot change it). Anything the expression does
# not match goes through the state machine, which is exact. An absent group reads
# as "" (``groups("")``): names are never empty, so a group is present when true.
_WSC: Final = r"[\t\n\f ]"
_LOWER_NAME: Final = r"[a-z][^\t\n\f />A-Z]*+"
_ANY_NAME: Final = r"[a-zA-Z][^\t\n\f />]*+"
# Written ``name="value"``, with no space around the "=" (the few that have some are taken
# by ``_LOWER_ATTRS`` instead): every optional part is a regex step tried on every tag.
_COMMON_ATTR_SRC: Final = rf"""{_WSC}++([^\t\n\f />="'<A-Z]++)="([^"]*+)""" + '"'
_VALUE: Final = r"""(?:"[^"]*+"|'[^']*+'|[^\t\n\f >"'<=`]++)"""
_LOWER_ATTRS: Final = rf"""(?:{_WSC}++[^\t\n\f />="'<A-Z]++(?:{_WSC}*+={_WSC}*+{_VALUE})?+)*+"""
_ANY_ATTRS: Final = rf"""(?:{_WSC}++[^\t\n\f />="'<]++(?:{_WSC}*+={_WSC}*+{_VALUE})?+)*+"""
_FAST_DATA: Final = re.compile(
    rf"""([^<]*+)<(?:"""
    # 2 name, 3-8 three (name, value) pairs, 9 further attributes, 10 "/"
    # (a ">" right after them is tried first: most tags end there, and it skips three steps)
    rf"""({_LOWER_NAME})(?:{_COMMON_ATTR_SRC}(?:{_COMMON_ATTR_SRC}(?:{_COMMON_ATTR_SRC})?+)?+)?+"""
    rf"""(?:>|({_LOWER_ATTRS}){_WSC}*+(/?)>)"""
    # 11 lowercase end tag name
    rf"""|/({_LOWER_NAME})>"""
    # 12-14 general start tag (name, attributes, "/"), 15 general end tag name
    rf"""|({_ANY_NAME})({_ANY_ATTRS}){_WSC}*+(/?)>|/({_ANY_NAME})>)"""
    # 16-17 text and a lowercase end tag right after: "<td>1</td>", "</a></li>"; then 18-19
    # another (nearly half of those are followed by one: "<a>x</a></li>", "</td></tr>")
    rf"""(?:([^<]*+)</({_LOWER_NAME})>(?:([^<]*+)</({_LOWER_NAME})>)?+)?+"""
)
# Applied only to attributes the expression above has matched, so they need no checking again.
_SIMPLE_ATTR: Final = re.compile(
    r"""[\t\n\f ]++([^\t\n\f />=]++)(?:[\t\n\f ]*+=[\t\n\f ]*+(?:"([^"]*+)"|'([^']*+)'|([^\t\n\f >]++)))?+"""
)

# A comment whose states would make no decision: not "<!-->" or "<!--->", no "--",
# "<!--" or NUL inside. Anything else goes through the comment states.
_FAST_COMMENT: Final = re.compile(r"<!--(?!>|->)((?:[^\-<\0]++|-(?!-)|<(?!!--))*+)-->")
# A DOCTYPE with a name and nothing else (``<!doctype html>``, on nearly every page): the
# DOCTYPE states would read it to a token with that name (ASCII-lowercased), no public or
# system identifier, no quirks flag and no parse error.
_FAST_DOCTYPE: Final = re.compile(r"<![Dd][Oo][Cc][Tt][Yy][Pp][Ee][\t\n\f ]++([^\t\n\f >\0]++)[\t\n\f ]*+>")
_Search = Callable[[str, int, int], "re.Match[str] | None"]
# last start tag name -> search for "</name" (any case), and in script data for "<!--" too.
_TEXT_END_FINDERS: Final[dict[tuple[str, bool], _Search]] = {}


def _text_end_finder(name: str, script: bool) -> _Search | None:
    """The search :meth:`Tokenizer._rawtext_fast` uses, or ``None`` for a name no end tag can have.

    End tag names in these states are read as ASCII letters only, so a last start
    tag name with anything else in it is never matched by an end tag.
    """
    finder = _TEXT_END_FINDERS.get((name, script))
    if finder is None:
        if not (name.isascii() and name.isalpha()):
            return None
        letters = "".join(f"[{c}{c.upper()}]" for c in name)
        finder = re.compile(f"<(?:/{letters}|!--)" if script else f"</{letters}").search
        if len(_TEXT_END_FINDERS) < 64:
            _TEXT_END_FINDERS[(name, script)] = finder
    return finder


# A plainly written start tag whose values may hold character references (matched
# only before the next NUL); its values go through _attr_value_refs.
_AMP_TAG: Final = re.compile(rf"""<({_ANY_NAME})({_ANY_ATTRS}){_WSC}*+(/?)>""")
# What follows an "&" in an attribute value: a name with ";", or a numeric reference with ";".
_ATTR_REF_HEAD: Final = re.compile(r"([A-Za-z][A-Za-z0-9]*+;)|#([0-9]++);|#[xX]([0-9A-Fa-f]++);")


def _attr_value_refs(value: str) -> str | None:
    """Decode the character references in a complete attribute value.

    Returns ``None`` when a reference would be a parse error, or when deciding it
    needs more than what is handled here; the states then read the tag. Handled:
    ``&`` before anything but an ASCII alphanumeric or ``#`` (kept), a known name
    with its ``;``, a numeric reference with its ``;`` and a valid code point, and
    a name without ``;`` that is kept as written because ``=`` or an alphanumeric
    follows (13.2.5.73), or that matches no name and is not followed by ``;``.
    """
    parts = value.split("&")
    out = [parts[0]]
    for part in parts[1:]:
        if not part or (part[0] != "#" and part[0] not in _ALNUM):
            out.append("&")
            out.append(part)
            continue
        m = _ATTR_REF_HEAD.match(part)
        if m is not None:
            name, dec, hexa = m.groups()
            if name is not None:
                replacement = NAMED.get(name)
                if replacement is not None:
                    out.append(replacement)
                    out.append(part[m.end() :])
                    continue
            elif len(dec or hexa) <= 8:
                text, error = numeric_reference(int(dec, 10) if dec is not None else int(hexa, 16))
                if error is None:
                    out.append(text)
                    out.append(part[m.end() :])
                    continue
                return None
        if part[0] == "#":
            return None
        end = match_named(part, 0, True)
        assert end is not None  # at_eof=True always decides
        if end == 0:
            # No name matches: the "&" and the alphanumerics are text, unless ";" follows them.
            run = _ALNUM_RUN.match(part)
            assert run is not None
            if part.startswith(";", run.end()):
                return None
        elif end >= len(part) or not (part[end] == "=" or part[end] in _ALNUM):
            return None  # decoded with a missing-semicolon error
        out.append("&")
        out.append(part)
    return "".join(out)


# "</" and the letters after it, in RCDATA, RAWTEXT or script data.
_TEXT_END_TAG_NAME: Final = re.compile(r"</([A-Za-z]*+)")
# What ends an appropriate end tag's name in those states (anything else makes it text).
_END_TAG_NAME_END: Final = frozenset("\t\n\f />")
# A named character reference written with its ";" (looked up in NAMED; if it is
# there, it is the longest match and needs no lookahead).
_NAMED_REF: Final = re.compile(r"&([A-Za-z][A-Za-z0-9]{0,31};)")


def _named_ref_end(buf: str, j: int, text: list[str]) -> int:
    """At ``buf[j] == "&"`` in text: if a complete, known ``&name;`` starts there, append
    its value to ``text`` and return the index after it; else -1 (the states decide)."""
    m = _NAMED_REF.match(buf, j)
    if m is not None:
        value = NAMED.get(m.group(1))
        if value is not None:
            text.append(value)
            return m.end()
    return -1

# An unfinished tag at the end of the input this short is re-read whole by the next feed().
_DEFER_MAX: Final = 2048
_CRLF: Final = re.compile("\r\n")

# Tag and attribute names seen so far -> ASCII-lowercased; bounded so hostile input cannot grow it.
_NAME_CACHE: Final[dict[str, str]] = {}
_NAME_CACHE_MAX: Final = 4096


def _never_match(s: str, pos: int, endpos: int) -> None:
    """Stands in for the fast-path regex when it is switched off."""
    return None


def _cache_name(raw: str) -> str:
    name = raw.lower() if raw.isascii() else raw.translate(_ASCII_LOWER)
    if len(_NAME_CACHE) < _NAME_CACHE_MAX and len(raw) <= 64:
        _NAME_CACHE[raw] = name
    return name


# Input preprocessing errors (13.2.3.5). Compiled on first use: only ``collect_errors``
# needs it, and compiling it is a good part of the cost of importing this module.
_PREPROCESS_ERRORS_SRC: Final = (
    # Surrogates as a regex escape, not a literal: compiled modules cannot hold surrogates in literals.
    "[\x01-\x08\x0b\x0e-\x1f\x7f-\x9f\ufdd0-\ufdef\ufffe\uffff\\ud800-\\udfff"
    + "".join(chr(p * 0x10000 + 0xFFFE) + chr(p * 0x10000 + 0xFFFF) for p in range(1, 17))
    + "]"
)
_LAZY_PATTERNS: Final[dict[str, re.Pattern[str]]] = {}


def _preprocess_errors() -> re.Pattern[str]:
    pattern = _LAZY_PATTERNS.get("preprocess")
    if pattern is None:
        pattern = _LAZY_PATTERNS["preprocess"] = re.compile(_PREPROCESS_ERRORS_SRC)
    return pattern


def _lower(s: str) -> str:
    """ASCII lowercase only, as the spec asks (``str.lower`` also folds non-ASCII)."""
    return s.lower() if s.isascii() else s.translate(_ASCII_LOWER)


_ASTRAL: Final = re.compile("[\U00010000-\U0010ffff]")


def _columns(s: str, start: int, end: int) -> int:
    """Columns taken by ``s[start:end]``, counted in UTF-16 code units as html5lib-tests does."""
    n = end - start
    if n:
        n += len(_ASTRAL.findall(s, start, end))
    return n


def _preprocess_error_code(c: str) -> str:
    o = ord(c)
    if 0xD800 <= o <= 0xDFFF:
        return "surrogate-in-input-stream"
    if 0xFDD0 <= o <= 0xFDEF or (o & 0xFFFE) == 0xFFFE:
        return "noncharacter-in-input-stream"
    return "control-character-in-input-stream"


class Tokenizer:
    """Push tokenizer: :meth:`feed` text as it arrives, :meth:`close` at the end.

    ``sink`` receives the tokens (:class:`TokenSink`). ``collect_errors`` turns on
    parse-error recording in :attr:`errors`. ``max_token_chars`` caps the input
    span of one unfinished token (see the module docstring). ``fast_path=False``
    sends every tag through the state machine (no whole-tag regex, no re-reading
    of a tag cut off by a chunk end), so tests can check both paths against the
    conformance suites; the tokens are the same either way.

    The tree builder steers the tokenizer with :meth:`switch_to` and
    :attr:`last_start_tag`, also from inside a ``start_tag`` callback: it learns
    the tokenizer from the tokenizer itself, whose constructor ends by calling the
    sink's optional ``attach_tokenizer`` (see :class:`TokenSink`). ``count_raw``
    sets :attr:`count_raw` (see the module docstring).
    """

    # Slots: a fixed layout makes the ~50 stores of each document's tokenizer and every
    # attribute read on the hot paths cheaper in the pure build (no per-instance dict).
    __slots__ = (
        "_attr_dup",
        "_attr_name",
        "_attr_name_parts",
        "_attr_value",
        "_attrs",
        "_base",
        "_buf",
        "_calls",
        "_charref_code",
        "_charref_prefix",
        "_closed",
        "_col_before",
        "_comment",
        "_cr_pending",
        "_dt_name",
        "_dt_public",
        "_dt_quirks",
        "_dt_system",
        "_eof",
        "_err_cursor",
        "_failed",
        "_fast_path",
        "_fed",
        "_fed_col",
        "_fed_lines",
        "_is_end",
        "_lines_before",
        "_pos",
        "_pre_errors",
        "_pre_next",
        "_raw_dropped",
        "_raw_extra",
        "_return_state",
        "_self_closing",
        "_start_text_end",
        "_state",
        "_stops",
        "_stops_buf",
        "_suspended",
        "_tag_name",
        "_temp",
        "_text",
        "_tok_start",
        "collect_errors",
        "count_raw",
        "errors",
        "last_start_tag",
        "markup_before",
        "markup_end",
        "max_token_chars",
        "sink",
    )


    def __init__(
        self,
        sink: TokenSink,
        *,
        collect_errors: bool = False,
        max_token_chars: int = DEFAULT_MAX_TOKEN_CHARS,
        fast_path: bool = True,
        count_raw: bool = False,
    ) -> None:
        if max_token_chars < 1:
            raise ValueError("max_token_chars must be positive")
        self.sink = sink
        self._fast_path = fast_path
        # A sink's optional fused "start tag, text, end tag" call (see TokenSink).
        self._start_text_end: Callable[[str, dict[str, str], bool, str, str], bool] | None = getattr(
            sink, "start_text_end", None
        )
        # The per-token calls (TokenCalls): natively, in a compiled build, when the sink is a tree builder.
        self._calls: TokenCalls = sink if isinstance(sink, TokenCalls) else _ForwardedTokens(sink)
        self.collect_errors = collect_errors
        self.max_token_chars = max_token_chars
        #: Parse errors as ``(code, line, col)``, when ``collect_errors`` is set.
        self.errors: list[tuple[str, int, int]] = []
        #: Name of the last start tag emitted (for "appropriate end tag token").
        self.last_start_tag: str | None = None

        self._buf = ""  # unconsumed input (a short lookahead, or the current chunk)
        self._pos = 0
        self._base = 0  # absolute offset of _buf[0] in the preprocessed stream
        self._eof = False
        self._closed = False
        self._failed = False
        self._cr_pending = False
        self._state = DATA
        self._return_state = DATA
        self._text: list[str] = []
        # The token being built.
        self._tok_start = 0
        # Names are kept as lists of pieces: a name fed in many small chunks must not
        # be rebuilt by repeated string concatenation (quadratic time).
        self._tag_name: list[str] = []
        self._is_end = False
        self._self_closing = False
        self._attrs: dict[str, str] = {}
        self._attr_name: str | None = None  # set when the name is complete
        self._attr_name_parts: list[str] = []
        self._attr_value: list[str] = []
        self._attr_dup = False
        self._comment: list[str] = []
        self._dt_name: list[str] | None = None
        self._dt_public: list[str] | None = None
        self._dt_system: list[str] | None = None
        self._dt_quirks = False
        self._temp: list[str] = []
        self._charref_code = 0
        self._charref_prefix = "&#"
        # Line/column bookkeeping for errors: newlines and the column before _buf[0].
        self._lines_before = 0
        self._col_before = 0
        self._err_cursor = (0, 0, 0)  # (buffer index, lines before it, its column), both 0-based
        # Input-stream errors found at feed time, reported in order with the others.
        self._pre_errors: list[tuple[int, str, int, int]] = []
        self._pre_next = 0
        self._fed = 0
        self._fed_lines = 0
        self._fed_col = 0
        #: Track :attr:`raw_consumed` (set before the first ``feed()``).
        self.count_raw = count_raw
        # Preprocessed offsets p where a raw LF (of a CR LF) was dropped just before
        # p, for those not yet discarded; the discarded ones are counted.
        self._raw_extra: deque[int] = deque()
        self._raw_dropped = 0
        self._suspended = False
        # Where the data state's fast path found the next "&" and NUL in _buf (see _s_data).
        self._stops_buf: str | None = None
        self._stops = (0, 0)
        #: Source positions (offsets in the preprocessed input: newlines normalised,
        #: counted in characters): the end of the last markup token emitted (tag,
        #: comment, DOCTYPE; the input's length once ``close()`` runs the EOF steps),
        #: and its value before that token. Set before the sink hears of the token,
        #: never moved by text: text is split by chunk boundaries, markup is not, so a
        #: sink that reads them while handling any token gets the same values in every
        #: chunking (the tree builder's sinks record elements' source spans from them).
        self.markup_end = 0
        self.markup_before = 0
        # A two-way dependency: the sink (the tree builder) is made first, since every token
        # goes to it, yet it steers this tokenizer (and its tree sink reads the positions
        # above). So the tokenizer, complete now, introduces itself to the sink it is made with.
        attach: Callable[[Tokenizer], None] | None = getattr(sink, "attach_tokenizer", None)
        if attach is not None:
            attach(self)

    # --- public API -------------------------------------------------------------------

    @property
    def pending_chars(self) -> int:
        """Characters of input held back unconsumed (lookahead) between ``feed()`` calls."""
        return len(self._buf) - self._pos

    @property
    def raw_consumed(self) -> int:
        """Characters of the input as fed (a CR LF counting two) consumed so far.

        Only meaningful when :attr:`count_raw` was set before the first ``feed()``.
        """
        p = self._base + self._pos
        return p + self._raw_dropped + sum(1 for q in self._raw_extra if q <= p)

    def suspend(self) -> None:
        """From a sink callback: stop right after the token being emitted.

        ``feed()`` (or :meth:`resume`) returns with the rest of its input
        unconsumed; call :meth:`resume` or :meth:`discard_unconsumed` before the
        next ``feed()``.
        """
        self._suspended = True

    @property
    def suspended(self) -> bool:
        """Whether :meth:`suspend` stopped the tokenizer and it has not been resumed."""
        return self._suspended

    def resume(self) -> None:
        """Go on with the input left unconsumed by :meth:`suspend`."""
        if self._closed or self._failed:
            raise ParserStateError("resume() after close() or after an error")
        self._suspended = False
        self._guarded_run()

    def discard_unconsumed(self) -> None:
        """Forget the unconsumed input, as if the input had ended after the last token.

        The next ``feed()`` continues right after the last consumed character
        (:attr:`raw_consumed`), with no CR pending. Unconsumed input is at most the
        short lookahead described in the module docstring, or the rest of the
        chunk after a :meth:`suspend`.
        """
        if self._closed or self._failed:
            raise ParserStateError("discard_unconsumed() after close() or after an error")
        pos = self._pos
        if pos:
            self._discard(pos)
        self._buf = ""
        self._pos = 0
        self._raw_extra.clear()
        self._cr_pending = False
        self._suspended = False
        if self.collect_errors:
            self._err_cursor = (0, self._lines_before, self._col_before)
            del self._pre_errors[self._pre_next :]
            self._fed = self._base
            self._fed_lines = self._lines_before
            self._fed_col = self._col_before

    def switch_to(self, state: str) -> None:
        """Switch to a state named as in html5lib-tests, e.g. ``"RCDATA state"``."""
        try:
            self._state = STATE_NAMES[state]
        except KeyError:
            raise ValueError(f"unknown tokenizer state {state!r}") from None

    def feed(self, text: str) -> None:
        """Tokenize ``text``, the next piece of the input; suspends wherever it ends."""
        if self._closed or self._failed:
            raise ParserStateError("feed() after close() or after an error")
        if self._suspended:
            raise ParserStateError("feed() while suspended; resume() or discard_unconsumed() first")
        if not text:
            return
        if self._cr_pending:
            self._cr_pending = False
            if text[0] == "\n":
                text = text[1:]
                if self.count_raw:
                    self._raw_extra.append(self._base + len(self._buf))
                if not text:
                    return
        if "\r" in text:
            if text[-1] == "\r":
                self._cr_pending = True
            if self.count_raw and "\r\n" in text:
                self._note_crlf(text)
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        if self.collect_errors:
            self._scan_input_errors(text)
        pos = self._pos
        if pos:
            self._discard(pos)
            self._buf = self._buf[pos:] + text if pos < len(self._buf) else text
            self._pos = 0
        elif self._buf:
            self._buf += text
        else:
            self._buf = text
        self._guarded_run()

    def close(self) -> None:
        """Signal end of input: run the EOF steps of the current state, then ``sink.eof()``."""
        if self._closed or self._failed:
            raise ParserStateError("close() called twice or after an error")
        if self._suspended:
            raise ParserStateError("close() while suspended; resume() or discard_unconsumed() first")
        self._closed = True
        self._eof = True
        self._guarded_run()
        if self.collect_errors:
            self._flush_pre_errors(None)
        # what the tree builder pops at the end of the input ends with the input
        self.markup_before = self.markup_end
        self.markup_end = self._base + len(self._buf)
        self.sink.eof()

    # --- machinery --------------------------------------------------------------------

    def _note_crlf(self, text: str) -> None:
        """Record where each CR LF of raw ``text`` (about to be fed) loses its LF."""
        at = self._base + len(self._buf) + 1
        extra = self._raw_extra
        for n, m in enumerate(_CRLF.finditer(text)):
            extra.append(at + m.start() - n)

    def _guarded_run(self) -> None:
        try:
            self._run()
            self._stops_buf = None  # the buffer is about to change; hold no reference to it
            self._flush_text()
            if self.collect_errors:
                self._flush_pre_errors(self._base + self._pos - 1)
            self._check_limits()
            # Drop consumed input now rather than at the next feed().
            pos = self._pos
            if pos:
                self._discard(pos)
                self._buf = self._buf[pos:]
                self._pos = 0
        except BaseException:
            self._failed = True
            raise

    def _run(self) -> None:
        handlers = _HANDLERS
        eof_handlers = _EOF_HANDLERS
        while True:
            if self._pos >= len(self._buf):
                if not self._eof or not eof_handlers[self._state](self):
                    return
            elif self._state == DATA:
                # Most input is handled in the data state: a direct method call (typed
                # when compiled), not one through the table of handlers.
                if not self._s_data() or self._suspended:
                    return
            elif not handlers[self._state](self) or self._suspended:
                return

    def _check_limits(self) -> None:
        cap = self.max_token_chars
        # Unconsumed input after a suspend() is the rest of the chunk, not lookahead.
        if len(self._buf) - self._pos > cap and not self._suspended:
            self._limit()
        if self._state not in _TEXT_STATES and self._base + self._pos - self._tok_start > cap:
            self._limit()

    def _limit(self) -> None:
        raise LimitExceeded(
            f"a token spans more than {self.max_token_chars} characters",
            limit="max_token_chars",
            value=self.max_token_chars,
        )

    def _discard(self, n: int) -> None:
        """Forget ``_buf[:n]``, keeping the line/column bookkeeping right."""
        if self.collect_errors:
            buf = self._buf
            nl = buf.count("\n", 0, n)
            if nl:
                self._lines_before += nl
                start = buf.rfind("\n", 0, n) + 1
                self._col_before = _columns(buf, start, n)
            else:
                self._col_before += _columns(buf, 0, n)
            self._err_cursor = (0, self._lines_before, self._col_before)
        self._base += n
        extra = self._raw_extra
        if extra:
            base = self._base
            while extra and extra[0] <= base:
                extra.popleft()
                self._raw_dropped += 1

    def _scan_input_errors(self, text: str) -> None:
        line = self._fed_lines
        col = self._fed_col
        last = 0
        for m in _preprocess_errors().finditer(text):
            i = m.start()
            nl = text.count("\n", last, i)
            if nl:
                line += nl
                col = _columns(text, text.rfind("\n", last, i) + 1, i)
            else:
                col += _columns(text, last, i)
            last = i
            self._pre_errors.append((self._fed + i, _preprocess_error_code(m.group()), line + 1, col + 1))
        n = len(text)
        nl = text.count("\n", last)
        if nl:
            line += nl
            col = _columns(text, text.rfind("\n") + 1, n)
        else:
            col += _columns(text, last, n)
        self._fed_lines = line
        self._fed_col = col
        self._fed += len(text)

    def _flush_pre_errors(self, upto: int | None) -> None:
        """Report input-stream errors at absolute offsets ``<= upto`` (all if ``None``)."""
        pre = self._pre_errors
        i = self._pre_next
        n = len(pre)
        while i < n and (upto is None or pre[i][0] <= upto):
            _, code, line, col = pre[i]
            self.errors.append((code, line, col))
            i += 1
        if i == n:
            pre.clear()
            i = 0
        self._pre_next = i

    def _err(self, code: str, i: int) -> None:
        """Record parse error ``code`` at index ``i`` of the current buffer."""
        if not self.collect_errors:
            return
        self._flush_pre_errors(self._base + i)
        buf = self._buf
        # Count from the previous error's position when possible, so that many
        # errors in one large chunk cost linear time, not quadratic.
        at, lines, col = self._err_cursor
        if i < at:
            at, lines, col = 0, self._lines_before, self._col_before
        nl = buf.count("\n", at, i)
        if nl:
            lines += nl
            col = _columns(buf, buf.rfind("\n", at, i) + 1, i)
        else:
            col += _columns(buf, at, i)
        self._err_cursor = (i, lines, col)
        self.errors.append((code, lines + 1, col + 1))

    def _flush_text(self) -> None:
        if self._text:
            data = "".join(self._text)
            self._text.clear()
            if data:
                self._calls.characters(data)

    # --- token emission ---------------------------------------------------------------

    def _check_span(self) -> None:
        if self._base + self._pos - self._tok_start > self.max_token_chars:
            self._limit()

    def _new_tag(self, is_end: bool) -> None:
        self._tag_name = []
        self._is_end = is_end
        self._self_closing = False
        self._attrs = {}
        self._attr_name = None
        self._attr_value = []
        self._attr_dup = False

    def _start_attr(self, first: str) -> None:
        if self._attr_name is not None and not self._attr_dup:
            self._attrs[self._attr_name] = "".join(self._attr_value)
        self._attr_name = None
        self._attr_name_parts = [first] if first else []
        self._attr_value = []
        self._attr_dup = False

    def _leave_attr_name(self, i: int) -> None:
        """The name is complete: check for a duplicate; ``i`` is the error position."""
        self._attr_name = "".join(self._attr_name_parts)
        if self._attr_name in self._attrs:
            self._attr_dup = True
            self._err("duplicate-attribute", i)

    def _emit_tag(self) -> None:
        """Emit the current tag; the caller has already set the state to return to."""
        self._check_span()
        if self._attr_name is not None and not self._attr_dup:
            self._attrs[self._attr_name] = "".join(self._attr_value)
        self._attr_name = None
        if self._text:
            self._flush_text()
        name = "".join(self._tag_name)
        self.markup_before = self.markup_end
        self.markup_end = self._base + self._pos
        if self._is_end:
            if self._attrs:
                self._err("end-tag-with-attributes", self._pos - 1)
            if self._self_closing:
                self._err("end-tag-with-trailing-solidus", self._pos - 1)
            self._calls.end_tag(name)
        else:
            self.last_start_tag = name
            self._calls.start_tag(name, self._attrs, self._self_closing)

    def _emit_comment(self) -> None:
        self._check_span()
        if self._text:
            self._flush_text()
        self.markup_before = self.markup_end
        self.markup_end = self._base + self._pos
        self.sink.comment("".join(self._comment))

    def _new_doctype(self) -> None:
        self._dt_name = None
        self._dt_public = None
        self._dt_system = None
        self._dt_quirks = False

    def _dt_part(self, which: int) -> list[str]:
        """The DOCTYPE name (0), public (1) or system (2) identifier being built."""
        if which == 0:
            if self._dt_name is None:
                self._dt_name = []
            return self._dt_name
        if which == 1:
            if self._dt_public is None:
                self._dt_public = []
            return self._dt_public
        if self._dt_system is None:
            self._dt_system = []
        return self._dt_system

    def _emit_doctype(self) -> None:
        self._check_span()
        if self._text:
            self._flush_text()
        name, public, system = self._dt_name, self._dt_public, self._dt_system
        self.markup_before = self.markup_end
        self.markup_end = self._base + self._pos
        self.sink.doctype(
            None if name is None else "".join(name),
            None if public is None else "".join(public),
            None if system is None else "".join(system),
            self._dt_quirks,
        )

    # --- character references (13.2.5.72 ff.) -----------------------------------------

    # 13.2.5.72 Character reference state
    # https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state
    # 13.2.5.73 Named character reference state
    # https://html.spec.whatwg.org/multipage/parsing.html#named-character-reference-state
    # Neither is a state here: the states that meet an "&" call this method, which looks the
    # name up with match_named; a numeric reference goes on in the numeric character reference
    # state. In text, _named_ref_end first takes a known name written with its ";" (fast path).
    def _charref(self, in_attr: bool, return_state: int) -> bool:
        """Handle the ``&`` at ``_buf[_pos]``; ``False`` if more input is needed to decide."""
        buf = self._buf
        pos = self._pos
        n = len(buf)
        if pos + 1 >= n:
            if not self._eof:
                return False
            self._charref_out("&", in_attr)
            self._pos = pos + 1
            return True
        c = buf[pos + 1]
        if c == "#":
            # Numeric references are read by states of their own: their digits can
            # run on without bound, so they are not kept as lookahead.
            self._pos = pos + 2
            self._charref_code = 0
            self._charref_prefix = "&#"
            self._return_state = return_state
            self._state = NUMERIC_CHARREF
            return True
        if c not in _ALNUM:
            self._charref_out("&", in_attr)
            self._pos = pos + 1
            return True
        end = match_named(buf, pos + 1, self._eof)
        if end is None:
            return False
        if end == pos + 1:
            # No name matches: the "&" is literal and the ambiguous ampersand state
            # takes the alphanumeric run.
            self._charref_out("&", in_attr)
            self._pos = pos + 1
            self._return_state = return_state
            self._state = AMBIGUOUS_AMPERSAND
            return True
        name = buf[pos + 1 : end]
        if name[-1] != ";":
            if in_attr:
                if end >= n and not self._eof:
                    return False  # the next character decides
                if end < n and (buf[end] == "=" or buf[end] in _ALNUM):
                    # Legacy name without ";" followed by "=" or alphanumeric: literal.
                    self._charref_out(buf[pos:end], in_attr)
                    self._pos = end
                    return True
            self._err("missing-semicolon-after-character-reference", end)
        self._charref_out(NAMED[name], in_attr)
        self._pos = end
        return True

    def _charref_out(self, s: str, in_attr: bool) -> None:
        if in_attr:
            self._attr_value.append(s)
        else:
            self._text.append(s)

    # 13.2.5.75 Numeric character reference state
    # https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-state
    def _s_numeric_charref(self) -> bool:
        c = self._buf[self._pos]
        if c == "x" or c == "X":
            self._pos += 1
            self._charref_prefix = "&#" + c
            self._state = HEX_CHARREF_START
        else:
            self._state = DEC_CHARREF_START
        return True

    def _eof_numeric_charref(self) -> bool:
        self._state = DEC_CHARREF_START
        return True

    # 13.2.5.76 Hexadecimal character reference start state
    # https://html.spec.whatwg.org/multipage/parsing.html#hexadecimal-character-reference-start-state
    def _s_hex_charref_start(self) -> bool:
        if self._buf[self._pos] in _HEX_DIGITS:
            self._state = HEX_CHARREF
        else:
            self._no_digits()
        return True

    # 13.2.5.77 Decimal character reference start state
    # https://html.spec.whatwg.org/multipage/parsing.html#decimal-character-reference-start-state
    def _s_dec_charref_start(self) -> bool:
        if self._buf[self._pos] in _DEC_DIGITS:
            self._state = DEC_CHARREF
        else:
            self._no_digits()
        return True

    def _no_digits(self) -> bool:
        self._err("absence-of-digits-in-numeric-character-reference", self._pos)
        self._charref_out(self._charref_prefix, self._return_state in _ATTR_VALUE_STATES)
        self._state = self._return_state
        return True

    # 13.2.5.78 Hexadecimal character reference state
    # https://html.spec.whatwg.org/multipage/parsing.html#hexadecimal-character-reference-state
    # Read by _charref_digits below (shared with the decimal state).
    def _s_hex_charref(self) -> bool:
        return self._charref_digits(_HEX_RUN, 16)

    # 13.2.5.79 Decimal character reference state
    # https://html.spec.whatwg.org/multipage/parsing.html#decimal-character-reference-state
    # Read by _charref_digits below (shared with the hexadecimal state).
    def _s_dec_charref(self) -> bool:
        return self._charref_digits(_DEC_RUN, 10)

    def _charref_digits(self, run: re.Pattern[str], base: int) -> bool:
        buf = self._buf
        pos = self._pos
        m = run.match(buf, pos)
        if m is not None:
            digits = m.group()
            code = self._charref_code
            if not code:
                digits = digits.lstrip("0")
            # Saturate: anything above U+10FFFF is replaced the same way.
            if digits:
                if len(digits) > 8:
                    code = 0x110000
                else:
                    code = min(code * base ** len(digits) + int(digits, base), 0x110000)
            self._charref_code = code
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        if buf[pos] == ";":
            self._pos = pos + 1
        else:
            self._err("missing-semicolon-after-character-reference", pos)
        self._numeric_end()
        return True

    def _eof_charref_digits(self) -> bool:
        self._err("missing-semicolon-after-character-reference", self._pos)
        self._numeric_end()
        return True

    # 13.2.5.80 Numeric character reference end state
    # https://html.spec.whatwg.org/multipage/parsing.html#numeric-character-reference-end-state
    # Not a state here: run where the digits end (_charref_digits, _eof_charref_digits).
    def _numeric_end(self) -> None:
        text, error = numeric_reference(self._charref_code)
        if error is not None:
            self._err(error, self._pos)
        self._charref_out(text, self._return_state in _ATTR_VALUE_STATES)
        self._state = self._return_state

    # 13.2.5.74 Ambiguous ampersand state
    # https://html.spec.whatwg.org/multipage/parsing.html#ambiguous-ampersand-state
    def _s_ambiguous_ampersand(self) -> bool:
        buf = self._buf
        pos = self._pos
        in_attr = self._return_state in _ATTR_VALUE_STATES
        m = _ALNUM_RUN.match(buf, pos)
        if m:
            self._charref_out(m.group(), in_attr)
            pos = m.end()
            self._pos = pos
            if pos >= len(buf):
                return True
        if buf[pos] == ";":
            self._err("unknown-named-character-reference", pos)
        self._state = self._return_state
        return True

    def _eof_reconsume_return(self) -> bool:
        self._state = self._return_state
        return True

    # --- text states ------------------------------------------------------------------

    # 13.2.5.1 Data state — https://html.spec.whatwg.org/multipage/parsing.html#data-state
    # Its fast path reads plainly written tags (and the text and end tag after one), comments
    # and DOCTYPEs whole, and named references with their ";" (_named_ref_end); the tag,
    # comment and DOCTYPE states below are the exact fallback.
    def _s_data(self) -> bool:
        buf = self._buf
        pos = self._pos
        text = self._text
        sink = self.sink
        cap = self.max_token_chars
        fast_refs = self._fast_path
        fast = _FAST_DATA.match if fast_refs else _never_match
        findall = _SIMPLE_ATTR.findall
        cache = _NAME_CACHE
        calls = self._calls
        fused = self._start_text_end
        base = self._base  # (constant while this runs: the buffer is not discarded under it)
        # A whole document is one buffer (base 0): its positions are the match's own ints,
        # stored without an addition (which makes a new int object per token).
        based = base != 0
        # The fast path looks only at input before the next "&" or NUL (``limit``).
        # Where they are is remembered for this buffer (``_stops``): script and style
        # elements leave and re-enter this state, and searching the rest of the buffer
        # again each time would cost time proportional to the buffer per element.
        n = len(buf)
        if self._stops_buf is buf:
            amp, nul = self._stops
            limit = amp if amp < nul else nul
        else:
            amp = nul = limit = -1
        while True:
            if pos > limit:
                # Past that "&" or NUL: find the next (each search starts where the last ended).
                if pos > amp:
                    amp = buf.find("&", pos)
                    if amp < 0:
                        amp = n
                if pos > nul:
                    nul = buf.find("\0", pos)
                    if nul < 0:
                        nul = n
                limit = amp if amp < nul else nul
                self._stops_buf = buf
                self._stops = (amp, nul)
            # Fast path: plain text up to a plainly written tag, matched in one go.
            # (self._pos is only brought up to date before leaving the loop.)
            m = fast(buf, pos, limit)
            if m is not None:
                (
                    piece,
                    name,
                    n1,
                    v1,
                    n2,
                    v2,
                    n3,
                    v3,
                    more,
                    slash,
                    end_name,
                    any_name,
                    any_attrs,
                    any_slash,
                    any_end,
                    text2,
                    end2,
                    text3,
                    end3,
                ) = m.groups("")
                end = m.end()
                if end - pos > cap:
                    if end3:
                        # The second end tag is left to the next match, which checks it as
                        # on its own: the tokens before it are emitted first either way.
                        end3 = ""
                        end = m.start(18)
                    if end - pos > cap:
                        self._check_fast_spans(m, pos)
                if piece:
                    if text:
                        text.append(piece)
                        self._flush_text()
                    else:
                        calls.characters(piece)
                elif text:
                    self._flush_text()
                # Lowercase start tags, the commonest kind, are told apart first.
                if name:
                    if not n1:
                        attrs = {}
                    elif not n2:
                        attrs = {n1: v1}
                    elif not n3:
                        attrs = {n1: v1, n2: v2}
                        if len(attrs) != 2:
                            return self._fast_dup(pos + len(piece))
                    else:
                        attrs = {n1: v1, n2: v2, n3: v3}
                        if len(attrs) != 3:
                            return self._fast_dup(pos + len(piece))
                    if more:
                        # Names here are lowercase already.
                        found = findall(more)
                        count = len(attrs) + len(found)
                        for an, dq, sq, uq in found:
                            attrs.setdefault(an, dq or sq or uq)
                        if len(attrs) != count:
                            return self._fast_dup(pos + len(piece))
                elif end_name or any_end:
                    self.markup_before = self.markup_end
                    if end2:
                        # (group positions from group lengths: see the start tag's case below)
                        after2 = end - (len(text3) + len(end3) + 3) if end3 else end
                        at = after2 - (len(text2) + len(end2) + 3)
                    else:
                        at = end
                    self.markup_end = base + at if based else at
                    calls.end_tag(end_name or cache.get(any_end) or _cache_name(any_end))
                    if end2:
                        if text2:
                            calls.characters(text2)
                        self.markup_before = self.markup_end
                        at = after2
                        self.markup_end = base + at if based else at
                        calls.end_tag(end2)
                        if end3:
                            if text3:
                                calls.characters(text3)
                            self.markup_before = self.markup_end
                            self.markup_end = base + end if based else end
                            calls.end_tag(end3)
                    pos = end
                    continue
                else:
                    name = cache.get(any_name) or _cache_name(any_name)
                    slash = any_slash
                    if any_attrs:
                        found = findall(any_attrs)
                        attrs = {(cache.get(an) or _cache_name(an)): dq or sq or uq for an, dq, sq, uq in found}
                        if len(attrs) != len(found):
                            return self._fast_dup(pos + len(piece))
                    else:
                        attrs = {}
                self.last_start_tag = name
                self.markup_before = self.markup_end
                if end2:
                    # Where the text and end tag after the tag start (group 16), and the second
                    # text (group 18; else the end): "text</name>" leaves nothing uncaptured, so
                    # the lengths of the groups give them. A Match.start() call costs more in the
                    # compiled build (a generic method call); small sums first: in the pure build
                    # those are cached int objects, positions are not.
                    after2 = end - (len(text3) + len(end3) + 3) if end3 else end
                    start16 = after2 - (len(text2) + len(end2) + 3)
                    if fused is not None:
                        # (the positions the three separate calls would leave at the pop)
                        at = after2
                        self.markup_end = base + at if based else at
                        if calls.start_text_end(name, attrs, slash == "/", text2, end2):
                            # The sink took the start tag, the text and the end tag in one call;
                            # it does so only for elements that leave the tokenizer state alone.
                            self.markup_before = base + start16 if based else start16  # (as the separate calls leave it)
                            if end3:
                                if text3:
                                    calls.characters(text3)
                                self.markup_before = self.markup_end
                                self.markup_end = base + end if based else end
                                calls.end_tag(end3)
                            pos = end
                            continue
                    self.markup_end = base + start16 if based else start16
                else:
                    self.markup_end = base + end if based else end
                calls.start_tag(name, attrs, slash == "/")
                if end2:
                    if self._state != DATA or self._suspended:
                        # The text and end tag after it were matched for the data state.
                        self._pos = start16
                        return True
                    if text2:
                        calls.characters(text2)
                    self.markup_before = self.markup_end
                    at = after2
                    self.markup_end = base + at if based else at
                    calls.end_tag(end2)
                    if end3:
                        if text3:
                            calls.characters(text3)
                        self.markup_before = self.markup_end
                        self.markup_end = base + end if based else end
                        calls.end_tag(end3)
                elif self._state != DATA or self._suspended:
                    self._pos = end
                    return True
                pos = end
                continue
            m = _DATA_STOP.search(buf, pos)
            if m is None:
                text.append(buf[pos:])
                self._pos = len(buf)
                return True
            j = m.start()
            if j > pos:
                text.append(buf[pos:j])
            c = buf[j]
            if c == "<":
                if buf.startswith("!--", j + 1) and self._fast_path:
                    m = _FAST_COMMENT.match(buf, j)
                    if m is not None:
                        # A comment without "--", "<!--" or NUL inside: no decisions to make.
                        end = m.end()
                        if end - j > cap:
                            self._pos = j
                            self._limit()
                        if text:
                            self._flush_text()
                        self.markup_before = self.markup_end
                        self.markup_end = base + end if based else end
                        sink.comment(m.group(1))
                        pos = end
                        continue
                elif buf.startswith("!", j + 1) and self._fast_path:
                    m = _FAST_DOCTYPE.match(buf, j)
                    if m is not None and m.end() - j <= cap:
                        if text:
                            self._flush_text()
                        self.markup_before = self.markup_end
                        self.markup_end = base + m.end() if based else m.end()
                        sink.doctype(_lower(m.group(1)), None, None, False)
                        pos = m.end()
                        if self._state != DATA or self._suspended:
                            self._pos = pos
                            return True
                        continue
                if fast_refs and j < nul and limit < n:
                    # A start tag the fast path could not take because of an "&" in it.
                    m = _AMP_TAG.match(buf, j, nul)
                    if m is not None and self._amp_tag(m):
                        if self._state != DATA or self._suspended:
                            return True
                        pos = self._pos
                        continue
                held = len(buf) - j
                if not self._eof and held <= _DEFER_MAX and held <= cap and self._fast_path and buf.find(">", j) < 0:
                    # The input ends inside this tag: keep it unconsumed so that the
                    # next feed() matches it whole on the fast path (bounded re-scan).
                    # Never more than max_token_chars: the "<" may start no tag at all.
                    self._pos = j
                    return False
                self._tok_start = self._base + j
                self._pos = j + 1
                self._state = TAG_OPEN
                return True
            if c == "&":
                if fast_refs:
                    pos = _named_ref_end(buf, j, text)
                    if pos >= 0:
                        continue
                self._pos = j
                if not self._charref(False, DATA):
                    return False
                if self._state != DATA:
                    return True
                pos = self._pos
                continue
            self._err("unexpected-null-character", j)
            text.append("\0")
            pos = j + 1

    def _amp_tag(self, m: re.Match[str]) -> bool:
        """Emit the start tag ``m`` (see ``_AMP_TAG``) unless a value needs the states; ``False`` then."""
        cache = _NAME_CACHE
        attrs: dict[str, str] = {}
        raw_attrs = m[2]
        if raw_attrs:
            found = _SIMPLE_ATTR.findall(raw_attrs)
            for raw, dq, sq, uq in found:
                value: str | None = dq or sq or uq
                if value and "&" in value:
                    value = _attr_value_refs(value)
                    if value is None:
                        return False
                attrs.setdefault(cache.get(raw) or _cache_name(raw), value or "")
            if len(attrs) != len(found):
                return False  # a duplicate attribute: the states report it
        start = m.start()
        end = m.end()
        if end - start > self.max_token_chars:
            self._pos = start
            self._limit()
        if self._text:
            self._flush_text()
        raw = m[1]
        name = cache.get(raw) or _cache_name(raw)
        self._pos = end
        self.last_start_tag = name
        self.markup_before = self.markup_end
        self.markup_end = self._base + end
        self._calls.start_tag(name, attrs, m[3] == "/")
        return True

    def _check_fast_spans(self, m: re.Match[str], pos: int) -> None:
        """Apply ``max_token_chars`` to the tags of a fast-path match (its text is not capped)."""
        cap = self.max_token_chars
        start = pos + len(m[1])
        end = m.start(16) if m[17] else m.end()
        if end - start > cap:
            self._pos = start
            self._limit()
        # the end tag after it (not a second one: see _s_data), from the end of the text before it
        if m[17] and m.end(17) + 1 - m.end(16) > cap:
            self._pos = m.end(16)
            self._limit()

    def _fast_dup(self, start: int) -> bool:
        """A tag the fast path matched has a duplicate attribute: let the state machine report it exactly."""
        self._tok_start = self._base + start
        self._pos = start + 1
        self._state = TAG_OPEN
        return True

    # 13.2.5.2 RCDATA state — https://html.spec.whatwg.org/multipage/parsing.html#rcdata-state
    # A "<" is first tried as the appropriate end tag without the states (_lt_in_text).
    def _s_rcdata(self) -> bool:
        buf = self._buf
        pos = self._pos
        text = self._text
        while True:
            m = _RCDATA_STOP.search(buf, pos)
            if m is None:
                text.append(buf[pos:])
                self._pos = len(buf)
                return True
            j = m.start()
            if j > pos:
                text.append(buf[pos:j])
            c = buf[j]
            if c == "<":
                if self._fast_path:
                    pos = self._lt_in_text(j, False)
                    if pos >= 0:
                        continue
                    if pos == -1:
                        return True
                self._tok_start = self._base + j
                self._pos = j + 1
                self._state = RCDATA_LT
                return True
            if c == "&":
                if self._fast_path:
                    pos = _named_ref_end(buf, j, text)
                    if pos >= 0:
                        continue
                self._pos = j
                return self._charref(False, RCDATA)
            self._err("unexpected-null-character", j)
            text.append("\ufffd")
            pos = j + 1

    def _rawtext_like(self, lt_state: int) -> bool:
        buf = self._buf
        pos = self._pos
        text = self._text
        fast = self._fast_path
        last_start_tag = self.last_start_tag
        if fast and last_start_tag is not None:
            find_end = _text_end_finder(last_start_tag, lt_state == SCRIPT_LT)
            if find_end is not None:
                return self._rawtext_fast(find_end, lt_state, last_start_tag)
        while True:
            j = buf.find("<", pos)
            k = buf.find("\0", pos, j if j >= 0 else len(buf))
            if k >= 0:
                if k > pos:
                    text.append(buf[pos:k])
                self._err("unexpected-null-character", k)
                text.append("\ufffd")
                pos = k + 1
                continue
            if j < 0:
                text.append(buf[pos:])
                self._pos = len(buf)
                return True
            if j > pos:
                text.append(buf[pos:j])
            if fast:
                pos = self._lt_in_text(j, lt_state == SCRIPT_LT)
                if pos >= 0:
                    continue
                if pos == -1:
                    return True
            self._tok_start = self._base + j
            self._pos = j + 1
            self._state = lt_state
            return True

    def _rawtext_fast(self, find_end: _Search, lt_state: int, end_name: str) -> bool:
        """RAWTEXT or script data, jumping from one place that matters to the next.

        Only ``</`` followed by the last start tag's name, ``<!--`` in script data
        and NUL can do anything but add text in these states; ``find_end`` finds
        the first two (see :func:`_text_end_finder`), and NULs are bounded by
        ``endpos``. Where the next character is needed and the input has ended, or
        the states have a decision to make (an end tag with attributes, an escape),
        the state machine goes on from the ``<``.
        """
        buf = self._buf
        pos = self._pos
        text = self._text
        n = len(buf)
        nul = self._next_nul(buf, pos)
        while True:
            m = find_end(buf, pos, nul)
            if m is None:
                if nul >= n:
                    # The input may end in the first characters of an end tag: the
                    # states take over from a "<" that near the end.
                    j = buf.rfind("<", max(pos, n - len(self.last_start_tag or "") - 3), n)
                    if j >= 0:
                        if j > pos:
                            text.append(buf[pos:j])
                        self._tok_start = self._base + j
                        self._pos = j + 1
                        self._state = lt_state
                        return True
                if nul > pos:
                    text.append(buf[pos:nul])
                if nul >= n:
                    self._pos = n
                    return True
                self._err("unexpected-null-character", nul)
                text.append("\ufffd")
                pos = nul + 1
                nul = self._next_nul(buf, pos)
                continue
            j = m.start()
            if j > pos:
                text.append(buf[pos:j])
            end = m.end()
            if end < n and buf[j + 1] == "/":
                c = buf[end]
                if c == ">":
                    self._pos = end + 1
                    self._state = DATA
                    if text:
                        self._flush_text()
                    self.markup_before = self.markup_end
                    self.markup_end = self._base + end + 1
                    self._calls.end_tag(end_name)
                    return True
                if c not in _END_TAG_NAME_END:
                    # A longer name, or something else after it: text.
                    text.append(buf[j:end])
                    pos = end
                    continue
            self._tok_start = self._base + j
            self._pos = j + 1
            self._state = lt_state
            return True

    def _next_nul(self, buf: str, pos: int) -> int:
        """Index of the next NUL in ``buf`` at or after ``pos``, or ``len(buf)``; remembered per buffer."""
        if self._stops_buf is buf:
            amp, nul = self._stops
            if nul >= pos:
                return nul
        else:
            amp = -1
        nul = buf.find("\0", pos)
        if nul < 0:
            nul = len(buf)
        self._stops_buf = buf
        self._stops = (amp, nul)
        return nul

    def _lt_in_text(self, j: int, script: bool) -> int:
        """At ``_buf[j] == "<"`` in RCDATA, RAWTEXT or script data: decide without the states.

        Returns where the text goes on after a ``<`` that turned out to be text
        (appended to the pending text), -1 when a plain appropriate end tag was
        emitted (the state is DATA now), or -2 when the states must decide: an
        end tag with attributes or ``/``, ``<!`` in script data, or the input
        ends too soon to tell. None of these steps reports a parse error.
        """
        buf = self._buf
        k = j + 1
        if k >= len(buf):
            return -2
        if buf[k] != "/":
            if script and buf[k] == "!":
                return -2
            self._text.append("<")
            return k
        m = _TEXT_END_TAG_NAME.match(buf, j)
        assert m is not None  # the pattern matches "</" alone
        end = m.end()
        if end >= len(buf):
            return -2
        raw = m.group(1)
        c = buf[end]
        name = self.last_start_tag
        if raw and c in _END_TAG_NAME_END and name is not None and _lower(raw) == name:
            if c != ">":
                return -2
            self._pos = end + 1
            self._state = DATA
            if self._text:
                self._flush_text()
            self.markup_before = self.markup_end
            self.markup_end = self._base + end + 1
            self._calls.end_tag(name)
            return -1
        # Not the appropriate end tag: "</" and the name are text.
        self._text.append(m.group())
        return end

    # 13.2.5.3 RAWTEXT state — https://html.spec.whatwg.org/multipage/parsing.html#rawtext-state
    # Read by _rawtext_like above (shared with script data; its fast path is _rawtext_fast).
    def _s_rawtext(self) -> bool:
        return self._rawtext_like(RAWTEXT_LT)

    # 13.2.5.4 Script data state — https://html.spec.whatwg.org/multipage/parsing.html#script-data-state
    # Read by _rawtext_like above (shared with RAWTEXT; its fast path is _rawtext_fast).
    def _s_script_data(self) -> bool:
        return self._rawtext_like(SCRIPT_LT)

    # 13.2.5.5 PLAINTEXT state — https://html.spec.whatwg.org/multipage/parsing.html#plaintext-state
    def _s_plaintext(self) -> bool:
        buf = self._buf
        pos = self._pos
        text = self._text
        while True:
            k = buf.find("\0", pos)
            if k < 0:
                text.append(buf[pos:])
                self._pos = len(buf)
                return True
            if k > pos:
                text.append(buf[pos:k])
            self._err("unexpected-null-character", k)
            text.append("\ufffd")
            pos = k + 1

    def _eof_emit(self) -> bool:
        return False

    # --- tags -------------------------------------------------------------------------

    # 13.2.5.6 Tag open state — https://html.spec.whatwg.org/multipage/parsing.html#tag-open-state
    # Most tags do not come here: the data state's fast path reads a plainly written one whole.
    def _s_tag_open(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c == "!":
            self._pos = pos + 1
            self._state = MARKUP_DECLARATION_OPEN
        elif c == "/":
            self._pos = pos + 1
            self._state = END_TAG_OPEN
        elif c in _ALPHA:
            self._new_tag(False)
            self._state = TAG_NAME
        elif c == "?":
            self._err("unexpected-question-mark-instead-of-tag-name", pos)
            self._comment = []
            self._state = BOGUS_COMMENT
        else:
            self._err("invalid-first-character-of-tag-name", pos)
            self._text.append("<")
            self._state = DATA
        return True

    def _eof_tag_open(self) -> bool:
        self._err("eof-before-tag-name", self._pos)
        self._text.append("<")
        return False

    # 13.2.5.7 End tag open state — https://html.spec.whatwg.org/multipage/parsing.html#end-tag-open-state
    # A plainly written end tag in the data state is read whole by that state's fast path.
    def _s_end_tag_open(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c in _ALPHA:
            self._new_tag(True)
            self._state = TAG_NAME
        elif c == ">":
            self._err("missing-end-tag-name", pos)
            self._pos = pos + 1
            self._state = DATA
        else:
            self._err("invalid-first-character-of-tag-name", pos)
            self._comment = []
            self._state = BOGUS_COMMENT
        return True

    def _eof_end_tag_open(self) -> bool:
        self._err("eof-before-tag-name", self._pos)
        self._text.append("</")
        return False

    # 13.2.5.8 Tag name state — https://html.spec.whatwg.org/multipage/parsing.html#tag-name-state
    def _s_tag_name(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _TAG_NAME_RUN.match(buf, pos)
        if m is not None:
            self._tag_name.append(_lower(m.group()))
            pos = m.end()
            if pos >= len(buf):
                self._pos = pos
                return True
        c = buf[pos]
        self._pos = pos + 1
        if c in _WS:
            self._state = BEFORE_ATTR_NAME
        elif c == "/":
            self._state = SELF_CLOSING_START_TAG
        elif c == ">":
            self._state = DATA
            self._emit_tag()
        else:  # NUL
            self._err("unexpected-null-character", pos)
            self._tag_name.append("\ufffd")
        return True

    def _eof_in_tag(self) -> bool:
        self._err("eof-in-tag", self._pos)
        return False

    # 13.2.5.32 Before attribute name state
    # https://html.spec.whatwg.org/multipage/parsing.html#before-attribute-name-state
    def _s_before_attr_name(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _WS_RUN.match(buf, pos)
        if m is not None:
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        if c == "/" or c == ">":
            self._state = AFTER_ATTR_NAME
        elif c == "=":
            self._err("unexpected-equals-sign-before-attribute-name", pos)
            self._start_attr("=")
            self._pos = pos + 1
            self._state = ATTR_NAME
        else:
            self._start_attr("")
            self._state = ATTR_NAME
        return True

    # 13.2.5.33 Attribute name state — https://html.spec.whatwg.org/multipage/parsing.html#attribute-name-state
    def _s_attr_name(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _ATTR_NAME_RUN.match(buf, pos)
        if m is not None:
            self._attr_name_parts.append(_lower(m.group()))
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        if c in _WS or c == "/" or c == ">":
            self._leave_attr_name(pos)
            self._state = AFTER_ATTR_NAME
        elif c == "=":
            self._leave_attr_name(pos)
            self._pos = pos + 1
            self._state = BEFORE_ATTR_VALUE
        elif c == "\0":
            self._err("unexpected-null-character", pos)
            self._attr_name_parts.append("\ufffd")
            self._pos = pos + 1
        else:  # " ' <
            self._err("unexpected-character-in-attribute-name", pos)
            self._attr_name_parts.append(c)
            self._pos = pos + 1
        return True

    def _eof_attr_name(self) -> bool:
        self._leave_attr_name(self._pos)
        self._state = AFTER_ATTR_NAME
        return True

    # 13.2.5.34 After attribute name state
    # https://html.spec.whatwg.org/multipage/parsing.html#after-attribute-name-state
    def _s_after_attr_name(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _WS_RUN.match(buf, pos)
        if m is not None:
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        if c == "/":
            self._pos = pos + 1
            self._state = SELF_CLOSING_START_TAG
        elif c == "=":
            self._pos = pos + 1
            self._state = BEFORE_ATTR_VALUE
        elif c == ">":
            self._pos = pos + 1
            self._state = DATA
            self._emit_tag()
        else:
            self._start_attr("")
            self._state = ATTR_NAME
        return True

    # 13.2.5.35 Before attribute value state
    # https://html.spec.whatwg.org/multipage/parsing.html#before-attribute-value-state
    def _s_before_attr_value(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _WS_RUN.match(buf, pos)
        if m is not None:
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        if c == '"':
            self._pos = pos + 1
            self._state = ATTR_VALUE_DQ
        elif c == "'":
            self._pos = pos + 1
            self._state = ATTR_VALUE_SQ
        elif c == ">":
            self._err("missing-attribute-value", pos)
            self._pos = pos + 1
            self._state = DATA
            self._emit_tag()
        else:
            self._state = ATTR_VALUE_UQ
        return True

    def _attr_value_quoted(self, run: re.Pattern[str], quote: str, state: int) -> bool:
        buf = self._buf
        pos = self._pos
        value = self._attr_value
        n = len(buf)
        while True:
            m = run.match(buf, pos)
            if m is not None:
                value.append(m.group())
                pos = m.end()
                if pos >= n:
                    self._pos = pos
                    return True
            c = buf[pos]
            if c == quote:
                self._pos = pos + 1
                self._state = AFTER_ATTR_VALUE_QUOTED
                return True
            if c == "&":
                self._pos = pos
                if not self._charref(True, state):
                    return False
                if self._state != state:
                    return True
                pos = self._pos
                if pos >= n:
                    return True
            else:  # NUL
                self._err("unexpected-null-character", pos)
                value.append("\ufffd")
                pos += 1
                if pos >= n:
                    self._pos = pos
                    return True

    # 13.2.5.36 Attribute value (double-quoted) state
    # https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(double-quoted)-state
    # Read by _attr_value_quoted above (shared with the single-quoted state).
    def _s_attr_value_dq(self) -> bool:
        return self._attr_value_quoted(_ATTR_DQ_RUN, '"', ATTR_VALUE_DQ)

    # 13.2.5.37 Attribute value (single-quoted) state
    # https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(single-quoted)-state
    # Read by _attr_value_quoted above (shared with the double-quoted state).
    def _s_attr_value_sq(self) -> bool:
        return self._attr_value_quoted(_ATTR_SQ_RUN, "'", ATTR_VALUE_SQ)

    # 13.2.5.38 Attribute value (unquoted) state
    # https://html.spec.whatwg.org/multipage/parsing.html#attribute-value-(unquoted)-state
    def _s_attr_value_uq(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _ATTR_UQ_RUN.match(buf, pos)
        if m is not None:
            self._attr_value.append(m.group())
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        if c in _WS:
            self._pos = pos + 1
            self._state = BEFORE_ATTR_NAME
        elif c == "&":
            return self._charref(True, ATTR_VALUE_UQ)
        elif c == ">":
            self._pos = pos + 1
            self._state = DATA
            self._emit_tag()
        elif c == "\0":
            self._err("unexpected-null-character", pos)
            self._attr_value.append("\ufffd")
            self._pos = pos + 1
        else:  # " ' < = `
            self._err("unexpected-character-in-unquoted-attribute-value", pos)
            self._attr_value.append(c)
            self._pos = pos + 1
        return True

    # 13.2.5.39 After attribute value (quoted) state
    # https://html.spec.whatwg.org/multipage/parsing.html#after-attribute-value-(quoted)-state
    def _s_after_attr_value_quoted(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c in _WS:
            self._pos = pos + 1
            self._state = BEFORE_ATTR_NAME
        elif c == "/":
            self._pos = pos + 1
            self._state = SELF_CLOSING_START_TAG
        elif c == ">":
            self._pos = pos + 1
            self._state = DATA
            self._emit_tag()
        else:
            self._err("missing-whitespace-between-attributes", pos)
            self._state = BEFORE_ATTR_NAME
        return True

    # 13.2.5.40 Self-closing start tag state
    # https://html.spec.whatwg.org/multipage/parsing.html#self-closing-start-tag-state
    def _s_self_closing_start_tag(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c == ">":
            self._self_closing = True
            self._pos = pos + 1
            self._state = DATA
            self._emit_tag()
        else:
            self._err("unexpected-solidus-in-tag", pos)
            self._state = BEFORE_ATTR_NAME
        return True

    # --- RCDATA / RAWTEXT / script data end tags ----------------------------------------

    # 13.2.5.9 RCDATA less-than sign state
    # https://html.spec.whatwg.org/multipage/parsing.html#rcdata-less-than-sign-state
    # 13.2.5.12 RAWTEXT less-than sign state
    # https://html.spec.whatwg.org/multipage/parsing.html#rawtext-less-than-sign-state
    # One handler for both states; the state number says which (see _LT_RETURN).
    def _s_text_lt(self) -> bool:
        # RCDATA, RAWTEXT and script data escaped "<" states share this shape.
        pos = self._pos
        state = self._state
        if self._buf[pos] == "/":
            self._pos = pos + 1
            self._temp = []
            self._state = state + 1  # the matching end tag open state
        else:
            self._text.append("<")
            self._state = _LT_RETURN[state]
        return True

    def _eof_text_lt(self) -> bool:
        self._text.append("<")
        self._state = _LT_RETURN[self._state]
        return True

    # 13.2.5.10 RCDATA end tag open state
    # https://html.spec.whatwg.org/multipage/parsing.html#rcdata-end-tag-open-state
    # 13.2.5.13 RAWTEXT end tag open state
    # https://html.spec.whatwg.org/multipage/parsing.html#rawtext-end-tag-open-state
    # 13.2.5.16 Script data end tag open state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-end-tag-open-state
    # 13.2.5.24 Script data escaped end tag open state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-end-tag-open-state
    # One handler for the four states; the state number says which (see _LT_RETURN).
    def _s_text_end_tag_open(self) -> bool:
        state = self._state
        if self._buf[self._pos] in _ALPHA:
            self._new_tag(True)
            self._state = state + 1  # the matching end tag name state
        else:
            self._text.append("</")
            self._state = _LT_RETURN[state]
        return True

    def _eof_text_end_tag_open(self) -> bool:
        self._text.append("</")
        self._state = _LT_RETURN[self._state]
        return True

    # 13.2.5.11 RCDATA end tag name state
    # https://html.spec.whatwg.org/multipage/parsing.html#rcdata-end-tag-name-state
    # 13.2.5.14 RAWTEXT end tag name state
    # https://html.spec.whatwg.org/multipage/parsing.html#rawtext-end-tag-name-state
    # 13.2.5.17 Script data end tag name state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-end-tag-name-state
    # 13.2.5.25 Script data escaped end tag name state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-end-tag-name-state
    # One handler for the four states; the state number says which (see _LT_RETURN).
    def _s_text_end_tag_name(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _ALPHA_RUN.match(buf, pos)
        if m is not None:
            run = m.group()
            self._temp.append(run)
            self._tag_name.append(run.lower())
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        if self.last_start_tag is not None and "".join(self._tag_name) == self.last_start_tag:
            if c in _WS:
                self._pos = pos + 1
                self._state = BEFORE_ATTR_NAME
                return True
            if c == "/":
                self._pos = pos + 1
                self._state = SELF_CLOSING_START_TAG
                return True
            if c == ">":
                self._pos = pos + 1
                self._state = DATA
                self._emit_tag()
                return True
        self._text.append("</")
        self._text.extend(self._temp)
        self._state = _LT_RETURN[self._state]
        return True

    def _eof_text_end_tag_name(self) -> bool:
        self._text.append("</")
        self._text.extend(self._temp)
        self._state = _LT_RETURN[self._state]
        return True

    # --- script data escapes ----------------------------------------------------------

    # 13.2.5.15 Script data less-than sign state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-less-than-sign-state
    def _s_script_lt(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c == "/":
            self._pos = pos + 1
            self._temp = []
            self._state = SCRIPT_END_TAG_OPEN
        elif c == "!":
            self._pos = pos + 1
            self._text.append("<!")
            self._state = SCRIPT_ESCAPE_START
        else:
            self._text.append("<")
            self._state = SCRIPT_DATA
        return True

    # 13.2.5.18 Script data escape start state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-escape-start-state
    def _s_script_escape_start(self) -> bool:
        if self._buf[self._pos] == "-":
            self._pos += 1
            self._text.append("-")
            self._state = SCRIPT_ESCAPE_START_DASH
        else:
            self._state = SCRIPT_DATA
        return True

    # 13.2.5.19 Script data escape start dash state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-escape-start-dash-state
    def _s_script_escape_start_dash(self) -> bool:
        if self._buf[self._pos] == "-":
            self._pos += 1
            self._text.append("-")
            self._state = SCRIPT_ESCAPED_DASH_DASH
        else:
            self._state = SCRIPT_DATA
        return True

    def _eof_reconsume_script(self) -> bool:
        self._state = SCRIPT_DATA
        return True

    def _eof_in_script_comment(self) -> bool:
        self._err("eof-in-script-html-comment-like-text", self._pos)
        return False

    def _escaped_run(self) -> bool:
        """Consume a run of ordinary characters; ``True`` if the buffer ran out."""
        buf = self._buf
        m = _ESCAPED_RUN.match(buf, self._pos)
        if m is not None:
            self._text.append(m.group())
            self._pos = m.end()
            return self._pos >= len(buf)
        return False

    # 13.2.5.20 Script data escaped state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-state
    def _s_script_escaped(self) -> bool:
        if self._escaped_run():
            return True
        pos = self._pos
        c = self._buf[pos]
        self._pos = pos + 1
        if c == "-":
            self._text.append("-")
            self._state = SCRIPT_ESCAPED_DASH
        elif c == "<":
            self._tok_start = self._base + pos
            self._state = SCRIPT_ESCAPED_LT
        else:
            self._err("unexpected-null-character", pos)
            self._text.append("\ufffd")
        return True

    # 13.2.5.21 Script data escaped dash state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-dash-state
    def _s_script_escaped_dash(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        self._pos = pos + 1
        if c == "-":
            self._text.append("-")
            self._state = SCRIPT_ESCAPED_DASH_DASH
        elif c == "<":
            self._tok_start = self._base + pos
            self._state = SCRIPT_ESCAPED_LT
        elif c == "\0":
            self._err("unexpected-null-character", pos)
            self._text.append("\ufffd")
            self._state = SCRIPT_ESCAPED
        else:
            self._text.append(c)
            self._state = SCRIPT_ESCAPED
        return True

    # 13.2.5.22 Script data escaped dash dash state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-dash-dash-state
    def _s_script_escaped_dash_dash(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        self._pos = pos + 1
        if c == "-":
            self._text.append("-")
        elif c == "<":
            self._tok_start = self._base + pos
            self._state = SCRIPT_ESCAPED_LT
        elif c == ">":
            self._text.append(">")
            self._state = SCRIPT_DATA
        elif c == "\0":
            self._err("unexpected-null-character", pos)
            self._text.append("\ufffd")
            self._state = SCRIPT_ESCAPED
        else:
            self._text.append(c)
            self._state = SCRIPT_ESCAPED
        return True

    # 13.2.5.23 Script data escaped less-than sign state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-escaped-less-than-sign-state
    def _s_script_escaped_lt(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c == "/":
            self._pos = pos + 1
            self._temp = []
            self._state = SCRIPT_ESCAPED_END_TAG_OPEN
        elif c in _ALPHA:
            self._temp = []
            self._text.append("<")
            self._state = SCRIPT_DOUBLE_ESCAPE_START
        else:
            self._text.append("<")
            self._state = SCRIPT_ESCAPED
        return True

    # 13.2.5.26 Script data double escape start state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escape-start-state
    # Read by _double_escape_boundary below (shared with the double escape end state).
    def _s_script_double_escape_start(self) -> bool:
        return self._double_escape_boundary(SCRIPT_DOUBLE_ESCAPED, SCRIPT_ESCAPED)

    # 13.2.5.31 Script data double escape end state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escape-end-state
    # Read by _double_escape_boundary below (shared with the double escape start state).
    def _s_script_double_escape_end(self) -> bool:
        return self._double_escape_boundary(SCRIPT_ESCAPED, SCRIPT_DOUBLE_ESCAPED)

    def _double_escape_boundary(self, if_script: int, otherwise: int) -> bool:
        buf = self._buf
        pos = self._pos
        m = _ALPHA_RUN.match(buf, pos)
        if m is not None:
            run = m.group()
            self._temp.append(run.lower())
            self._text.append(run)
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        if c in _WS or c == "/" or c == ">":
            self._pos = pos + 1
            self._text.append(c)
            self._state = if_script if "".join(self._temp) == "script" else otherwise
        else:
            self._state = otherwise
        return True

    def _eof_reconsume_escaped(self) -> bool:
        self._state = SCRIPT_ESCAPED
        return True

    def _eof_reconsume_double_escaped(self) -> bool:
        self._state = SCRIPT_DOUBLE_ESCAPED
        return True

    # 13.2.5.27 Script data double escaped state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-state
    def _s_script_double_escaped(self) -> bool:
        if self._escaped_run():
            return True
        pos = self._pos
        c = self._buf[pos]
        self._pos = pos + 1
        if c == "-":
            self._text.append("-")
            self._state = SCRIPT_DOUBLE_ESCAPED_DASH
        elif c == "<":
            self._text.append("<")
            self._state = SCRIPT_DOUBLE_ESCAPED_LT
        else:
            self._err("unexpected-null-character", pos)
            self._text.append("\ufffd")
        return True

    # 13.2.5.28 Script data double escaped dash state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-dash-state
    def _s_script_double_escaped_dash(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        self._pos = pos + 1
        if c == "-":
            self._text.append("-")
            self._state = SCRIPT_DOUBLE_ESCAPED_DASH_DASH
        elif c == "<":
            self._text.append("<")
            self._state = SCRIPT_DOUBLE_ESCAPED_LT
        elif c == "\0":
            self._err("unexpected-null-character", pos)
            self._text.append("\ufffd")
            self._state = SCRIPT_DOUBLE_ESCAPED
        else:
            self._text.append(c)
            self._state = SCRIPT_DOUBLE_ESCAPED
        return True

    # 13.2.5.29 Script data double escaped dash dash state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-dash-dash-state
    def _s_script_double_escaped_dash_dash(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        self._pos = pos + 1
        if c == "-":
            self._text.append("-")
        elif c == "<":
            self._text.append("<")
            self._state = SCRIPT_DOUBLE_ESCAPED_LT
        elif c == ">":
            self._text.append(">")
            self._state = SCRIPT_DATA
        elif c == "\0":
            self._err("unexpected-null-character", pos)
            self._text.append("\ufffd")
            self._state = SCRIPT_DOUBLE_ESCAPED
        else:
            self._text.append(c)
            self._state = SCRIPT_DOUBLE_ESCAPED
        return True

    # 13.2.5.30 Script data double escaped less-than sign state
    # https://html.spec.whatwg.org/multipage/parsing.html#script-data-double-escaped-less-than-sign-state
    def _s_script_double_escaped_lt(self) -> bool:
        if self._buf[self._pos] == "/":
            self._pos += 1
            self._temp = []
            self._text.append("/")
            self._state = SCRIPT_DOUBLE_ESCAPE_END
        else:
            self._state = SCRIPT_DOUBLE_ESCAPED
        return True

    # --- comments ---------------------------------------------------------------------

    # 13.2.5.42 Markup declaration open state
    # https://html.spec.whatwg.org/multipage/parsing.html#markup-declaration-open-state
    def _s_markup_declaration_open(self) -> bool:
        buf = self._buf
        pos = self._pos
        avail = buf[pos : pos + 7]
        if avail.startswith("--"):
            self._pos = pos + 2
            self._comment = []
            self._state = COMMENT_START
            return True
        folded = _lower(avail)
        if folded == "doctype":
            self._pos = pos + 7
            self._state = DOCTYPE
            return True
        if avail == "[CDATA[":
            self._pos = pos + 7
            if self.sink.cdata_allowed():
                self._state = CDATA_SECTION
            else:
                self._err("cdata-in-html-content", pos + 6)
                self._comment = ["[CDATA["]
                self._state = BOGUS_COMMENT
            return True
        if len(avail) < 7 and not self._eof:
            if "--".startswith(avail) or "doctype".startswith(folded) or "[CDATA[".startswith(avail):
                return False
        self._err("incorrectly-opened-comment", pos)
        self._comment = []
        self._state = BOGUS_COMMENT
        return True

    def _eof_markup_declaration_open(self) -> bool:
        self._err("incorrectly-opened-comment", self._pos)
        self._comment = []
        self._state = BOGUS_COMMENT
        return True

    # 13.2.5.41 Bogus comment state — https://html.spec.whatwg.org/multipage/parsing.html#bogus-comment-state
    def _s_bogus_comment(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _BOGUS_COMMENT_RUN.match(buf, pos)
        if m is not None:
            self._comment.append(m.group())
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        self._pos = pos + 1
        if c == ">":
            self._state = DATA
            self._emit_comment()
        else:
            self._err("unexpected-null-character", pos)
            self._comment.append("\ufffd")
        return True

    def _eof_bogus_comment(self) -> bool:
        self._emit_comment()
        return False

    # 13.2.5.43 Comment start state — https://html.spec.whatwg.org/multipage/parsing.html#comment-start-state
    def _s_comment_start(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c == "-":
            self._pos = pos + 1
            self._state = COMMENT_START_DASH
        elif c == ">":
            self._err("abrupt-closing-of-empty-comment", pos)
            self._pos = pos + 1
            self._state = DATA
            self._emit_comment()
        else:
            self._state = COMMENT
        return True

    # 13.2.5.44 Comment start dash state — https://html.spec.whatwg.org/multipage/parsing.html#comment-start-dash-state
    def _s_comment_start_dash(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c == "-":
            self._pos = pos + 1
            self._state = COMMENT_END
        elif c == ">":
            self._err("abrupt-closing-of-empty-comment", pos)
            self._pos = pos + 1
            self._state = DATA
            self._emit_comment()
        else:
            self._comment.append("-")
            self._state = COMMENT
        return True

    # 13.2.5.45 Comment state — https://html.spec.whatwg.org/multipage/parsing.html#comment-state
    # A comment without "--", "<!--" or NUL inside is read whole by the data state's fast path.
    def _s_comment(self) -> bool:
        buf = self._buf
        pos = self._pos
        comment = self._comment
        # One step for the run of characters that need no decision ("<", "-" and NUL do).
        m = _COMMENT_RUN.match(buf, pos)
        if m is not None:
            comment.append(m.group())
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        self._pos = pos + 1
        if c == "<":
            comment.append("<")
            self._state = COMMENT_LT
        elif c == "-":
            self._state = COMMENT_END_DASH
        else:
            self._err("unexpected-null-character", pos)
            comment.append("\ufffd")
        return True

    def _eof_in_comment(self) -> bool:
        self._err("eof-in-comment", self._pos)
        self._emit_comment()
        return False

    def _eof_reconsume_comment(self) -> bool:
        self._state = COMMENT
        return True

    def _eof_reconsume_comment_end_dash(self) -> bool:
        self._state = COMMENT_END_DASH
        return True

    def _eof_reconsume_comment_end(self) -> bool:
        self._state = COMMENT_END
        return True

    # 13.2.5.46 Comment less-than sign state
    # https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-state
    def _s_comment_lt(self) -> bool:
        c = self._buf[self._pos]
        if c == "!":
            self._pos += 1
            self._comment.append("!")
            self._state = COMMENT_LT_BANG
        elif c == "<":
            self._pos += 1
            self._comment.append("<")
        else:
            self._state = COMMENT
        return True

    # 13.2.5.47 Comment less-than sign bang state
    # https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-bang-state
    def _s_comment_lt_bang(self) -> bool:
        if self._buf[self._pos] == "-":
            self._pos += 1
            self._state = COMMENT_LT_BANG_DASH
        else:
            self._state = COMMENT
        return True

    # 13.2.5.48 Comment less-than sign bang dash state
    # https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-bang-dash-state
    def _s_comment_lt_bang_dash(self) -> bool:
        if self._buf[self._pos] == "-":
            self._pos += 1
            self._state = COMMENT_LT_BANG_DASH_DASH
        else:
            self._state = COMMENT_END_DASH
        return True

    # 13.2.5.49 Comment less-than sign bang dash dash state
    # https://html.spec.whatwg.org/multipage/parsing.html#comment-less-than-sign-bang-dash-dash-state
    def _s_comment_lt_bang_dash_dash(self) -> bool:
        if self._buf[self._pos] != ">":
            self._err("nested-comment", self._pos)
        self._state = COMMENT_END
        return True

    # 13.2.5.50 Comment end dash state — https://html.spec.whatwg.org/multipage/parsing.html#comment-end-dash-state
    def _s_comment_end_dash(self) -> bool:
        if self._buf[self._pos] == "-":
            self._pos += 1
            self._state = COMMENT_END
        else:
            self._comment.append("-")
            self._state = COMMENT
        return True

    # 13.2.5.51 Comment end state — https://html.spec.whatwg.org/multipage/parsing.html#comment-end-state
    def _s_comment_end(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c == ">":
            self._pos = pos + 1
            self._state = DATA
            self._emit_comment()
        elif c == "!":
            self._pos = pos + 1
            self._state = COMMENT_END_BANG
        elif c == "-":
            self._pos = pos + 1
            self._comment.append("-")
        else:
            self._comment.append("--")
            self._state = COMMENT
        return True

    # 13.2.5.52 Comment end bang state — https://html.spec.whatwg.org/multipage/parsing.html#comment-end-bang-state
    def _s_comment_end_bang(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c == "-":
            self._pos = pos + 1
            self._comment.append("--!")
            self._state = COMMENT_END_DASH
        elif c == ">":
            self._err("incorrectly-closed-comment", pos)
            self._pos = pos + 1
            self._state = DATA
            self._emit_comment()
        else:
            self._comment.append("--!")
            self._state = COMMENT
        return True

    # --- DOCTYPE ----------------------------------------------------------------------

    # 13.2.5.53 DOCTYPE state — https://html.spec.whatwg.org/multipage/parsing.html#doctype-state
    # A plain "<!DOCTYPE name>" is read whole by the data state's fast path.
    def _s_doctype(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c in _WS:
            self._pos = pos + 1
        elif c != ">":
            self._err("missing-whitespace-before-doctype-name", pos)
        self._state = BEFORE_DOCTYPE_NAME
        return True

    def _eof_doctype_new(self) -> bool:
        self._err("eof-in-doctype", self._pos)
        self._new_doctype()
        self._dt_quirks = True
        self._emit_doctype()
        return False

    def _eof_in_doctype(self) -> bool:
        self._err("eof-in-doctype", self._pos)
        self._dt_quirks = True
        self._emit_doctype()
        return False

    # 13.2.5.54 Before DOCTYPE name state
    # https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-name-state
    def _s_before_doctype_name(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _WS_RUN.match(buf, pos)
        if m is not None:
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        self._new_doctype()
        if c == ">":
            self._err("missing-doctype-name", pos)
            self._dt_quirks = True
            self._pos = pos + 1
            self._state = DATA
            self._emit_doctype()
            return True
        self._pos = pos + 1
        if c == "\0":
            self._err("unexpected-null-character", pos)
            c = "\ufffd"
        self._dt_name = [_lower(c)]
        self._state = DOCTYPE_NAME
        return True

    # 13.2.5.55 DOCTYPE name state — https://html.spec.whatwg.org/multipage/parsing.html#doctype-name-state
    def _s_doctype_name(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _DOCTYPE_NAME_RUN.match(buf, pos)
        if m is not None:
            self._dt_part(0).append(_lower(m.group()))
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        self._pos = pos + 1
        if c in _WS:
            self._state = AFTER_DOCTYPE_NAME
        elif c == ">":
            self._state = DATA
            self._emit_doctype()
        else:
            self._err("unexpected-null-character", pos)
            self._dt_part(0).append("\ufffd")
        return True

    # 13.2.5.56 After DOCTYPE name state — https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-name-state
    def _s_after_doctype_name(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _WS_RUN.match(buf, pos)
        if m is not None:
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        if c == ">":
            self._pos = pos + 1
            self._state = DATA
            self._emit_doctype()
            return True
        word = _lower(buf[pos : pos + 6])
        if word == "public":
            self._pos = pos + 6
            self._state = AFTER_DOCTYPE_PUBLIC_KEYWORD
            return True
        if word == "system":
            self._pos = pos + 6
            self._state = AFTER_DOCTYPE_SYSTEM_KEYWORD
            return True
        if len(word) < 6 and not self._eof and ("public".startswith(word) or "system".startswith(word)):
            return False
        self._err("invalid-character-sequence-after-doctype-name", pos)
        self._dt_quirks = True
        self._state = BOGUS_DOCTYPE
        return True

    def _after_doctype_keyword(self, public: bool) -> bool:
        pos = self._pos
        c = self._buf[pos]
        kind = "public" if public else "system"
        if c in _WS:
            self._pos = pos + 1
            self._state = BEFORE_DOCTYPE_PUBLIC_ID if public else BEFORE_DOCTYPE_SYSTEM_ID
        elif c == '"' or c == "'":
            self._err(f"missing-whitespace-after-doctype-{kind}-keyword", pos)
            self._open_doctype_id(public, c)
        elif c == ">":
            self._err(f"missing-doctype-{kind}-identifier", pos)
            self._dt_quirks = True
            self._pos = pos + 1
            self._state = DATA
            self._emit_doctype()
        else:
            self._err(f"missing-quote-before-doctype-{kind}-identifier", pos)
            self._dt_quirks = True
            self._state = BOGUS_DOCTYPE
        return True

    def _open_doctype_id(self, public: bool, quote: str) -> None:
        self._pos += 1
        if public:
            self._dt_public = []
            self._state = DOCTYPE_PUBLIC_ID_DQ if quote == '"' else DOCTYPE_PUBLIC_ID_SQ
        else:
            self._dt_system = []
            self._state = DOCTYPE_SYSTEM_ID_DQ if quote == '"' else DOCTYPE_SYSTEM_ID_SQ

    # 13.2.5.57 After DOCTYPE public keyword state
    # https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-public-keyword-state
    # Read by _after_doctype_keyword above (shared with the system keyword state).
    def _s_after_doctype_public_keyword(self) -> bool:
        return self._after_doctype_keyword(True)

    # 13.2.5.63 After DOCTYPE system keyword state
    # https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-system-keyword-state
    # Read by _after_doctype_keyword above (shared with the public keyword state).
    def _s_after_doctype_system_keyword(self) -> bool:
        return self._after_doctype_keyword(False)

    def _before_doctype_id(self, public: bool) -> bool:
        buf = self._buf
        pos = self._pos
        m = _WS_RUN.match(buf, pos)
        if m is not None:
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        kind = "public" if public else "system"
        if c == '"' or c == "'":
            self._open_doctype_id(public, c)
        elif c == ">":
            self._err(f"missing-doctype-{kind}-identifier", pos)
            self._dt_quirks = True
            self._pos = pos + 1
            self._state = DATA
            self._emit_doctype()
        else:
            self._err(f"missing-quote-before-doctype-{kind}-identifier", pos)
            self._dt_quirks = True
            self._state = BOGUS_DOCTYPE
        return True

    # 13.2.5.58 Before DOCTYPE public identifier state
    # https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-public-identifier-state
    # Read by _before_doctype_id above (shared with the system identifier state).
    def _s_before_doctype_public_id(self) -> bool:
        return self._before_doctype_id(True)

    # 13.2.5.64 Before DOCTYPE system identifier state
    # https://html.spec.whatwg.org/multipage/parsing.html#before-doctype-system-identifier-state
    # Read by _before_doctype_id above (shared with the public identifier state).
    def _s_before_doctype_system_id(self) -> bool:
        return self._before_doctype_id(False)

    def _doctype_id(self, public: bool, run: re.Pattern[str], quote: str) -> bool:
        buf = self._buf
        pos = self._pos
        m = run.match(buf, pos)
        piece = ""
        if m is not None:
            piece = m.group()
            pos = self._pos = m.end()
        if piece:
            self._dt_part(1 if public else 2).append(piece)
        if pos >= len(buf):
            return True
        c = buf[pos]
        self._pos = pos + 1
        if c == quote:
            self._state = AFTER_DOCTYPE_PUBLIC_ID if public else AFTER_DOCTYPE_SYSTEM_ID
        elif c == ">":
            self._err(f"abrupt-doctype-{'public' if public else 'system'}-identifier", pos)
            self._dt_quirks = True
            self._state = DATA
            self._emit_doctype()
        else:
            self._err("unexpected-null-character", pos)
            self._dt_part(1 if public else 2).append("\ufffd")
        return True

    # 13.2.5.59 DOCTYPE public identifier (double-quoted) state
    # https://html.spec.whatwg.org/multipage/parsing.html#doctype-public-identifier-(double-quoted)-state
    # This and the next three: read by _doctype_id above.
    def _s_doctype_public_id_dq(self) -> bool:
        return self._doctype_id(True, _DQ_ID_RUN, '"')

    # 13.2.5.60 DOCTYPE public identifier (single-quoted) state
    # https://html.spec.whatwg.org/multipage/parsing.html#doctype-public-identifier-(single-quoted)-state
    def _s_doctype_public_id_sq(self) -> bool:
        return self._doctype_id(True, _SQ_ID_RUN, "'")

    # 13.2.5.65 DOCTYPE system identifier (double-quoted) state
    # https://html.spec.whatwg.org/multipage/parsing.html#doctype-system-identifier-(double-quoted)-state
    def _s_doctype_system_id_dq(self) -> bool:
        return self._doctype_id(False, _DQ_ID_RUN, '"')

    # 13.2.5.66 DOCTYPE system identifier (single-quoted) state
    # https://html.spec.whatwg.org/multipage/parsing.html#doctype-system-identifier-(single-quoted)-state
    def _s_doctype_system_id_sq(self) -> bool:
        return self._doctype_id(False, _SQ_ID_RUN, "'")

    # 13.2.5.61 After DOCTYPE public identifier state
    # https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-public-identifier-state
    def _s_after_doctype_public_id(self) -> bool:
        pos = self._pos
        c = self._buf[pos]
        if c in _WS:
            self._pos = pos + 1
            self._state = BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDS
        elif c == ">":
            self._pos = pos + 1
            self._state = DATA
            self._emit_doctype()
        elif c == '"' or c == "'":
            self._err("missing-whitespace-between-doctype-public-and-system-identifiers", pos)
            self._open_doctype_id(False, c)
        else:
            self._err("missing-quote-before-doctype-system-identifier", pos)
            self._dt_quirks = True
            self._state = BOGUS_DOCTYPE
        return True

    # 13.2.5.62 Between DOCTYPE public and system identifiers state
    # https://html.spec.whatwg.org/multipage/parsing.html#between-doctype-public-and-system-identifiers-state
    def _s_between_doctype_ids(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _WS_RUN.match(buf, pos)
        if m is not None:
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        c = buf[pos]
        if c == ">":
            self._pos = pos + 1
            self._state = DATA
            self._emit_doctype()
        elif c == '"' or c == "'":
            self._open_doctype_id(False, c)
        else:
            self._err("missing-quote-before-doctype-system-identifier", pos)
            self._dt_quirks = True
            self._state = BOGUS_DOCTYPE
        return True

    # 13.2.5.67 After DOCTYPE system identifier state
    # https://html.spec.whatwg.org/multipage/parsing.html#after-doctype-system-identifier-state
    def _s_after_doctype_system_id(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _WS_RUN.match(buf, pos)
        if m is not None:
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        if buf[pos] == ">":
            self._pos = pos + 1
            self._state = DATA
            self._emit_doctype()
        else:
            self._err("unexpected-character-after-doctype-system-identifier", pos)
            self._state = BOGUS_DOCTYPE
        return True

    # 13.2.5.68 Bogus DOCTYPE state — https://html.spec.whatwg.org/multipage/parsing.html#bogus-doctype-state
    def _s_bogus_doctype(self) -> bool:
        buf = self._buf
        pos = self._pos
        m = _BOGUS_COMMENT_RUN.match(buf, pos)
        if m is not None:
            pos = self._pos = m.end()
            if pos >= len(buf):
                return True
        self._pos = pos + 1
        if buf[pos] == ">":
            self._state = DATA
            self._emit_doctype()
        else:
            self._err("unexpected-null-character", pos)
        return True

    def _eof_bogus_doctype(self) -> bool:
        self._emit_doctype()
        return False

    # --- CDATA sections ---------------------------------------------------------------

    # 13.2.5.69 CDATA section state — https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-state
    def _s_cdata_section(self) -> bool:
        buf = self._buf
        pos = self._pos
        j = buf.find("]", pos)
        if j < 0:
            self._text.append(buf[pos:])
            self._pos = len(buf)
            return True
        if j > pos:
            self._text.append(buf[pos:j])
        self._pos = j + 1
        self._state = CDATA_SECTION_BRACKET
        return True

    def _eof_cdata(self) -> bool:
        self._err("eof-in-cdata", self._pos)
        return False

    # 13.2.5.70 CDATA section bracket state
    # https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-bracket-state
    def _s_cdata_section_bracket(self) -> bool:
        if self._buf[self._pos] == "]":
            self._pos += 1
            self._state = CDATA_SECTION_END
        else:
            self._text.append("]")
            self._state = CDATA_SECTION
        return True

    def _eof_cdata_bracket(self) -> bool:
        self._text.append("]")
        self._state = CDATA_SECTION
        return True

    # 13.2.5.71 CDATA section end state — https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-end-state
    def _s_cdata_section_end(self) -> bool:
        c = self._buf[self._pos]
        if c == "]":
            self._pos += 1
            self._text.append("]")
        elif c == ">":
            self._pos += 1
            self._state = DATA
        else:
            self._text.append("]]")
            self._state = CDATA_SECTION
        return True

    def _eof_cdata_end(self) -> bool:
        self._text.append("]]")
        self._state = CDATA_SECTION
        return True


_Handler = Callable[[Tokenizer], bool]


_ALNUM_RUN: Final = re.compile(r"[A-Za-z0-9]+")
_HEX_RUN: Final = re.compile(r"[0-9A-Fa-f]+")
_DEC_RUN: Final = re.compile(r"[0-9]+")
_HEX_DIGITS: Final = frozenset("0123456789abcdefABCDEF")
_DEC_DIGITS: Final = frozenset("0123456789")
_ATTR_VALUE_STATES: Final = frozenset({ATTR_VALUE_DQ, ATTR_VALUE_SQ, ATTR_VALUE_UQ})

# Where the "<"-family states of RCDATA, RAWTEXT and script data go back to.
_LT_RETURN: Final[dict[int, int]] = {
    RCDATA_LT: RCDATA,
    RCDATA_END_TAG_OPEN: RCDATA,
    RCDATA_END_TAG_NAME: RCDATA,
    RAWTEXT_LT: RAWTEXT,
    RAWTEXT_END_TAG_OPEN: RAWTEXT,
    RAWTEXT_END_TAG_NAME: RAWTEXT,
    SCRIPT_LT: SCRIPT_DATA,
    SCRIPT_END_TAG_OPEN: SCRIPT_DATA,
    SCRIPT_END_TAG_NAME: SCRIPT_DATA,
    SCRIPT_ESCAPED_LT: SCRIPT_ESCAPED,
    SCRIPT_ESCAPED_END_TAG_OPEN: SCRIPT_ESCAPED,
    SCRIPT_ESCAPED_END_TAG_NAME: SCRIPT_ESCAPED,
}


def _build_tables() -> tuple[list[_Handler], list[_Handler]]:
    """The per-state handler and end-of-file handler tables, indexed by state."""
    table = {
        DATA: (Tokenizer._s_data, Tokenizer._eof_emit),
        RCDATA: (Tokenizer._s_rcdata, Tokenizer._eof_emit),
        RAWTEXT: (Tokenizer._s_rawtext, Tokenizer._eof_emit),
        SCRIPT_DATA: (Tokenizer._s_script_data, Tokenizer._eof_emit),
        PLAINTEXT: (Tokenizer._s_plaintext, Tokenizer._eof_emit),
        TAG_OPEN: (Tokenizer._s_tag_open, Tokenizer._eof_tag_open),
        END_TAG_OPEN: (Tokenizer._s_end_tag_open, Tokenizer._eof_end_tag_open),
        TAG_NAME: (Tokenizer._s_tag_name, Tokenizer._eof_in_tag),
        RCDATA_LT: (Tokenizer._s_text_lt, Tokenizer._eof_text_lt),
        RCDATA_END_TAG_OPEN: (Tokenizer._s_text_end_tag_open, Tokenizer._eof_text_end_tag_open),
        RCDATA_END_TAG_NAME: (Tokenizer._s_text_end_tag_name, Tokenizer._eof_text_end_tag_name),
        RAWTEXT_LT: (Tokenizer._s_text_lt, Tokenizer._eof_text_lt),
        RAWTEXT_END_TAG_OPEN: (Tokenizer._s_text_end_tag_open, Tokenizer._eof_text_end_tag_open),
        RAWTEXT_END_TAG_NAME: (Tokenizer._s_text_end_tag_name, Tokenizer._eof_text_end_tag_name),
        SCRIPT_LT: (Tokenizer._s_script_lt, Tokenizer._eof_text_lt),
        SCRIPT_END_TAG_OPEN: (Tokenizer._s_text_end_tag_open, Tokenizer._eof_text_end_tag_open),
        SCRIPT_END_TAG_NAME: (Tokenizer._s_text_end_tag_name, Tokenizer._eof_text_end_tag_name),
        SCRIPT_ESCAPE_START: (Tokenizer._s_script_escape_start, Tokenizer._eof_reconsume_script),
        SCRIPT_ESCAPE_START_DASH: (Tokenizer._s_script_escape_start_dash, Tokenizer._eof_reconsume_script),
        SCRIPT_ESCAPED: (Tokenizer._s_script_escaped, Tokenizer._eof_in_script_comment),
        SCRIPT_ESCAPED_DASH: (Tokenizer._s_script_escaped_dash, Tokenizer._eof_in_script_comment),
        SCRIPT_ESCAPED_DASH_DASH: (Tokenizer._s_script_escaped_dash_dash, Tokenizer._eof_in_script_comment),
        SCRIPT_ESCAPED_LT: (Tokenizer._s_script_escaped_lt, Tokenizer._eof_text_lt),
        SCRIPT_ESCAPED_END_TAG_OPEN: (Tokenizer._s_text_end_tag_open, Tokenizer._eof_text_end_tag_open),
        SCRIPT_ESCAPED_END_TAG_NAME: (Tokenizer._s_text_end_tag_name, Tokenizer._eof_text_end_tag_name),
        SCRIPT_DOUBLE_ESCAPE_START: (Tokenizer._s_script_double_escape_start, Tokenizer._eof_reconsume_escaped),
        SCRIPT_DOUBLE_ESCAPED: (Tokenizer._s_script_double_escaped, Tokenizer._eof_in_script_comment),
        SCRIPT_DOUBLE_ESCAPED_DASH: (Tokenizer._s_script_double_escaped_dash, Tokenizer._eof_in_script_comment),
        SCRIPT_DOUBLE_ESCAPED_DASH_DASH: (
            Tokenizer._s_script_double_escaped_dash_dash,
            Tokenizer._eof_in_script_comment,
        ),
        SCRIPT_DOUBLE_ESCAPED_LT: (Tokenizer._s_script_double_escaped_lt, Tokenizer._eof_reconsume_double_escaped),
        SCRIPT_DOUBLE_ESCAPE_END: (Tokenizer._s_script_double_escape_end, Tokenizer._eof_reconsume_double_escaped),
        BEFORE_ATTR_NAME: (Tokenizer._s_before_attr_name, Tokenizer._eof_in_tag),
        ATTR_NAME: (Tokenizer._s_attr_name, Tokenizer._eof_attr_name),
        AFTER_ATTR_NAME: (Tokenizer._s_after_attr_name, Tokenizer._eof_in_tag),
        BEFORE_ATTR_VALUE: (Tokenizer._s_before_attr_value, Tokenizer._eof_in_tag),
        ATTR_VALUE_DQ: (Tokenizer._s_attr_value_dq, Tokenizer._eof_in_tag),
        ATTR_VALUE_SQ: (Tokenizer._s_attr_value_sq, Tokenizer._eof_in_tag),
        ATTR_VALUE_UQ: (Tokenizer._s_attr_value_uq, Tokenizer._eof_in_tag),
        AFTER_ATTR_VALUE_QUOTED: (Tokenizer._s_after_attr_value_quoted, Tokenizer._eof_in_tag),
        SELF_CLOSING_START_TAG: (Tokenizer._s_self_closing_start_tag, Tokenizer._eof_in_tag),
        BOGUS_COMMENT: (Tokenizer._s_bogus_comment, Tokenizer._eof_bogus_comment),
        MARKUP_DECLARATION_OPEN: (Tokenizer._s_markup_declaration_open, Tokenizer._eof_markup_declaration_open),
        COMMENT_START: (Tokenizer._s_comment_start, Tokenizer._eof_in_comment),
        COMMENT_START_DASH: (Tokenizer._s_comment_start_dash, Tokenizer._eof_in_comment),
        COMMENT: (Tokenizer._s_comment, Tokenizer._eof_in_comment),
        COMMENT_LT: (Tokenizer._s_comment_lt, Tokenizer._eof_reconsume_comment),
        COMMENT_LT_BANG: (Tokenizer._s_comment_lt_bang, Tokenizer._eof_reconsume_comment),
        COMMENT_LT_BANG_DASH: (Tokenizer._s_comment_lt_bang_dash, Tokenizer._eof_reconsume_comment_end_dash),
        COMMENT_LT_BANG_DASH_DASH: (Tokenizer._s_comment_lt_bang_dash_dash, Tokenizer._eof_reconsume_comment_end),
        COMMENT_END_DASH: (Tokenizer._s_comment_end_dash, Tokenizer._eof_in_comment),
        COMMENT_END: (Tokenizer._s_comment_end, Tokenizer._eof_in_comment),
        COMMENT_END_BANG: (Tokenizer._s_comment_end_bang, Tokenizer._eof_in_comment),
        DOCTYPE: (Tokenizer._s_doctype, Tokenizer._eof_doctype_new),
        BEFORE_DOCTYPE_NAME: (Tokenizer._s_before_doctype_name, Tokenizer._eof_doctype_new),
        DOCTYPE_NAME: (Tokenizer._s_doctype_name, Tokenizer._eof_in_doctype),
        AFTER_DOCTYPE_NAME: (Tokenizer._s_after_doctype_name, Tokenizer._eof_in_doctype),
        AFTER_DOCTYPE_PUBLIC_KEYWORD: (Tokenizer._s_after_doctype_public_keyword, Tokenizer._eof_in_doctype),
        BEFORE_DOCTYPE_PUBLIC_ID: (Tokenizer._s_before_doctype_public_id, Tokenizer._eof_in_doctype),
        DOCTYPE_PUBLIC_ID_DQ: (Tokenizer._s_doctype_public_id_dq, Tokenizer._eof_in_doctype),
        DOCTYPE_PUBLIC_ID_SQ: (Tokenizer._s_doctype_public_id_sq, Tokenizer._eof_in_doctype),
        AFTER_DOCTYPE_PUBLIC_ID: (Tokenizer._s_after_doctype_public_id, Tokenizer._eof_in_doctype),
        BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDS: (Tokenizer._s_between_doctype_ids, Tokenizer._eof_in_doctype),
        AFTER_DOCTYPE_SYSTEM_KEYWORD: (Tokenizer._s_after_doctype_system_keyword, Tokenizer._eof_in_doctype),
        BEFORE_DOCTYPE_SYSTEM_ID: (Tokenizer._s_before_doctype_system_id, Tokenizer._eof_in_doctype),
        DOCTYPE_SYSTEM_ID_DQ: (Tokenizer._s_doctype_system_id_dq, Tokenizer._eof_in_doctype),
        DOCTYPE_SYSTEM_ID_SQ: (Tokenizer._s_doctype_system_id_sq, Tokenizer._eof_in_doctype),
        AFTER_DOCTYPE_SYSTEM_ID: (Tokenizer._s_after_doctype_system_id, Tokenizer._eof_in_doctype),
        BOGUS_DOCTYPE: (Tokenizer._s_bogus_doctype, Tokenizer._eof_bogus_doctype),
        CDATA_SECTION: (Tokenizer._s_cdata_section, Tokenizer._eof_cdata),
        CDATA_SECTION_BRACKET: (Tokenizer._s_cdata_section_bracket, Tokenizer._eof_cdata_bracket),
        CDATA_SECTION_END: (Tokenizer._s_cdata_section_end, Tokenizer._eof_cdata_end),
        AMBIGUOUS_AMPERSAND: (Tokenizer._s_ambiguous_ampersand, Tokenizer._eof_reconsume_return),
        NUMERIC_CHARREF: (Tokenizer._s_numeric_charref, Tokenizer._eof_numeric_charref),
        HEX_CHARREF_START: (Tokenizer._s_hex_charref_start, Tokenizer._no_digits),
        DEC_CHARREF_START: (Tokenizer._s_dec_charref_start, Tokenizer._no_digits),
        HEX_CHARREF: (Tokenizer._s_hex_charref, Tokenizer._eof_charref_digits),
        DEC_CHARREF: (Tokenizer._s_dec_charref, Tokenizer._eof_charref_digits),
    }
    handlers: list[_Handler | None] = [None] * N_STATES
    eof_handlers: list[_Handler | None] = [None] * N_STATES
    for state, (handler, eof_handler) in table.items():
        handlers[state] = handler
        eof_handlers[state] = eof_handler
    if None in handlers or None in eof_handlers:
        raise AssertionError("a tokenizer state has no handler")
    return [h for h in handlers if h is not None], [e for e in eof_handlers if e is not None]


_HANDLERS, _EOF_HANDLERS = _build_tables()
