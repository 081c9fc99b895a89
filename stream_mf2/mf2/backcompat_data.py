"""The classic microformats (mf1) vocabulary tables used for backcompat parsing.

Data only; the rules that read these tables live in :mod:`stream_mf2.mf2.backcompat`.

Sources: the "backward compatibility" / "parser compatibility" section of each
microformats2 vocabulary page on the microformats wiki (h-adr, h-card, h-entry,
h-event, h-feed, h-geo, h-news, h-product, h-recipe, h-resume, h-review,
h-review-aggregate), cross-checked against the official microformats-v1 test
suite. Where the wiki says "parse as p-author h-card" the nested ``h-card`` is
not forced here: the element becomes a nested item only when it carries its own
root class (``vcard``), so ``<span class="author">Jane</span>`` stays a plain
string. The suite expects exactly that for ``agent`` in an hCard.

Layout:

* :data:`ROOT_CLASSES` maps an mf1 root class name to its mf2 type.
* :data:`PROPERTY_CLASSES` maps an mf2 type to ``{mf1 class: mf2 property classes}``,
  the mapping that applies to descendants of a backcompat root of that type.
* :data:`REL_PROPERTIES` maps an mf2 type to ``{rel keyword: mf2 property classes}``
  for the rel-based properties (``rel=tag``, ``rel=bookmark``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

#: mf1 root class name -> mf2 root type. ``vcalendar`` (the hCalendar container)
#: has no mf2 equivalent and is deliberately absent, as in the mf2 parsing spec.
ROOT_CLASSES: Final[Mapping[str, str]] = MappingProxyType(
    {
        "adr": "h-adr",
        "geo": "h-geo",
        "hentry": "h-entry",
        "hfeed": "h-feed",
        "hnews": "h-news",
        "hproduct": "h-product",
        "hrecipe": "h-recipe",
        "hresume": "h-resume",
        "hreview": "h-review",
        "hreview-aggregate": "h-review-aggregate",
        "vcard": "h-card",
        "vevent": "h-event",
    }
)

#: The type given to an ``item`` property of an hReview / hReview-aggregate
#: that has no root class of its own (hReview's "item info": fn, url, photo).
ITEM_TYPE: Final = "h-item"

#: The mf1 class that names the reviewed item.
ITEM_CLASS: Final = "item"

#: Types whose ``item`` property becomes an :data:`ITEM_TYPE` when untyped.
ITEM_PARENT_TYPES: Final[frozenset[str]] = frozenset({"h-review", "h-review-aggregate"})


def _table(rows: Mapping[str, str]) -> Mapping[str, tuple[str, ...]]:
    """Freeze ``{mf1 name: "space separated mf2 classes"}`` into tuples."""
    return MappingProxyType({key: tuple(value.split()) for key, value in rows.items()})


_ADR: Final = {
    "post-office-box": "p-post-office-box",
    "extended-address": "p-extended-address",
    "street-address": "p-street-address",
    "locality": "p-locality",
    "region": "p-region",
    "postal-code": "p-postal-code",
    "country-name": "p-country-name",
}

_CARD: Final = {
    **_ADR,
    "fn": "p-name",
    "honorific-prefix": "p-honorific-prefix",
    "given-name": "p-given-name",
    "additional-name": "p-additional-name",
    "family-name": "p-family-name",
    "honorific-suffix": "p-honorific-suffix",
    "nickname": "p-nickname",
    "sort-string": "p-sort-string",
    "email": "u-email",
    "logo": "u-logo",
    "photo": "u-photo",
    "sound": "u-sound",
    "url": "u-url",
    "uid": "u-uid",
    "key": "u-key",
    "category": "p-category",
    "adr": "p-adr",
    "label": "p-label",
    "geo": "p-geo",
    "latitude": "p-latitude",
    "longitude": "p-longitude",
    "tel": "p-tel",
    "mailer": "p-mailer",
    "note": "p-note",
    "bday": "dt-bday",
    "rev": "dt-rev",
    "tz": "p-tz",
    "org": "p-org",
    "organization-name": "p-organization-name",
    "organization-unit": "p-organization-unit",
    "title": "p-job-title",
    "role": "p-role",
    "agent": "p-agent",
    "class": "p-class",
}

_ENTRY: Final = {
    "entry-title": "p-name",
    "entry-summary": "p-summary",
    "entry-content": "e-content",
    "published": "dt-published",
    "updated": "dt-updated",
    "author": "p-author",
    "category": "p-category",
}

_EVENT: Final = {
    "summary": "p-name",
    "dtstart": "dt-start",
    "dtend": "dt-end",
    "duration": "dt-duration",
    "description": "p-description",
    "url": "u-url",
    "uid": "u-uid",
    "location": "p-location",
    # hCalendar's geo is where the event happens: the wiki maps it to location.
    "geo": "p-location",
    "category": "p-category",
    "attendee": "p-attendee",
    "organizer": "p-organizer",
    "contact": "p-contact",
    "status": "p-status",
}

_FEED: Final = {
    "author": "p-author",
    "url": "u-url",
    "photo": "u-photo",
    "category": "p-category",
    # h-feed "Parser Compatibility": for an hfeed element implementations may treat
    # site-title as p-name and site-description as p-summary (WordPress themes write both;
    # without them the implied name is the text of the whole feed). mf2py does.
    "site-title": "p-name",
    "site-description": "p-summary",
}

_GEO: Final = {
    "latitude": "p-latitude",
    "longitude": "p-longitude",
}

_ITEM: Final = {
    "fn": "p-name",
    "url": "u-url",
    "photo": "u-photo",
}

_NEWS: Final = {
    "entry": "p-entry",
    "source-org": "p-source-org",
    "dateline": "p-dateline",
    "geo": "p-geo",
}

_PRODUCT: Final = {
    "fn": "p-name",
    "photo": "u-photo",
    "brand": "p-brand",
    "category": "p-category",
    "description": "p-description",
    "identifier": "u-identifier",
    "url": "u-url",
    "review": "p-review",
    "price": "p-price",
}

_RECIPE: Final = {
    "fn": "p-name",
    "ingredient": "p-ingredient",
    "yield": "p-yield",
    "instructions": "e-instructions",
    "duration": "dt-duration",
    "photo": "u-photo",
    "summary": "p-summary",
    "author": "p-author",
    "published": "dt-published",
    "nutrition": "p-nutrition",
    "category": "p-category",
}

_RESUME: Final = {
    "summary": "p-summary",
    "contact": "p-contact",
    "education": "p-education",
    "experience": "p-experience",
    "skill": "p-skill",
    "affiliation": "p-affiliation",
}

_REVIEW: Final = {
    "summary": "p-name",
    "item": "p-item",
    "reviewer": "p-author",
    "dtreviewed": "dt-published",
    "rating": "p-rating",
    "best": "p-best",
    "worst": "p-worst",
    "description": "e-content",
    "category": "p-category",
}

_REVIEW_AGGREGATE: Final = {
    "summary": "p-name",
    "item": "p-item",
    "rating": "p-rating",
    "average": "p-average",
    "best": "p-best",
    "worst": "p-worst",
    "count": "p-count",
    "votes": "p-votes",
    "description": "p-description",
    "photo": "u-photo",
    "url": "u-url",
    "category": "p-category",
}

#: mf2 type -> {mf1 property class -> mf2 property classes}.
PROPERTY_CLASSES: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = MappingProxyType(
    {
        "h-adr": _table(_ADR),
        "h-card": _table(_CARD),
        "h-entry": _table(_ENTRY),
        "h-event": _table(_EVENT),
        "h-feed": _table(_FEED),
        "h-geo": _table(_GEO),
        "h-item": _table(_ITEM),
        "h-news": _table(_NEWS),
        "h-product": _table(_PRODUCT),
        "h-recipe": _table(_RECIPE),
        "h-resume": _table(_RESUME),
        "h-review": _table(_REVIEW),
        "h-review-aggregate": _table(_REVIEW_AGGREGATE),
    }
)

_TAG: Final = {"tag": "p-category"}

#: mf2 type -> {rel keyword -> mf2 property classes}. ``rel=tag`` values are the
#: last path segment of the link (see ``backcompat.rel_tag_value``).
REL_PROPERTIES: Final[Mapping[str, Mapping[str, tuple[str, ...]]]] = MappingProxyType(
    {
        "h-entry": _table({**_TAG, "bookmark": "u-url"}),
        "h-feed": _table(_TAG),
        "h-news": _table({"principles": "u-principles", "item-license": "u-item-license"}),
        "h-product": _table(_TAG),
        "h-recipe": _table(_TAG),
        "h-review": _table({**_TAG, "bookmark": "u-url"}),
    }
)

#: The mf2 property class that ``rel=tag`` produces.
REL_TAG_PROPERTY: Final = "p-category"

#: u-* properties whose value is a URL only when the element links to one
#: (``<a href>``, ``<img src>``, ...). Otherwise the text is taken as written,
#: as p-* would: an hCard ``key`` is usually an inline key block that must not
#: be resolved against the base URL (microformats-v1 hcard/multiple).
TEXT_UNLESS_LINKED: Final[frozenset[str]] = frozenset({"u-key"})
