"""Damaged WARC archives the fuzz harness found reading wrongly (reduced reproductions).

* ``.warc.gz`` with plain junk before its first gzip member (a stray ``WARC/1.x``
  line, or a whole plain record): the head looked like a plain WARC, so the gzip
  records after it were lost. The reader now switches to gzip members when one
  stands where a record should start, or, before any record was framed, when the
  scan after a damaged head finds one first.
* plain ``.warc``, the end of a record lost inside a header line, so the next
  record's ``WARC/1.x`` line ran into it (``Content-Length:WARC/1.0``): the next
  record's header block was read as the damaged record's, and that good record was
  lost. A header line ending in a version line is now reported as damage and the
  scan from the damaged record's start finds the next record.
* a flipped digit in a ``WARC-Record-ID`` that gives a record the id of a later
  one: undetectable, and read right (each record's items carry its own offset); the
  harness's oracle keyed items (and errors) by id alone and took the later record's as
  mixed (or as reported).
* a ``Content-Length`` changed to another number that still frames the record (its
  end followed by CRLF CRLF, the rest a blank line): undetectable; the oracle asked
  for a report.
* a ``Content-Length`` grown over the next record up to a CRLF CRLF inside it (the end
  of its header block or of its HTTP head): the end looked right, so the next record
  was read as the damaged one's block, silently. A record header inside the block
  whose record the block's end cuts through is now where the block really ends (an
  archive stored in a record holds whole records: content).
* plain ``.warc``, bytes inserted into a record's header block: a ``Content-Length``
  grown past the end of the file read the records after it as its block, silently;
  a control byte in a field name (a stray CR before ``Content-Length``) was
  stripped away and the damage went unreported.

Every archive is read from a seekable file, from a non-seekable stream and, for
the ``.warc.gz`` cases, with ``iter_warc_parallel``; the fuzz harness's own
oracle (:func:`tests.fuzz.warcs.check_archive`) checks the same cases.
"""

from __future__ import annotations

import gzip
import io
from pathlib import Path
from typing import Any

import pytest

import stream_mf2
from stream_mf2 import WarcError, WarcItem, iter_warc, iter_warc_parallel
from tests.fuzz import warcs
from tests.support.chunking import Pipe

PAGE = b'<div class="h-entry"><a class="p-name u-url" href="/e{i}">entry {i}</a></div>'


def _records() -> list[warcs.Record]:
    recs = [warcs.Record("warcinfo", "", b"software: fuzz\r\n", "application/warc-fields")]
    for i in range(3):
        page = PAGE.replace(b"{i}", str(i).encode())
        http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
        recs.append(warcs.Record("response", f"http://a.example/r{i}", http, "application/http; msgtype=response", page))
    return recs



def _damaged(compress: bool, ops: list[warcs.Damage]) -> bytes:
    parts = warcs.write(_records(), compress)
    damaged, before, _ = warcs.apply(parts, ops)
    return b"".join(b + d for b, d in zip(before, damaged, strict=True))


def _by_record(entries: list[Any]) -> dict[str | None, list[dict[str, Any]]]:
    out: dict[str | None, list[dict[str, Any]]] = {}
    for e in entries:
        if isinstance(e, WarcItem):
            out.setdefault(e.record_id, []).append(e.item)
    return out


def _expected(skip: int | None = None) -> dict[str | None, list[dict[str, Any]]]:
    out: dict[str | None, list[dict[str, Any]]] = {}
    for i, rec in enumerate(_records()):
        if rec.html is not None and i != skip:
            out[warcs.record_id(i)] = stream_mf2.parse(rec.html, rec.uri)["items"]
    return out


GZIP_HEAD_JUNK = [
    b"WARC/1.0\r\n",
    b"WARC/1.0\r\n\r\n",
    b"WARC/1.1\r\nX-Junk: y\r\n\r\n",
    b"WARC/1.0\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n",  # a whole plain record first
]


@pytest.mark.parametrize("junk", GZIP_HEAD_JUNK)
def test_gzip_archive_after_plain_junk_keeps_every_record(junk: bytes, tmp_path: Path) -> None:
    ops = [warcs.Damage("insert", 0, 0, junk)]
    warcs.check_archive(_records(), True, ops)  # the harness's oracle
    data = _damaged(True, ops)
    path = tmp_path / "a.warc.gz"
    path.write_bytes(data)
    want = _expected()
    for label, source in (("file", path), ("stream", Pipe(data))):
        entries = list(iter_warc(source))  # type: ignore[arg-type]
        assert _by_record(entries) == want, label
        errors = [e for e in entries if isinstance(e, WarcError)]
        # the junk is reported unless it is itself a well-formed record
        assert len(errors) == (0 if b"abc" in junk else 1), (label, errors)
        assert all(e.offset == 0 for e in errors)
    assert list(iter_warc_parallel(path, 2, batch_units=1)) == list(iter_warc(path))


def test_content_length_past_the_end_of_the_file_is_cut_at_the_next_record() -> None:
    # "117" -> "1170": the declared block runs over the two records after it to the end
    parts = warcs.write(_records(), False)
    at = parts[1].index(b"Content-Length: ") + len(b"Content-Length: ") + 3
    ops = [warcs.Damage("insert", 1, at, b"0")]
    warcs.check_archive(_records(), False, ops)
    data = _damaged(False, ops)
    entries = list(iter_warc(io.BytesIO(data)))
    assert _by_record(entries) == _expected()
    errors = [e for e in entries if isinstance(e, WarcError)]
    assert [e.record_id for e in errors] == [warcs.record_id(1)]
    assert "runs past the record's end into the next record" in errors[0].message
    # a stream cannot go back: the damaged record and those it covers are reported lost
    streamed = list(iter_warc(Pipe(data)))  # type: ignore[arg-type]
    lost = [e for e in streamed if isinstance(e, WarcError)]
    assert lost and lost[-1].record_id == warcs.record_id(1)
    assert not any(isinstance(e, WarcItem) and e.record_id != warcs.record_id(1) for e in streamed[: streamed.index(lost[-1])])


def test_truncated_last_record_is_still_reported_as_truncated() -> None:
    data = b"".join(warcs.write(_records(), False))[:-40]
    entries = list(iter_warc(io.BytesIO(data)))
    errors = [e for e in entries if isinstance(e, WarcError)]
    assert len(errors) == 1 and errors[0].record_id == warcs.record_id(3)
    assert _by_record(entries).keys() >= set(_expected(skip=3))


@pytest.mark.parametrize("junk", [b"\r", b"\x01", b"\x7f", b"\x1f\x8b\x08"])
def test_control_byte_in_a_field_name_is_reported(junk: bytes) -> None:
    parts = warcs.write(_records(), False)
    for rec in (0, 2):
        at = parts[rec].index(b"\r\nContent-Length") + 2  # the start of the Content-Length line
        ops = [warcs.Damage("insert", rec, at, junk)]
        warcs.check_archive(_records(), False, ops)
        data = _damaged(False, ops)
        for source in (io.BytesIO(data), Pipe(data)):
            entries = list(iter_warc(source))  # type: ignore[arg-type]
            errors = [e for e in entries if isinstance(e, WarcError)]
            assert len(errors) == 1 and "bad WARC header line" in errors[0].message
            assert _by_record(entries) == _expected(skip=rec)


def test_blank_space_before_a_colon_is_tolerated() -> None:
    data = b"".join(warcs.write(_records(), False)).replace(b"Content-Length:", b"Content-Length :")
    entries = list(iter_warc(io.BytesIO(data)))
    assert not [e for e in entries if isinstance(e, WarcError)]
    assert _by_record(entries) == _expected()


def test_oracle_reads_header_lines_as_readers_do() -> None:
    rec = b"WARC/1.0\r\nContent-Type: a\r\nContent-Length: 16\r\n\r\nsoftware: fuzz\r\n\r\n\r\n"
    clean = warcs._header_lines(rec)
    assert clean == (b"WARC/1.x", 16)
    # another WARC/1.x version still frames a record
    assert warcs._header_lines(rec.replace(b"WARC/1.0", b"WARC/1.1")) == clean
    # junk between the CR and LF of another line, blank space, a leading zero: same framing
    assert warcs._header_lines(rec.replace(b"a\r\n", b"a\r\x1f\n")) == clean
    assert warcs._header_lines(rec.replace(b"Length:", b"Length :")) == clean
    assert warcs._header_lines(rec.replace(b": 16", b": 016")) == clean
    # a changed number or a broken name is not
    assert warcs._header_lines(rec.replace(b": 16", b": 160")) != clean
    assert warcs._header_lines(rec.replace(b"\nContent-Length", b"\n\rContent-Length")) != clean
    assert warcs._header_lines(rec.replace(b"WARC/1.0", b"WARC/2.0")) != clean


def test_oracle_moves_a_cut_by_the_bytes_deleted_before_it() -> None:
    parts = [b"0123456789"]
    # 1 byte deleted at 2, then cut at 9 (undamaged offsets): 8 bytes remain
    out, _, cut = warcs.apply(parts, [warcs.Damage("delete", 0, 2, 1), warcs.Damage("truncate", 0, 9)])
    assert out == [b"01345678"] and cut == 0
    # the cut falls at the end once 1 byte is gone before it: nothing is cut
    out, _, cut = warcs.apply(parts, [warcs.Damage("delete", 0, 2, 1), warcs.Damage("truncate", 0, 9 + 1)])
    assert cut is None


@pytest.mark.parametrize("junk", [b"\x1f\x8b", b"\x1f\x8b\x08", b"\x1f\x8b\x08\x00junk"])
def test_plain_archive_after_gzip_magic_junk_keeps_every_record(junk: bytes) -> None:
    # the first two bytes looked like gzip: the whole plain archive was read as one bad member
    ops = [warcs.Damage("insert", 0, 0, junk), warcs.Damage("insert", 1, 1, b"\x00")]
    warcs.check_archive(_records(), False, ops)
    data = _damaged(False, [warcs.Damage("insert", 0, 0, junk)])
    for source in (io.BytesIO(data), Pipe(data)):
        entries = list(iter_warc(source))  # type: ignore[arg-type]
        assert _by_record(entries) == _expected()
        errors = [e for e in entries if isinstance(e, WarcError)]
        assert len(errors) == 1 and errors[0].offset == 0


def test_damaged_first_gzip_member_header_keeps_the_members_after_it() -> None:
    for flip in ((0, 0), (2, 1), (3, 2)):  # magic, method, FLG.FEXTRA
        ops = [warcs.Damage("flip", 0, *flip)]
        warcs.check_archive(_records(), True, ops)
        entries = list(iter_warc(io.BytesIO(_damaged(True, ops))))
        assert _by_record(entries) == _expected()


@pytest.mark.parametrize("rec", [0, 2])
@pytest.mark.parametrize("keep", [b"Content-Length:", b"Content-Length: 1", b"Content-Type: appl", b"WARC-Date: 20"])
def test_header_line_run_into_the_next_records_version_line(rec: int, keep: bytes) -> None:
    # the rest of a record is lost inside a header line: "Content-Length:WARC/1.0\r\n..."
    parts = warcs.write(_records(), False)
    at = parts[rec].index(keep) + len(keep)
    ops = [warcs.Damage("delete", rec, at, len(parts[rec]) - at)]
    warcs.check_archive(_records(), False, ops)
    data = _damaged(False, ops)
    start = sum(len(p) for p in parts[:rec])
    for label, source in (("file", io.BytesIO(data)), ("stream", Pipe(data)), ("bytewise", Pipe(data, 1))):
        entries = list(iter_warc(source))  # type: ignore[arg-type]
        assert _by_record(entries) == _expected(skip=rec), label
        errors = [e for e in entries if isinstance(e, WarcError)]
        assert [e.offset for e in errors] == [start], (label, errors)
        assert "runs into the next record" in errors[0].message


@pytest.mark.parametrize("compress", [False, True])
def test_flipped_record_id_that_names_a_later_record(compress: bool, tmp_path: Path) -> None:
    # "...000000000002>" -> "...000000000003>": records 2 and 3 carry the same id; each
    # record's items are still its own, told apart by the record's offset
    parts = warcs.write(_records(), False)
    digit = parts[2].index(warcs.record_id(2).encode()) + len(warcs.record_id(2)) - 2
    plain_ops = [warcs.Damage("flip", 2, digit, 0)]
    assert warcs.apply(parts, plain_ops)[0][2].count(warcs.record_id(3).encode()) == 1
    data = _damaged(False, plain_ops)
    if compress:
        # the same damage inside the member: a record written with the other id
        recs = [gzip.compress(p, mtime=0) for p in warcs.apply(parts, plain_ops)[0]]
        data = b"".join(recs)
    else:
        warcs.check_archive(_records(), False, plain_ops)
    path = tmp_path / ("a.warc.gz" if compress else "a.warc")
    path.write_bytes(data)
    starts = [0]
    for p in (recs if compress else warcs.apply(parts, plain_ops)[0])[:-1]:
        starts.append(starts[-1] + len(p))
    want = _expected()
    for label, source in (("file", path), ("stream", Pipe(data))):
        entries = list(iter_warc(source))  # type: ignore[arg-type]
        assert not [e for e in entries if isinstance(e, WarcError)], label
        at: dict[int | None, tuple[str | None, list[dict[str, Any]]]] = {}
        for e in entries:
            if isinstance(e, WarcItem):
                at.setdefault(e.offset, (e.record_id, []))[1].append(e.item)
        assert at == {
            starts[1]: (warcs.record_id(1), want[warcs.record_id(1)]),
            starts[2]: (warcs.record_id(3), want[warcs.record_id(2)]),
            starts[3]: (warcs.record_id(3), want[warcs.record_id(3)]),
        }, label


def test_content_length_that_still_frames_is_undetectable() -> None:
    # "16" -> "14" in the warcinfo record, whose block ends with CRLF: the 14 bytes are
    # followed by CRLF CRLF and the rest reads as a blank line between records, as in
    # an undamaged archive; the oracle must not ask for a report no reader can give
    parts = warcs.write(_records(), False)
    at = parts[0].index(b"Content-Length: 16") + len(b"Content-Length: 1")
    ops = [warcs.Damage("flip", 0, at, 1)]
    assert warcs.apply(parts, ops)[0][0].count(b"Content-Length: 14\r\n") == 1
    warcs.check_archive(_records(), False, ops)
    data = _damaged(False, ops)
    for source in (io.BytesIO(data), Pipe(data)):
        entries = list(iter_warc(source))  # type: ignore[arg-type]
        assert not [e for e in entries if isinstance(e, WarcError)]
        assert _by_record(entries) == _expected()
    # a number that does not frame is still reported
    ops = [warcs.Damage("flip", 0, at, 0)]  # "16" -> "17"
    errors = [e for e in iter_warc(io.BytesIO(_damaged(False, ops))) if isinstance(e, WarcError)]
    assert [e.record_id for e in errors] == [warcs.record_id(0)]


def _flips(old: bytes, new: bytes, rec: int, at: int) -> list[warcs.Damage]:
    """The bit flips that turn ``old`` (at ``at`` in record ``rec``) into ``new`` (as long)."""
    assert len(old) == len(new)
    return [
        warcs.Damage("flip", rec, at + k, bit) for k, (a, b) in enumerate(zip(old, new, strict=True)) for bit in range(8) if (a ^ b) >> bit & 1
    ]


@pytest.mark.parametrize("where", ["warc-head", "http-head"])
def test_content_length_grown_to_a_crlf_crlf_inside_the_next_record_is_reported(where: str, tmp_path: Path) -> None:
    # record 1's Content-Length grown to end at the CRLF CRLF that ends record 2's WARC
    # header block or its HTTP head: the end looked right, and record 2 was read as record
    # 1's block (silently lost); now the record header inside the block is found
    parts = warcs.write(_records(), False)
    body1 = parts[1].index(b"\r\n\r\n") + 4
    end2 = parts[2].index(b"\r\n\r\n")
    if where == "http-head":
        end2 = parts[2].index(b"\r\n\r\n", end2 + 4)
    old = parts[1].split(b"Content-Length: ")[1].split(b"\r\n")[0]
    new = str(len(parts[1]) - body1 + end2).encode()
    at = parts[1].index(b"Content-Length: ") + len(b"Content-Length: ")
    ops = _flips(old, new, 1, at)
    warcs.check_archive(_records(), False, ops)
    data = _damaged(False, ops)
    assert data.count(b"Content-Length: " + new + b"\r\n") == 1
    entries = list(iter_warc(io.BytesIO(data)))
    assert _by_record(entries) == _expected()
    errors = [e for e in entries if isinstance(e, WarcError)]
    assert [e.record_id for e in errors] == [warcs.record_id(1)]
    assert "runs past the record's end into the next record" in errors[0].message
    path = tmp_path / "a.warc"
    path.write_bytes(data)
    assert list(iter_warc_parallel(path, 2, batch_units=1)) == list(iter_warc(path))
    for piece in (100, 1):
        # a stream cannot go back: records 1 and 2 are reported lost, never mixed
        streamed = list(iter_warc(Pipe(data, piece)))  # type: ignore[arg-type]
        errors = [e for e in streamed if isinstance(e, WarcError)]
        assert errors[0].record_id == warcs.record_id(1) and "are lost" in errors[0].message
        assert _by_record(streamed) == {warcs.record_id(3): _expected()[warcs.record_id(3)]}


def test_an_archive_stored_in_a_record_is_content() -> None:
    # a resource record whose block is a whole plain archive: its records lie wholly inside
    # the block, so they are its content, not records run into
    inner = b"".join(warcs.write(_records(), False))
    recs = [*_records(), warcs.Record("resource", "http://a.example/a.warc", inner, "application/warc")]
    data = b"".join(warcs.write(recs, False))
    warcs.check_archive(recs, False, [])
    for source in (io.BytesIO(data), Pipe(data), Pipe(data, 7)):
        entries = list(iter_warc(source))  # type: ignore[arg-type]
        assert not [e for e in entries if isinstance(e, WarcError)]
        assert _by_record(entries) == _expected()


def test_damaged_record_whose_flipped_id_names_a_good_one() -> None:
    # record 0's id flipped to record 1's, and its Content-Length line joined to the line
    # before (LF -> VT): record 0 is reported under record 1's id, at its own offset;
    # record 1 is intact and read whole (the oracle told the two apart by id alone)
    parts = warcs.write(_records(), False)
    digit = parts[0].index(warcs.record_id(0).encode()) + len(warcs.record_id(0)) - 2
    newline = parts[0].index(b"\r\nContent-Length") + 1
    ops = [warcs.Damage("flip", 0, digit, 0), warcs.Damage("flip", 0, newline, 0)]
    warcs.check_archive(_records(), False, ops)
    data = _damaged(False, ops)
    for source in (io.BytesIO(data), Pipe(data)):
        entries = list(iter_warc(source))  # type: ignore[arg-type]
        errors = [e for e in entries if isinstance(e, WarcError)]
        assert [(e.record_id, e.offset) for e in errors] == [(warcs.record_id(1), 0)]
        assert _by_record(entries) == _expected()


def test_two_headers_run_together_are_reported() -> None:
    # a fuzz finding: the warcinfo record's last header lines, its block and the next
    # record's "WARC/1.0" line lost, so the two header blocks read as one with two
    # WARC-Type values ("warcinfo", "response"): damage, reported at the first record
    ops = [warcs.Damage("delete", 1, 0, 10), warcs.Damage("delete", 0, 228, 40)]
    warcs.check_archive(_records(), False, ops)
    data = _damaged(False, ops)
    assert data.count(b"WARC-Type: ") == 4
    for label, source in (("file", io.BytesIO(data)), ("stream", Pipe(data)), ("bytewise", Pipe(data, 1))):
        entries = list(iter_warc(source))  # type: ignore[arg-type]
        assert _by_record(entries) == _expected(skip=1), label
        errors = [e for e in entries if isinstance(e, WarcError)]
        assert [e.offset for e in errors] == [0], (label, errors)
        assert "'WARC-Type' given twice" in errors[0].message, label


def test_a_field_repeated_with_the_same_value_is_tolerated() -> None:
    parts = warcs.write(_records(), False)
    line = b"WARC-Date: 2026-01-01T00:00:00Z\r\n"
    at = parts[2].index(line)
    data = b"".join(parts[:2]) + parts[2][:at] + line + parts[2][at:] + b"".join(parts[3:])
    entries = list(iter_warc(io.BytesIO(data)))
    assert not [e for e in entries if isinstance(e, WarcError)]
    assert _by_record(entries) == _expected()
