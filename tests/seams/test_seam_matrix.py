"""One matrix: every kind of result (rows) through every front end (columns) gives the same data.

Features break where they meet, and each was tested in the front end it was built with. Here
the same pages (:mod:`tests.seams.inputs`) go through every front end (:data:`COLUMNS`: the
parse functions, the Parser fed in chunks, the sync and async iterators, the page command, the
``warc`` and ``wpt`` commands over an archive in every output format, with worker processes, and
a Dask run), and every kind of result (:data:`ROWS`: mf2 items, rels, rel-urls, the meta item,
notes, WPT matches by reference kind, the applied templates, and one row per other syntax:
JSON-LD, microdata, RDFa, OpenGraph, Twitter cards, Dublin Core) is compared, page by page, with
what ``stream_mf2.parse(page, url, wpt=template, syntaxes=every syntax)`` gives.

A cell is one (front end, kind of result). A front end with no place for a kind of result
declares it, with the reason (the cell is skipped and says why); a cell showing a known defect
is a strict xfail naming it. The expensive front ends run once each for all rows and pages
(module-scoped, and shared by the xdist workers through a lock: one archive run per output
format, one Dask run).
"""

from __future__ import annotations

import contextlib
import json
import os
import pickle
import shutil
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.seams.columns import COLUMNS, Column, Outputs, reference
from tests.seams.inputs import Inputs, write_inputs
from tests.seams.rows import ROWS, Row


def _cell_marks(column: Column, row: Row) -> list[pytest.MarkDecorator]:
    marks = list(column.marks)
    if row.name in column.na:
        marks.append(pytest.mark.skip(reason=f"not applicable: {column.name} {column.na[row.name]}"))
    if row.name in column.defects:
        marks.append(pytest.mark.xfail(strict=True, reason=column.defects[row.name]))
    return marks


#: Every cell, column by column (so a worker tends to get a column's cells together).
CELLS = [
    pytest.param(column, row, id=f"{column.name}:{row.name}", marks=_cell_marks(column, row))
    for column in COLUMNS
    for row in ROWS
]


def canonical(data: Any) -> Any:
    """``data`` as JSON sees it (tuples are lists): what a user of any front end reads."""
    return json.loads(json.dumps(data))


@contextlib.contextmanager
def _exclusive(lock: Path) -> Iterator[None]:
    """Hold ``lock`` (a file) against the other xdist workers."""
    import fcntl

    with lock.open("a") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)


class Matrix:
    """The inputs, the reference, and each front end's outputs, each made once.

    ``shared``: ``root`` is the session's folder, common to the xdist workers: the inputs and
    the outputs of the shared columns are made by the first worker that needs them, under a
    lock, and read back by the others (a failed run too, so it is not repeated).
    """

    def __init__(self, root: Path, *, shared: bool) -> None:
        self.root = root
        self.shared = shared
        root.mkdir(parents=True, exist_ok=True)
        self._inputs: Inputs | None = None
        self._reference: Outputs | None = None
        self._outputs: dict[str, Outputs] = {}

    def _locked(self, name: str) -> contextlib.AbstractContextManager[None]:
        return _exclusive(self.root / f"{name}.lock") if self.shared else contextlib.nullcontext()

    def inputs(self) -> Inputs:
        if self._inputs is None:
            folder = self.root / "inputs"
            with self._locked("inputs"):
                done = folder / ".done"
                if not done.exists():
                    write_inputs(folder)
                    done.touch()
            self._inputs = Inputs.at(folder)
        return self._inputs

    def reference(self) -> Outputs:
        if self._reference is None:
            self._reference = reference(self.inputs())
        return self._reference

    def outputs(self, column: Column) -> Outputs:
        if column.name not in self._outputs:
            if column.shared:
                self._outputs[column.name] = self._shared_run(column)
            else:
                self._outputs[column.name] = column.run(self.inputs(), self._workdir(column))
        return self._outputs[column.name]

    def _workdir(self, column: Column) -> Path:
        work = self.root / "runs" / column.name
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        return work

    def _shared_run(self, column: Column) -> Outputs:
        saved = self.root / "runs" / f"{column.name}.pickle"
        with self._locked(column.name):
            if not saved.exists():
                try:
                    result: Any = column.run(self.inputs(), self._workdir(column))
                except Exception:
                    result = traceback.format_exc()
                saved.write_bytes(pickle.dumps(result))
            result = pickle.loads(saved.read_bytes())
        if isinstance(result, str):
            pytest.fail(f"{column.name}: the run failed (once for all its cells):\n{result}", pytrace=False)
        outputs: Outputs = result
        return outputs


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> Matrix:
    base = tmp_path_factory.getbasetemp()
    try:
        import fcntl  # noqa: F401
    except ImportError:  # no file locks: each worker makes its own
        return Matrix(base / "seam-matrix", shared=False)
    # Under xdist the parent of a worker's base folder is the session's, common to all workers.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    return Matrix((base.parent if worker else base) / "seam-matrix", shared=True)


@pytest.mark.parametrize(("column", "row"), CELLS)
def test_cell(matrix: Matrix, column: Column, row: Row) -> None:
    expected = {url: canonical(row.extract(seen)) for url, seen in matrix.reference().items()}
    outputs = matrix.outputs(column)
    assert list(outputs) == list(expected), "every page, in order"
    for url, seen in outputs.items():
        got = canonical(row.extract(seen))
        assert got == expected[url], f"{column.name} ({column.what}), {row.name} of {url}"


# -- the table itself -----------------------------------------------------------------------------------------


def test_the_table_declares_only_real_rows_with_reasons() -> None:
    rows = {row.name for row in ROWS}
    assert len(rows) == len(ROWS)
    assert len({c.name for c in COLUMNS}) == len(COLUMNS)
    for column in COLUMNS:
        assert set(column.na) <= rows, column.name
        assert set(column.defects) <= rows, column.name
        assert not set(column.na) & set(column.defects), f"{column.name}: a cell is either not applicable or a defect"
        assert all(why.strip() for why in [*column.na.values(), *column.defects.values()]), column.name


@pytest.mark.parametrize("row", ROWS, ids=[row.name for row in ROWS])
def test_the_pages_give_every_row_something_to_compare(matrix: Matrix, row: Row) -> None:
    """A row whose reference is empty on every page would pass in every front end, proving nothing."""
    data = [canonical(row.extract(seen)) for seen in matrix.reference().values()]
    assert any(d not in (None, [], {}) for d in data), f"{row.name}: no page gives any"
