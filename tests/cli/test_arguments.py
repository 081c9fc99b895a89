"""The command line reads arguments as a user means them, and says what is wrong with status 2.

* ``--stream-children`` and ``--filter-roots`` take a value only when it is attached
  (``--stream-children=h-feed``): ``--stream-children page.html`` is the flag and the input.
* Bad option values (a negative limit, ``nan`` seconds or expansion) exit with 2 and one line.
* ``stream-mf2 --help`` lists every subcommand the dispatcher knows.
* An input that cannot be read is named on standard error with the reason.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from stream_mf2.cli import COMMANDS
from stream_mf2.cli._common import COMMAND_HELP

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "fixtures/example.html")


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "stream_mf2", *args], capture_output=True, text=True, check=False)


def test_stream_children_before_the_input_is_the_bare_flag() -> None:
    r = _cli("--jsonl", "--stream-children", PAGE)
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert any(line.get("path") == [1, 0] for line in lines)  # the h-feed's first child, streamed


def test_stream_children_with_an_attached_value() -> None:
    r = _cli("--jsonl", "--stream-children=h-card", PAGE)
    assert r.returncode == 0, r.stderr
    assert not any("path" in json.loads(line) for line in r.stdout.splitlines())  # h-card has no children


def test_filter_roots_before_the_input_is_the_bare_flag() -> None:
    r = _cli("--filter-roots", PAGE)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["items"]


def test_warc_stream_children_before_the_inputs(tmp_path: Path) -> None:
    r = _cli("warc", "--stream-children", str(tmp_path / "missing.warc.gz"), "--no-progress")
    # the name is an input (that cannot be read), not the flag's value
    assert r.returncode == 4
    assert "missing.warc.gz: could not be read: cannot open" in r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--max-depth", "-1", PAGE],
        ["--timeout", "nan", PAGE],
        ["--deadline", "-5", PAGE],
        ["--max-redirects", "-1", PAGE],
        ["--max-bytes", "-1", PAGE],
        ["--header", "no-colon", "http://127.0.0.1:9/"],
        ["warc", "x.warc", "--max-expansion", "nan"],
        ["warc", "x.warc", "--max-expansion", "-1"],
        ["warc", "x.warc", "--timeout", "0"],
        ["warc", "x.warc", "--max-depth", "0"],
    ],
)
def test_bad_option_values_exit_2_with_one_line(args: list[str]) -> None:
    r = _cli(*args)
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_help_lists_every_subcommand() -> None:
    assert set(COMMAND_HELP) == set(COMMANDS)
    r = _cli("--help")
    assert r.returncode == 0
    for name in COMMANDS:
        assert f"\n  {name} " in r.stdout, name


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--stream-children", "page.html"], ["--stream-children=", "page.html"]),
        (["--stream-children", "h-feed", "page.html"], ["--stream-children=h-feed", "page.html"]),
        (["--stream-children", "h-feed,h-entry"], ["--stream-children=h-feed,h-entry"]),
        (["--stream-children"], ["--stream-children="]),
        (["--filter-roots", "h-full,h-screen", "x"], ["--filter-roots=h-full,h-screen", "x"]),
        (["--filter-roots", "-"], ["--filter-roots=", "-"]),
        (["--", "--stream-children"], ["--", "--stream-children"]),
        (["--stream-children=h-x", "y"], ["--stream-children=h-x", "y"]),
        (["--stream-children", "--filter-roots", "x"], ["--stream-children=", "--filter-roots=", "x"]),
    ],
)
def test_optional_values_are_taken_only_when_they_are_type_names(args: list[str], expected: list[str]) -> None:
    from stream_mf2.cli._common import attach_values

    assert attach_values(args) == expected


def test_a_type_that_can_never_match_is_named(tmp_path: Path) -> None:
    r = _cli("warc", str(tmp_path / "x.warc"), "--type", "hentry", "--no-progress")
    assert r.returncode == 2
    assert "--type hentry can never match" in r.stderr and "classic hentry items are typed h-entry" in r.stderr
    r = _cli("warc", str(tmp_path / "x.warc"), "--type", "hentry,h-card", "--no-progress")
    assert r.returncode == 4  # the run goes on with h-card (and finds the input missing)
    assert "--type hentry can never match" in r.stderr
