"""Settings for the whole suite: the hypothesis profile, and the servers' fixtures.

Shared helpers live in :mod:`tests.support` (see ``tests/README.md``); fixtures that every
folder may use are registered here.
"""

from __future__ import annotations

import os

from hypothesis import settings

#: The fixtures of real servers on 127.0.0.1 (``http_files``, ``s3``).
pytest_plugins = ("tests.support.servers",)

# In CI the property tests draw the same examples every run (a failure there is a
# bug to reproduce, not luck); locally they explore new ones each run.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI", "").lower() == "true":
    settings.load_profile("ci")
