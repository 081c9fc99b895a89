"""``python -m tests.fuzz --minutes N --seed S [--out DIR] [--targets a,b]``."""

from __future__ import annotations

import sys

from tests.fuzz.runner import main

sys.exit(main())
