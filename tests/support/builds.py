"""Which build the tests run against, and the marker for the few white-box tests that need the pure one.

``STREAM_MF2_EXPECT_COMPILED=1`` (set by CI for its compiled-build run) makes
``tests/architecture/test_build.py`` fail when the package imported is not the compiled one.
"""

from __future__ import annotations

import pytest

from stream_mf2 import COMPILED

#: For tests that instrument internals (subclassing a library class to check its
#: private counters, or patching a module function to count calls): compiled
#: classes cannot be subclassed from Python and compiled calls do not look
#: module functions up, so such a test can only check the pure-Python build. The
#: behaviour they guard is checked in both builds by tests that observe only output.
pure_only = pytest.mark.skipif(COMPILED, reason="white-box test of internals: runs against the pure-Python build")
