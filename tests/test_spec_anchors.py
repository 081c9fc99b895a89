"""Every tokenizer state and every insertion mode has an anchor comment into the HTML Standard.

The tokenizer (HTML 13.2.5) and the tree builder (13.2.6) transliterate the Standard.
The code of each tokenizer state and each insertion mode carries a comment naming
its section number and title and the anchor of that section in parsing.html::

    # 13.2.5.1 Data state — https://html.spec.whatwg.org/multipage/parsing.html#data-state

or, where that line would be longer than 120 characters, the same with the URL on
the next comment line. The states and modes are read from the modules' own
constants, so a state or mode added without an anchor (or without an entry below)
fails here. The section numbers are those of the Standard with 80 tokenizer states
and 21 insertion modes ("in select" and "in select in table" were removed in 2025);
the anchors are what stays stable.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

HTML = Path(__file__).resolve().parent.parent / "stream_mf2" / "html"
TOKENIZER = HTML / "tokenizer.py"
TREEBUILDER = HTML / "treebuilder.py"

URL = "https://html.spec.whatwg.org/multipage/parsing.html#"
ANCHOR = re.compile(
    r"^[ \t]*# (?P<section>13\.2(?:\.[0-9]+)+) (?P<title>[^\n]+?)"
    r"(?: — |\n[ \t]*# )" + re.escape(URL) + r"(?P<id>\S+)$",
    re.MULTILINE,
)
CONSTANT = re.compile(r"^([A-Z][A-Z0-9_]*): Final = ([0-9]+)$")

#: The tokenizer states of 13.2.5 in the Standard's order (13.2.5.1 is the first), each
#: with the tokenizer's constant for it (None: the state has no constant of its own).
#: Their anchors are the titles, lowercased, with "-" for spaces.
TOKENIZER_STATES: list[tuple[str, str | None]] = [
    ("Data state", "DATA"),
    ("RCDATA state", "RCDATA"),
    ("RAWTEXT state", "RAWTEXT"),
    ("Script data state", "SCRIPT_DATA"),
    ("PLAINTEXT state", "PLAINTEXT"),
    ("Tag open state", "TAG_OPEN"),
    ("End tag open state", "END_TAG_OPEN"),
    ("Tag name state", "TAG_NAME"),
    ("RCDATA less-than sign state", "RCDATA_LT"),
    ("RCDATA end tag open state", "RCDATA_END_TAG_OPEN"),
    ("RCDATA end tag name state", "RCDATA_END_TAG_NAME"),
    ("RAWTEXT less-than sign state", "RAWTEXT_LT"),
    ("RAWTEXT end tag open state", "RAWTEXT_END_TAG_OPEN"),
    ("RAWTEXT end tag name state", "RAWTEXT_END_TAG_NAME"),
    ("Script data less-than sign state", "SCRIPT_LT"),
    ("Script data end tag open state", "SCRIPT_END_TAG_OPEN"),
    ("Script data end tag name state", "SCRIPT_END_TAG_NAME"),
    ("Script data escape start state", "SCRIPT_ESCAPE_START"),
    ("Script data escape start dash state", "SCRIPT_ESCAPE_START_DASH"),
    ("Script data escaped state", "SCRIPT_ESCAPED"),
    ("Script data escaped dash state", "SCRIPT_ESCAPED_DASH"),
    ("Script data escaped dash dash state", "SCRIPT_ESCAPED_DASH_DASH"),
    ("Script data escaped less-than sign state", "SCRIPT_ESCAPED_LT"),
    ("Script data escaped end tag open state", "SCRIPT_ESCAPED_END_TAG_OPEN"),
    ("Script data escaped end tag name state", "SCRIPT_ESCAPED_END_TAG_NAME"),
    ("Script data double escape start state", "SCRIPT_DOUBLE_ESCAPE_START"),
    ("Script data double escaped state", "SCRIPT_DOUBLE_ESCAPED"),
    ("Script data double escaped dash state", "SCRIPT_DOUBLE_ESCAPED_DASH"),
    ("Script data double escaped dash dash state", "SCRIPT_DOUBLE_ESCAPED_DASH_DASH"),
    ("Script data double escaped less-than sign state", "SCRIPT_DOUBLE_ESCAPED_LT"),
    ("Script data double escape end state", "SCRIPT_DOUBLE_ESCAPE_END"),
    ("Before attribute name state", "BEFORE_ATTR_NAME"),
    ("Attribute name state", "ATTR_NAME"),
    ("After attribute name state", "AFTER_ATTR_NAME"),
    ("Before attribute value state", "BEFORE_ATTR_VALUE"),
    ("Attribute value (double-quoted) state", "ATTR_VALUE_DQ"),
    ("Attribute value (single-quoted) state", "ATTR_VALUE_SQ"),
    ("Attribute value (unquoted) state", "ATTR_VALUE_UQ"),
    ("After attribute value (quoted) state", "AFTER_ATTR_VALUE_QUOTED"),
    ("Self-closing start tag state", "SELF_CLOSING_START_TAG"),
    ("Bogus comment state", "BOGUS_COMMENT"),
    ("Markup declaration open state", "MARKUP_DECLARATION_OPEN"),
    ("Comment start state", "COMMENT_START"),
    ("Comment start dash state", "COMMENT_START_DASH"),
    ("Comment state", "COMMENT"),
    ("Comment less-than sign state", "COMMENT_LT"),
    ("Comment less-than sign bang state", "COMMENT_LT_BANG"),
    ("Comment less-than sign bang dash state", "COMMENT_LT_BANG_DASH"),
    ("Comment less-than sign bang dash dash state", "COMMENT_LT_BANG_DASH_DASH"),
    ("Comment end dash state", "COMMENT_END_DASH"),
    ("Comment end state", "COMMENT_END"),
    ("Comment end bang state", "COMMENT_END_BANG"),
    ("DOCTYPE state", "DOCTYPE"),
    ("Before DOCTYPE name state", "BEFORE_DOCTYPE_NAME"),
    ("DOCTYPE name state", "DOCTYPE_NAME"),
    ("After DOCTYPE name state", "AFTER_DOCTYPE_NAME"),
    ("After DOCTYPE public keyword state", "AFTER_DOCTYPE_PUBLIC_KEYWORD"),
    ("Before DOCTYPE public identifier state", "BEFORE_DOCTYPE_PUBLIC_ID"),
    ("DOCTYPE public identifier (double-quoted) state", "DOCTYPE_PUBLIC_ID_DQ"),
    ("DOCTYPE public identifier (single-quoted) state", "DOCTYPE_PUBLIC_ID_SQ"),
    ("After DOCTYPE public identifier state", "AFTER_DOCTYPE_PUBLIC_ID"),
    ("Between DOCTYPE public and system identifiers state", "BETWEEN_DOCTYPE_PUBLIC_AND_SYSTEM_IDS"),
    ("After DOCTYPE system keyword state", "AFTER_DOCTYPE_SYSTEM_KEYWORD"),
    ("Before DOCTYPE system identifier state", "BEFORE_DOCTYPE_SYSTEM_ID"),
    ("DOCTYPE system identifier (double-quoted) state", "DOCTYPE_SYSTEM_ID_DQ"),
    ("DOCTYPE system identifier (single-quoted) state", "DOCTYPE_SYSTEM_ID_SQ"),
    ("After DOCTYPE system identifier state", "AFTER_DOCTYPE_SYSTEM_ID"),
    ("Bogus DOCTYPE state", "BOGUS_DOCTYPE"),
    ("CDATA section state", "CDATA_SECTION"),
    ("CDATA section bracket state", "CDATA_SECTION_BRACKET"),
    ("CDATA section end state", "CDATA_SECTION_END"),
    ("Character reference state", None),  # folded into Tokenizer._charref
    ("Named character reference state", None),  # likewise
    ("Ambiguous ampersand state", "AMBIGUOUS_AMPERSAND"),
    ("Numeric character reference state", "NUMERIC_CHARREF"),
    ("Hexadecimal character reference start state", "HEX_CHARREF_START"),
    ("Decimal character reference start state", "DEC_CHARREF_START"),
    ("Hexadecimal character reference state", "HEX_CHARREF"),
    ("Decimal character reference state", "DEC_CHARREF"),
    ("Numeric character reference end state", None),  # Tokenizer._numeric_end
]

#: The insertion modes of 13.2.6.4 in the Standard's order, with their anchors. A mode's
#: constant in the tree builder is its name in capitals with "_" for spaces.
INSERTION_MODES: list[tuple[str, str]] = [
    ("initial", "the-initial-insertion-mode"),
    ("before html", "the-before-html-insertion-mode"),
    ("before head", "the-before-head-insertion-mode"),
    ("in head", "parsing-main-inhead"),
    ("in head noscript", "parsing-main-inheadnoscript"),
    ("after head", "the-after-head-insertion-mode"),
    ("in body", "parsing-main-inbody"),
    ("text", "parsing-main-incdata"),
    ("in table", "parsing-main-intable"),
    ("in table text", "parsing-main-intabletext"),
    ("in caption", "parsing-main-incaption"),
    ("in column group", "parsing-main-incolgroup"),
    ("in table body", "parsing-main-intbody"),
    ("in row", "parsing-main-intr"),
    ("in cell", "parsing-main-intd"),
    ("in template", "parsing-main-intemplate"),
    ("after body", "parsing-main-afterbody"),
    ("in frameset", "parsing-main-inframeset"),
    ("after frameset", "parsing-main-afterframeset"),
    ("after after body", "the-after-after-body-insertion-mode"),
    ("after after frameset", "the-after-after-frameset-insertion-mode"),
]

#: Algorithms of tree construction that must have an anchor in the tree builder.
TREE_ALGORITHMS = [
    "adoption-agency-algorithm",
    "reconstruct-the-active-formatting-elements",
    "reset-the-insertion-mode-appropriately",
    "generate-implied-end-tags",
    "appropriate-place-for-inserting-a-node",
    "foster-parent",
    "create-an-element-for-the-token",
    "has-an-element-in-scope",
    "has-an-element-in-button-scope",
    "has-an-element-in-list-item-scope",
    "has-an-element-in-table-scope",
]


def _anchors(path: Path) -> list[tuple[str, str, str]]:
    """(section, title, anchor id) of every anchor comment in ``path``."""
    return [(m["section"], m["title"], m["id"]) for m in ANCHOR.finditer(path.read_text(encoding="utf-8"))]


def _constants(path: Path, first: str, last: re.Pattern[str]) -> dict[str, int]:
    """The ``NAME: Final = <int>`` lines after the line starting with ``first``, up to one matching ``last``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(first))
    found: dict[str, int] = {}
    for line in lines[start + 1 :]:
        if last.match(line):
            break
        m = CONSTANT.match(line)
        if m is not None:
            found[m[1]] = int(m[2])
    return found


def _tokenizer_states() -> dict[str, int]:
    return _constants(TOKENIZER, "# --- states", re.compile(r"N_STATES: Final"))


def _insertion_modes() -> dict[str, int]:
    return _constants(TREEBUILDER, "# Insertion modes", re.compile(r"\s*$"))


def _check_one_anchor_each(anchors: list[tuple[str, str, str]], expected: list[tuple[str, str, str]]) -> list[str]:
    """Problems with ``expected`` (section, title, id): each must be there exactly once, as given."""
    by_title = Counter(title for _, title, _ in anchors)
    problems = []
    for section, title, anchor in expected:
        if by_title[title] != 1:
            problems.append(f"{title!r}: {by_title[title]} anchor comments (want 1)")
        elif (section, title, anchor) not in anchors:
            got = next(a for a in anchors if a[1] == title)
            problems.append(f"{title!r}: anchor {got}, want {(section, title, anchor)}")
    return problems


def test_tokenizer_states_are_the_listed_ones() -> None:
    states = _tokenizer_states()
    n_states = re.search(r"^N_STATES: Final = ([0-9]+)$", TOKENIZER.read_text(encoding="utf-8"), re.MULTILINE)
    assert n_states is not None
    assert sorted(states.values()) == list(range(int(n_states[1]))), "the state constants are not 0..N_STATES-1"
    listed = {c for _, c in TOKENIZER_STATES if c is not None}
    assert set(states) - listed == set(), "tokenizer states without an entry (and anchor) here"
    assert listed - set(states) == set(), "entries here for states the tokenizer no longer has"


def test_every_tokenizer_state_has_one_anchor() -> None:
    anchors = [a for a in _anchors(TOKENIZER) if a[0].startswith("13.2.5.")]
    expected = [
        (f"13.2.5.{i}", title, title.lower().replace(" ", "-")) for i, (title, _) in enumerate(TOKENIZER_STATES, 1)
    ]
    assert _check_one_anchor_each(anchors, expected) == []
    assert sorted(anchors) == sorted(expected), "anchor comments for no known tokenizer state"


def test_insertion_modes_are_the_listed_ones() -> None:
    modes = _insertion_modes()
    in_order = sorted(modes, key=modes.__getitem__)
    assert [modes[m] for m in in_order] == list(range(len(modes)))
    assert [m.lower().replace("_", " ") for m in in_order] == [name for name, _ in INSERTION_MODES]
    table = re.search(r"^TreeBuilder\._START = \[\n(.*?)^\]$", TREEBUILDER.read_text(encoding="utf-8"), re.M | re.S)
    assert table is not None
    assert len(table[1].strip().splitlines()) == len(modes), "the start tag dispatch table and the modes differ"


def test_every_insertion_mode_has_one_anchor() -> None:
    anchors = _anchors(TREEBUILDER)
    expected = [
        (f"13.2.6.4.{i}", f'The "{name}" insertion mode', anchor) for i, (name, anchor) in enumerate(INSERTION_MODES, 1)
    ]
    expected.append(("13.2.6.5", "The rules for parsing tokens in foreign content", "parsing-main-inforeign"))
    assert _check_one_anchor_each(anchors, expected) == []
    modes = [a for a in anchors if a[1].endswith(" insertion mode")]
    assert len(modes) == len(INSERTION_MODES), "anchor comments for no known insertion mode"


def test_tree_construction_algorithms_have_anchors() -> None:
    ids = {anchor for _, _, anchor in _anchors(TREEBUILDER)}
    assert [a for a in TREE_ALGORITHMS if a not in ids] == []


def test_every_spec_link_is_a_well_formed_anchor_comment() -> None:
    # A link to parsing.html not read as an anchor (no section number, another
    # separator, text after the URL) would escape the checks above.
    for path in (TOKENIZER, TREEBUILDER):
        links = path.read_text(encoding="utf-8").count(URL)
        assert links == len(_anchors(path)), f"{path.name}: a parsing.html link is not an anchor comment"
