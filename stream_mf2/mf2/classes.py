"""Class-name rules: which class names are mf2 roots and properties.

A valid name after the prefix is an optional vendor segment of lowercase
letters and digits followed by a hyphen, then one or more hyphen-separated
segments of lowercase a-z (microformats2-parsing, "naming conventions").
Class lists split on ASCII whitespace only, as HTML does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Literal

from stream_mf2.html.dom import Element

from .backcompat_data import ROOT_CLASSES

PropertyPrefix = Literal["p", "u", "dt", "e"]

_ASCII_WS: Final = re.compile(r"[ \t\n\f\r]+")
_NAME: Final = re.compile(r"(?:[a-z0-9]+-)?[a-z]+(?:-[a-z]+)*\Z")
_PREFIXES: Final[dict[str, PropertyPrefix]] = {"p": "p", "u": "u", "dt": "dt", "e": "e"}


def class_list(element: Element) -> tuple[str, ...]:
    """The element's class tokens, in order.

    Duplicates are kept here; root types and property classes are
    de-duplicated later (``class`` is a set of tokens: ``class="p-a p-a"``
    gives one value).
    """
    raw = element.attrs.get("class")
    if not raw:
        return ()
    return split_classes(raw)


# Pages repeat the same class attributes over and over: the results of these
# pure functions are cached by their (string or tuple) arguments.
@lru_cache(maxsize=16384)
def split_classes(raw: str) -> tuple[str, ...]:
    """A ``class`` attribute value's tokens (cached: class strings repeat)."""
    return tuple(token for token in _ASCII_WS.split(raw) if token)


def is_valid_name(name: str) -> bool:
    """Is ``name`` (the part after ``h-``/``p-``/...) a valid mf2 name?"""
    return _NAME.match(name) is not None


def root_types(classes: Sequence[str], ignored: frozenset[str] = frozenset()) -> list[str]:
    """The valid ``h-*`` class names, sorted and unique, minus ``ignored``."""
    found = _root_types(tuple(classes))
    if ignored and found:
        return [c for c in found if c not in ignored]
    return list(found)


@lru_cache(maxsize=16384)
def _root_types(classes: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(sorted({c for c in classes if c.startswith("h-") and _NAME.match(c, 2)}))


def property_classes(classes: Sequence[str]) -> tuple[tuple[PropertyPrefix, str], ...]:
    """The valid property class names as ``(prefix, name)`` pairs, in first-seen order, each once."""
    return _property_classes(tuple(classes))


@lru_cache(maxsize=16384)
def _property_classes(classes: tuple[str, ...]) -> tuple[tuple[PropertyPrefix, str], ...]:
    out: list[tuple[PropertyPrefix, str]] = []
    for c in classes:
        dash = c.find("-")
        if dash <= 0:
            continue
        prefix = _PREFIXES.get(c[:dash])
        if prefix is not None and _NAME.match(c, dash + 1):
            pair = (prefix, c[dash + 1 :])
            if pair not in out:  # a repeated token is one class (a token set, as root types)
                out.append(pair)
    return tuple(out)


def parse_property_class(name: str) -> tuple[PropertyPrefix, str] | None:
    """Split one property class name (``"p-name"``) into prefix and name."""
    found = _property_classes((name,))
    return found[0] if found else None


@lru_cache(maxsize=16384)
def classify(classes: tuple[str, ...]) -> tuple[tuple[str, ...], bool, tuple[tuple[PropertyPrefix, str], ...]]:
    """A class list's valid ``h-*`` root types (sorted, unique), whether it has a
    classic (mf1) root class, and its property classes.

    Class strings repeat across a page, so one cached look-up stands for
    several calls in the item walker's hot loop.
    """
    return _root_types(classes), any(c in ROOT_CLASSES for c in classes), _property_classes(classes)


ClassInfo = tuple[tuple[str, ...], tuple[str, ...], bool, tuple[tuple[PropertyPrefix, str], ...]]
"""``(classes, mf2 root types, has a classic root class, property classes)`` of one ``class`` value."""

#: ``class`` attribute value -> its :data:`ClassInfo`. A plain dict, read with
#: ``CLASS_INFO.get(raw) or class_info(raw)`` in the hot loops (a dict look-up
#: is cheaper than a call); emptied when full, so it stays bounded.
CLASS_INFO: Final[dict[str, ClassInfo]] = {}
#: ``class`` attribute value -> does it hold an mf2 or classic root class?
#: Filled and emptied with :data:`CLASS_INFO`: the keep predicate asks this
#: of every element with a class, and most answers are a plain ``False``.
HAS_ROOT: Final[dict[str, bool]] = {}
# The two look-ups as plain functions, for other modules' hot paths: CPython 3.11 compiles a
# method call on a name bound by an import (``HAS_ROOT.get(raw)`` after ``from .classes import
# HAS_ROOT``) as an attribute load plus a call, which makes a bound method every time. The
# dicts are only ever cleared, never replaced, so the bound methods stay valid.
class_info_get = CLASS_INFO.get
has_root_get = HAS_ROOT.get
_CLASS_INFO_MAX: Final = 16384
# Longer class values are not remembered (they are rare, and the cache must stay small).
_CLASS_INFO_MAX_LEN: Final = 512


def class_info(raw: str) -> ClassInfo:
    """:func:`split_classes` and :func:`classify` of a ``class`` value in one (cached) step."""
    info = CLASS_INFO.get(raw)
    if info is not None:
        return info
    classes = split_classes(raw)
    info = (classes, *classify(classes))
    if len(raw) <= _CLASS_INFO_MAX_LEN:
        if len(CLASS_INFO) >= _CLASS_INFO_MAX:
            CLASS_INFO.clear()
            HAS_ROOT.clear()
        CLASS_INFO[raw] = info
        HAS_ROOT[raw] = bool(info[1]) or info[2]
    return info


def has_root_class(raw: str) -> bool:
    """Does the ``class`` value ``raw`` hold a valid ``h-*`` or a classic root class?"""
    found = HAS_ROOT.get(raw)
    if found is None:
        _classes, mf2, classic, _props = class_info(raw)
        return bool(mf2) or classic
    return found
