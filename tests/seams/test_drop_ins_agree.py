"""The two drop-ins give one set of microformats (seams6).

extruct's ``"microformat"`` list is mf2py's ``items`` (extruct calls mf2py), and the docs of
:mod:`stream_mf2.extruct` say its list is the mf2py drop-in's output. It was not: the
extruct drop-in left out mf2py's choices where the spec is silent (``mf2py_compat``:
``id`` on classic roots, ``{"value", "alt"}`` photos of classic roots, ``#x`` links in e-*
html joined to the base URL), so on WordPress-classic, Pelican and footnoted pages the two
drop-ins disagreed where the real extruct and mf2py agree.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from stream_mf2 import extruct as extruct_drop_in
from stream_mf2 import mf2py as mf2py_drop_in
from tests.support.suites import REPO

PAGES = sorted((REPO / "fixtures" / "realworld").glob("*.html"))
URL = "https://example.com/2024/06/post/"


@pytest.mark.parametrize("page", PAGES, ids=[p.stem for p in PAGES])
def test_extruct_drop_in_microformats_are_the_mf2py_drop_in_items(page: Path) -> None:
    html = page.read_text("utf-8")
    items = mf2py_drop_in.parse(doc=html, url=URL)["items"]
    assert extruct_drop_in.extract(html, base_url=URL, syntaxes=["microformat"])["microformat"] == items
    # (the same with every syntax: one parse gives them all)
    assert extruct_drop_in.extract(html, base_url=URL)["microformat"] == items


def test_the_pages_that_showed_it() -> None:
    names = {p.stem for p in PAGES}
    assert {"pelican-article", "wordpress-classic-theme", "eleventy-post-webmentions"} <= names
