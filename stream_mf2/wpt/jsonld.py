"""JSON-LD of a WPT page: its records as linked data, and its blocks' RDF descriptions honoured.

:func:`page_jsonld` turns one page object (``collect_pages``, ``parse(...)["wpt"]``) into one
JSON-LD document ``{"@context", "@graph"}``:

* **Concepts are types and properties.** Each object of a record (:func:`~stream_mf2.wpt.records`)
  is a node whose ``@type`` is its concept (``artist``) and whose properties are its attributes
  (``name``), all in the vocabulary ``@vocab``. An object's text (the records' ``"@value"``) is
  ``rdf:value`` (written in full, as every IRI outside the vocabulary); a nested object is a
  nested node, typed when the ontology declares its concept.
* **``id`` identifies.** An object with an ``id`` gets the ``@id``
  ``{ids}{concept}/{id}``, the same on every page of the site, so a JSON-LD processor merges
  what several pages say about it (as :func:`~stream_mf2.wpt.merge_by_id` does); ``id`` stays a
  property too.
* **Records nest as the ontology says.** A repeatable match's object of the same concept as an
  object of the record it is in (``thread.tag`` rows on a ``thread`` page) adds to that object;
  one whose concept is an attribute of such an object (``ow:has``, through ``ow:inherit``: an
  ``artist`` has ``album``) becomes that property's value; any other is a node of its own.
* **RDF descriptions name properties.** A block whose content is an RDF description
  (``rdf:Description`` or a typed node, inside ``rdf:RDF`` or not) gives each match's text to the
  description's empty property elements (``<dc:title/>``), adds its property elements with a
  value (``<dc:language>en</dc:language>``, ``rdf:resource``) as written and its types. The node is
  ``rdf:about`` (resolved against the page URL; ``""`` is the page), or without it the page for a
  block that is not repeatable and a node per match for a repeatable block (its nested blocks'
  descriptions without ``rdf:about`` describe that node). Property IRIs are written in full.

Without an ontology of its own the WPT names no vocabulary IRI, so the default ``@vocab`` is
the site's ``{scheme}://{host}/wpt/{ontology}#`` and the default ``ids`` its
``{scheme}://{host}/wpt/{ontology}/``; pass ``vocab=`` (``"https://schema.org/"`` when the
concepts are schema.org's) and ``ids=`` to use your own. Pure functions, no I/O.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, urljoin, urlsplit

from stream_mf2.wpt.model import RDF_NS, Block, Ontology, Template, Wpt
from stream_mf2.wpt.records import VALUE, records_with_parents

__all__ = ["default_vocab", "page_jsonld"]

# In full: a concept may be named ``rdf`` (a prefix in the context would change its meaning).
_RDF_VALUE = RDF_NS + "value"


def _site(host: str, url: str | None) -> str:
    """``scheme://host`` of the WPT's ``ow:host`` (the page's scheme when the host has none)."""
    text = host.strip()
    parts = urlsplit(text if "//" in text else "//" + text)
    scheme = parts.scheme or (urlsplit(url).scheme if url else "") or "https"
    return f"{scheme.lower()}://{(parts.netloc or text).lower()}"


def default_vocab(host: str, ontology: str | None, url: str | None = None) -> tuple[str, str]:
    """The default ``@vocab`` and ``ids`` prefix of a template on ``host`` with ``ontology``."""
    base = f"{_site(host, url)}/wpt/{quote(ontology or 'concepts', safe='')}"
    return base + "#", base + "/"


class _Ontology:
    """Concepts and attributes, case-insensitively, with ``ow:inherit`` followed."""

    def __init__(self, ontologies: tuple[Ontology, ...], name: str | None) -> None:
        chosen = [o for o in ontologies if o.name == name] or list(ontologies)
        self.has: dict[str, set[str]] = {}
        self.inherits: dict[str, list[str]] = {}
        for o in chosen:
            for c in o.concepts:
                key = c.name.lower()
                self.has.setdefault(key, set()).update(h.lower() for h in c.has)
                self.inherits.setdefault(key, []).extend(i.lower() for i in c.inherits)

    def declared(self, concept: str) -> bool:
        return concept.lower() in self.has

    def has_attribute(self, concept: str, attribute: str) -> bool:
        attribute = attribute.lower()
        seen: set[str] = set()
        todo = [concept.lower()]
        while todo:
            c = todo.pop()
            if c in seen or c not in self.has:
                continue
            seen.add(c)
            if attribute in self.has[c]:
                return True
            todo.extend(self.inherits.get(c, ()))
        return False


def _add(node: dict[str, Any], key: str, value: Any, seen: dict[int, set[str]]) -> None:
    """Add ``value`` to property ``key`` of ``node`` (a list once it has several; a string
    already there is not repeated, each node is added). ``seen``: the strings of each list,
    by the list's ``id``, so adding stays O(1) however many values a property gathers."""
    have = node.get(key)
    if have is None:
        node[key] = value
        return
    if not isinstance(have, list):
        if isinstance(value, str) and have == value:
            return
        have = node[key] = [have]
    known = seen.get(id(have))
    if known is None:
        known = seen[id(have)] = {v for v in have if isinstance(v, str)}
    if isinstance(value, str):
        if value in known:
            return
        known.add(value)
    have.append(value)


class _Builder:
    def __init__(self, page: dict[str, Any], onto: _Ontology, ids: str) -> None:
        self.page = page
        self.onto = onto
        self.ids = ids

    def node(self, concept: str, value: Any, typed: bool) -> dict[str, Any]:
        """The node of one object (or of a plain value given to a concept)."""
        node: dict[str, Any] = {"@type": concept} if typed else {}
        if not isinstance(value, dict):
            node[_RDF_VALUE] = value
            return node
        id_ = value.get("id")
        if isinstance(id_, str):
            node["@id"] = f"{self.ids}{quote(concept, safe='')}/{quote(id_, safe='')}"
        for key, v in value.items():
            if key == VALUE:
                node[_RDF_VALUE] = v
            elif isinstance(v, dict):
                node[key] = self.node(key, v, self.onto.declared(key))
            else:
                node[key] = v
        return node

    def nodes_of(self, data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """(concept, node) of each top-level object of a record's ``data``."""
        out: list[tuple[str, dict[str, Any]]] = []
        for concept, value in data.items():
            for v in value if isinstance(value, list) else [value]:
                out.append((concept, self.node(concept, v, True)))
        return out


def _merge_into(target: dict[str, Any], node: dict[str, Any], seen: dict[int, set[str]]) -> None:
    for key, value in node.items():
        if key in ("@type", "@id") and key in target:
            continue
        for v in value if isinstance(value, list) else [value]:
            _add(target, key, v, seen)


class _Rdf:
    """The nodes the blocks' RDF descriptions describe, in order of first mention."""

    def __init__(self, url: str | None) -> None:
        self.url = url
        self.by_id: dict[str, dict[str, Any]] = {}
        self.order: list[dict[str, Any]] = []
        self.page: dict[str, Any] | None = None
        self.seen: dict[int, set[str]] = {}

    def _iri(self, ref: str) -> str:
        return urljoin(self.url, ref) if self.url else ref

    def named(self, about: str) -> dict[str, Any]:
        iri = self._iri(about)
        node = self.by_id.get(iri)
        if node is None:
            node = self.by_id[iri] = {"@id": iri}
            self.order.append(node)
        return node

    def page_node(self) -> dict[str, Any]:
        if self.page is None:
            self.page = self.named("") if self.url else {}
            if not self.url:
                self.order.append(self.page)
        return self.page

    def blank(self) -> dict[str, Any]:
        node: dict[str, Any] = {}
        self.order.append(node)
        return node

    def describe(self, node: dict[str, Any], block: Block, index: int, match: dict[str, Any]) -> None:
        rdf = block.rdf[index]
        for t in rdf.types:
            _add(node, "@type", self._iri(t), self.seen)
        for p in rdf.properties:
            if p.resource is not None:
                value: Any = {"@id": self._iri(p.resource)}
            elif p.value is not None:
                value = {"@value": p.value, "@language": p.lang} if p.lang else p.value
            else:
                value = match.get("text")
                if value is None:
                    continue
            _add(node, p.iri, value, self.seen)

    def block(self, block: Block, found: dict[str, Any], subject: dict[str, Any] | None) -> None:
        """The descriptions of ``block`` (output ``found``), inside the node ``subject`` (the page's when ``None``)."""
        for m in found.get("matches") or ():
            inner = subject
            for i, rdf in enumerate(block.rdf):
                if rdf.about is not None:
                    node = self.named(rdf.about)
                elif block.repeatable:
                    node = self.blank()
                    if inner is subject:
                        inner = node  # nested descriptions without rdf:about describe this match
                else:
                    node = subject if subject is not None else self.page_node()
                self.describe(node, block, i, m)
            for child, child_found in zip(block.blocks, m.get("blocks") or (), strict=False):
                self.block(child, child_found, inner)

    def graph(self) -> list[dict[str, Any]]:
        return [n for n in self.order if len(n) > 1 or (n and "@id" not in n)]


def _template_of(page: dict[str, Any], wpt: Wpt | Template | None) -> tuple[Template | None, tuple[Ontology, ...]]:
    if isinstance(wpt, Template):
        return wpt, ()
    if isinstance(wpt, Wpt):
        try:
            return wpt.template(str(page.get("template"))), wpt.ontologies
        except KeyError:
            return None, wpt.ontologies
    return None, ()


def page_jsonld(
    page: dict[str, Any],
    wpt: Wpt | Template | None = None,
    *,
    vocab: str | None = None,
    ids: str | None = None,
) -> dict[str, Any]:
    """The JSON-LD document of one WPT page object: ``{"@context", "@graph"}``.

    ``wpt``: the WPT file the page's template comes from (its ontology types nested objects and
    nests records; its blocks' RDF descriptions are honoured), or the template alone, or
    ``None`` (records only). ``vocab``/``ids``: the vocabulary IRI and the prefix of object
    ids (defaults: :func:`default_vocab`). See the module documentation for the mapping.
    """
    template, ontologies = _template_of(page, wpt)
    default_v, default_i = default_vocab(
        str(page.get("host") or ""), template.ontology if template is not None else None, page.get("url")
    )
    onto = _Ontology(ontologies, template.ontology if template is not None else None)
    builder = _Builder(page, onto, ids if ids is not None else default_i)
    rdf = _Rdf(page.get("url"))
    if template is not None:
        for block, found in zip(template.blocks, page.get("blocks") or (), strict=False):
            rdf.block(block, found, None)
    recs = records_with_parents(page)
    placed: list[list[tuple[str, dict[str, Any]]]] = []
    seen: dict[int, set[str]] = {}
    graph: list[dict[str, Any]] = []
    for rec, parent in recs:
        nodes = builder.nodes_of(rec["data"])
        if parent < 0:
            placed.append(nodes)
            graph.extend(n for _, n in nodes)
            continue
        up = placed[parent]
        kept: list[tuple[str, dict[str, Any]]] = []
        for concept, node in nodes:
            same = [n for c, n in up if c == concept]
            if len(same) == 1 and node.get("@id", same[0].get("@id")) == same[0].get("@id"):
                _merge_into(same[0], {k: v for k, v in node.items() if k != "@type"}, seen)
                kept.append((concept, same[0]))  # what is nested in this match adds to it too
                continue
            kept.append((concept, node))
            holder = next((n for c, n in up if onto.has_attribute(c, concept)), None)
            if holder is not None:
                have = holder.get(concept)
                if isinstance(have, list):
                    have.append(node)
                else:
                    holder[concept] = [node] if have is None else [have, node]
                continue
            graph.append(node)
        placed.append(kept)
    graph.extend(rdf.graph())
    return {
        "@context": {"@vocab": vocab if vocab is not None else default_v},
        "@graph": graph,
    }
