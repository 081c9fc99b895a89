"""``max_pending_items``: completed items held back for document order, a documented budget.

Inside an open ``table``, content may still be foster-parented *before* the table, so
items completed in its rows wait for it to close. The parse option bounds how many wait;
past it they leave in the order they have then, and ``errors`` says so once.
"""

from __future__ import annotations

import pytest

from stream_mf2 import Parser, parse

URL = "https://shop.example/prices"


def _price_list(rows: int, *, foster_card: bool = False) -> str:
    """A shop's price list: one table, a product h-entry per row (tbody left to the parser)."""
    out = [
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Prices</title></head>',
        '<body><header><h1>Our prices</h1></header><table id="prices"><tr><th>Item<th>Price',
    ]
    for i in range(rows):
        out.append(
            f'<tr><td class="h-entry"><a class="p-name u-url" href="/p/{i}">Widget {i}</a>'
            f'<td><data class="p-price" value="{i}.99">{i}.99 EUR</data>'
        )
        if foster_card and i == rows - 1:
            # Misnested: a div straight inside a table row is foster-parented before the table.
            out.append('<tr><div class="h-card"><span class="p-name">Shop Owner</span></div>')
    out.append("</table><footer>Prices include VAT.</footer></body></html>")
    return "".join(out)


def _names(result: dict[str, object]) -> list[str]:
    items = result["items"]
    assert isinstance(items, list)
    return [item["properties"]["name"][0] for item in items]


def _run(page: str, max_pending_items: int | None = None) -> tuple[dict[str, object], list[str]]:
    """``parse()``'s result and the parser's ``errors`` (the notes ``parse()`` logs)."""
    parser = Parser(URL, max_pending_items=max_pending_items)
    items = parser.feed(page) + parser.close()
    return {"items": items, "rels": parser.rels, "rel-urls": parser.rel_urls}, parser.errors


def test_the_default_holds_a_long_table_whole_and_says_nothing() -> None:
    result, errors = _run(_price_list(600))
    assert _names(result) == [f"Widget {i}" for i in range(600)]
    assert result == parse(_price_list(600), URL)
    assert not any("max_pending_items" in e for e in errors)


def test_a_lower_bound_gives_the_same_items_and_one_note() -> None:
    whole, _ = _run(_price_list(600))
    low, errors = _run(_price_list(600), max_pending_items=50)
    assert low["items"] == whole["items"]
    notes = [e for e in errors if "max_pending_items" in e]
    assert len(notes) == 1 and "more than 50 " in notes[0]


def test_items_leave_before_the_table_closes_past_the_bound() -> None:
    # Streaming: fed row by row, the first items arrive while the table is still open.
    page = _price_list(400)
    head, _, rest = page.partition("<tr><td")
    rows = ["<tr><td" + r for r in rest.split("<tr><td")]
    for bound, expect_early in ((40, True), (10_000, False)):
        parser = Parser(URL, max_pending_items=bound)
        parser.feed(head)
        early = 0
        for row in rows[:-1]:
            early += sum(1 for _ in parser.feed(row))
        assert (early > 0) is expect_early, (bound, early)
        assert early <= 400


def test_content_placed_before_the_table_later_keeps_document_order_within_the_bound() -> None:
    page = _price_list(30, foster_card=True)
    within, errors = _run(page)
    # The full document has the foster-parented card before the table: first.
    assert _names(within)[0] == "Shop Owner"
    assert not any("max_pending_items" in e for e in errors)
    past, errors = _run(page, max_pending_items=10)
    # Past the bound the earlier rows already left: the card follows them (before the rows
    # still held), and errors say why.
    assert sorted(_names(past)) == sorted(_names(within))
    assert 0 < _names(past).index("Shop Owner") < len(_names(past)) - 1
    assert any("max_pending_items" in e for e in errors)


@pytest.mark.parametrize("bad", [0, -1, 1.5, "10"])
def test_the_bound_is_checked(bad: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        parse("<p>", URL, max_pending_items=bad)  # type: ignore[arg-type]
