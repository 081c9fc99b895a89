"""The shared conformance suites (html5lib-tests, microformats tests) and the mf2py differential."""
