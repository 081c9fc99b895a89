"""``python -m bench``: the whole benchmark in one command (see :mod:`bench.full`)."""

from bench.full import main

raise SystemExit(main())
