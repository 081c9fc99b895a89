"""The data state's one-match tag path agrees with the tag states on attributes and duplicates."""

from __future__ import annotations

import pytest

from stream_mf2.html.tokenizer import Tokenizer
from tests.test_tokenizer import RecordingSink

DOCS = [
    '<p a="1">x</p>',
    '<p a="1" b="2">x</p>',
    '<p a="1" b="2" c="3">x</p>',
    '<p a="1" b="2" c="3" d="4" e=5 f=\'6\' g>x</p>',
    '<p a="1" a="2">x</p>',
    '<p a="1" b="2" a="3">x</p>',
    '<p a="1" b="2" b="3">x</p>',
    '<p a="1" a="2" c=3>x</p>',
    '<p a="1" b="2" c="3" a=4>x</p>',
    '<p a="1" b="2" c="3" d=4 d="5">x</p>',
    "<p a=1 a=2>x</p>",
    '<P A="1" a="2">x</P>',
    '<p a="1" b="2"/><br a="1" a="2"/>',
    "<b>x</b></i><I>y</I>",
    # spaces around "=" (not captured as a pair: the further attributes take them), with duplicates
    '<p a = "1" b="2">x</p>',
    '<p a="1" b ="2" c= "3" d\t=\n"4">x</p>',
    '<p a="1" b = "2" a="3">x</p>',
    '<p a = "1" a="2">x</p>',
    # the end of the tag right after the pairs, or after space or "/"
    '<p a="1" >x</p><p a="1"\n>y</p><br a="1"/><br a="1" / >',
    '<p a="1"b="2">x</p>',
]


def _tokens(doc: str, fast: bool) -> tuple[list[tuple[object, ...]], list[tuple[str, int, int]]]:
    sink = RecordingSink()
    tok = Tokenizer(sink, collect_errors=True, fast_path=fast)
    sink.tokenizer = tok
    tok.feed(doc)
    tok.close()
    return sink.merged(), tok.errors


@pytest.mark.parametrize("doc", DOCS)
def test_fast_path_matches_the_tag_states(doc: str) -> None:
    assert _tokens(doc, True) == _tokens(doc, False)
