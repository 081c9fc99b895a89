"""Records: one object per page and per repeatable match, keyed by concept; ``id`` merges."""

from __future__ import annotations

from pathlib import Path

from stream_mf2 import Parser, parse
from stream_mf2.wpt import collect_pages, load, merge_by_id, records
from tests.support import chunking
from tests.support.suites import REPO

FIX = REPO / "fixtures" / "wpt"
OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'


def _page(template_xml: str, html: str, url: str) -> dict:
    (page,) = parse(html, url, wpt=load(template_xml))["wpt"]
    return page


def test_the_readme_page_as_records() -> None:
    doc = parse((FIX / "readme.html").read_bytes(), "https://records.example/ar-42", wpt=load(Path(FIX / "readme.xml")))
    recs = records(doc["wpt"][0])
    assert [(r["block"], r["data"]) for r in recs] == [
        (None, {"artist": {"id": "42", "name": "Nina Simone"}}),
        ("1", {"album": {"@value": "Little Girl Bluereleased 1959", "year": "1959"}}),
        ("1", {"album": {"@value": "Pastel Bluesreleased 1965", "year": "1965"}}),
    ]
    assert recs[1]["xpath"] == "/html[1]/body[1]/div[2]/table[1]/tbody[1]/tr[1]"
    assert {r["kind"] for r in recs} == {"wpt-record"} and {r["template"] for r in recs} == {"Artist"}


def test_records_are_the_same_in_every_chunking() -> None:
    data = (FIX / "readme.html").read_bytes()
    wpt = load(Path(FIX / "readme.xml"))
    want = records(parse(data, "https://records.example/ar-42", wpt=wpt)["wpt"][0])
    for label, chunks in [("whole", [data]), ("bytes", chunking.one_by_one(data)), *list(chunking.three_way(data, 5))]:
        parser = Parser("https://records.example/ar-42", wpt=wpt)
        events = [e for c in chunks for e in parser.feed_events(c)] + parser.close_events()
        assert records(collect_pages(events)[0]) == want, label


FORUM = f"""<ow:wpt {OW} ow:host="https://forum.example">
<ow:template ow:name="thread" ow:url="https://forum.example/t/(thread.id[[0-9]+])">
  <ow:block ow:xpath="//h2[@class='topic-title']/a">thread.title</ow:block>
  <ow:block ow:xpath="//div[contains(@class, 'post ')]" ow:type="repeatable">post
    <ow:block ow:xpath=".//a[@class='username']">post.author</ow:block>
    <ow:block ow:xpath=".//a[@class='username']/@href" ow:pattern="u=(user.id[[0-9]+])">user</ow:block>
    <ow:block ow:xpath=".//div[@class='content']">post.text</ow:block>
    <ow:block ow:xpath=".//li" ow:type="repeatable">post.item</ow:block>
  </ow:block>
  <ow:block ow:xpath="//span[@class='tag']" ow:type="repeatable">thread.tag</ow:block>
  <ow:block ow:xpath="//span[@class='tag']">thread.tags</ow:block>
  <ow:block ow:xpath="//p[@class='legal']">Just a description, not a concept.</ow:block>
</ow:template></ow:wpt>"""

THREAD = """<!doctype html><h2 class=topic-title><a href=/t/7>Belts</a></h2>
<div class="post bg1"><a class=username href="/u?u=118">reelfan</a><div class=content>Wow is worse.<ul><li>one<li>two</ul></div></div>
<div class="post bg2"><a class=username href="/u?u=52">capman</a><div class=content>Replace the roller.</div></div>
<span class=tag>tape</span> <span class=tag>akai</span><p class=legal>(c) forum</p>"""


def test_repeatable_matches_are_records_and_nested_repeatables_too() -> None:
    recs = records(_page(FORUM, THREAD, "https://forum.example/t/7"))
    data = [(r["block"], r["data"]) for r in recs]
    assert data == [
        (None, {"thread": {"id": "7", "title": "Belts", "tags": "tape"}}),
        (
            "1",
            {
                "post": {"@value": "reelfanWow is worse.onetwo", "author": "reelfan", "text": "Wow is worse.onetwo"},
                "user": {"id": "118", "@value": "/u?u=118"},
            },
        ),
        ("1.3", {"post": {"item": "one"}}),
        ("1.3", {"post": {"item": "two"}}),
        (
            "1",
            {
                "post": {"@value": "capmanReplace the roller.", "author": "capman", "text": "Replace the roller."},
                "user": {"id": "52", "@value": "/u?u=52"},
            },
        ),
        ("2", {"thread": {"tag": "tape"}}),
        ("2", {"thread": {"tag": "akai"}}),
    ]


def test_several_values_of_one_concept_are_a_list_in_order() -> None:
    t = f"""<ow:wpt {OW} ow:host="h"><ow:template ow:name="T" ow:url="http://h/">
    <ow:block ow:xpath="/html/body/p" ow:pattern="(price[[0-9]+]) and (price[[0-9]+])">offer</ow:block>
    <ow:block ow:xpath="/html/body/p">offer.note</ow:block></ow:template></ow:wpt>"""
    (rec,) = records(_page(t, "<p>12 and 15, or 12 and 12</p>", "http://h/"))
    assert rec["data"] == {
        "price": ["12", "15"],
        "offer": {"@value": "12 and 15, or 12 and 12", "note": "12 and 15, or 12 and 12"},
    }


def test_objects_with_the_same_id_merge_across_pages() -> None:
    artist = f"""<ow:wpt {OW} ow:host="https://music.example">
    <ow:template ow:name="artist" ow:url="https://music.example/ar-(artist.id[[0-9]+])">
      <ow:block ow:xpath="//h1">artist.name</ow:block></ow:template>
    <ow:template ow:name="album" ow:url="https://music.example/al-(album.id[[0-9]+])">
      <ow:block ow:xpath="//h1">album.title</ow:block>
      <ow:block ow:xpath="//a[@rel='artist']/@href" ow:pattern="ar-(artist.id[[0-9]+])">album.artist</ow:block>
      <ow:block ow:xpath="//a[@rel='artist']">artist.name</ow:block>
      <ow:block ow:xpath="//span[@class='genre']">artist.genre</ow:block></ow:template></ow:wpt>"""
    wpt = load(artist)
    pages = [
        parse("<h1>Nina Simone</h1>", "https://music.example/ar-42", wpt=wpt)["wpt"][0],
        parse(
            "<h1>Pastel Blues</h1><a rel=artist href=/ar-42>Nina Simone</a><span class=genre>jazz</span>",
            "https://music.example/al-7",
            wpt=wpt,
        )["wpt"][0],
        parse("<h1>Other</h1><a rel=artist href=/ar-9>Someone</a>", "https://music.example/al-8", wpt=wpt)["wpt"][0],
    ]
    objects = merge_by_id(r for p in pages for r in records(p))
    by_key = {(o["concept"], o["id"]): o for o in objects}
    assert by_key[("artist", "42")]["object"] == {"id": "42", "name": "Nina Simone", "genre": "jazz"}
    assert by_key[("artist", "42")]["urls"] == ["https://music.example/ar-42", "https://music.example/al-7"]
    assert by_key[("artist", "9")]["object"] == {"id": "9", "name": "Someone"}
    assert by_key[("album", "7")]["object"] == {"id": "7", "title": "Pastel Blues", "artist": "/ar-42"}
    assert len(objects) == 4
