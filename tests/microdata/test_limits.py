"""The microdata budgets: each bounds what it names, and past it a note says what changed."""

from __future__ import annotations

from tests.microdata.drive import microdata, on_engine
from tests.microdata.pages import page


def _waiting_items(n: int) -> str:
    items = "".join(f'<div itemscope itemref="t{i}"><b itemprop="a">{i}</b></div>' for i in range(n))
    targets = "".join(f'<p id="t{i}" itemprop="b">{i}</p>' for i in range(n))
    return page("held", items + targets)


def test_held_items_are_built_past_max_microdata_held_items() -> None:
    whole = microdata(_waiting_items(6))
    assert [e.item["properties"] for e in whole.events] == [{"a": str(i), "b": str(i)} for i in range(6)]
    assert whole.notes == []
    bounded = on_engine(_waiting_items(6), max_microdata_held_items=3)
    props = [e.item["properties"] for e in bounded.events]
    # the first four subtrees were built without their targets; the rest found theirs
    assert props[:4] == [{"a": str(i)} for i in range(4)]
    assert props[4:] == [{"a": str(i), "b": str(i)} for i in range(4, 6)]
    assert any("#t0" in n and "held" in n for n in bounded.notes)
    assert bounded.consumer.held() == 0


def test_max_microdata_held_nodes_bounds_the_held_markup() -> None:
    run = microdata(_waiting_items(6), max_microdata_held_nodes=10)
    assert run.events[0].item["properties"] == {"a": "0"}
    assert any("nodes" in n for n in run.notes)


def test_ids_past_max_itemref_ids_are_not_waited_for() -> None:
    run = microdata(_waiting_items(4), max_itemref_ids=2)
    props = [e.item["properties"] for e in run.events]
    assert props[:2] == [{"a": "0", "b": "0"}, {"a": "1", "b": "1"}]
    assert props[2:] == [{"a": "2"}, {"a": "3"}]
    assert any("max_itemref_ids=2" in n and "2 itemref id(s)" in n for n in run.notes)


def test_repeated_items_in_the_whatwg_form_stop_at_max_microdata_values() -> None:
    # two items at each level name the next level: the spec's form doubles per level
    levels = 12
    body = "<div itemscope itemref='l0'></div>" + "".join(
        f'<div itemscope itemprop="x" id="l{i}"><i itemprop="y" itemscope itemref="l{i + 1}"></i>'
        f'<i itemprop="z" itemscope itemref="l{i + 1}"></i></div>'
        for i in range(levels)
    )
    full = microdata(page("dag", body), microdata_form="whatwg")
    assert full.notes == []
    assert str(full.events[0].item).count("'x'") == 2**levels - 1
    # extruct's shape gives each item once, and None where it is met again
    once = str(microdata(page("dag", body)).events[0].item)
    assert once.count("'x'") == 2 * levels - 1 and once.count("'x': None") == levels - 1
    bounded = microdata(page("dag", body), microdata_form="whatwg", max_microdata_values=100)
    assert any("max_microdata_values=100" in n for n in bounded.notes)
    assert '"ERROR"' in str(bounded.events[0].item).replace("'", '"')


def test_text_walks_stop_at_max_microdata_work_ratio() -> None:
    nested = page("deep", "<div itemscope>" + '<div itemprop="p">' * 400 + "x")
    full = microdata(nested, max_microdata_work_ratio=1000)
    assert full.notes == [] and full.events[0].item["properties"]["p"] == ["x"] * 400
    bounded = microdata(nested, max_microdata_work_ratio=1)
    values = bounded.events[0].item["properties"]["p"]
    assert values[:5] == ["x"] * 5 and values[-1] == ""
    assert any("max_microdata_work_ratio=1" in n for n in bounded.notes)
