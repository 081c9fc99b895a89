"""Griffe extension for the API reference: Sphinx cross-reference roles become links.

The package's docstrings are written for ``help()`` and Sphinx: ``:func:`~stream_mf2.parse```,
``:class:`Parser```, ``:attr:`errors```. mkdocstrings reads them as Markdown, where a role
would show up as literal text. This extension rewrites each role, before the docstring is
parsed, into an *optional* autorefs cross-reference: a link when the target is rendered
somewhere on the site, plain code otherwise (never a warning, so ``mkdocs build --strict``
does not depend on which private modules the reference pages happen to show).

Loaded by ``mkdocs.yml`` (``plugins.mkdocstrings.handlers.python.options.extensions``).
"""

from __future__ import annotations

import html
import re
from typing import Any

import griffe

# :role:`target`, :role:`~target`, :role:`title <target>` (Sphinx's forms).
_ROLE = re.compile(r":(?:py:)?(?P<role>func|class|meth|attr|mod|data|exc|obj|const):`(?P<body>[^`]+)`")


def _scopes(obj: griffe.Object) -> list[str]:
    """Where an unqualified name is looked up: the object (a class), its parents, its module."""
    scopes: list[str] = []
    current: Any = obj
    while current is not None:
        if current.is_class or current.is_module:
            scopes.append(current.path)
        current = current.parent
    return scopes


def _replace(obj: griffe.Object, match: re.Match[str]) -> str:
    body = match["body"].strip()
    title: str | None = None
    explicit = re.fullmatch(r"(?P<title>.+?)\s*<(?P<target>[^<>]+)>", body)
    if explicit:
        title, body = explicit["title"], explicit["target"]
    short = body.startswith("~")
    target = body.lstrip("~.")
    if title is None:
        title = target.rsplit(".", 1)[-1] if short else target
    if match["role"] in ("func", "meth") and not title.endswith(")"):
        title += "()"
    code = f"<code>{html.escape(title)}</code>"
    if "." in target and target.split(".", 1)[0] in ("stream_mf2", "os", "typing", "asyncio"):
        identifier = target
    else:
        # An unqualified name: the first scope where it exists, else the innermost one.
        scopes = _scopes(obj)
        identifier = next(
            (f"{scope}.{target}" for scope in scopes if _exists(obj, f"{scope}.{target}")),
            f"{scopes[0]}.{target}" if scopes else target,
        )
    return f'<autoref identifier="{html.escape(identifier)}" optional>{code}</autoref>'


def _exists(obj: griffe.Object, path: str) -> bool:
    try:
        obj.modules_collection[path]
    except (KeyError, ValueError, AttributeError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return False
    return True


class SphinxRoles(griffe.Extension):
    """Rewrite Sphinx roles in every docstring into optional cross-references."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        _rewrite(obj)

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        _rewrite(pkg)  # the package itself is not an on_object event


def _rewrite(obj: griffe.Object) -> None:
    docstring = obj.docstring
    if docstring is None or ":" not in docstring.value:
        return
    docstring.value = _ROLE.sub(lambda m: _replace(obj, m), docstring.value)
