"""``stream-mf2 parse page.html``: a word that is no command says so and what to type.

Anything that is not a command is the page command's PAGE, so ``stream-mf2 parse page.html``
(the library's function is ``parse``) or ``stream-mf2 lint t.xml`` (it is ``wpt lint``) failed
with "unrecognized arguments: page.html", which names the one argument that was right. A bare
word that is neither a command nor a file, followed by another argument, is now a usage error
(status 2) naming the commands and the command meant. A file of that name is still a page.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.support.cli import assert_user_error, run_cli
from tests.support.suites import REPO

PAGE = REPO / "fixtures" / "bench" / "blog-home.html"


def test_parse_is_not_a_command_and_the_message_says_what_is() -> None:
    r = run_cli("parse", str(PAGE))
    assert_user_error(r, 2, "no command 'parse' (and no file of that name): a page is read by 'stream-mf2 PAGE'")
    assert f"'stream-mf2 {PAGE}'" in r.stderr.decode()
    assert "the commands are warc, " in r.stderr.decode()
    r = run_cli("lint", "artist.xml", "page.html")
    assert_user_error(r, 2, "templates are checked by 'stream-mf2 wpt lint artist.xml'")


def test_a_file_named_like_a_word_is_still_a_page(tmp_path: Path) -> None:
    shutil.copy(PAGE, tmp_path / "parse")
    r = run_cli("parse", "--url", "https://jane.example/", cwd=tmp_path)
    assert r.returncode == 0, r.stderr.decode()
    assert json.loads(r.stdout)["items"]
    # and a lone missing word is still the page command's own error
    r = run_cli("parse", cwd=tmp_path / "..")
    assert_user_error(r, 1, "cannot open 'parse'")
