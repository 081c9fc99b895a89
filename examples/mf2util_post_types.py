"""mf2util on our output: post-type discovery for each h-entry, and the page's representative h-card.

    python examples/mf2util_post_types.py PAGE.html URL

mf2util works on the mf2 JSON that mf2py produces; ``stream_mf2.mf2py.parse``
gives the same shape, so mf2util's functions take it as is.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import mf2util

import stream_mf2.mf2py


def main(path: str, url: str) -> None:
    parsed = stream_mf2.mf2py.parse(doc=Path(path).read_bytes(), url=url)

    def entries(items: list[dict[str, Any]]) -> list[dict[str, Any]]:  # h-entries at the top level and inside h-feeds
        found: list[dict[str, Any]] = []
        for item in items:
            if "h-entry" in item["type"]:
                found.append(item)
            found.extend(entries(item.get("children", [])))
        return found

    for entry in entries(parsed["items"]):
        name = entry["properties"].get("name", [""])[0]
        print(json.dumps({"post-type": mf2util.post_type_discovery(entry), "name": name}, ensure_ascii=False))
    card = mf2util.representative_hcard(parsed, url)
    print(json.dumps({"representative-h-card": card["properties"].get("name") if card else None}, ensure_ascii=False))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: mf2util_post_types.py PAGE.html URL")
    main(sys.argv[1], sys.argv[2])
