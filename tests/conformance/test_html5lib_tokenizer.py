"""html5lib-tests tokenizer suite, run whole and in every chunking of tests/support/chunking.py.

One pytest item per (test file, chunking mode); inside, every test of the file is
run once per initial state and per chunking of that mode. Tokens and parse
errors (code, line and column, in order) must match. A failure lists the first
few mismatches with the test description, chunking label and both sides.

The whole, one-by-one and random modes are run a second time with the
tokenizer's whole-tag fast path switched off, so the state machine alone is
held to the suite too (the fast path would otherwise take every well-formed tag).

``xmlViolation.test`` expects the output after the spec's "coercing an HTML DOM
into an infoset" tweaks; those are applied to our tokens before comparing
(:func:`coerce_to_infoset`), and its tests list no parse errors, so only tokens
are compared there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from stream_mf2.html.testing import tokenize_for_test
from tests.support import chunking
from tests.support.suites import require_suite, suite_dir

_SUITE = suite_dir("html5lib-tests")
_FILES = sorted((_SUITE / "tokenizer").glob("*.test")) if _SUITE else []

Chunker = Callable[[str], Iterator[tuple[str, list[str]]]]


def _whole(data: str) -> Iterator[tuple[str, list[str]]]:
    yield "whole", chunking.whole(data)


def _one_by_one(data: str) -> Iterator[tuple[str, list[str]]]:
    yield "one-by-one", chunking.one_by_one(data)


def _random(data: str) -> Iterator[tuple[str, list[str]]]:
    for k in range(chunking.RANDOM_RUNS):
        seed = chunking.SEED + k
        yield f"random(seed={seed})", chunking.random_chunks(data, seed)


MODES: dict[str, Chunker] = {
    "whole": _whole,
    "one-by-one": _one_by_one,
    "two-way": chunking.two_way,
    "three-way": chunking.three_way,
    "random": _random,
}

_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})")


def _unescape(s: str) -> str:
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), s)


def _unescape_deep(x: Any) -> Any:
    if isinstance(x, str):
        return _unescape(x)
    if isinstance(x, list):
        return [_unescape_deep(i) for i in x]
    if isinstance(x, dict):
        return {_unescape(k): _unescape_deep(v) for k, v in x.items()}
    return x


def _merge_characters(tokens: list[list[Any]]) -> list[list[Any]]:
    out: list[list[Any]] = []
    for t in tokens:
        if t[0] == "Character" and out and out[-1][0] == "Character":
            out[-1] = ["Character", out[-1][1] + t[1]]
        else:
            out.append(list(t))
    return out


_NON_XML = re.compile("[\ufffe\uffff\ufdd0-\ufdef]")


def coerce_to_infoset(tokens: list[list[Any]]) -> list[list[Any]]:
    """The tweaks of "coercing an HTML DOM into an infoset" that xmlViolation.test assumes."""
    out: list[list[Any]] = []
    for t in tokens:
        if t[0] == "Character":
            out.append(["Character", _NON_XML.sub("\ufffd", t[1]).replace("\f", " ")])
        elif t[0] == "Comment":
            data = t[1]
            while "--" in data:
                data = data.replace("--", "- -")
            out.append(["Comment", data])
        else:
            out.append(t)
    return out


def _load(path: Path) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    tests: list[dict[str, Any]] = data.get("tests") or data.get("xmlViolationTests") or []
    return tests


# The state machine alone (no whole-tag fast path) is also run, in the cheaper modes.
_PARAMS = [pytest.param(mode, True, id=mode) for mode in MODES] + [
    pytest.param(mode, False, id=f"{mode}-state-machine-only") for mode in ("whole", "one-by-one", "random")
]


@pytest.mark.parametrize(("mode", "fast_path"), _PARAMS)
@pytest.mark.parametrize("path", _FILES, ids=[p.stem for p in _FILES])
def test_tokenizer_suite(path: Path, mode: str, fast_path: bool) -> None:
    require_suite("html5lib-tests")
    xml_violation = "xmlViolationTests" in path.read_text(encoding="utf-8")[:100]
    chunker = MODES[mode]
    failures: list[str] = []
    runs = 0
    for test in _load(path):
        data: str = test["input"]
        expected_tokens: list[list[Any]] = test["output"]
        if test.get("doubleEscaped"):
            data = _unescape(data)
            expected_tokens = _unescape_deep(expected_tokens)
        expected_tokens = _merge_characters(expected_tokens)
        expected_errors = [(e["code"], e["line"], e["col"]) for e in test.get("errors", [])]
        for state in test.get("initialStates", ["Data state"]):
            for label, chunks in chunker(data):
                runs += 1
                tokens, errors = tokenize_for_test(chunks, state, test.get("lastStartTag"), fast_path=fast_path)
                if xml_violation:
                    tokens = coerce_to_infoset(tokens)
                got_errors = [(e["code"], e["line"], e["col"]) for e in errors]
                if tokens != expected_tokens or (not xml_violation and got_errors != expected_errors):
                    failures.append(
                        f"{test['description']!r} [{state}] chunking={label} input={data!r}\n"
                        f"  tokens   got {tokens}\n           exp {expected_tokens}\n"
                        f"  errors   got {got_errors}\n           exp {expected_errors}"
                    )
                    break  # one failing chunking per test and state is enough
    if mode == "whole":
        assert runs, f"no tests found in {path}"
    if failures:
        pytest.fail(
            f"{len(failures)} failing runs in {path.name} ({mode}, fast path {'on' if fast_path else 'off'}):\n"
            + "\n".join(failures[:10]),
            pytrace=False,
        )


def test_suite_is_complete() -> None:
    """Guard against a truncated suite: the counts of SOURCE.txt."""
    require_suite("html5lib-tests")
    total = sum(len(_load(p)) for p in _FILES)
    runs = sum(len(t.get("initialStates", ["Data state"])) for p in _FILES for t in _load(p))
    assert (len(_FILES), total, runs) == (14, 6810, 7036)
