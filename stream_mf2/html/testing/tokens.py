"""Run the tokenizer and report tokens in the html5lib-tests tokenizer format.

Re-exported as :func:`stream_mf2.html.testing.tokenize_for_test`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from stream_mf2.html.tokenizer import Tokenizer

__all__ = ["TokenListSink", "tokenize_for_test"]


class TokenListSink:
    """A :class:`~stream_mf2.html.tokenizer.TokenSink` that records html5lib-tests tokens.

    Adjacent character tokens are merged, as the suite's format requires.
    ``cdata_allowed`` answers ``False``: with no tree builder there is no
    foreign content, which is what the suite expects.
    """

    def __init__(self) -> None:
        self.tokens: list[list[Any]] = []

    def start_tag(self, name: str, attrs: dict[str, str], self_closing: bool) -> None:
        token: list[Any] = ["StartTag", name, dict(attrs)]
        if self_closing:
            token.append(True)
        self.tokens.append(token)

    def end_tag(self, name: str) -> None:
        self.tokens.append(["EndTag", name])

    def characters(self, data: str) -> None:
        tokens = self.tokens
        if tokens and tokens[-1][0] == "Character":
            tokens[-1][1] += data
        else:
            tokens.append(["Character", data])

    def comment(self, data: str) -> None:
        self.tokens.append(["Comment", data])

    def doctype(self, name: str | None, public_id: str | None, system_id: str | None, force_quirks: bool) -> None:
        self.tokens.append(["DOCTYPE", name, public_id, system_id, not force_quirks])

    def eof(self) -> None:
        pass

    def cdata_allowed(self) -> bool:
        return False


def tokenize_for_test(
    chunks: Iterable[str],
    initial_state: str = "Data state",
    last_start_tag: str | None = None,
    *,
    collect_errors: bool = True,
    fast_path: bool = True,
) -> tuple[list[list[Any]], list[dict[str, Any]]]:
    """Tokenize ``chunks`` (fed one after the other) and return ``(tokens, errors)``.

    Public API for running the html5lib-tests tokenizer suite (or any input)
    against this tokenizer.

    ``initial_state`` is a state name as spelled in html5lib-tests (``"Data
    state"``, ``"PLAINTEXT state"``, ``"RCDATA state"``, ``"RAWTEXT state"``,
    ``"Script data state"``, ``"CDATA section state"``); ``last_start_tag`` is
    the suite's ``lastStartTag``.

    ``tokens`` are in the suite's output format: ``["StartTag", name, attrs]``
    (with a fourth element ``True`` when self-closing), ``["EndTag", name]``,
    ``["Character", data]`` (adjacent runs merged), ``["Comment", data]`` and
    ``["DOCTYPE", name, public_id, system_id, correctness]``. ``errors`` are
    dicts ``{"code": str, "line": int, "col": int}`` in the order they were
    found (empty unless ``collect_errors``). ``fast_path=False`` runs the
    tokenizer's state machine alone (see :class:`Tokenizer`).
    """
    sink = TokenListSink()
    tok = Tokenizer(sink, collect_errors=collect_errors, fast_path=fast_path)
    tok.switch_to(initial_state)
    tok.last_start_tag = last_start_tag
    for chunk in chunks:
        tok.feed(chunk)
    tok.close()
    errors = [{"code": code, "line": line, "col": col} for code, line, col in tok.errors]
    return sink.tokens, errors
