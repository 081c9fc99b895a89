"""A fuzz harness for stream_mf2, built on hypothesis: ``python -m tests.fuzz --minutes N --seed S``.

Targets (``targets.py``) draw inputs (``inputs.py``: random bytes, tag soup,
mutated suite pages and fixtures; ``warcs.py``: damaged WARC archives written
with warcio; ``growth.py``: soups at n and 4n) and check invariants
(``invariants.py``):

* only documented exception types escape (``StreamMF2Error`` and its subclasses);
* the output is the same whole, byte by byte, split in two and in random chunkings
  (bytes and text input), and with ``stream_children=True``;
* the bounded result equals the full-DOM result (``mf2.parse_dom``);
* the JSON output is valid JSON that reads back as the result;
* a damaged WARC keeps every good record's items exactly and reports every
  record whose damage can be detected;
* time per input byte stays bounded (n and 4n).

A failure is minimised (hypothesis' shrinking, then a delta-debugging pass over
the bytes), printed with its seed and saved under ``--out``. Open defects that
are being fixed elsewhere are recognised by the named entries of
``known.KNOWN_DEFECTS`` (counted, not reported as new); emptying that list turns
them back into findings.
"""
