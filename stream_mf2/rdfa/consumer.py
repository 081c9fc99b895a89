"""The RDFa 1.1 consumer: the evaluation context top-down as elements open, triples out as they close.

RDFa Core 1.1 (section 7.5, "Sequence") processes each element with the
evaluation context its parent passes down: base, language, IRI mappings,
default vocabulary, parent subject and object, incomplete triples, list
mapping. Every one of those is known when the element opens, so the consumer
runs the sequence in :meth:`RdfaConsumer.opened` (a placement observer of the
bounded sink: :class:`~stream_mf2.html.bounded.observed.ObservedSink`) and keeps
one small frame per *open* element. Nothing of a closed element is held,
except:

* a ``property`` whose value is the element's content (its text, or its markup
  for ``rdf:XMLLiteral``/``rdf:HTML``, or a ``<time>``'s text): the element is
  kept (``opened`` answers ``True``) so the sink stores its content, which is read
  when the element closes (or when the sink hands it over, if that comes first:
  :meth:`RdfaConsumer.complete`);
* list mappings (``inlist``): their members until the element that started the
  list closes, at most ``max_rdfa_list_items`` (then a note, and later members are
  dropped).

The triples of an element go out when it closes (so do the triples that
complete its parent's incomplete triples, and the lists it started), in the
order elements close (a batch whose content value could not be read yet would wait,
with every batch after it, for its subtree's hand-over; none does, see
:meth:`RdfaConsumer.popped`).

Where the specification leaves room, the consumer does what the reference
processor pyRdfa3 does (HTML5 host language): ``role`` values are triples
(Role Attribute 1.0), an element with any RDFa attribute (``vocab`` and
``prefix`` included) completes its parent's incomplete triples when it closes,
``datetime`` on any element is a value. Deliberate differences, all from
streaming (pyRdfa3 reads a finished tree): a ``<base href>`` applies to the
elements after it (the document's own subject, ``about=""`` on the root,
takes the base in force when its triples go out), the first one counts, and
an element's context is taken where it was first inserted (tree construction
may move it later: the adoption agency algorithm, foster parenting); a late
``<html>``/``<body>`` tag's attributes are not read (a note says so).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Final

from stream_mf2.html.dom import HTML_NS, Document, DocumentFragment, Element, Node, ParentNode
from stream_mf2.rdfa._state import HTML, TEXT, TIME, XML, Close, Deferred, Frame, Lists, Object, Slot, Triple
from stream_mf2.rdfa.context import (
    INITIAL_MAPPINGS,
    RDF,
    RDFA_USES_VOCABULARY,
    XHV,
    Mappings,
    curie_or_iri,
    is_ncname,
    is_term,
    quote_iri,
    resolve_iri,
    strip_fragment,
    term_or_curie,
)
from stream_mf2.rdfa.events import RdfaLiteral, RdfaTriple
from stream_mf2.rdfa.html_rules import time_datatype

__all__ = ["DEFAULT_MAX_RDFA_LIST_ITEMS", "RdfaConsumer"]

#: Default ``max_rdfa_list_items``: list members (``inlist``) held at once in a document.
DEFAULT_MAX_RDFA_LIST_ITEMS: Final = 100_000

_XML_LITERAL: Final = RDF + "XMLLiteral"
_HTML_LITERAL: Final = RDF + "HTML"
_TYPE: Final = RDF + "type"
_FIRST: Final = RDF + "first"
_REST: Final = RDF + "rest"
_NIL: Final = RDF + "nil"

#: The attributes that make an element take part in RDFa processing (the others only change the context).
_RDFA_ATTRS: Final = ("href", "resource", "about", "property", "rel", "rev", "typeof", "src", "vocab", "prefix")
#: A leaf (an element without children) matters only with one of these.
_LEAF_ATTRS: Final = frozenset((*_RDFA_ATTRS, "role"))
#: Every attribute the processing reads (an element without any passes its context on).
_CONTEXT_ATTRS: Final = frozenset((*_LEAF_ATTRS, "lang", "xml:lang", "xmlns"))
#: The document's base IRI, put in when a triple goes out (a ``<base>`` may come after the root opens).
_BASE: Final = "\x00base"


def _first(*values: str | None) -> str | None:
    for v in values:
        if v is not None:
            return v
    return None


class RdfaConsumer:
    """RDFa 1.1 (HTML+RDFa 1.1) triples of one document, as its elements close.

    ``emit`` receives each :class:`~stream_mf2.rdfa.events.RdfaTriple`; ``base_url``
    is the document's address (relative IRIs resolve against it, or a ``<base href>``).
    ``max_rdfa_list_items`` bounds the list members (``inlist``) held until their list's
    element closes. The sink calls :meth:`keep`, :meth:`complete` and the placement
    observer's methods (``observer`` is the consumer itself); :meth:`finish` ends the document.
    """

    def __init__(
        self,
        emit: Callable[[RdfaTriple], None],
        *,
        base_url: str | None,
        max_rdfa_list_items: int = DEFAULT_MAX_RDFA_LIST_ITEMS,
    ) -> None:
        self.emit = emit
        self.max_rdfa_list_items = max_rdfa_list_items
        self._url = strip_fragment(base_url) if base_url else ""
        self._base = self._url
        self._base_seen = False
        self._bnodes = 0
        self._list_items = 0
        self._notes: list[str] = []
        self._noted: set[str] = set()
        self._root = Frame(None, INITIAL_MAPPINGS, None, None, [], Lists(None))
        self._frames: dict[ParentNode, Frame] = {}
        self._closing: dict[Element, Close] = {}
        #: kept elements whose content value is still to be read
        self._pending: dict[Element, Slot] = {}
        #: batches waiting for a content value (and every batch after the first such)
        self._queue: deque[tuple[list[Triple], list[Slot]]] = deque()

    # -- the consumer contract ------------------------------------------------------
    @property
    def observer(self) -> RdfaConsumer:
        """The placement observer: the consumer itself (a property, not an attribute, so that
        the consumer holds no reference to itself: a cycle the garbage collector would free)."""
        return self

    def keep(self, element: Element) -> bool:
        """Never from the attributes alone: :meth:`opened` decides, with the context."""
        return False

    def complete(self, element: Element) -> bool:
        """An outermost kept subtree is final: read the content values inside it."""
        pending = self._pending
        if pending:
            if element in pending:
                pending.pop(element).fill()
            if pending and element.children:
                stack: list[Node] = list(element.children)
                while stack:
                    node = stack.pop()
                    if type(node) is Element:
                        slot = pending.pop(node, None)
                        if slot is not None:
                            slot.fill()
                        stack.extend(node.children)
            self._flush()
        return True

    def finish(self) -> list[str]:
        """The document ended: emit what is held; return the notes."""
        for el in reversed(list(self._closing)):
            self.popped(el)
        for slot in self._pending.values():
            slot.fill()
        self._pending.clear()
        self._flush()
        self._frames.clear()
        # (members of lists whose element never closed, or that have no subject to hang from)
        self._root.lists.lists = {}
        self._list_items = 0
        return list(self._notes)

    def held(self) -> int:
        """How many objects the consumer holds now: frames of open elements, closing work,
        unread content values, waiting batches, list members (for the memory tests)."""
        return len(self._frames) + len(self._closing) + len(self._pending) + len(self._queue) + self._list_items

    # -- placement observer -----------------------------------------------------------
    def opened(self, element: Element, parent: ParentNode) -> bool:
        """A new element, last child of ``parent``: run the processing sequence; ``True``: keep it."""
        return self._open(element, parent)

    def placed(self, element: Element, parent: ParentNode, before: Node | None = None) -> bool:
        """An element inserted or moved: a new one is processed as :meth:`opened`; a move changes nothing
        (the context stays the one where the element was first inserted).

        The adoption agency algorithm's clones arrive with children (already processed where
        they were): a clone is not processed itself (a note says so); what is created inside
        it later takes the context of its nearest processed ancestor. Elements moved into a
        clone that is not placed yet are moves.
        """
        if element in self._frames:
            return False
        if element.children:
            if any(k in _CONTEXT_ATTRS or k.startswith("xmlns:") for k in element.attrs):
                self._note("rdfa: an element cloned by the adoption agency algorithm (misnested tags) is not processed")
            return False
        if self._frame_of(parent) is None:
            return False
        return self._open(element, parent)

    def leaf(self, parent: ParentNode, name: str, attrs: dict[str, str]) -> bool:
        """Only a leaf with an RDFa attribute (or ``<base>``) matters."""
        if name == "base":
            return True
        return any(k in _LEAF_ATTRS for k in attrs)

    def popped(self, element: Element) -> None:
        """The element closed: its triples go out.

        A content value is read now if the sink has not handed the element over yet (it is
        inside another consumer's kept subtree, or held): once an element has left the
        stack of open elements, nothing inside it is open, and tree construction only
        inserts into open elements and moves open elements or the children of an open one,
        so its content is final (only its place may still change).
        """
        if element.name != "head":
            self._frames.pop(element, None)
        if self._pending:
            slot = self._pending.pop(element, None)
            if slot is not None:
                slot.fill()
                if self._queue:
                    self._flush()
        close = self._closing.pop(element, None)
        if close is not None:
            self._close(close)

    def attrs_added(self, element: Element, names: list[str]) -> None:
        """Attributes added by a later ``<html>``/``<body>`` tag come too late for the context."""
        if any(n in _LEAF_ATTRS or n in ("lang", "xml:lang") or n.startswith("xmlns") for n in names):
            self._note(f"rdfa: attributes of a later <{element.name}> tag are ignored: {' '.join(names)}")

    def removed(self, element: Element) -> None:
        """``<frameset>`` removed ``body``: what it held goes no further."""
        self._frames.pop(element, None)
        self._closing.pop(element, None)

    # -- the processing sequence ----------------------------------------------------------
    def _note(self, message: str) -> None:
        if message not in self._noted:
            self._noted.add(message)
            self._notes.append(message)

    def _bnode(self) -> str:
        self._bnodes += 1
        return f"_:b{self._bnodes}"

    def _frame_of(self, parent: ParentNode) -> Frame | None:
        """The context of ``parent``'s children: its own, or its nearest processed ancestor's
        (a clone); ``None`` for a detached node."""
        frames = self._frames
        node: ParentNode | None = parent
        while node is not None:
            frame = frames.get(node)
            if frame is not None:
                return frame
            if type(node) is Document:
                return self._root
            if type(node) is DocumentFragment:
                # a template's contents: processed as the template's children (as a DOM without them)
                host = node.host
                if host is None:
                    return self._root
                node = host
                continue
            node = node.parent
        return None

    def _open(self, el: Element, parent: ParentNode) -> bool:
        attrs = el.attrs
        html = el.namespace == HTML_NS
        if html and el.name == "base" and not self._base_seen and "href" in attrs:
            self._base_seen = True
            self._base = strip_fragment(resolve_iri(self._url, attrs["href"]))
        pframe = self._frame_of(parent) or self._root
        is_root = type(parent) is Document
        if not is_root and not any(k in _CONTEXT_ATTRS or k.startswith("xmlns:") for k in attrs):
            # (most elements: nothing RDFa reads; the children see the parent's context)
            self._frames[el] = pframe
            return False
        # -- the context this element changes: language, mappings --
        lang = pframe.lang
        if "xml:lang" in attrs:
            lang = attrs["xml:lang"].lower() or None
        elif "lang" in attrs:
            lang = attrs["lang"].lower() or None
        m = pframe.mappings
        default_ns = attrs.get("xmlns", pframe.default_ns)
        triples: list[Triple] = []
        if "vocab" in attrs or "prefix" in attrs or any(k.startswith("xmlns:") for k in attrs):
            m = self._mappings(m, attrs, triples)
        if "role" in attrs:
            self._role(el, m, triples)
        # -- the HTML+RDFa changes to the attributes --
        about = attrs.get("about")
        about_pruned = about == "[]"
        if about_pruned:
            about = None
        resource = attrs.get("resource")
        if resource == "[]":
            resource = None
        href = attrs.get("href")
        src = attrs.get("src")
        rel = attrs.get("rel")
        rev = attrs.get("rev")
        prop = attrs.get("property")
        typeof = attrs.get("typeof")
        if (
            is_root
            and about is None
            and (
                (resource is None and href is None and src is None)
                or rel is not None
                or rev is not None
                or prop is not None
            )
        ):
            about = ""
        if prop is not None:
            # HTML+RDFa 1.1, 3.1 rule 7: beside @property, @rel/@rev keep only CURIEs and IRIs
            rel = _without_terms(rel)
            rev = _without_terms(rev)
        content = attrs.get("content")
        datatype_attr = attrs.get("datatype")
        time_text = False
        if content is None and html:
            dt = attrs.get("datetime")
            if dt is not None:
                content = dt
                if datatype_attr is None:
                    datatype_attr = time_datatype(dt)
            elif el.name == "time":
                time_text = True
        if not (
            href is not None
            or resource is not None
            or about is not None
            or prop is not None
            or rel is not None
            or rev is not None
            or typeof is not None
            or src is not None
            or "vocab" in attrs
            or "prefix" in attrs
        ):
            # Not an RDFa element: the children see the same subject and incomplete triples.
            if lang == pframe.lang and m is pframe.mappings and default_ns == pframe.default_ns:
                frame = pframe
            else:
                frame = Frame(lang, m, default_ns, pframe.parent_object, pframe.incomplete, pframe.lists)
            self._frames[el] = frame
            if triples:
                self._closing[el] = Close(triples)
            return False
        base = self._base
        link_iri = href if href is not None else src
        if (
            link_iri is not None
            and about is None
            and resource is None
            and prop is None
            and typeof is None
            and rel is None
            and rev is None
            and not (html and (el.name == "head" or el.name == "body"))
        ):
            # A plain link: its IRI is the new subject, resolved if a descendant uses it.
            link = Deferred(base, link_iri)
            lists = Lists(link)
            self._frames[el] = Frame(lang, m, default_ns, link, [], lists)
            close = Close(triples)
            if pframe.incomplete:
                close.subject = link.value()
                close.parent = pframe
            close.lists = lists
            self._closing[el] = close
            return False
        deferred = pframe.parent_object
        parent_object = deferred.value() if isinstance(deferred, Deferred) else deferred
        lists = pframe.lists
        new_lists: Lists | None = None
        header = (
            html
            and (el.name == "head" or el.name == "body")
            and (about is None and resource is None and src is None and href is None)
        )
        subject: str | None = parent_object if header else None
        obj: str | None = None
        typed: str | None = None
        about_iri: str | None = None
        if about is not None:
            about_iri = _BASE if about == "" and is_root else curie_or_iri(m, base, about)
        if rel is not None or rev is not None:
            if about is not None:
                subject = about_iri
                if typeof is not None:
                    typed = subject
            if subject is None:
                subject = parent_object
            else:
                lists = new_lists = Lists(subject)
            obj = self._resource(m, base, resource, href, src)
            if typeof is not None and about is None:
                if obj is None:
                    obj = self._bnode()
                typed = obj
            if "inlist" not in attrs and obj is not None:
                lists = new_lists = Lists(obj)
        elif prop is not None and content is None and datatype_attr is None and not time_text:
            if about is not None:
                subject = about_iri
                if typeof is not None:
                    typed = subject
            if subject is None:
                subject = parent_object
            else:
                lists = new_lists = Lists(subject)
            if typed is None and typeof is not None:
                typed = self._resource(m, base, resource, href, src)
                if typed is None:
                    typed = self._bnode()
                obj = typed
            else:
                obj = subject
        else:
            if subject is None:
                subject = _first(about_iri, self._resource(m, base, resource, href, src))
            if subject is None:
                if typeof is not None:
                    subject = self._bnode()
                    lists = new_lists = Lists(subject)
                else:
                    subject = parent_object
            else:
                lists = new_lists = Lists(subject)
            obj = subject
            if typeof is not None:
                typed = subject
        if typeof is not None and typed:
            for t in typeof.split():
                iri = term_or_curie(m, t)
                if iri is not None:
                    triples.append((typed, _TYPE, iri))
        incomplete: list[tuple[str | None, str, str | None]] = []
        inlist = "inlist" in attrs
        if rel is not None:
            for p in _predicates(m, rel):
                if inlist:
                    self._add_to_list(lists, p, obj)
                    if obj is None:
                        incomplete.append((None, p, None))
                elif obj is not None:
                    if subject is not None:
                        triples.append((subject, p, obj))
                else:
                    incomplete.append((subject, p, None))
        if rev is not None:
            for p in _predicates(m, rev):
                if obj is not None:
                    if subject is not None:
                        triples.append((obj, p, subject))
                else:
                    incomplete.append((None, p, subject))
        close = Close(triples)
        keep = False
        if prop is not None:
            value: Object | None
            if (resource is not None or href is not None or src is not None) and not (
                content is not None or datatype_attr is not None or time_text or rel is not None or rev is not None
            ):
                value = self._resource(m, base, resource, href, src)
            elif (
                typeof is not None
                and typed is not None
                and not (
                    content is not None
                    or datatype_attr is not None
                    or time_text
                    or rel is not None
                    or rev is not None
                    or about is not None
                    or about_pruned
                )
            ):
                value = typed
            else:
                value = self._literal(el, m, lang, default_ns, content, datatype_attr, time_text)
                if type(value) is Slot:
                    close.slots.append(value)
                    self._pending[el] = value
                    keep = True
            if value is not None:
                for p in _predicates(m, prop):
                    if inlist:
                        self._add_to_list(lists, p, value)
                    elif subject is not None:
                        triples.append((subject, p, value))
        self._frames[el] = Frame(lang, m, default_ns, obj if obj is not None else self._bnode(), incomplete, lists)
        if pframe.incomplete:
            close.subject = subject
            close.parent = pframe
        close.lists = new_lists
        if triples or close.parent is not None or new_lists is not None or close.slots:
            self._closing[el] = close
        return keep

    def _mappings(self, m: Mappings, attrs: dict[str, str], triples: list[Triple]) -> Mappings:
        """The mappings an element declares (``xmlns:``, ``prefix``, ``vocab``) over ``m``."""
        prefixes = m.prefixes
        xmlns = m.xmlns
        vocab = m.vocab
        declared: dict[str, str] = {}
        for k, v in attrs.items():
            if k.startswith("xmlns:"):
                name = k[6:]
                if name and name != "_" and ":" not in name:
                    declared[name.lower()] = quote_iri(v)
        if declared:
            xmlns = {**xmlns, **declared}
        value = attrs.get("prefix")
        if value is not None:
            words = value.split()
            # pairs "name: iri", read from the last (so the first declaration of a name wins)
            i = len(words) - 2
            while i >= 0:
                name = words[i]
                if name.endswith(":") and name != ":":
                    name = name[:-1]
                    if name != "_" and is_ncname(name):
                        declared[name.lower()] = quote_iri(words[i + 1])
                i -= 2
            if len(words) % 2 == 1:
                self._note(f"rdfa: a prefix without an IRI is ignored: {value!r}")
        if declared:
            prefixes = {**prefixes, **declared}
        if "vocab" in attrs:
            raw = attrs["vocab"]
            if raw == "":
                vocab = None
            else:
                vocab = resolve_iri(self._base, raw)
                triples.append((_BASE, RDFA_USES_VOCABULARY, vocab))
        return Mappings(prefixes, m.default_prefix, vocab, xmlns)

    def _role(self, el: Element, m: Mappings, triples: list[Triple]) -> None:
        """Role Attribute 1.0: ``role`` values (terms in the XHTML vocabulary) of the element's IRI or a blank node."""
        id_ = el.attrs.get("id")
        subject = f"{self._base}#{id_.strip()}" if id_ is not None else ""
        for v in el.attrs["role"].split():
            iri = XHV + v if is_term(v) else term_or_curie(m, v)
            if iri is not None:
                if not subject:
                    subject = self._bnode()
                triples.append((subject, XHV + "role", iri))

    def _resource(self, m: Mappings, base: str, resource: str | None, href: str | None, src: str | None) -> str | None:
        """The first of ``resource`` (a CURIE or IRI), ``href``, ``src`` (IRIs) that gives a resource."""
        if resource is not None:
            found = curie_or_iri(m, base, resource.strip())
            if found is not None:
                return found
        if href is not None:
            return resolve_iri(base, href)
        if src is not None:
            return resolve_iri(base, src)
        return None

    def _literal(
        self,
        el: Element,
        m: Mappings,
        lang: str | None,
        default_ns: str | None,
        content: str | None,
        datatype_attr: str | None,
        time_text: bool,
    ) -> RdfaLiteral | Slot:
        """The literal of ``property`` (RDFa 1.1 step 11): from ``content``, or a slot for the element's content."""
        datatype: str | None = None
        if datatype_attr is not None and datatype_attr != "":
            datatype = term_or_curie(m, datatype_attr.strip())
        if content is not None:
            if datatype is None:
                return RdfaLiteral(content, None, lang)
            return RdfaLiteral(content, datatype)
        if time_text:
            # (a datatype attribute, even empty, turns the lexical form test off)
            return Slot(el, TIME if datatype_attr is None else TEXT, datatype, lang, None)
        if datatype == _XML_LITERAL:
            namespaces = {f"xmlns:{k}": v for k, v in m.xmlns.items()}
            if default_ns:
                namespaces["xmlns"] = default_ns
            return Slot(el, XML, None, None, namespaces)
        if datatype == _HTML_LITERAL:
            return Slot(el, HTML, None, None, None)
        return Slot(el, TEXT, datatype, lang, None)

    def _add_to_list(self, lists: Lists, p: str, member: Object | None) -> None:
        if lists.closed:
            self._note("rdfa: a list member after its list's element closed (misnested tags) is dropped")
            return
        found = lists.lists.get(p)
        if member is None:
            if p not in lists.lists:
                lists.lists[p] = None
            return
        if self._list_items >= self.max_rdfa_list_items:
            self._note(
                f"rdfa: more than max_rdfa_list_items={self.max_rdfa_list_items} list members held; later ones dropped"
            )
            return
        self._list_items += 1
        if found is None:
            lists.lists[p] = [member]
        else:
            found.append(member)

    def _close(self, close: Close) -> None:
        triples = close.triples
        parent = close.parent
        subject = close.subject
        if parent is not None and subject is not None:
            for s, p, o in parent.incomplete:
                if s is None and o is None:
                    self._add_to_list(parent.lists, p, subject)
                else:
                    triples.append((s if s is not None else subject, p, o if o is not None else subject))
        lists = close.lists
        slots = close.slots
        if lists is not None and lists.lists and lists.origin is not None:
            origin = lists.origin.value() if isinstance(lists.origin, Deferred) else lists.origin
            for p, members in lists.lists.items():
                if members is None:
                    triples.append((origin, p, _NIL))
                    continue
                self._list_items -= len(members)
                heads = [self._bnode() for _ in members]
                for i, member in enumerate(members):
                    triples.append((heads[i], _FIRST, member))
                    triples.append((heads[i], _REST, heads[i + 1] if i + 1 < len(heads) else _NIL))
                    if type(member) is Slot:
                        slots.append(member)
                triples.append((origin, p, heads[0]))
        if lists is not None:
            lists.lists = {}
            lists.closed = True
        if not triples:
            return
        if self._queue or any(s.value is None for s in slots):
            self._queue.append((triples, slots))
            self._flush()
        else:
            self._send(triples)

    def _flush(self) -> None:
        queue = self._queue
        while queue:
            triples, slots = queue[0]
            if any(s.value is None for s in slots):
                return
            queue.popleft()
            self._send(triples)

    def _send(self, triples: list[Triple]) -> None:
        base = self._base
        emit = self.emit
        for s, p, o in triples:
            if s == _BASE:
                s = base
            if type(o) is Slot:
                value = o.value
                if value is None:
                    continue
                emit(RdfaTriple(s, p, value))
            elif type(o) is str and o == _BASE:
                emit(RdfaTriple(s, p, base))
            else:
                assert not isinstance(o, Slot)
                emit(RdfaTriple(s, p, o))


def _without_terms(value: str | None) -> str | None:
    """``rel``/``rev`` beside ``property``: only the CURIEs and IRIs; ``None`` if none is left."""
    if value is None:
        return None
    words = value.split()
    if not words:
        return value
    kept = [w for w in words if not is_term(w)]
    return " ".join(kept) if kept else None


def _predicates(m: Mappings, value: str) -> list[str]:
    """The predicate IRIs of a ``property``/``rel``/``rev`` value (blank nodes are not predicates)."""
    out: list[str] = []
    for v in value.split():
        iri = term_or_curie(m, v)
        if iri is not None and not iri.startswith("_:"):
            out.append(iri)
    return out
