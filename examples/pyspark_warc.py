"""Items out of many WARC files with PySpark: ``mapPartitions`` over the archive paths.

    pip install 'stream-mf2[spark]'     # pyspark; needs a Java runtime
    python examples/pyspark_warc.py OUT_DIR crawl-1.warc.gz crawl-2.warc.gz ...

Each partition holds archive paths; :func:`items_of_partition` runs on the
executors and streams each archive through ``stream_mf2.iter_warc``, so an
executor holds one record at a time whatever the archive size. Damaged records
come out as error rows instead of failing the task. Results are written as
JSON Lines text files under OUT_DIR.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator

import stream_mf2


def items_of_partition(paths: Iterable[str]) -> Iterator[str]:
    """The JSON line of every item and every damaged record of the archives in one partition."""
    for path in paths:
        for entry in stream_mf2.iter_warc(path):
            if isinstance(entry, stream_mf2.WarcItem):
                yield json.dumps({"kind": "item", "warc": path, "uri": entry.uri, "item": entry.item})
            elif isinstance(entry, stream_mf2.WarcError):
                yield json.dumps({"kind": "error", "warc": path, "error": entry.message, "offset": entry.offset})


def main(out_dir: str, paths: list[str]) -> None:
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.appName("stream-mf2 WARC").getOrCreate()
    try:
        rdd = spark.sparkContext.parallelize(paths, numSlices=max(1, len(paths)))
        rdd.mapPartitions(items_of_partition).saveAsTextFile(out_dir)
    finally:
        spark.stop()


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: pyspark_warc.py OUT_DIR FILE.warc[.gz]...")
    main(sys.argv[1], sys.argv[2:])
