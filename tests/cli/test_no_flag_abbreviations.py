"""A prefix of a flag is not that flag, in every command.

argparse took any unambiguous prefix, so ``stream-mf2 wpt TEMPLATE page.html --jsonl`` (the
page command's flag for JSON Lines, which ``wpt`` always writes) was read as ``--jsonld``: the
run wrote JSON-LD lines instead of page lines, with status 0. Sibling commands share flag
names, so a flag given to the wrong command is now refused (status 2) and never read as another.
"""

from __future__ import annotations

import json

import pytest

from tests.support.cli import assert_user_error, run_cli
from tests.support.suites import REPO

FIX = REPO / "fixtures"


def test_wpt_refuses_the_page_commands_jsonl_instead_of_writing_json_ld() -> None:
    pytest.importorskip("defusedxml")
    args = ("wpt", str(FIX / "wpt" / "artist.xml"), str(FIX / "wpt" / "artist.html"))
    r = run_cli(*args, "--jsonl")
    assert_user_error(r, 2, "unrecognized arguments: --jsonl")
    assert r.stdout == b""
    r = run_cli(*args)
    assert [json.loads(line)["kind"] for line in r.stdout.splitlines()] == ["wpt"]


@pytest.mark.parametrize(
    ("command", "prefix"),
    [
        (("warc",), "--work"),  # --workers
        (("warc",), "--prefilt"),  # --prefilter
        ((), "--json"),  # --jsonl
        ((), "--stream"),  # --stream-children
        (("xpath",), "--skel"),  # --skeleton
    ],
)
def test_a_prefix_is_refused(command: tuple[str, ...], prefix: str) -> None:
    r = run_cli(*command, str(FIX / "example.html"), prefix)
    assert_user_error(r, 2, f"unrecognized arguments: {prefix}")
