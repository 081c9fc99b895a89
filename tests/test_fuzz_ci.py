"""The fuzz harness (``python -m tests.fuzz``) in CI: a short fixed budget with a fixed seed,
and its parts on cases with a known answer."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.fuzz import growth, runner, warcs
from tests.fuzz.invariants import Finding, check_document, first_difference
from tests.fuzz.known import KNOWN_DEFECTS, known

#: The CI budget and seed; the long run is documented in docs/development.md. The budget is a number
#: of rounds (the same inputs on every machine), with a time cap far above what it takes.
CI_ROUNDS = 120
CI_MINUTES = 8.0
CI_SEED = 20261125
#: Every target but "growth": its check compares CPU times, which another job on the machine
#: can skew, so CI would fail by chance. Growth is checked deterministically (executed-line and
#: character counts) in tests/test_hardening_dos.py and tests/test_mf2_linear.py, and by the long runs.
CI_TARGETS = [name for name in runner.TARGETS if name != "growth"]


def test_fuzz_fixed_budget_finds_nothing_new(tmp_path: Path) -> None:
    report = runner.run(CI_MINUTES, CI_SEED, tmp_path, CI_TARGETS, shrink_budget=15.0, max_rounds=CI_ROUNDS)
    assert report.rounds == CI_ROUNDS, "the time cap cut the fixed budget short"
    assert report.rounds >= len(runner.TARGETS), "every target ran at least once"
    assert all(report.cases[name] > 0 for name in CI_TARGETS)
    assert not report.found, "new fuzz findings:\n" + "\n".join(f"{f['signature']}: {f['detail']}" for f in report.found)
    assert (tmp_path / "summary.json").is_file()


def test_ddmin_reduces_to_the_failing_core() -> None:
    data = b"<p>aaaa<b>bbbb<x-fail>cccc</p>dddd"
    smaller = runner.ddmin(data, lambda d: b"<x-fail>" in d, budget=10)
    assert smaller == b"<x-fail>"


def test_first_difference_names_the_path() -> None:
    a = {"items": [{"type": ["h-a"], "properties": {"name": ["x"]}}], "rels": {}}
    b = {"items": [{"type": ["h-a"], "properties": {"name": ["y"]}}], "rels": {}}
    assert first_difference(a, b) == "$.items[*].properties.name[*]"
    assert first_difference({"rels": {}}, {"rels": {}, "meta-item": {}}) == "$.meta-item"


def test_document_checks_pass_on_a_plain_page() -> None:
    page = b'<!doctype html><div class="h-entry"><a class="p-name u-url" href="/a">A</a></div><a rel=me href=/m>m</a>'
    check_document(page, {}, (1, 2), 17)
    check_document(page, {"text": "normalized", "lang": True, "metaformats": True}, (3, 4), 5)


def test_an_undocumented_exception_is_a_finding() -> None:
    from tests.fuzz.invariants import outcome

    def boom() -> None:
        raise KeyError("x")

    with pytest.raises(Finding) as caught:
        outcome(boom, "boom", b"", {})
    assert caught.value.check == "undocumented-exception"
    assert caught.value.signature.startswith("undocumented-exception:KeyError@")


def test_damage_is_applied_per_record() -> None:
    parts = [b"aaaa", b"bbbb", b"cccc"]
    ops = [
        warcs.Damage("flip", 0, 1, 0),
        warcs.Damage("insert", 1, 0, b"J"),
        warcs.Damage("delete", 2, 1, 2),
    ]
    assert warcs.apply(parts, ops) == ([b"a`aa", b"bbbb", b"cc"], [b"", b"J", b""], None)
    cut = warcs.apply(parts, [warcs.Damage("truncate", 1, 2)])
    assert cut == ([b"aaaa", b"bb"], [b"", b""], 1)
    gone = warcs.apply(parts, [warcs.Damage("truncate", 1, 0)])
    assert gone == ([b"aaaa"], [b""], None)


@pytest.mark.parametrize("compress", [True, False])
def test_an_undamaged_archive_passes(compress: bool) -> None:
    recs = [
        warcs.Record("warcinfo", "", b"software: t\r\n", "application/warc-fields"),
        warcs.Record(
            "response",
            "http://a.example/",
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p class=h-card>x</p>",
            "application/http; msgtype=response",
            b"<p class=h-card>x</p>",
        ),
    ]
    warcs.check_archive(recs, compress, [])
    # a gzip member whose mtime byte is flipped still inflates to the same record: it is good
    if compress:
        warcs.check_archive(recs, compress, [warcs.Damage("flip", 1, 4, 0)])
    assert warcs.read(io.BytesIO(b"".join(warcs.write(recs, compress))).getvalue())


def test_growth_document_makes_ids_distinct() -> None:
    doc = growth.document(("<p>", '<b id="id1">x', '<i id="id1">'), 40)
    assert doc.startswith(b'<p><b id="n0">x<b id="n1">x') and b'<i id="m0"><i id="m1">' in doc
    assert b'id="id1"' not in doc
    growth.check_growth(("", "<p>plain text</p>", "<br>"), small=2000)  # linear: passes


def test_growth_counts_output_that_grows_faster_than_the_input() -> None:
    # nested h-* roots that are dt-* properties repeat their text at every level: the JSON
    # grows with the square of the nesting, and the time bound is scaled by that growth
    nested = ("", '<time class="h-x-y dt-start">x', "")
    little, big = growth.document(nested, 3000), growth.document(nested, 12000)
    assert growth._output_scale(little, big) > 2.0
    plain = ("", '<p class="h-card">x</p>', "")
    little, big = growth.document(plain, 3000), growth.document(plain, 12000)
    assert growth._output_scale(little, big) < 1.2


def test_known_defects_are_named_and_specific() -> None:
    names = [d.name for d in KNOWN_DEFECTS]
    assert len(names) == len(set(names)) and all(d.description for d in KNOWN_DEFECTS)
    unrelated = Finding("chunking-differs", "x", "chunking-differs:$.items", b"<p class=h-card>x</p>")
    assert known(unrelated) is None
