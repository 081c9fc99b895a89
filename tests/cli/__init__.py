"""Tests of stream_mf2/cli: the commands as a user runs them, and in process."""
