"""Date and time parts of the value-class pattern."""

from __future__ import annotations

import pytest

from stream_mf2.mf2.dates import DateParts, assemble, date_of, merge, parse_part


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2000-01-01", DateParts(date="2000-01-01")),
        ("2013-034", DateParts(date="2013-034")),
        (" 19:00 ", DateParts(time="19:00")),
        ("9:05", DateParts(time="09:05")),
        ("19:00:05.25", DateParts(time="19:00:05.25")),
        ("07:00:00pm", DateParts(time="19:00:00")),
        ("07pm", DateParts(time="19:00")),
        ("7 p.m.", DateParts(time="19:00")),
        ("7:00AM", DateParts(time="07:00")),
        ("12am", DateParts(time="00:00")),
        ("12pm", DateParts(time="12:00")),
        ("19:00-08:00", DateParts(time="19:00", zone="-0800")),
        ("19:00Z", DateParts(time="19:00", zone="Z")),
        ("+01:30", DateParts(zone="+0130")),
        ("-08", DateParts(zone="-08")),
        ("2009-06-26T19:00-08:00", DateParts(date="2009-06-26", time="19:00", zone="-0800")),
        ("2009-06-26 7pm", DateParts(date="2009-06-26", time="19:00")),
    ],
)
def test_parse_part(text: str, expected: DateParts) -> None:
    assert parse_part(text) == expected


@pytest.mark.parametrize("text", ["", "NotADate", "19", "13pm", "2000-1-1", "26 July", "99:00"])
def test_parse_part_rejects(text: str) -> None:
    assert parse_part(text).is_empty()


def test_merge_first_of_each_kind_wins() -> None:
    found = DateParts()
    assert merge(found, parse_part("00:00:00"))
    # a datetime repeats the time kind: ignored as a whole, its date too
    assert not merge(found, parse_part("2099-12-31 23:59:59"))
    assert merge(found, parse_part("2000-01-01"))
    assert not merge(found, parse_part("1999-12-31"))
    assert assemble(found, None) == "2000-01-01 00:00:00"


def test_assemble_with_implied_date() -> None:
    assert assemble(DateParts(time="22:00", zone="-0600"), "2009-06-26") == "2009-06-26 22:00-0600"
    assert assemble(DateParts(time="22:00"), None) == "22:00"
    assert assemble(DateParts(date="2009-06-26"), "2000-01-01") == "2009-06-26"
    assert assemble(DateParts(zone="Z"), None) is None


def test_date_of() -> None:
    assert date_of("2009-06-26 19:00") == "2009-06-26"
    assert date_of("2013-034") == "2013-034"
    assert date_of("19:00") is None
    assert date_of("20090626") is None
