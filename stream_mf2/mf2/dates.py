"""Date and time parts for the value-class pattern (dt-* properties).

A value element's text is classified as a date, a time, a time zone offset,
or a combination (``2000-01-01 10:00+01:00``). The pattern joins the first of
each kind into ``date + " " + time + zone``; the joined value is normalised as
the official suites expect: 12-hour clock times become 24-hour ones at the
authored precision (hours padded to two digits), and the offset loses its
colon (``-08:00`` -> ``-0800``).
Datetimes taken whole from one attribute or element are never rewritten.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

_DATE: Final = r"(?P<date>\d{4}-(?:\d{2}-\d{2}|\d{3}))"
_TIME: Final = (
    r"(?P<hour>\d{1,2})(?::(?P<minute>\d{2})(?::(?P<second>\d{2}(?:\.\d+)?))?)?"
    r"[ ]?(?P<ampm>[ap]\.?m\.?)?"
)
_ZONE: Final = r"(?P<zone>z|[+-]\d{2}(?::?\d{2})?)"

_DATETIME_RE: Final = re.compile(rf"{_DATE}(?:[t ]{_TIME}[ ]?{_ZONE}?)?\Z")
_TIME_RE: Final = re.compile(rf"{_TIME}[ ]?{_ZONE}?\Z")
_ZONE_RE: Final = re.compile(rf"{_ZONE}\Z")
_WS: Final = re.compile(r"[ \t\n\f\r]+")


@dataclass
class DateParts:
    """The parts found so far; ``None`` where not found."""

    date: str | None = None
    time: str | None = None
    zone: str | None = None

    def is_empty(self) -> bool:
        return self.date is None and self.time is None and self.zone is None


def _time_from(m: re.Match[str]) -> str | None:
    hour, minute, second, ampm = m.group("hour"), m.group("minute"), m.group("second"), m.group("ampm")
    if ampm is None:
        if minute is None:
            return None  # a bare number is not a time
        return _plain(m) or None
    h = int(hour)
    if h < 1 or h > 12:
        return None
    if ampm[0] == "p" and h != 12:
        h += 12
    elif ampm[0] == "a" and h == 12:
        h = 0
    out = f"{h:02d}:{minute or '00'}"
    if second is not None:
        out += ":" + second
    return out


def _plain(m: re.Match[str]) -> str:
    hour = int(m.group("hour"))
    if hour > 24:
        return ""
    out = f"{hour:02d}:" + m.group("minute")
    if m.group("second") is not None:
        out += ":" + m.group("second")
    return out


def _zone_from(raw: str | None) -> str | None:
    if raw is None:
        return None
    if raw in ("z", "Z"):
        return "Z"
    return raw.replace(":", "")


_Parts = tuple[str | None, str | None, str | None]
_NO_PARTS: Final[_Parts] = (None, None, None)
# Value texts longer than this are not remembered (date parts are short; the cache stays small).
_PARTS_MAX_LEN: Final = 64


def parse_part(text: str) -> DateParts:
    """Classify one value element's text; an empty result means "not a date part"."""
    date, time, zone = _cached_parts(text) if len(text) <= _PARTS_MAX_LEN else _parts(text)
    return DateParts(date, time, zone)


def _parts(text: str) -> _Parts:
    """:func:`parse_part` as ``(date, time, zone)``."""
    value = _WS.sub(" ", text.strip(" \t\n\f\r")).lower()
    if not value:
        return _NO_PARTS
    m = _DATETIME_RE.match(value)
    if m:
        if m.group("hour") is None:
            return (m.group("date"), None, None)
        time = _time_from(m)
        if time is None:
            return _NO_PARTS
        return (m.group("date"), time, _zone_from(m.group("zone")))
    m = _TIME_RE.match(value)
    if m:
        time = _time_from(m)
        if time is None:
            return _NO_PARTS
        return (None, time, _zone_from(m.group("zone")))
    m = _ZONE_RE.match(value)
    if m:
        return (None, None, _zone_from(m.group("zone")))
    return _NO_PARTS


# Pages repeat the same few date and time texts (a pure function of the text: cached).
_cached_parts = lru_cache(maxsize=2048)(_parts)


def merge(found: DateParts, candidate: DateParts) -> bool:
    """Add ``candidate`` to ``found`` unless it repeats a kind already found.

    A value element giving a date, time or zone that is already known is
    ignored as a whole (the first of each kind wins).
    """
    if candidate.is_empty():
        return False
    if (
        (candidate.date is not None and found.date is not None)
        or (candidate.time is not None and found.time is not None)
        or (candidate.zone is not None and found.zone is not None)
    ):
        return False
    if candidate.date is not None:
        found.date = candidate.date
    if candidate.time is not None:
        found.time = candidate.time
    if candidate.zone is not None:
        found.zone = candidate.zone
    return True


def assemble(found: DateParts, implied_date: str | None) -> str | None:
    """Join the found parts; a lone time takes ``implied_date`` when there is one."""
    date = found.date if found.date is not None else implied_date if found.time is not None else None
    if date is None:
        if found.time is None:
            return None
        return found.time + (found.zone or "")
    if found.time is None:
        return date
    return date + " " + found.time + (found.zone or "")


_DATE_PREFIX: Final = re.compile(r"[ \t\n\f\r]*(\d{4}-(?:\d{2}-\d{2}|\d{3}))(?![\d])")


def date_of(value: str) -> str | None:
    """The date at the start of a dt-* value, for implying the date of a later time-only value."""
    m = _DATE_PREFIX.match(value)
    return m.group(1) if m else None


def is_time_only(value: str) -> bool:
    """Is ``value`` a time (with optional zone) and no date?"""
    return _TIME_RE.match(_WS.sub(" ", value.strip(" \t\n\f\r")).lower()) is not None
