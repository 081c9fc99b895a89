"""Sample pages for the source tests: ``make_page(n)`` and ``split_every(data, n)``."""

from __future__ import annotations


def make_page(n_items: int, *, charset_meta: bool = True, tag: str = "card") -> bytes:
    """An HTML page with ``n_items`` top-level h-cards, a rel=me link and some nesting."""
    head = '<meta charset="utf-8">' if charset_meta else ""
    cards = "\n".join(
        f'<div class="h-card"><a class="p-name u-url" href="/people/{tag}{i}">{tag} {i} \u00e9</a>'
        f'<p class="p-note">note <b>{i}</b></p></div>'
        for i in range(n_items)
    )
    return (
        f"<!doctype html><html><head>{head}<title>t</title>"
        f'<link rel="me" href="https://me.example/"></head><body>\n{cards}\n'
        '<a rel="author" href="/about">about</a></body></html>'
    ).encode()


def split_every(data: bytes, n: int) -> list[bytes]:
    """``data`` in pieces of ``n`` bytes."""
    return [data[i : i + n] for i in range(0, len(data), n)]
