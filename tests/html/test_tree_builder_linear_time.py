"""Inputs whose cost grew with the square of their size, now linear.

Work is measured deterministically: the number of lines the HTML engine, the
capture and the parser façade execute (``sys.settrace``), not time, so the test
cannot flake on a loaded machine. For each pattern the input is built at three
sizes n, 2n and 4n; linear work doubles with each step, quadratic work nearly
quadruples. The bound (2.6 per doubling) leaves room for constant costs.

* n distinct formatting elements (the Noah's Ark scan on every push);
* ``<p><button>`` + n ``<span>`` + n ``<hr>`` (the "has a ``p`` element in
  button scope" walk, remembered now while nothing that could change it moves);
* n distinct ``<b id>`` closed, then n blocks that each reopen them (the
  reconstruction, capped by ``max_formatting_elements``);
* n ``<i id>`` then n ``<a>x`` (a stack search for an element no longer open);
* n items held in an open ``<table>`` and handed over when it closes (a search
  of the ready list per item, the document-order sort's search of each parent's
  children, the release of each row from the front of its section);
* n ``th id`` / ``td headers`` rows (the same hand-over);
* ``</table><span><table><td>`` n times ("reset the insertion mode
  appropriately" walked past every accumulated ``span``; fuzz finding F1);
* ``</html><article>`` or ``</body><article>`` n times (the "has a ``body``
  element in scope" walk past every nested ``article``; fuzz finding F2);
* ``<span><div>`` + n ``<em>`` + n ``</span>`` ("any other end tag" walked down
  to the ``div`` for every ``</span>``; now a remembered scope test);
* n ``<SVG>`` then n ``</html>`` (an end tag in foreign content walked down every
  nested ``svg`` to the first HTML element; fuzz finding F4), also with a
  self-closing foreign element between the end tags, and with a foreign element
  of the same name open below the first HTML element (a remembered walk).

The HTML engine's modules (not mf2) are counted.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest

import stream_mf2
from stream_mf2.html.testing import tree_for_test
from tests.support.builds import pure_only
from tests.support.work import lines_executed


def _distinct_formatting(n: int) -> str:
    return "".join(f"<b id={i}>" for i in range(n))


def _p_button(n: int) -> str:
    return "<p><button>" + "<span>" * n + "<hr>" * n


def _reopened(n: int) -> str:
    return "<p>" + "".join(f"<b id={i}>" for i in range(n)) + "</p>" + "<div>x</div>" * n


def _i_then_a(n: int) -> str:
    return "".join(f"<i id={i}>" for i in range(n)) + "<a>x" * n


def _items_in_table(n: int) -> str:
    return "<table>" + "<tr><td><div class=h-card><span class=p-name>x</span></div></td></tr>" * n + "</table>"


def _header_cells(n: int) -> str:
    rows = "".join(f"<tr><th id=h{i}>H</th><td headers=h{i} class=vcard><span class=fn>x</span></td></tr>" for i in range(n))
    return "<table>" + rows + "</table>"


def _reset_mode(n: int) -> str:
    return "</table><span><table><td>" * n


def _reset_mode_fuzz(n: int) -> str:
    return "</table></option><isindex>7pm<tfoot></desc><table><tr><td></u>" * n


def _reset_mode_over_divs(n: int) -> str:
    # each outer </table> resets the mode through n open <div>s to the <td> below them
    return "<table><td>" + "<div>" * n + "<table><td><table></table></table>" * n


def _p_button_object(n: int) -> str:
    # an <object> (a scope boundary) opened and closed above the long walk to the <button>
    return "<p><button>" + "<span>" * n + "<object><hr></object><hr>" * n


def _p_button_table(n: int) -> str:
    return "<p><button>" + "<span>" * n + "<table><td><hr></table><hr>" * n


def _html_end_tags(n: int) -> str:
    return "</html><article>" * n


def _body_end_tags(n: int) -> str:
    return "</body><article>" * n


def _other_end_tags(n: int) -> str:
    return "<span><div>" + "<em>" * n + "</span>" * n


def _foreign_end_tags(n: int) -> str:
    return "<SVG>" * n + "</html>" * n


def _foreign_end_tags_self_closing(n: int) -> str:
    return "<svg>" * n + "<path/></html>" * n


def _foreign_end_tags_name_below(n: int) -> str:
    return "<svg><title><div>" + "<svg>" * n + "</title>" * n


PATTERNS: dict[str, Callable[[int], str]] = {
    "foreign-end-tag": _foreign_end_tags,
    "foreign-end-tag-self-closing": _foreign_end_tags_self_closing,
    "foreign-end-tag-name-below": _foreign_end_tags_name_below,
    "any-other-end-tag": _other_end_tags,
    "body-in-scope-html-end": _html_end_tags,
    "body-in-scope-body-end": _body_end_tags,
    "reset-insertion-mode": _reset_mode,
    "reset-insertion-mode-fuzz-block": _reset_mode_fuzz,
    "reset-insertion-mode-over-open-divs": _reset_mode_over_divs,
    "p-in-button-scope-past-object": _p_button_object,
    "p-in-button-scope-past-table": _p_button_table,
    "items-in-open-table": _items_in_table,
    "th-headers-table": _header_cells,
    "distinct-formatting": _distinct_formatting,
    "p-in-button-scope": _p_button,
    "reconstruct": _reopened,
    "i-then-a": _i_then_a,
}


@pure_only  # counts executed Python lines (sys.settrace), which compiled code does not report
@pytest.mark.parametrize(
    "name", [pytest.param(n, marks=pytest.mark.slow) if n == "reconstruct" else n for n in sorted(PATTERNS)]
)
def test_work_grows_linearly(name: str) -> None:
    make = PATTERNS[name]
    sizes = (300, 600, 1200)
    work = [lines_executed(partial(stream_mf2.parse, make(n))) for n in sizes]
    ratios = [work[1] / work[0], work[2] / work[1]]
    assert all(r < 2.6 for r in ratios), f"{name}: lines executed {work}, ratios {ratios}"


def test_the_cap_is_recorded_and_configurable() -> None:
    doc = _reopened(100)
    parser = stream_mf2.Parser()
    parser.feed(doc)
    parser.close()
    assert any("max_formatting_elements=64" in e for e in parser.errors)
    roomy = stream_mf2.Parser(max_formatting_elements=1000)
    roomy.feed(doc)
    roomy.close()
    assert not roomy.errors
    with pytest.raises(ValueError):
        stream_mf2.Parser(max_formatting_elements=2)


def test_the_cap_changes_only_what_is_reopened() -> None:
    # Below the cap the tree is the spec's; above it only the earliest entries
    # are not reopened in the later block.
    small = tree_for_test(["<p><b id=1><b id=2></p><div>x</div>"])
    assert small.count("<b>") == 4
    big = tree_for_test(["<p>" + "".join(f"<b id={i}>" for i in range(70)) + "</p><div>x</div>"])
    div = big[big.index("<div>") :]
    assert div.count("<b>") == 64
    assert 'id="5"' not in div and 'id="6"' in div  # the first six are not reopened
