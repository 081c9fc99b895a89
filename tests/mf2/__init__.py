"""Tests of stream_mf2/mf2 and the capture: parsing rules, backcompat, text, late metadata, budgets."""
