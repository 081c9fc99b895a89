"""docs/performance.md is generated from the benchmark run it names, never edited by hand.

The page's first line names one results file (``bench/results/<UTC start>.json``).
Regenerating the page from that file (:func:`bench.docs.render_page`) must give
the page exactly, so a hand edit, or a change of the generator without a new
page, fails here. The named run must be complete (every peer and both builds)
and the newest complete one, so a new run cannot sit unpublished either.
To fix a failure: ``python -m bench.docs > docs/performance.md``.
"""

from __future__ import annotations

import json

from bench import docs

FIX = "regenerate it: python -m bench.docs > docs/performance.md"


def _page() -> str:
    return docs.PAGE.read_text(encoding="utf-8")


def test_the_page_names_a_run_that_exists() -> None:
    run = docs.named_run(_page())
    assert run is not None, f"docs/performance.md does not name its run on its first line; {FIX}"
    assert (docs.REPO / run).is_file(), f"docs/performance.md names {run}, which does not exist"


def test_the_page_is_the_named_run_rendered() -> None:
    run = docs.named_run(_page())
    assert run is not None
    assert docs.render_page(docs.REPO / run) == _page(), f"docs/performance.md differs from its run {run}; {FIX}"


def test_the_named_run_is_the_newest_complete_run() -> None:
    run = docs.named_run(_page())
    assert run is not None
    path = docs.REPO / run
    assert docs.missing(json.loads(path.read_text(encoding="utf-8"))) == []
    newest = docs.newest_complete()
    assert newest.resolve() == path.resolve(), f"{newest.name} is a newer complete run than {run}; {FIX}"


def test_an_incomplete_run_is_told_apart() -> None:
    complete = json.loads((docs.REPO / (docs.named_run(_page()) or "")).read_text(encoding="utf-8"))
    no_peer = json.loads(json.dumps(complete))
    no_peer["throughput"]["runners"][-1]["available"] = False
    assert docs.missing(no_peer)
    pure_only = json.loads(json.dumps(complete))
    pure_only["fixed"]["rows"] = [r for r in pure_only["fixed"]["rows"] if r["build"] == "pure"]
    assert docs.missing(pure_only) == ["no fixed-cost row of the compiled build"]
    assert docs.missing({"fixed": complete["fixed"]}) == ["no throughput section"]
