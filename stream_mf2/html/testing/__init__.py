"""Conformance helpers: run the html5lib-tests suites against this engine.

Public, documented API so anyone can re-run the suites:

* ``tokenize_for_test(chunks, initial_state, last_start_tag)``: tokens in the
  html5lib-tests tokenizer output format.
* ``tree_for_test(chunks, fragment_context=None)``: the html5lib-tests
  tree-construction dump.
"""

from __future__ import annotations

# Tokenizer helper: tokens and parse errors in the html5lib-tests tokenizer format.
from stream_mf2.html.testing.tokens import tokenize_for_test as tokenize_for_test

# Tree-construction helpers: html5lib-tests tree dumps, .dat reader, DOM parsing.
from stream_mf2.html.testing.tree import dump_tree as dump_tree
from stream_mf2.html.testing.tree import parse_document as parse_document
from stream_mf2.html.testing.tree import parse_fragment as parse_fragment
from stream_mf2.html.testing.tree import read_tree_tests as read_tree_tests
from stream_mf2.html.testing.tree import tree_for_test as tree_for_test
