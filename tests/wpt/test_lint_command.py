"""``stream-mf2 wpt lint`` (issue 25, item 12): the loader's findings with positions, templates
that can never apply, blocks that never match on a page; exit 0 clean, 1 findings, 2 usage."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import run_cli
from tests.support.suites import REPO

FIX = REPO / "fixtures" / "wpt"
OW = 'xmlns:ow="http://www.omfica.org/schemas/ow/0.9"'


def _write(tmp_path: Path, xml: str) -> Path:
    path = tmp_path / "t.xml"
    path.write_text(xml)
    return path


def test_a_clean_template_on_its_page_has_no_finding() -> None:
    r = run_cli("wpt", "lint", str(FIX / "listing.xml"), str(FIX / "listing.html"))
    assert (r.returncode, r.stdout, r.stderr) == (0, b"", b"")


def test_blocks_that_never_match_on_a_page_are_named_with_their_position() -> None:
    r = run_cli("wpt", "lint", str(FIX / "listing.xml"), str(FIX / "artist.html"))
    assert r.returncode == 1
    lines = r.stdout.decode().splitlines()
    assert lines[0] == (
        f"{FIX / 'listing.xml'}:4:5: warning: block ow:xpath='/html/body/h1' of template 'Listing' never matches on "
        f"{FIX / 'artist.html'}"
    )
    assert len(lines) == 3


def test_the_loaders_errors_and_warnings_come_with_positions(tmp_path: Path) -> None:
    t = _write(
        tmp_path,
        f'<ow:wpt {OW} ow:host="h">\n<ow:template ow:name="T">\n<ow:block ow:tagid="a" ow:xpth="/x"/>'
        "\n</ow:template></ow:wpt>",
    )
    r = run_cli("wpt", "lint", str(t))
    assert r.returncode == 1
    assert r.stdout.decode().splitlines() == [
        f"{t}:2:1: warning: template 'T' has no ow:url and no ow:urls section names it: no page URL chooses it"
        " (it applies only when given alone, or chosen by name)",
        f"{t}:3:1: warning: unknown attribute ow:xpth on ow:block (did you mean ow:xpath?)",
    ]
    broken = _write(
        tmp_path, f'<ow:wpt {OW} ow:host="h">\n<ow:template ow:name="T">\n<ow:block/></ow:template></ow:wpt>'
    )
    r = run_cli("wpt", "lint", str(broken))
    assert r.returncode == 1
    assert r.stdout.decode() == f"{broken}:3:1: error: ow:block has no reference (ow:tagid, ow:xpath or ow:pattern)\n"


def test_a_template_on_another_host_can_never_apply(tmp_path: Path) -> None:
    t = _write(
        tmp_path,
        f'<ow:wpt {OW} ow:host="http://shop.example">\n'
        '<ow:template ow:name="T" ow:url="http://www.shop.example/list"><ow:block ow:tagid="a"/>'
        "</ow:template></ow:wpt>",
    )
    r = run_cli("wpt", "lint", str(t))
    assert r.returncode == 1
    assert r.stdout.decode() == (
        f"{t}:2:1: warning: template 'T' can never apply: its URLs are on www.shop.example, "
        "not on ow:host 'http://shop.example'\n"
    )


def test_a_bad_command_line_is_status_2() -> None:
    r = run_cli("wpt", "lint")
    assert r.returncode == 2
    r = run_cli("wpt", "lint", str(FIX / "listing.xml"), "--max-pattern-seconds", "0")
    assert r.returncode == 2
