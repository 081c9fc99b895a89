"""Placement work per element (issue 25, item 9): an element no path step can take costs the
same below an open formatting element (``<a>``, ``<b>`` ...) as elsewhere.

The WPT consumer hears of every element the tree builder opens. Below an open formatting
element each one used to take the full placement (the matcher's steps, the misnesting
bookkeeping) even when nothing could hold or match it; only special elements, which the
misnesting bookkeeping may hold, need that. Work is counted as lines executed in the WPT
modules (``tests/support/work.py``), never timed.
"""

from __future__ import annotations

from functools import partial

from stream_mf2 import Parser, parse
from stream_mf2.wpt import Template, load
from stream_mf2.wpt._paths import Place
from tests.support.builds import pure_only
from tests.support.work import lines_executed

OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'

# A forum-like template: "//" paths with class predicates, which every div and span is tested against.
FORUM = load(
    f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">'
    '<ow:block ow:xpath=\'//div[contains(@class, "post ")]\' ow:type="repeatable">post</ow:block>'
    '<ow:block ow:xpath=\'//span[@class="crumb"]//span[@itemprop="name"]/text()\'>crumb</ow:block>'
    "</ow:template></ow:wpt>"
).templates[0]


def _page(wrap: str, n: int) -> str:
    """``n`` links (``wrap`` ``a``: inside ``<a>``, a formatting element; ``p``: not one), each
    holding a span and an emphasis that no path can take."""
    item = f'<{wrap} class="x"><span class="label">item</span> <em>new</em> <span>#</span></{wrap}>\n'
    return '<!doctype html><body><div class="post bg1"><p>first</p></div>' + item * n + "</body>"


def _wpt_lines(template: Template, html: str) -> int:
    return lines_executed(partial(parse, html, "http://h/", wpt=template), ("/stream_mf2/wpt/",))


@pure_only
def test_no_full_placement_below_open_formatting_elements() -> None:
    n = 200
    in_links = _wpt_lines(FORUM, _page("a", n)) - _wpt_lines(FORUM, _page("a", 0))
    in_paragraphs = _wpt_lines(FORUM, _page("p", n)) - _wpt_lines(FORUM, _page("p", 0))
    # (with the full placement below <a> the links took about 1.5 times the lines)
    assert in_links < 1.2 * in_paragraphs, (in_links, in_paragraphs)


def test_matches_below_open_formatting_elements_are_unchanged() -> None:
    """What the fast way skips is only what cannot match: a post inside a link still matches."""
    html = '<!doctype html><body><a href="/t"><span class="crumb"><span itemprop="name">Board</span></span>'
    html += '<div class="post bg2">inside a link</div></a><div class="post bg1">after</div></body>'
    posts, crumbs = parse(html, "http://h/", wpt=FORUM)["wpt"][0]["blocks"]
    assert [(m["xpath"], m["text"]) for m in posts["matches"]] == [
        ("/html[1]/body[1]/a[1]/div[1]", "inside a link"),
        ("/html[1]/body[1]/div[1]", "after"),
    ]
    assert [(m["xpath"], m["text"]) for m in crumbs["matches"]] == [
        ("/html[1]/body[1]/a[1]/span[1]/span[1]/text()[1]", "Board")
    ]


#: ``Place``'s attributes (a compiled class has no ``__slots__``: the pure build checks the list)
_PLACE_SLOTS = ("any_pos", "cache", "counts", "element", "n", "name", "parent", "path", "pos", "states")


@pure_only
def test_the_place_slots_are_all_listed() -> None:
    assert sorted(Place.__slots__) == sorted(_PLACE_SLOTS)


def test_streamed_places_set_every_slot() -> None:
    """The consumer writes ``Place.__init__`` out for each opened element: every slot is set,
    as the constructor sets it."""
    parser = Parser("http://h/", wpt=FORUM)
    parser.feed('<!doctype html><body><div class="post bg1"><p><a href="/x"><b><span class=crumb>open')
    wpt = parser._wpt
    assert wpt is not None
    places = [p for el, p in wpt._places.items() if p.element is el]
    assert len(places) >= 7
    for place in places:
        ref = Place(place.parent, place.element, place.name, place.pos, place.any_pos)
        for slot in _PLACE_SLOTS:
            if slot not in ("counts", "n", "states"):  # (set as children come and paths advance)
                assert getattr(place, slot) == getattr(ref, slot), slot
        assert place.states is not None


# Elements no step can take: a section, a div, a paragraph and a span of classes no step tests
# (each opened, with element children), and an italic leaf.
_PLAIN_ITEM = '<section class="x"><div class="meta"><p><span class="label"><i>x</i></span> y</p></div></section>\n'


def _items(item: str, n: int) -> str:
    return '<!doctype html><body><div class="post bg1"><p>first</p></div>' + item * n + "</body>"


@pure_only
def test_an_element_no_path_can_take_costs_a_few_dozen_lines() -> None:
    """The start-tag table of the parent's states lets such an element by: counted, placed,
    its parent's states carried on. (Before the table, about 43 lines an element here.)"""
    n = 100
    per_item = (_wpt_lines(FORUM, _items(_PLAIN_ITEM, 2 * n)) - _wpt_lines(FORUM, _items(_PLAIN_ITEM, n))) / n
    assert per_item / 5 <= 38, per_item


def test_elements_below_a_child_step_still_match() -> None:
    """Below ``dl[@class='postprofile']`` the next step is ``/dd``: the start-tag table lets an
    element of another name by (its children keep the ``//`` states alone), and a ``dd`` is
    still placed by the steps."""
    html = (
        '<!doctype html><body><dl class="postprofile"><dt><b>Ann</b></dt>'
        '<dd class="profile-rank">Admin</dd><dt><span>x</span></dt><dd class="profile-rank">Mod</dd></dl></body>'
    )
    template = load(
        f'<ow:wpt {OW} ow:host="h"><ow:template ow:name="T">'
        "<ow:block ow:xpath=\"//dl[@class='postprofile']/dd[@class='profile-rank']/text()\" ow:type=\"repeatable\">"
        "rank</ow:block></ow:template></ow:wpt>"
    ).templates[0]
    (ranks,) = parse(html, "http://h/", wpt=template)["wpt"][0]["blocks"]
    assert [(m["xpath"], m["text"]) for m in ranks["matches"]] == [
        ("/html[1]/body[1]/dl[1]/dd[1]/text()[1]", "Admin"),
        ("/html[1]/body[1]/dl[1]/dd[2]/text()[1]", "Mod"),
    ]


@pure_only
def test_the_capture_is_not_asked_about_bare_elements_beside_a_template() -> None:
    """With a template the sink is the observed one, built by the fan-out; the capture alone
    asks the keep question there too, so the plain sink's rule holds: an element without
    attributes is not asked about (it used to be, every one: about 4 lines of the capture's)."""
    item = "<section><div><p>a <b>b</b> <i>i</i></p><ul><li>one</li><li>two</li></ul></div></section>\n"
    html = _items(item, 100)
    capture = ("/stream_mf2/mf2/capture.py",)
    alone = lines_executed(partial(parse, html, "http://h/"), capture)
    beside = lines_executed(partial(parse, html, "http://h/", wpt=FORUM), capture)
    assert beside < alone + 200, (beside, alone)


@pure_only
def test_a_match_path_does_not_walk_its_ancestors_again() -> None:
    """The path of each streamed match starts from the path kept on its parent's place (nothing
    has moved on this page): the work per match is the same 5 or 40 levels down. (It walked
    every ancestor for each match, twice: 119 and 259 lines of ``_paths.py`` a post here.)"""

    def per_post(depth: int) -> float:
        post = '<div class="post bg1"><p>text <b>x</b></p></div>\n'
        runs = []
        for n in (50, 100):
            html = "<!doctype html><body>" + "<section>" * depth + post * n + "</section>" * depth + "</body>"
            runs.append(lines_executed(partial(parse, html, "http://h/", wpt=FORUM), ("/stream_mf2/wpt/_paths.py",)))
        return (runs[1] - runs[0]) / 50

    shallow, deep = per_post(5), per_post(40)
    assert deep <= shallow + 2, (shallow, deep)


def test_kept_paths_are_forgotten_when_an_element_moves() -> None:
    """Matches before and after the adoption agency moves ``<section>`` (with a match inside)
    out of ``<b>``, whose place had a kept path (the match before it): the kept paths are
    forgotten at the move, and each path is the full DOM's (html5lib's, here by hand)."""
    html = (
        '<!doctype html><body><main><div class="post a">a</div><b><div class="post e">e</div>'
        '<section><div class="post f">f</div></b>3<div class="post g">g</div></section>'
        '<div class="post h">h</div></main></body>'
    )
    (posts, _) = parse(html, "http://h/", wpt=FORUM)["wpt"][0]["blocks"]
    assert [(m["xpath"], m["text"]) for m in posts["matches"]] == [
        ("/html[1]/body[1]/main[1]/div[1]", "a"),
        ("/html[1]/body[1]/main[1]/b[1]/div[1]", "e"),
        ("/html[1]/body[1]/main[1]/section[1]/b[1]/div[1]", "f"),
        ("/html[1]/body[1]/main[1]/section[1]/div[1]", "g"),
        ("/html[1]/body[1]/main[1]/div[2]", "h"),
    ]
