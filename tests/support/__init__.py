"""Helpers shared by the tests (servers, chunkings, suites, sinks, records): see tests/README.md."""
