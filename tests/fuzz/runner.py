"""Driving the targets with hypothesis for a time budget; minimising, printing and saving findings.

The run is a sequence of rounds. Each round gives one target (in turn) a fresh
hypothesis run of ``examples`` cases, seeded from ``--seed`` and the round
number, so a run is replayable. In a round, the first new finding's cause (its
signature) is the one shrunk: other causes met while shrinking are left to later
rounds. The smallest failing case seen is then reduced further by delta
debugging over its bytes (document targets) and saved. A cause, once reported,
is not reported again in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st

from . import growth, inputs, microdata, prefilter, rdfa, warcs
from .invariants import Finding, check_document
from .known import known


@dataclass
class Target:
    name: str
    strategy: st.SearchStrategy[Any]
    check: Callable[[Any], None]
    size: Callable[[Any], int]
    #: replay a finding's case with other bytes (for delta debugging); None: no reduction
    replay: Callable[[Any, bytes], Any] | None = None
    examples: int = 40


def _doc_strategy(data: st.SearchStrategy[bytes]) -> st.SearchStrategy[Any]:
    return st.tuples(
        data, inputs.options(), st.tuples(st.integers(0, 2**16), st.integers(0, 2**16)), st.integers(0, 2**16)
    )


def _doc_check(case: Any) -> None:
    data, options, seeds, split = case
    check_document(data, options, seeds, split)


def _warc_strategy() -> st.SearchStrategy[Any]:
    @st.composite
    def archive(draw: st.DrawFn) -> tuple[list[warcs.Record], bool, list[warcs.Damage]]:
        recs = draw(warcs.records())
        compress = draw(st.booleans())
        sizes = [len(p) for p in warcs.write(recs, compress)]
        return recs, compress, draw(warcs.damages(sizes))

    return archive()


TARGETS: dict[str, Target] = {
    "bytes": Target(
        "bytes",
        _doc_strategy(st.binary(max_size=2000)),
        _doc_check,
        lambda c: len(c[0]),
        lambda c, b: (b, *c[1:]),
    ),
    "soup": Target(
        "soup", _doc_strategy(inputs.soup_bytes()), _doc_check, lambda c: len(c[0]), lambda c, b: (b, *c[1:])
    ),
    "mutated": Target(
        "mutated",
        _doc_strategy(inputs.mutated_page().map(lambda p: p[1])),
        _doc_check,
        lambda c: len(c[0]),
        lambda c, b: (b, *c[1:]),
        examples=20,
    ),
    "warc": Target(
        "warc",
        _warc_strategy(),
        lambda c: warcs.check_archive(*c),
        lambda c: sum(len(r.block) for r in c[0]) + 100 * len(c[0]) + len(c[2]),
        examples=25,
    ),
    "prefilter": Target(
        "prefilter",
        prefilter.documents(),
        lambda c: prefilter.check_prefilter(*c),
        lambda c: len(c[0]),
        lambda c, b: (b, *c[1:]),
        examples=60,
    ),
    "growth": Target("growth", growth.blocks(), growth.check_growth, lambda b: len("".join(b)), examples=6),
    "microdata": Target(
        "microdata", microdata.strategy(), microdata.check, lambda c: len(c[0]), lambda c, b: (b, *c[1:]), examples=30
    ),
    "rdfa": Target("rdfa", rdfa.documents(), rdfa.check, lambda c: len(c[0]), rdfa.replay, examples=40),
}


@dataclass
class Report:
    seed: int
    out: Path | None
    found: list[dict[str, Any]] = field(default_factory=list)
    known_hits: Counter[str] = field(default_factory=Counter)
    seen: set[str] = field(default_factory=set)
    cases: Counter[str] = field(default_factory=Counter)
    rounds: int = 0


def ddmin(data: bytes, fails: Callable[[bytes], bool], budget: float) -> bytes:
    """A smaller ``data`` that still ``fails``: remove chunks, halving their size (delta debugging)."""
    stop = time.monotonic() + budget
    n = 2
    while len(data) >= 2 and time.monotonic() < stop:
        size = max(1, len(data) // n)
        removed = False
        start = 0
        while start < len(data) and time.monotonic() < stop:
            candidate = data[:start] + data[start + size :]
            if candidate != data and fails(candidate):
                data = candidate
                removed = True
            else:
                start += size
        if removed:
            n = max(n - 1, 2)
        elif size == 1:
            break
        else:
            n = min(len(data), n * 2)
    return data


def _run_round(target: Target, seed: int, report: Report, deadline: float, shrink_budget: float) -> None:
    state: dict[str, Any] = {"signature": None, "best": None, "size": None, "finding": None, "since": 0.0}

    def body(case: Any) -> None:
        if state["signature"] is None and time.monotonic() > deadline:
            return
        report.cases[target.name] += 1
        try:
            target.check(case)
        except Finding as finding:
            defect = known(finding)
            if defect is not None:
                if report.known_hits[defect.name] == 0:
                    _save(report, target.name, finding, case, known_as=defect.name)
                report.known_hits[defect.name] += 1
                return
            if finding.signature in report.seen:
                return
            if state["signature"] is None:
                state["signature"] = finding.signature
                state["since"] = time.monotonic()
            elif finding.signature != state["signature"]:
                return  # another cause: a later round shrinks it
            size = target.size(case)
            if state["size"] is None or size <= state["size"]:
                state.update(best=case, size=size, finding=finding)
            if time.monotonic() - state["since"] > shrink_budget:
                return  # enough shrinking: pass from now on, the smallest case is kept
            raise

    test = settings(
        database=None,
        deadline=None,
        max_examples=target.examples,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        verbosity=Verbosity.quiet,
        phases=[Phase.generate, Phase.shrink],
        print_blob=False,
    )(given(target.strategy)(body))
    with contextlib.suppress(Exception):  # the smallest failing case is in ``state``
        hypothesis_seed(seed)(test)()
    if state["finding"] is None:
        return
    finding: Finding = state["finding"]
    case = state["best"]
    report.seen.add(finding.signature)
    if target.replay is not None:
        replay = target.replay

        def fails(data: bytes) -> bool:
            try:
                target.check(replay(case, data))
            except Finding as again:
                return again.signature == finding.signature
            return False

        smaller = ddmin(finding.data, fails, shrink_budget / 2)
        if smaller != finding.data:
            case = replay(case, smaller)
            try:
                target.check(case)
            except Finding as again:
                finding = again
    _save(report, target.name, finding, case, round_seed=seed)


def _save(
    report: Report, target: str, finding: Finding, case: Any, *, round_seed: int | None = None, known_as: str = ""
) -> None:
    record: dict[str, Any] = {
        "target": target,
        "check": finding.check,
        "signature": finding.signature,
        "detail": finding.detail,
        "seed": report.seed,
        "round_seed": round_seed,
        "options": finding.options,
        "input": finding.data.decode("latin-1"),
        "input_repr": repr(finding.data),
        "extra": finding.extra,
        "case": repr(case)[:20000],
    }
    if known_as:
        record["known_defect"] = known_as
    else:
        report.found.append(record)
        print(f"\nFINDING [{target}] {finding.check}: {finding.detail}")
        print(f"  seed={report.seed} round_seed={round_seed} signature={finding.signature}")
        print(f"  options={finding.options}")
        print(f"  input ({len(finding.data)} bytes): {finding.data[:800]!r}")
        replay = _replay_line(target, finding)
        if replay:
            print(f"  replay: {replay}")
    if report.out is not None:
        folder = report.out / ("known" if known_as else "")
        folder.mkdir(parents=True, exist_ok=True)
        n = len(list(folder.glob("*.json")))
        name = f"{n:03d}-{target}-{finding.check}"
        (folder / f"{name}.json").write_text(json.dumps(record, indent=2, default=repr), encoding="utf-8")
        (folder / f"{name}.bin").write_bytes(finding.data)
        if not known_as:
            print(f"  saved: {folder / name}.json")


def _replay_line(target: str, finding: Finding) -> str:
    if target in ("bytes", "soup", "mutated"):
        return f"stream_mf2.parse({finding.data[:300]!r}, {finding.options!r})  # and the chunkings named above"
    if target == "growth":
        return f"tests.fuzz.growth.check_growth({finding.extra.get('block')!r})"
    return ""


def run(
    minutes: float,
    seed: int,
    out: Path | None,
    targets: list[str],
    shrink_budget: float = 60.0,
    *,
    verbose: bool = False,
    max_rounds: int | None = None,
) -> Report:
    """Fuzz for ``minutes`` (and at most ``max_rounds`` rounds); return what was found.

    Round ``k`` always draws the same cases for a given seed, so a run bounded by
    ``max_rounds`` (well inside ``minutes``) tests the same inputs on any machine.
    """
    report = Report(seed, out)
    start = time.monotonic()
    deadline = start + minutes * 60
    round_no = 0
    while time.monotonic() < deadline and (max_rounds is None or round_no < max_rounds):
        target = TARGETS[targets[round_no % len(targets)]]
        round_seed = (seed * 1_000_003 + round_no) % 2**32
        began = time.monotonic()
        _run_round(target, round_seed, report, deadline, shrink_budget)
        if verbose:
            print(f"round {round_no} {target.name} seed={round_seed}: {time.monotonic() - began:.1f} s", flush=True)
        round_no += 1
        report.rounds = round_no
    elapsed = time.monotonic() - start
    print(
        f"\nfuzz: seed={seed} {elapsed / 60:.1f} min, {round_no} rounds, cases {dict(report.cases)}; "
        f"{len(report.found)} new finding(s); known defects seen: {dict(report.known_hits) or 'none'}"
    )
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        summary = {
            "seed": seed,
            "minutes": elapsed / 60,
            "rounds": round_no,
            "cases": dict(report.cases),
            "findings": [f["signature"] for f in report.found],
            "known": dict(report.known_hits),
        }
        (out / "summary.json").write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--minutes", type=float, default=5.0, help="time budget (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    parser.add_argument("--out", type=Path, default=None, help="directory for findings (JSON and raw input)")
    parser.add_argument(
        "--targets", default=",".join(TARGETS), help=f"comma-separated, in turn (default: {','.join(TARGETS)})"
    )
    parser.add_argument("--shrink-seconds", type=float, default=60.0, help="minimising budget per finding")
    parser.add_argument("--verbose", action="store_true", help="print every round and its time")
    args = parser.parse_args(argv)
    names = [t for t in args.targets.split(",") if t]
    unknown = [t for t in names if t not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s): {', '.join(unknown)}")
    report = run(args.minutes, args.seed, args.out, names, args.shrink_seconds, verbose=args.verbose)
    return 1 if report.found else 0
