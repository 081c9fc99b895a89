"""Drive the RDFa consumer on the HTML engine, and the pyRdfa3 oracle, for the RDFa tests.

:func:`stream_triples` runs the pipeline the core builds for a consumer with a
placement observer (decoder → tokenizer → tree builder →
:class:`~stream_mf2.html.bounded.observed.ObservedSink` with the consumer's
``keep``/``complete``/``observer``), fed chunk by chunk.

:func:`oracle_graph` is pyRdfa3 on an html5lib DOM, the HTML5+RDFa host language,
with every option that fetches or adds triples off: ``Options(output_default_graph=True,
output_processor_graph=False, embedded_rdf=False, vocab_expansion=False,
vocab_cache=False, vocab_cache_report=False, refresh_vocab_cache=False,
check_lite=False, space_preserve=True)`` and ``host_language = HostLanguage.html5``
(``graph_from_source`` would set it from the media type; ``graph_from_DOM`` does not),
and pyRdfa3's own initial context (the W3C one): extruct, once imported, adds prefixes to
pyRdfa3's module-level table (``fb``, ``article``, ``book``, ``twitter``, ...), so the oracle
swaps in a fresh copy of that module's table for its call and puts extruct's back after.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from stream_mf2.html.bounded.observed import ObservedSink
from stream_mf2.html.decode import Decoder
from stream_mf2.html.tokenizer import Tokenizer
from stream_mf2.html.treebuilder import TreeBuilder
from stream_mf2.rdfa.consumer import RdfaConsumer
from stream_mf2.rdfa.events import RdfaLiteral, RdfaTriple

if TYPE_CHECKING:
    from rdflib import Graph


def engine(
    url: str | None = "http://example.com/page", **limits: Any
) -> tuple[Tokenizer, RdfaConsumer, list[RdfaTriple]]:
    """A tokenizer feeding the tree builder, the observed bounded sink and a consumer; its outbox."""
    out: list[RdfaTriple] = []
    consumer = RdfaConsumer(out.append, base_url=url, **limits)
    observer = consumer.observer
    assert observer is not None
    sink = ObservedSink(consumer.keep, consumer.complete, observer)
    tree = TreeBuilder(sink)
    return Tokenizer(tree), consumer, out


def stream_triples(
    chunks: Iterable[str] | Iterable[bytes], url: str | None = "http://example.com/page", **limits: Any
) -> tuple[list[RdfaTriple], list[str], RdfaConsumer]:
    """The consumer's triples and notes for a document fed as ``chunks`` (all str or all bytes)."""
    tok, consumer, out = engine(url, **limits)
    decoder: Decoder | None = None
    for chunk in chunks:
        if isinstance(chunk, bytes):
            if decoder is None:
                decoder = Decoder()
            tok.feed(decoder.feed(chunk))
        else:
            tok.feed(chunk)
    if decoder is not None:
        tok.feed(decoder.close())
    tok.close()
    notes = consumer.finish()
    return out, notes, consumer


def to_graph(triples: Iterable[RdfaTriple]) -> Graph:
    """An rdflib graph of the consumer's triples (``_:label`` as blank nodes)."""
    from rdflib import BNode, Graph, Literal, URIRef

    def node(value: str) -> Any:
        return BNode(value[2:]) if value.startswith("_:") else URIRef(value)

    g = Graph()
    for t in triples:
        o = t.object
        if isinstance(o, RdfaLiteral):
            obj: Any = Literal(o.value, lang=o.language, datatype=URIRef(o.datatype) if o.datatype else None)
        else:
            obj = node(o)
        g.add((node(t.subject), URIRef(t.predicate), obj))
    return g


_PRISTINE: list[Any] = []


def _pristine_initial_context() -> Any:
    """pyRdfa3's initial context table as its module defines it (loaded once, apart)."""
    if not _PRISTINE:
        import importlib.util

        from pyRdfa import initialcontext

        spec = importlib.util.spec_from_file_location("_pyrdfa_initialcontext", initialcontext.__file__)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _PRISTINE.append(module.initial_context)
    return _PRISTINE[0]


def oracle_graph(html: str | bytes, url: str | None = "http://example.com/page") -> Graph:
    """pyRdfa3's graph of ``html`` (see the module docstring for the options)."""
    import html5lib
    from pyRdfa import Options, initialcontext, pyRdfa
    from pyRdfa.host import HostLanguage
    from rdflib import Graph

    options = Options(
        output_default_graph=True,
        output_processor_graph=False,
        embedded_rdf=False,
        vocab_expansion=False,
        vocab_cache=False,
        vocab_cache_report=False,
        refresh_vocab_cache=False,
        check_lite=False,
        space_preserve=True,
    )
    options.host_language = HostLanguage.html5
    dom = html5lib.HTMLParser(tree=html5lib.treebuilders.getTreeBuilder("dom")).parse(html)
    table = initialcontext.initial_context
    initialcontext.initial_context = _pristine_initial_context()
    try:
        graph: Graph = pyRdfa(options, base=url or "").graph_from_DOM(dom, graph=Graph(), pgraph=Graph())
        return graph
    finally:
        initialcontext.initial_context = table
