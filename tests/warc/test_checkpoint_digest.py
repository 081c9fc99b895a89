"""A JSON Lines writer's checkpoint token vouches for exactly the bytes of its temporary file.

The writer hashes its output only when a checkpoint asks (reading back what was
written since the last one), so a run without checkpoints hashes nothing; the
token must still be the SHA-256 of the file's first ``offset`` bytes, after any
number of checkpoints, compressed or not, and after a resume.
"""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from stream_mf2.warc.outputs import open_writer
from stream_mf2.warc.target import PARTIAL


def _line(i: int) -> dict[str, object]:
    # a record line of a blog crawl, long enough that some batches pass the write buffer
    return {
        "kind": "record",
        "uri": f"https://blog.example.net/2026/12/{i:04d}-notes-from-the-indieweb-camp/",
        "record_id": f"<urn:uuid:00000000-0000-4000-8000-{i:012d}>",
        "items": i % 3,
        "rels": {"webmention": ["https://blog.example.net/webmention"], "me": [f"https://social.example/@{i}"]},
    }


def _prefix_digest(path: Path, offset: int) -> str:
    return hashlib.sha256(path.read_bytes()[:offset]).hexdigest()


@pytest.mark.parametrize("name", ["out.jsonl", "out.jsonl.gz"])
def test_every_token_is_the_digest_of_the_file_prefix(tmp_path: Path, name: str) -> None:
    out = tmp_path / name
    partial = Path(str(out) + PARTIAL)
    writer = open_writer(str(out))
    tokens = []
    for batch in (0, 1, 300, 2, 0, 700):  # (an empty batch: a checkpoint with nothing new)
        for i in range(batch):
            writer.write(_line(i))
        token = writer.checkpoint()
        tokens.append(token)
        assert token["sha256"] == _prefix_digest(partial, token["offset"])
    assert len({t["offset"] for t in tokens}) == 5  # a checkpoint after no new line moves nothing

    # a resume from the fourth token: the later lines are cut off, and the next token
    # hashes the kept prefix and what comes after it
    writer.abandon()
    resumed = open_writer(str(out), resume=tokens[3])
    for i in range(50):
        resumed.write(_line(1000 + i))
    token = resumed.checkpoint()
    assert token["offset"] > tokens[3]["offset"]
    assert token["sha256"] == _prefix_digest(partial, token["offset"])
    resumed.close()
    data = out.read_bytes()
    if name.endswith(".gz"):
        data = gzip.decompress(data)
    assert data.count(b"\n") == 1 + 300 + 2 + 50
