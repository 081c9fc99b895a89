"""The parse options, typed once for every entry point.

:class:`ParseOptions` is a :class:`~typing.TypedDict` of every option the
:class:`~stream_mf2.Parser` takes. The entry points (:func:`~stream_mf2.parse`,
:func:`~stream_mf2.iter_items`, :func:`~stream_mf2.aiter_items`,
:func:`~stream_mf2.iter_events`, :func:`~stream_mf2.aiter_events`,
:func:`~stream_mf2.iter_warc`, :func:`~stream_mf2.aiter_warc`,
:func:`~stream_mf2.iter_warc_parallel`) take them as
``**options: Unpack[ParseOptions]``, so a type checker rejects a misspelled
option (``metaformtas=True``) and an editor completes the names; at run time
:func:`check_options` rejects an unknown name (:class:`TypeError` listing the
valid ones) and a bad value (:class:`ValueError`), before any input is read.

===========================  ===============================  =====================================
option                       default                          meaning
===========================  ===============================  =====================================
``encoding``                 ``None``                         transport charset label (beats
                                                              ``<meta charset>``, not a BOM)
``default_encoding``         ``"windows-1252"``               when nothing declares one
``detect_utf8``              ``True``                         undeclared valid UTF-8 is UTF-8
``text``                     ``"spec"``                       ``"spec"`` (textContent, trimmed) or
                                                              ``"normalized"`` (mf2py's algorithm)
``lang``                     ``False``                        add ``lang`` to items and e-* values
``metaformats``              ``False``                        add a ``meta-item`` from ``<head>``
``filter_roots``             ``False``                        drop Tailwind ``h-*`` names (or a set)
``mf2py_compat``             ``False``                        where the spec is silent, mf2py's
                                                              choice: ``id`` and alt objects on
                                                              classic roots, ``#x`` links in e-*
                                                              html made absolute
``stream_children``          ``False``                        yield a container's children as they
                                                              close (``True`` or a set of types)
``collect_parse_errors``     ``False``                        list HTML parse errors in ``errors``
``max_token_chars``          16 Mi                            one unfinished tag/comment/attribute
``max_depth``                ``None`` (tree builder default)  open elements
``max_formatting_elements``  ``None`` (64)                    active formatting elements after the
                                                              last marker (a budget: past it the
                                                              earliest is forgotten)
``max_kept_nodes``           ``None`` (sink default)          nodes of one kept subtree
``max_prefix_nodes``         ``None`` (512)                   content of html/body kept for a late
                                                              ``<body class="h-*">`` (a budget)
``max_pending_items``        ``None`` (10,000)                completed kept subtrees held back for
                                                              document order (a budget)
``max_held_items``           capture default                  items waiting for include targets
``max_held_children``        64                               stream_children: children kept in
                                                              their container while a ``<base>``
                                                              may still come (a budget)
``max_nested_html_chars``    1 Mi                             e-* html nested in e-* values
``max_item_chars``           8 Mi                             JSON characters of one item, a nested
                                                              item counted at every place (a budget:
                                                              past it values are emptied)
``max_output_ratio``         32                               output allowance of an item or rel
                                                              link per character of its source span
``output_floor_chars``       4 Ki                             output allowance of an item or rel link
                                                              whatever its span (both a budget: past
                                                              it an item's values are emptied, a rel
                                                              link is left out)
``max_reparse_bytes``        1 MiB                            bytes held for a late ``<meta>``
``tokenizer_fast_path``      ``True``                         ``False``: the tokenizer's state
                                                              machine alone (same output, slower)
``wpt``                      ``None``                         a Website Parse Template (or one of
                                                              its templates, or a sequence of
                                                              either) matched in the same
                                                              pass (:mod:`stream_mf2.wpt`)
``max_pattern_chars``        ``None`` (WPT default)           window of ``ow:pattern`` blocks
``max_pattern_seconds``      ``None`` (WPT default)           CPU time the patterns of one page
                                                              may take together (seconds)
``max_misnest_nodes``        ``None`` (WPT default)           elements WPT holds below misnested
                                                              formatting tags at once (a budget)
``syntaxes``                 ``{"mf2"}``                      the syntaxes extracted in the same
                                                              pass: ``mf2``, ``json-ld``,
                                                              ``microdata``, ``rdfa``,
                                                              ``opengraph``, ``twitter``,
                                                              ``dublincore``
                                                              (:mod:`stream_mf2.core.syntaxes`)
``max_jsonld_chars``         ``None`` (JSON-LD default)       text of one JSON-LD ``<script>`` (a
                                                              budget: past it the block is skipped,
                                                              with a note)
``microdata_form``           ``None`` (``"extruct"``)         the shape of microdata items:
                                                              extruct's, or ``"whatwg"`` (the
                                                              spec's JSON form)
``max_microdata_held_items`` ``None`` (microdata defaults)    microdata items held for ``itemref``
``max_microdata_held_nodes``                                  targets, and their nodes; ids waited
``max_itemref_ids``                                           for; values per top-level item
``max_microdata_values``                                      (WHATWG form); nodes walked per held
``max_microdata_work_ratio``                                  node; nodes of built subtrees
``max_microdata_recent_nodes``                                remembered for earlier ``itemref``
                                                              targets (all budgets: see
                                                              :mod:`stream_mf2.microdata.consumer`)
``max_rdfa_list_items``      ``None`` (RDFa default)          RDFa ``inlist`` members held until
                                                              their list's element closes (a budget:
                                                              past it later members are dropped,
                                                              with a note)
===========================  ===============================  =====================================

Every limit raises :class:`~stream_mf2.errors.LimitExceeded` naming itself,
except the budgets (``max_held_items``, ``max_held_children``, ``max_reparse_bytes``,
``max_formatting_elements``, ``max_prefix_nodes``, ``max_item_chars``, ``max_output_ratio``,
``output_floor_chars``, ``max_jsonld_chars``, the microdata ones, ``max_rdfa_list_items``), which are documented recoveries. The sources add their own keywords (``chunk_size``,
``stall_timeout``, ``slice_size``), which are ordinary keyword parameters.

A :class:`~stream_mf2.Parser` turns its keywords into one :class:`ParserConfig`
(:func:`parser_config`): checked, every default resolved (a ``None`` that means
"the stage's default" becomes that number), the mf2 options shared per option
set. The stages are built from it (:mod:`stream_mf2.core.pipeline`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, TypedDict

from stream_mf2.core.syntaxes import DEFAULT_SYNTAXES, SYNTAXES, resolve_syntaxes
from stream_mf2.html.bounded.sink import DEFAULT_MAX_KEPT_NODES, DEFAULT_MAX_PENDING_ITEMS, DEFAULT_MAX_PREFIX_NODES
from stream_mf2.html.treebuilder import DEFAULT_MAX_DEPTH, DEFAULT_MAX_FORMATTING_ELEMENTS
from stream_mf2.mf2.capture import DEFAULT_MAX_HELD_CHILDREN, DEFAULT_MAX_HELD_ITEMS
from stream_mf2.mf2.options import (
    DEFAULT_MAX_ITEM_CHARS,
    DEFAULT_MAX_NESTED_HTML_CHARS,
    DEFAULT_MAX_OUTPUT_RATIO,
    DEFAULT_OUTPUT_FLOOR_CHARS,
    Options,
    options_for,
)
from stream_mf2.wpt.limits import DEFAULT_MAX_MISNEST_NODES, DEFAULT_MAX_PATTERN_CHARS, DEFAULT_MAX_PATTERN_SECONDS

if TYPE_CHECKING:
    from stream_mf2.wpt.model import WptSpec

__all__ = [
    "DEFAULT_MAX_REPARSE_BYTES",
    "DEFAULT_MAX_TOKEN_CHARS",
    "OPTION_NAMES",
    "ParseOptions",
    "ParserConfig",
    "check_options",
    "default_parser_config",
    "parser_config",
]

#: Default limit on one unfinished token (tag, attribute value, comment), in characters.
DEFAULT_MAX_TOKEN_CHARS: Final = 16 * 1024 * 1024
#: Default byte budget for re-parsing a document whose late ``<meta>`` changes the encoding.
DEFAULT_MAX_REPARSE_BYTES: Final = 1024 * 1024


class ParseOptions(TypedDict, total=False):
    """Every option of :class:`~stream_mf2.Parser` (all optional; see the module table)."""

    encoding: str | None
    default_encoding: str
    detect_utf8: bool
    text: Literal["spec", "normalized"]
    lang: bool
    metaformats: bool
    filter_roots: bool | frozenset[str]
    mf2py_compat: bool
    stream_children: bool | frozenset[str]
    collect_parse_errors: bool
    max_token_chars: int
    max_depth: int | None
    max_formatting_elements: int | None
    max_kept_nodes: int | None
    max_prefix_nodes: int | None
    max_pending_items: int | None
    max_held_items: int
    max_held_children: int
    max_nested_html_chars: int
    max_item_chars: int
    max_output_ratio: int
    output_floor_chars: int
    max_reparse_bytes: int
    tokenizer_fast_path: bool
    wpt: WptSpec | None
    max_pattern_chars: int | None
    max_pattern_seconds: float | None
    max_misnest_nodes: int | None
    syntaxes: Iterable[str]
    max_jsonld_chars: int | None
    microdata_form: str | None
    max_microdata_held_items: int | None
    max_microdata_held_nodes: int | None
    max_itemref_ids: int | None
    max_microdata_values: int | None
    max_microdata_work_ratio: int | None
    max_microdata_recent_nodes: int | None
    max_rdfa_list_items: int | None


#: The valid option names, in the order of :class:`ParseOptions`.
OPTION_NAMES: tuple[str, ...] = tuple(ParseOptions.__annotations__)
# For the membership test every parse makes (a set look-up, not a scan of the names).
_OPTION_SET: frozenset[str] = frozenset(OPTION_NAMES)
# isinstance() classes as constants: a ``bool | frozenset`` union would be built on every call.
_SET_TYPES = (bool, frozenset, set)
_SET_VALUES = (frozenset, set)

_TEXT_MODES = ("spec", "normalized")
_BOOLS = ("detect_utf8", "lang", "metaformats", "mf2py_compat", "collect_parse_errors", "tokenizer_fast_path")
_SETS = ("filter_roots", "stream_children")
# (name, may it be None, smallest value)
_LIMITS = (
    ("max_token_chars", False, 1),
    ("max_depth", True, 1),
    ("max_formatting_elements", True, 1),
    ("max_kept_nodes", True, 1),
    ("max_prefix_nodes", True, 0),
    ("max_pending_items", True, 1),
    ("max_held_items", False, 0),
    ("max_held_children", False, 0),
    ("max_nested_html_chars", False, 0),
    ("max_item_chars", False, 0),
    ("max_output_ratio", False, 0),
    ("output_floor_chars", False, 0),
    ("max_reparse_bytes", False, 0),
    ("max_pattern_chars", True, 1),
    ("max_misnest_nodes", True, 0),
    ("max_jsonld_chars", True, 0),
    ("max_microdata_held_items", True, 0),
    ("max_microdata_held_nodes", True, 0),
    ("max_itemref_ids", True, 0),
    ("max_microdata_values", True, 0),
    ("max_microdata_work_ratio", True, 0),
    ("max_microdata_recent_nodes", True, 0),
    ("max_rdfa_list_items", True, 0),
)
#: The shapes of microdata items (``microdata_form``).
_MICRODATA_FORMS = ("extruct", "whatwg")


# What _all_valid checks per option name: a kind, or for a limit (may it be None, smallest value).
_TEXT, _STR_OR_NONE, _STR, _BOOL, _BOOL_OR_SET, _UNCHECKED, _SECONDS, _SYNTAXES, _FORM = range(9)
_KINDS: dict[str, int | tuple[bool, int]] = {name: _UNCHECKED for name in OPTION_NAMES}
_KINDS.update({"text": _TEXT, "encoding": _STR_OR_NONE, "default_encoding": _STR})
_KINDS.update({name: _BOOL for name in _BOOLS})
_KINDS.update({name: _BOOL_OR_SET for name in _SETS})
_KINDS.update({name: (nullable, least) for name, nullable, least in _LIMITS})
_KINDS["max_pattern_seconds"] = _SECONDS  # None, or a number of seconds above 0
_KINDS["syntaxes"] = _SYNTAXES
_KINDS["microdata_form"] = _FORM


def _all_valid(options: Mapping[str, object]) -> bool:
    """Whether every option is known and plainly valid, in one pass over the options given
    (every parse checks them, the parser its full set): ``False`` sends them through the
    complete checks, which find the error (or accept a set of class names)."""
    for name, value in options.items():
        kind = _KINDS.get(name)
        if kind is None:
            return False
        if isinstance(kind, tuple):
            if value is None:
                if not kind[0]:
                    return False
            elif type(value) is not int or value < kind[1]:
                return False
        elif kind in (_BOOL, _BOOL_OR_SET):
            if value is not True and value is not False:
                return False
        elif kind == _TEXT:
            if value != "spec" and value != "normalized":
                return False
        elif kind == _STR_OR_NONE:
            if value is not None and type(value) is not str:
                return False
        elif kind == _FORM:
            if value is not None and value not in _MICRODATA_FORMS:
                return False
        elif kind == _STR:
            if type(value) is not str:
                return False
        elif kind == _SECONDS and value is not None and not _positive_seconds(value):
            return False
        elif kind == _SYNTAXES and not (type(value) is frozenset and value <= DEFAULT_SYNTAXES):
            # (other sets go through the complete check, which imports their consumers)
            return False
    return True


def _positive_seconds(value: object) -> bool:
    """A number of seconds above 0 and finite (not a bool, not NaN)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return 0 < value < float("inf")


def check_options(options: Mapping[str, object], where: str = "parse") -> None:
    """Reject unknown option names (``TypeError``) and bad values (``TypeError``/``ValueError``).

    ``where`` names the entry point in the message.
    """
    if not _all_valid(options):
        _check_each(options, where)


def _check_each(options: Mapping[str, object], where: str) -> None:
    """The complete checks of :func:`check_options`, each with its own message."""
    unknown = [name for name in options if name not in _OPTION_SET]
    if unknown:
        listed = ", ".join(repr(n) for n in unknown)
        raise TypeError(
            f"{where}() got unknown option{'s' if len(unknown) > 1 else ''} {listed}; "
            f"the options are: {', '.join(OPTION_NAMES)}"
        )
    if "text" in options and options["text"] not in _TEXT_MODES:
        raise ValueError(f"text must be 'spec' or 'normalized', not {options['text']!r}")
    for name in ("encoding",):
        value = options.get(name)
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a str or None, not {type(value).__name__}")
    if "default_encoding" in options and not isinstance(options["default_encoding"], str):
        raise TypeError(f"default_encoding must be a str, not {type(options['default_encoding']).__name__}")
    for name in _BOOLS:
        if name in options and not isinstance(options[name], bool):
            raise TypeError(f"{name} must be True or False, not {options[name]!r}")
    for name in _SETS:
        if name in options:
            value = options[name]
            if not isinstance(value, _SET_TYPES) or (
                isinstance(value, _SET_VALUES) and not all(isinstance(v, str) for v in value)
            ):
                raise TypeError(f"{name} must be True, False or a frozenset of class names, not {value!r}")
    for name, nullable, least in _LIMITS:
        if name not in options:
            continue
        value = options[name]
        if value is None and nullable:
            continue
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an int{' or None' if nullable else ''}, not {value!r}")
        if value < least:
            raise ValueError(f"{name} must be at least {least}, not {value}")
    seconds = options.get("max_pattern_seconds")
    if seconds is not None and not _positive_seconds(seconds):
        if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
            raise TypeError(f"max_pattern_seconds must be a number of seconds or None, not {seconds!r}")
        raise ValueError(f"max_pattern_seconds must be more than 0 (and finite), not {seconds}")
    if "syntaxes" in options:
        resolve_syntaxes(options["syntaxes"])
    form = options.get("microdata_form")
    if form is not None and form not in _MICRODATA_FORMS:
        raise ValueError(f"microdata_form must be one of {', '.join(map(repr, _MICRODATA_FORMS))}, not {form!r}")


@dataclass(frozen=True, slots=True)
class ParserConfig:
    """The options of one :class:`~stream_mf2.Parser`, checked and resolved (:func:`parser_config`).

    Every field is the value a stage is made with: the limits whose option is
    ``None`` ("the stage's default") hold that default, and the mf2 rules are one
    shared :class:`~stream_mf2.mf2.options.Options` per option set. A re-parse
    builds its stages from the same value.
    """

    #: Decoder: transport charset label, the fallback, and the UTF-8 detection.
    encoding: str | None
    default_encoding: str
    detect_utf8: bool
    #: ``text``, ``lang``, ``metaformats``, ``filter_roots`` and the output budgets.
    mf2: Options
    #: Capture.
    stream_children: bool | frozenset[str]
    max_held_items: int
    max_held_children: int
    #: Tokenizer.
    collect_parse_errors: bool
    tokenizer_fast_path: bool
    max_token_chars: int
    #: Tree builder.
    max_depth: int
    max_formatting_elements: int
    #: Bounded sink.
    max_kept_nodes: int
    max_prefix_nodes: int
    max_pending_items: int
    #: The parser's byte budget for a re-parse.
    max_reparse_bytes: int
    #: The WPT consumer (``wpt`` ``None``: none).
    wpt: WptSpec | None
    max_pattern_chars: int
    max_pattern_seconds: float
    max_misnest_nodes: int
    #: The microformats2 capture's items, rels and meta item (``"mf2"`` in ``syntaxes``).
    mf2_items: bool
    #: The other syntaxes' names, in registry order (empty: mf2 alone, the plain pipeline),
    #: and the limits given for them (option name, value), passed to their consumers.
    consumers: tuple[str, ...]
    syntax_limits: tuple[tuple[str, int | str], ...]


def parser_config(
    *,
    encoding: str | None,
    default_encoding: str,
    detect_utf8: bool,
    text: Literal["spec", "normalized"],
    lang: bool,
    metaformats: bool,
    filter_roots: bool | frozenset[str] | set[str],
    mf2py_compat: bool,
    stream_children: bool | frozenset[str] | set[str],
    max_token_chars: int,
    max_depth: int | None,
    max_formatting_elements: int | None,
    max_kept_nodes: int | None,
    max_prefix_nodes: int | None,
    max_held_items: int,
    max_held_children: int,
    max_nested_html_chars: int,
    max_item_chars: int,
    max_output_ratio: int,
    output_floor_chars: int,
    max_reparse_bytes: int,
    collect_parse_errors: bool,
    tokenizer_fast_path: bool,
    wpt: WptSpec | None,
    max_pattern_chars: int | None,
    max_pattern_seconds: float | None = None,
    max_misnest_nodes: int | None = None,
    max_pending_items: int | None = None,
    syntaxes: Iterable[str] = DEFAULT_SYNTAXES,
    max_jsonld_chars: int | None = None,
    microdata: Mapping[str, int | str | None] | None = None,
    max_rdfa_list_items: int | None = None,
) -> ParserConfig:
    """Check the :class:`~stream_mf2.Parser` keywords and resolve them into one :class:`ParserConfig`.

    Every keyword is required: the defaults are the ``Parser``'s (its signature
    is the public one). A bad value raises as :func:`check_options` does, naming
    ``Parser``.
    """
    # Only values other than the defaults can be wrong: checking those alone keeps a
    # small document's fixed cost down (parse() and the sources have checked already).
    given: dict[str, object] = {}
    if encoding is not None:
        given["encoding"] = encoding
    if default_encoding != "windows-1252" or type(default_encoding) is not str:
        given["default_encoding"] = default_encoding
    if detect_utf8 is not True:
        given["detect_utf8"] = detect_utf8
    if text != "spec" or type(text) is not str:
        given["text"] = text
    if lang is not False:
        given["lang"] = lang
    if metaformats is not False:
        given["metaformats"] = metaformats
    if filter_roots is not False:
        given["filter_roots"] = filter_roots
    if mf2py_compat is not False:
        given["mf2py_compat"] = mf2py_compat
    if stream_children is not False:
        given["stream_children"] = stream_children
    if collect_parse_errors is not False:
        given["collect_parse_errors"] = collect_parse_errors
    if tokenizer_fast_path is not True:
        given["tokenizer_fast_path"] = tokenizer_fast_path
    # (Spelled out, not looped over tuples: the compiled build would build and box them.)
    if max_token_chars != DEFAULT_MAX_TOKEN_CHARS or type(max_token_chars) is not int:
        given["max_token_chars"] = max_token_chars
    if max_held_items != DEFAULT_MAX_HELD_ITEMS or type(max_held_items) is not int:
        given["max_held_items"] = max_held_items
    if max_held_children != DEFAULT_MAX_HELD_CHILDREN or type(max_held_children) is not int:
        given["max_held_children"] = max_held_children
    if max_nested_html_chars != DEFAULT_MAX_NESTED_HTML_CHARS or type(max_nested_html_chars) is not int:
        given["max_nested_html_chars"] = max_nested_html_chars
    if max_item_chars != DEFAULT_MAX_ITEM_CHARS or type(max_item_chars) is not int:
        given["max_item_chars"] = max_item_chars
    if max_output_ratio != DEFAULT_MAX_OUTPUT_RATIO or type(max_output_ratio) is not int:
        given["max_output_ratio"] = max_output_ratio
    if output_floor_chars != DEFAULT_OUTPUT_FLOOR_CHARS or type(output_floor_chars) is not int:
        given["output_floor_chars"] = output_floor_chars
    if max_reparse_bytes != DEFAULT_MAX_REPARSE_BYTES or type(max_reparse_bytes) is not int:
        given["max_reparse_bytes"] = max_reparse_bytes
    if max_depth is not None:
        given["max_depth"] = max_depth
    if max_formatting_elements is not None:
        given["max_formatting_elements"] = max_formatting_elements
    if max_kept_nodes is not None:
        given["max_kept_nodes"] = max_kept_nodes
    if max_prefix_nodes is not None:
        given["max_prefix_nodes"] = max_prefix_nodes
    if max_pending_items is not None:
        given["max_pending_items"] = max_pending_items
    if max_pattern_chars is not None:
        given["max_pattern_chars"] = max_pattern_chars
    if max_pattern_seconds is not None:
        given["max_pattern_seconds"] = max_pattern_seconds
    if max_misnest_nodes is not None:
        given["max_misnest_nodes"] = max_misnest_nodes
    if max_jsonld_chars is not None:
        given["max_jsonld_chars"] = max_jsonld_chars
    # the microdata consumer's options (microdata_form and its limits), those given
    microdata_given = {k: v for k, v in microdata.items() if v is not None} if microdata else {}
    given.update(microdata_given)
    if max_rdfa_list_items is not None:
        given["max_rdfa_list_items"] = max_rdfa_list_items
    if given:
        check_options(given, "Parser")
    names = DEFAULT_SYNTAXES if syntaxes is DEFAULT_SYNTAXES else resolve_syntaxes(syntaxes)
    every_default = not given and wpt is None and names is DEFAULT_SYNTAXES
    if every_default:
        # Most parsers take every default: their (frozen) configuration is made once.
        made = _DEFAULT_CONFIG.get("config")
        if made is not None:
            return made
    consumers: tuple[str, ...] = ()
    syntax_limits: tuple[tuple[str, int | str], ...] = ()
    if names is not DEFAULT_SYNTAXES:
        consumers = tuple(sorted((n for n in names if n != "mf2"), key=_registry_order))
        if max_jsonld_chars is not None and "json-ld" in names:
            syntax_limits = (("max_jsonld_chars", max_jsonld_chars),)
        if microdata_given and "microdata" in names:
            syntax_limits += tuple((k, v) for k, v in microdata_given.items() if v is not None)
        if max_rdfa_list_items is not None and "rdfa" in names:
            syntax_limits = (*syntax_limits, ("max_rdfa_list_items", max_rdfa_list_items))
    if isinstance(filter_roots, set):
        filter_roots = frozenset(filter_roots)
    if isinstance(stream_children, set):
        stream_children = frozenset(stream_children)
    config = ParserConfig(
        encoding=encoding,
        default_encoding=default_encoding,
        detect_utf8=detect_utf8,
        mf2=options_for(
            text,
            lang,
            metaformats,
            filter_roots,
            max_nested_html_chars,
            max_item_chars,
            max_output_ratio,
            output_floor_chars,
            mf2py_compat,
        ),
        stream_children=stream_children,
        max_held_items=max_held_items,
        max_held_children=max_held_children,
        collect_parse_errors=collect_parse_errors,
        tokenizer_fast_path=tokenizer_fast_path,
        max_token_chars=max_token_chars,
        max_depth=DEFAULT_MAX_DEPTH if max_depth is None else max_depth,
        max_formatting_elements=(
            DEFAULT_MAX_FORMATTING_ELEMENTS if max_formatting_elements is None else max_formatting_elements
        ),
        max_kept_nodes=DEFAULT_MAX_KEPT_NODES if max_kept_nodes is None else max_kept_nodes,
        max_prefix_nodes=DEFAULT_MAX_PREFIX_NODES if max_prefix_nodes is None else max_prefix_nodes,
        max_pending_items=DEFAULT_MAX_PENDING_ITEMS if max_pending_items is None else max_pending_items,
        max_reparse_bytes=max_reparse_bytes,
        wpt=wpt,
        max_pattern_chars=DEFAULT_MAX_PATTERN_CHARS if max_pattern_chars is None else max_pattern_chars,
        max_pattern_seconds=DEFAULT_MAX_PATTERN_SECONDS if max_pattern_seconds is None else float(max_pattern_seconds),
        max_misnest_nodes=DEFAULT_MAX_MISNEST_NODES if max_misnest_nodes is None else max_misnest_nodes,
        mf2_items="mf2" in names,
        consumers=consumers,
        syntax_limits=syntax_limits,
    )
    if every_default:
        _DEFAULT_CONFIG["config"] = config
    return config


#: The configuration of a parser given every default, once made (see :func:`parser_config`).
_DEFAULT_CONFIG: Final[dict[str, ParserConfig]] = {}


def default_parser_config() -> ParserConfig:
    """The configuration of a :class:`~stream_mf2.Parser` given every default (made once)."""
    made = _DEFAULT_CONFIG.get("config")
    if made is not None:
        return made
    return parser_config(
        encoding=None,
        default_encoding="windows-1252",
        detect_utf8=True,
        text="spec",
        lang=False,
        metaformats=False,
        filter_roots=False,
        mf2py_compat=False,
        stream_children=False,
        max_token_chars=DEFAULT_MAX_TOKEN_CHARS,
        max_depth=None,
        max_formatting_elements=None,
        max_kept_nodes=None,
        max_prefix_nodes=None,
        max_held_items=DEFAULT_MAX_HELD_ITEMS,
        max_held_children=DEFAULT_MAX_HELD_CHILDREN,
        max_nested_html_chars=DEFAULT_MAX_NESTED_HTML_CHARS,
        max_item_chars=DEFAULT_MAX_ITEM_CHARS,
        max_output_ratio=DEFAULT_MAX_OUTPUT_RATIO,
        output_floor_chars=DEFAULT_OUTPUT_FLOOR_CHARS,
        max_reparse_bytes=DEFAULT_MAX_REPARSE_BYTES,
        collect_parse_errors=False,
        tokenizer_fast_path=True,
        wpt=None,
        max_pattern_chars=None,
    )


def _registry_order(name: str) -> int:
    """The place of ``name`` in the registry (consumers are asked in that order)."""
    return SYNTAXES.index(name)
