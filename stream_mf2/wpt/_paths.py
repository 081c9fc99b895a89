"""Where an element is: the chain of (name, position) steps from the root, and XPath tests on it.

A :class:`Place` is made for each element as it is placed (streaming) or
walked (inside a kept subtree). It links to its parent's place, so a path costs
nothing until it is needed, and a move (the adoption agency algorithm) updated
on one place is seen by every place below it.
"""

from __future__ import annotations

from collections.abc import Iterator

from stream_mf2.html.dom import Element, Node, ParentNode
from stream_mf2.wpt.model import Step, XPath

__all__ = [
    "Cond",
    "Place",
    "State",
    "Summary",
    "advance",
    "advance_with",
    "any_may_match",
    "descendants",
    "forget_paths",
    "is_last_now",
    "kept_path",
    "path_matches",
    "select",
    "select_many",
    "step_matches",
    "walkable",
]


class Place:
    """An element's place: parent place, name, 1-based position among same-name
    element siblings (``pos``) and among all element siblings (``any_pos``)."""

    __slots__ = ("any_pos", "cache", "counts", "element", "n", "name", "parent", "path", "pos", "states")

    def __init__(self, parent: Place | None, element: Element | None, name: str, pos: int, any_pos: int) -> None:
        self.parent = parent
        self.element = element
        self.name = name
        self.pos = pos
        self.any_pos = any_pos
        #: element children placed so far, by name, and in all
        self.counts: dict[str, int] | None = None
        self.n = 0
        #: streaming matcher states (see :data:`State`)
        self.states: tuple[State, ...] = ()
        #: may :meth:`xpath` keep its answer? (a place in a final subtree, see :func:`frozen`)
        self.cache = False
        self.path: str | None = None

    def child(self, element: Element) -> Place:
        """A place for a new last element child ``element`` (counts it)."""
        counts = self.counts
        if counts is None:
            counts = self.counts = {}
        name = element.name
        pos = counts.get(name, 0) + 1
        counts[name] = pos
        self.n += 1
        place = Place(self, element, name, pos, self.n)
        if self.cache:
            place.cache = True
        return place

    def uncount(self, name: str) -> None:
        """A child called ``name`` moved away (it was the last one: it was open)."""
        counts = self.counts
        if counts and counts.get(name, 0) > 0:
            counts[name] -= 1
        if self.n > 0:
            self.n -= 1

    def chain(self) -> list[Place]:
        """The places from the root's first element down to this one."""
        out: list[Place] = []
        p: Place | None = self
        while p is not None and p.element is not None:
            out.append(p)
            p = p.parent
        out.reverse()
        return out

    def xpath(self) -> str:
        """The full canonical XPath, every step with its position: ``/html[1]/body[1]/div[2]``."""
        path = self.path
        if path is not None:
            return path
        if not self.cache:
            # up to the nearest place whose path is kept (see kept_path), nothing kept here
            todo: list[Place] = []
            p: Place | None = self
            while p is not None and p.element is not None and p.path is None:
                todo.append(p)
                p = p.parent
            top = p.path if p is not None and p.element is not None and p.path is not None else ""
            return top + "".join([f"/{q.name}[{q.pos}]" for q in reversed(todo)])
        # up to the nearest place whose path is known (or cannot be kept), then down again
        todo = []
        p = self
        while p is not None and p.element is not None and p.path is None and p.cache:
            todo.append(p)
            p = p.parent
        if p is None or p.element is None:
            path = ""
        else:
            path = p.path if p.path is not None else p.xpath()
        for q in reversed(todo):
            path = q.path = f"{path}/{q.name}[{q.pos}]"
        return path


def frozen(place: Place) -> Place:
    """A copy of ``place`` (same parent, fresh counts) whose path, and the paths of the places
    made below it with :meth:`Place.child`, are worked out once: for walks of a final
    subtree, where nothing moves while they last (streaming places may still move)."""
    copy = Place(place.parent, place.element, place.name, place.pos, place.any_pos)
    copy.cache = True
    copy.path = place.path  # (a streamed place has one only while it holds: see kept_path)
    return copy


def kept_path(place: Place) -> None:
    """Work out the path of the streamed ``place`` and keep it there and on the places above
    it that have none, so that the paths of its matches, its nested walks and the next
    matches below the same ancestors start from them. The streaming consumer calls it only
    while no element has moved, and forgets the kept paths at the first move
    (:func:`forget_paths`): until then a place's parent and position never change."""
    todo: list[Place] = []
    p: Place | None = place
    while p is not None and p.element is not None and p.path is None:
        todo.append(p)
        p = p.parent
    path = p.path if p is not None and p.element is not None and p.path is not None else ""
    for q in reversed(todo):
        path = q.path = f"{path}/{q.name}[{q.pos}]"


def forget_paths(places: list[Place]) -> None:
    """Forget the paths :func:`kept_path` kept on ``places`` and above them (an element moved:
    they may no longer hold). The places of a final subtree (:func:`frozen`) keep theirs."""
    seen: set[Place] = set()
    for place in places:
        p: Place | None = place
        while p is not None and p not in seen:
            seen.add(p)
            if not p.cache:
                p.path = None
            p = p.parent


#: A ``[last()]`` condition: a place that must end as the last of its kind among its
#: siblings (``True``: among all element siblings, for ``*``).
Cond = tuple[Place, bool]
#: A streaming matcher state: (path index, next step index, ``[last()]`` conditions met on the way).
State = tuple[int, int, tuple[Cond, ...]]
#: An entry of :attr:`Summary.quick`: the steps whose attribute tests an element must all
#: fail for no step to take it (``None``: none takes it whatever its attributes), what else
#: the element needs (``-1``: the full placement; ``0``: nothing; ``1``/``2``: the misnesting
#: bookkeeping of a formatting / special element), and its states then (the tuple's own, or
#: its ``//`` states alone when another step ends one level down or its path is done).
Quick = tuple[tuple[Step, ...] | None, int, tuple[State, ...]]


def _attr_tests(tests: tuple[tuple[str, str, str], ...], attrs: dict[str, str]) -> bool:
    for op, key, value in tests:
        have = attrs.get(key)
        if have is None:
            return False
        if op == "=":
            if have != value:
                return False
        elif op == "contains":
            if value not in have:
                return False
        elif op == "starts-with":
            if not have.startswith(value):
                return False
    return True


def step_matches(step: Step, place: Place) -> bool:
    """Does ``place`` satisfy ``step``'s name, position and attribute tests? (``[last()]`` is
    the caller's: it depends on siblings that may come later.)"""
    el = place.element
    assert el is not None
    if step.name is not None:
        name = place.name
        if name != step.name and name.lower() != step.name:
            return False
        if step.position is not None and place.pos != step.position:
            return False
    elif step.position is not None and place.any_pos != step.position:
        return False
    if step.attr is not None:
        key, value = step.attr
        if el.attrs.get(key) != value:
            return False
    return not step.tests or _attr_tests(step.tests, el.attrs)


def is_last_now(cond: Cond) -> bool:
    """Is the place of ``cond`` the last of its kind among the siblings placed so far?"""
    place, any_ = cond
    parent = place.parent
    if parent is None:
        return True
    if any_:
        return parent.n == place.any_pos
    counts = parent.counts
    return counts is None or counts.get(place.name, 0) == place.pos


def advance(
    xpaths: list[XPath],
    states: tuple[State, ...],
    place: Place,
    lasts: tuple[bool, bool] | None,
    alive: list[bool] | None = None,
) -> tuple[tuple[State, ...], list[tuple[int, tuple[Cond, ...]]] | None]:
    """The states of ``place`` given its parent's ``states``, and the paths it completes
    (with the ``[last()]`` conditions still to hold).

    ``lasts``: whether ``place`` is the last of its name and the last element among its
    siblings, when that is known (a finished subtree); ``None`` while streaming: a
    ``[last()]`` step is then passed on a condition, decided when the parent closes.
    A ``//`` step stays active below the place whether or not the place matched it.
    ``alive``: per path, whether anything still wants it (a path whose blocks are done is
    dropped from the states).

    Most elements match no step of the active states (a ``//`` state is just carried on):
    then the parent's tuple itself is returned, built once for a whole subtree.
    """
    name = place.name
    lname = name.lower()
    new: list[State] | None = None
    hits: list[tuple[int, tuple[Cond, ...]]] | None = None
    for i, state in enumerate(states):
        xi, si, conds = state
        steps = xpaths[xi].steps
        step = steps[si]
        sname = step.name
        if (alive is not None and not alive[xi]) or (sname is not None and sname != lname and not step.descendant):
            if new is None:
                new = list(states[:i])
            continue
        if sname is not None and sname != lname:
            if new is not None and state not in new:
                new.append(state)
            continue
        # the name matches (or is "*"): from here on the states are rebuilt
        if new is None:
            new = list(states[:i])
        if step.descendant and state not in new:
            new.append(state)
        if not step_matches(step, place):
            continue
        if step.last:
            any_ = sname is None
            if lasts is None:
                conds = (*conds, (place, any_))
            elif not lasts[1 if any_ else 0]:
                continue
        if si + 1 == len(steps):
            if hits is None:
                hits = []
            hit = (xi, conds)
            if hit not in hits:
                hits.append(hit)
        else:
            nxt = (xi, si + 1, conds)
            if nxt not in new:
                new.append(nxt)
    if new is None:
        return states, hits
    out = tuple(new)
    # (the parent's own tuple when nothing changed: tuples are shared, and summarised once, by identity)
    return (states if out == states else out), hits


def attrs_may_match(step: Step, attrs: dict[str, str]) -> bool:
    """Do ``attrs`` pass ``step``'s attribute tests? (Its name and position are the caller's.)"""
    attr = step.attr
    if attr is not None and attrs.get(attr[0]) != attr[1]:
        return False
    return not step.tests or _attr_tests(step.tests, attrs)


def _filter(steps: list[Step]) -> tuple[Step, ...] | None:
    """The steps an element must pass one of, or ``None`` if any element may (a step
    without attribute tests)."""
    if any(st.attr is None and not st.tests for st in steps):
        return None
    return tuple(steps)


def any_may_match(steps: tuple[Step, ...], attrs: dict[str, str]) -> bool:
    """Do ``attrs`` pass the attribute tests of one of ``steps`` (:func:`attrs_may_match`,
    written out: it runs for every element a step names)?"""
    if not attrs:
        return False  # (every step here tests an attribute: see _filter)
    for st in steps:
        attr = st.attr
        if attr is not None and attrs.get(attr[0]) != attr[1]:
            continue
        tests = st.tests
        if not tests:
            return True
        # (_attr_tests, written out)
        for op, key, value in tests:
            have = attrs.get(key)
            if have is None:
                break
            if op == "contains":
                if value not in have:
                    break
            elif op == "=":
                if have != value:
                    break
            elif op == "starts-with" and not have.startswith(value):
                break
        else:
            return True
    return False


class Summary:
    """What :func:`advance_with` needs to know about a states tuple, worked out once per tuple
    (tuples are shared down whole subtrees).

    ``names``: the names a step can match (``None``: any, a ``*`` step or one that is not
    ``//``); :meth:`passes` says whether an element leaves the tuple as it is, and
    :meth:`final_hit` whether a leaf (an element without children) may end a path, both
    from its name and attributes. ``finals``: the names of last steps (``None``: a ``*``
    one). ``by_name``/``wild``: indices of the states whose step names an element / is
    ``*``. ``carried``: the ``//`` states, which every child inherits.
    """

    __slots__ = (
        "by_name",
        "carried",
        "final_named",
        "final_wild",
        "finals",
        "leaf_memos",
        "leaf_tags",
        "may_memos",
        "named",
        "names",
        "quick",
        "tags",
        "wild",
        "wild_steps",
    )

    def __init__(
        self, xpaths: list[XPath], states: tuple[State, ...], alive: list[bool] | None, at_start: set[int] | None = None
    ) -> None:
        names: set[str] | None = set()
        finals: set[str] | None = set()
        # For :meth:`passes`: the named "//" steps by name (None once a state is not "//"),
        # and the "*" steps.
        named: dict[str, list[Step]] | None = {}
        wild_steps: list[Step] = []
        # For :meth:`final_hit`: the last steps, by name, each with "its path ends with @name"
        final_named: dict[str, list[tuple[Step, bool]]] = {}
        final_wild: list[tuple[Step, bool]] = []
        self.by_name: dict[str, list[int]] = {}
        self.wild: list[int] = []
        carried: list[State] = []
        for i, state in enumerate(states):
            xi, si, _ = state
            if alive is not None and not alive[xi]:
                names = named = None  # (a dead state: the tuple changes at the next element)
                continue
            steps = xpaths[xi].steps
            step = steps[si]
            last = si + 1 == len(steps)
            if step.descendant:
                carried.append(state)
            else:
                names = named = None
            at = at_start is not None and xi in at_start
            if step.name is None:
                self.wild.append(i)
                names = finals = None
                wild_steps.append(step)
                if last:
                    final_wild.append((step, at))
            else:
                self.by_name.setdefault(step.name, []).append(i)
                if names is not None:
                    names.add(step.name)
                if named is not None:
                    named.setdefault(step.name, []).append(step)
                if last:
                    final_named.setdefault(step.name, []).append((step, at))
                    if finals is not None:
                        finals.add(step.name)
        #: name -> the "//" steps of that name (None: any element of that name may match one)
        self.named = None if named is None else {k: _filter(v) for k, v in named.items()}
        #: the "*" steps (None: one takes any element)
        self.wild_steps = _filter(wild_steps) if wild_steps else ()
        self.names = None if names is None else frozenset(names)
        self.finals = None if finals is None else frozenset(finals)
        self.final_named = final_named
        self.final_wild = tuple(final_wild)
        self.carried = tuple(carried)
        #: :meth:`verdict` per element name, worked out when first asked
        self.tags: dict[str, bool | tuple[Step, ...]] = {}
        #: per element name, the last steps a leaf of that name may pass (for :meth:`final_hit`)
        self.leaf_tags: dict[str, tuple[tuple[Step, bool], ...]] = {}
        #: per element name, :meth:`final_hit` by the value of the one attribute its last steps
        #: test (see :meth:`leaf_memo`)
        self.leaf_memos: dict[str, tuple[str, dict[str | None, int] | None]] = {}
        #: per element name, :func:`any_may_match` of its start-tag table's steps by the value of
        #: the one attribute they test (see :meth:`may_memo`)
        self.may_memos: dict[str, tuple[str, dict[str | None, bool] | None]] = {}
        #: per element name, the streaming consumer's start-tag table (what it may skip for an
        #: element of that name: see ``WptConsumer.opened``), filled by the consumer as names come
        self.quick: dict[str, Quick] = {}

    def passes(self, name: str, attrs: dict[str, str]) -> bool:
        """Does an element ``name`` with ``attrs`` certainly leave the states as they are (every
        state is a ``//`` one, and no step can take the element: its name is no named step's,
        or it fails the attribute tests of every step of its name and of every ``*`` step)?"""
        v = self.tags.get(name)
        if v is None:
            v = self.verdict(name)
        if v is True:
            return True
        return v is not False and not any_may_match(v, attrs)

    def verdict(self, name: str) -> bool | tuple[Step, ...]:
        """What :meth:`passes` says of an element ``name``, kept in ``tags``: ``True``: it passes
        whatever its attributes; ``False``: a step may take it; else the steps whose attribute
        tests it must all fail to pass."""
        named = self.named
        wild = self.wild_steps
        v: bool | tuple[Step, ...]
        if named is None or wild is None:
            v = False
        else:
            if name in named:
                steps = named[name]
            elif name.lower() in named:
                steps = named[name.lower()]
            else:
                steps = ()
            if steps is None:
                v = False
            else:
                v = (steps + wild) or True
        self.tags[name] = v
        return v

    def final_hit(self, name: str, attrs: dict[str, str]) -> int:
        """May a leaf ``name`` with ``attrs`` end a path (its position is not tested)?
        ``0``: no; ``1``: only paths that end with ``@name`` (its attributes are all the
        match needs); ``2``: another path."""
        cands = self.leaf_tags.get(name)
        if cands is None:
            got = self.final_named.get(name)
            if got is None and name != name.lower():
                got = self.final_named.get(name.lower())
            cands = self.leaf_tags[name] = (*got, *self.final_wild) if got else self.final_wild
        if not cands:
            return 0
        hit = 0
        for step, at in cands:
            if attrs_may_match(step, attrs):
                if not at:
                    return 2
                hit = 1
        return hit

    def may_memo(self, name: str, steps: tuple[Step, ...]) -> tuple[str, dict[str | None, bool] | None]:
        """``(key, memo)`` for the elements ``name`` whose ``steps`` (from :meth:`verdict`, the
        same for every element of that name) must be asked :func:`any_may_match`: as
        :meth:`leaf_memo`, when they test one attribute (``key``), the answers by its value."""
        got = self.may_memos.get(name)
        if got is None:
            keys: set[str] = set()
            for step in steps:
                if step.attr is not None:
                    keys.add(step.attr[0])
                for _, key, _ in step.tests:
                    keys.add(key)
            got = ("", None) if len(keys) != 1 else (keys.pop(), {})
            self.may_memos[name] = got
        return got

    def leaf_memo(self, name: str) -> tuple[str, dict[str | None, int] | None]:
        """``(key, memo)`` for the leaves ``name``: when the last steps a leaf of that name may
        pass test one attribute at most (``key``; ``""``: none), :meth:`final_hit` depends on
        its value alone, and ``memo`` (filled by the caller, by value) holds the answers;
        ``None`` when they test several."""
        got = self.leaf_memos.get(name)
        if got is None:
            cands = self.leaf_tags.get(name)
            if cands is None:
                self.final_hit(name, {})  # (works out the leaf's last steps)
                cands = self.leaf_tags[name]
            keys: set[str] = set()
            for step, _ in cands:
                if step.attr is not None:
                    keys.add(step.attr[0])
                for _, key, _ in step.tests:
                    keys.add(key)
            if len(keys) > 1:
                got = ("", None)
            else:
                got = (keys.pop() if keys else "", {})
            self.leaf_memos[name] = got
        return got


def summarize(xpaths: list[XPath], states: tuple[State, ...]) -> tuple[frozenset[str] | None, frozenset[str] | None]:
    """``(names, finals)`` of :class:`Summary`."""
    summary = Summary(xpaths, states, None)
    return summary.names, summary.finals


def advance_with(
    xpaths: list[XPath],
    states: tuple[State, ...],
    summary: Summary,
    place: Place,
    lasts: tuple[bool, bool] | None,
) -> tuple[tuple[State, ...], list[tuple[int, tuple[Cond, ...]]] | None]:
    """:func:`advance`, testing only the states whose step can take the element's name
    (``summary`` is ``states``'s, and has left out the paths no longer alive)."""
    name = place.name
    idx = summary.by_name.get(name)
    if idx is None and name != name.lower():
        idx = summary.by_name.get(name.lower())
    wild = summary.wild
    relevant = (sorted(idx + wild) if wild else idx) if idx else wild
    new: list[State] | None = None  # (made when a state advances)
    hits: list[tuple[int, tuple[Cond, ...]]] | None = None
    for i in relevant:
        xi, si, conds = states[i]
        steps = xpaths[xi].steps
        step = steps[si]
        if not step_matches(step, place):
            continue
        if step.last:
            any_ = step.name is None
            if lasts is None:
                conds = (*conds, (place, any_))
            elif not lasts[1 if any_ else 0]:
                continue
        if si + 1 == len(steps):
            if hits is None:
                hits = []
            hit = (xi, conds)
            if hit not in hits:
                hits.append(hit)
        else:
            nxt = (xi, si + 1, conds)
            if new is None:
                new = list(summary.carried)
            if nxt not in new:
                new.append(nxt)
    if new is None:
        # nothing advanced: the "//" states go on (the same tuple when they are all of it)
        carried = summary.carried
        return (states if len(carried) == len(states) else carried), hits
    out = tuple(new)
    return (states if out == states else out), hits


def _start(xpath: XPath, chain: list[Place], lasts_now: bool) -> tuple[tuple[State, ...], list[tuple[State, ...]]]:
    """Run ``xpath`` (as path 0) down ``chain`` (places from the document's first element):
    the states at the document, and after each place of the chain."""
    root: tuple[State, ...] = ((0, 0, ()),) if xpath.absolute else ()
    out: list[tuple[State, ...]] = []
    states = root
    for p in chain:
        lasts = _lasts_now(p) if lasts_now else None
        states, _ = advance([xpath], states, p, lasts)
        states = _anchored(xpath, p, states)
        out.append(states)
    return root, out


def _anchored(xpath: XPath, place: Place, states: tuple[State, ...]) -> tuple[State, ...]:
    """``states`` plus the start of an id-anchored path at an element with its id."""
    if xpath.anchor is not None and xpath.steps and place.element is not None:
        if place.element.attrs.get("id") == xpath.anchor:
            start: State = (0, 0, ())
            if start not in states:
                return (*states, start)
    return states


def _lasts_now(place: Place) -> tuple[bool, bool]:
    return is_last_now((place, False)), is_last_now((place, True))


def path_matches(xpath: XPath, place: Place, context: Place | None = None) -> bool:
    """Does ``xpath`` select the element at ``place``? (``context``: for relative paths.)

    Runs the path down the chain of places from the document (or from ``context``);
    a ``[last()]`` step is judged on the siblings placed so far.
    """
    chain = place.chain()
    if xpath.anchor is not None and not xpath.steps:
        el = place.element
        return el is not None and el.attrs.get("id") == xpath.anchor
    if not xpath.absolute and xpath.anchor is None:
        if context is None:
            return False
        below = context.chain()
        n = len(below)
        if len(chain) <= n or chain[n - 1].element is not context.element:
            return False
        states: tuple[State, ...] = ((0, 0, ()),)
        rest = chain[n:]
    else:
        states = ((0, 0, ()),) if xpath.absolute else ()
        rest = chain
    for i, p in enumerate(rest):
        states, hits = advance([xpath], states, p, _lasts_now(p))
        if i == len(rest) - 1:
            return hits is not None
        states = _anchored(xpath, p, states)
    return False


def select(xpath: XPath, root: Element, place: Place) -> Iterator[Place]:
    """The places of the elements below ``root`` (at ``place``) that ``xpath`` selects, in
    document order. ``root``'s subtree is final, so ``[last()]`` is decided on it; an
    absolute or id-anchored path is run down from the document to ``place`` first."""
    if xpath.anchor is not None and not xpath.steps:
        for p in descendants(root, place):
            el = p.element
            if el is not None and el.attrs.get("id") == xpath.anchor:
                yield p
        return
    if xpath.absolute or xpath.anchor is not None:
        _, after = _start(xpath, place.chain(), True)
        states = after[-1] if after else ()
    else:
        states = ((0, 0, ()),)
    xpaths = [xpath]
    # (states tuples alternate as the walk goes down and up, and come back in the walk of
    # each match of a parent block: each summarised once)
    summaries = _select_summaries(xpath)
    if not any(st.last for st in xpath.steps):
        for _, p in _select(xpaths, root, frozen(place), states, summaries):
            yield p
        return
    # A path with [last()] steps: the walk makes sibling tables to decide them.
    lasts = True
    no_last: dict[str, int] = {}
    kids = [c for c in root.children if type(c) is Element]
    top = frozen(place)
    stack: list[tuple[list[Element], dict[str, int], int, Place, tuple[State, ...]]] = []
    if kids and (states or xpath.anchor is not None):
        stack.append((kids, _last_of(kids) if lasts else no_last, 0, top, states))
    seen: tuple[State, ...] | None = None
    summary = _EMPTY
    while stack:
        kids, last_of, i, parent, states = stack.pop()
        if i >= len(kids):
            continue
        el = kids[i]
        stack.append((kids, last_of, i + 1, parent, states))
        p = parent.child(el)
        if states is not seen:
            got = summaries.get(states)
            if got is None:
                got = summaries[states] = Summary(xpaths, states, None)
            seen, summary = states, got
        if summary.passes(el.name, el.attrs):
            sub, hits = states, None  # "//" states this element cannot advance: carried on
        else:
            known = (last_of[el.name] == i, i == len(kids) - 1) if lasts else (True, True)
            sub, hits = advance_with(xpaths, states, summary, p, known)
        sub = _anchored(xpath, p, sub)
        if hits is not None:
            yield p
        if sub or xpath.anchor is not None:
            grand = [c for c in el.children if type(c) is Element]
            if grand:
                stack.append((grand, _last_of(grand) if lasts else no_last, 0, p, sub))


def walkable(xpath: XPath) -> bool:
    """Can :func:`select_many` walk ``xpath`` together with others? (A relative path without
    ``[last()]``, as nested blocks' paths are.)"""
    return not xpath.absolute and xpath.anchor is None and not any(st.last for st in xpath.steps)


def select_many(xpaths: list[XPath], root: Element, place: Place) -> Iterator[tuple[int, Place]]:
    """:func:`select` of several :func:`walkable` paths in one walk of ``root``'s subtree:
    ``(index of the path, place)`` in document order."""
    states = tuple((i, 0, ()) for i in range(len(xpaths)))
    yield from _select(xpaths, root, frozen(place), states, _select_summaries(*xpaths))


def _select(
    xpaths: list[XPath],
    root: Element,
    top: Place,
    states: tuple[State, ...],
    summaries: dict[tuple[State, ...], Summary],
) -> Iterator[tuple[int, Place]]:
    """:func:`select` for paths without ``[last()]``: the elements no path can advance (most
    of them, below a ``//`` step) are only counted among their siblings, no place made.
    (An anchored path is walked alone.)"""
    xpath = xpaths[0]
    anchor = xpath.anchor
    stack: list[tuple[list[Node], int, Place, tuple[State, ...]]] = []
    if states or anchor is not None:
        stack.append((root.children, 0, top, states))
    seen: tuple[State, ...] | None = None
    summary = _EMPTY
    known = (True, True)
    while stack:
        kids, i, parent, states = stack.pop()
        if states is not seen:
            got = summaries.get(states)
            if got is None:
                got = summaries[states] = Summary(xpaths, states, None)
            seen, summary = states, got
        n = len(kids)
        while i < n:
            el = kids[i]
            i += 1
            if type(el) is not Element:
                continue
            counts = parent.counts
            if counts is None:
                counts = parent.counts = {}
            name = el.name
            pos = counts[name] = counts.get(name, 0) + 1
            parent.n += 1
            p: Place | None = None
            hits: list[tuple[int, tuple[Cond, ...]]] | None = None
            v = summary.tags.get(name)
            if v is None:
                v = summary.verdict(name)
            if v is True or (v is not False and not any_may_match(v, el.attrs)):
                sub = states  # "//" states this element cannot advance: carried on
            else:
                p = Place(parent, el, name, pos, parent.n)
                p.cache = True
                sub, hits = advance_with(xpaths, states, summary, p, known)
            if anchor is not None:
                if p is None:
                    p = Place(parent, el, name, pos, parent.n)
                    p.cache = True
                sub = _anchored(xpath, p, sub)
            if hits is not None:
                assert p is not None
                for xi, _ in hits:
                    yield xi, p
            if (sub or anchor is not None) and el.children:
                if p is None:
                    p = Place(parent, el, name, pos, parent.n)
                    p.cache = True
                stack.append((kids, i, parent, states))
                stack.append((el.children, 0, p, sub))
                break


_EMPTY = Summary([], (), None)
#: per set of paths (by ids, with the paths, so that the ids stay theirs): their states'
#: summaries in select()
_SELECT_SUMMARIES: dict[tuple[int, ...], tuple[tuple[XPath, ...], dict[tuple[State, ...], Summary]]] = {}


def _select_summaries(*xpaths: XPath) -> dict[tuple[State, ...], Summary]:
    """The summaries of the states of ``xpaths`` walked together in :func:`select` (bounded: a
    run with many templates makes them again). Their states hold no ``[last()]`` conditions there."""
    key = tuple([id(x) for x in xpaths])
    got = _SELECT_SUMMARIES.get(key)
    if got is None or any(a is not b for a, b in zip(got[0], xpaths, strict=True)):
        if len(_SELECT_SUMMARIES) >= 1024:
            _SELECT_SUMMARIES.clear()
        got = _SELECT_SUMMARIES[key] = (xpaths, {})
    summaries = got[1]
    if len(summaries) >= 256:
        summaries.clear()
    return summaries


def _last_of(kids: list[Element]) -> dict[str, int]:
    return {k.name: i for i, k in enumerate(kids)}


def descendants(root: ParentNode, place: Place, max_depth: int | None = None) -> Iterator[Place]:
    """Places of the elements below ``root`` (whose place is ``place``), in document order,
    at most ``max_depth`` levels down.

    Template contents are not children in the DOM, so they are not walked.
    """
    limit = max_depth if max_depth is not None else -1
    stack: list[tuple[list[Element], int, Place, int]] = []
    kids = [c for c in root.children if type(c) is Element]
    # A fresh copy: the walk counts children itself (``place`` may hold streaming counts).
    stack.append((kids, 0, frozen(place), 1))
    while stack:
        kids, i, parent, depth = stack.pop()
        if i >= len(kids):
            continue
        el = kids[i]
        stack.append((kids, i + 1, parent, depth))
        p = parent.child(el)
        yield p
        if depth != limit:
            sub = [c for c in el.children if type(c) is Element]
            if sub:
                stack.append((sub, 0, p, depth + 1))
