"""The WHATWG HTML engine: decoding, tokenizing, tree construction, serialisation.

Nothing in this package knows about microformats.
"""
