"""What a quantity's own sentence says about it, read off the parse once at extraction
(docs/papers.md#qhi-what-the-words-around-a-number-say):

* **direction**: ``"up"`` or ``"down"`` when the quantity is the size or the result of
  a change its governing word names ("rose 5%", "a 5% rise", "up 5%", "fell to $3m",
  "cut 200 jobs"), else ``""``. Two mentions of one amount in opposite directions
  contradict each other (:mod:`halluscope.qhi.match`).
* **derivations**: which arithmetic the summary's own words state around the number
  ("a combined $2.5bn" states a sum, "doubled" or "twice" a multiple, "rose by" a
  difference, "20% of" a share, "a 5% rise" a percent change). Derived matching may
  only use the operations its query states: a bare "$800 million" is never the double
  of a source "$400 million".

The words are looked for in a window of :data:`WINDOW` tokens on each side of the
mention inside its sentence, and along the mention's head chain (up to
:data:`HEAD_HOPS` heads); direction only along the head chain, so a rise mentioned
elsewhere in the sentence does not lend its direction to an unrelated number.
"""

from __future__ import annotations

#: tokens on each side of a mention searched for derivation words
WINDOW = 4


#: heads climbed from a mention's root looking for its governing verb or noun
HEAD_HOPS = 3


#: lemmas of verbs and nouns that name a change upwards / downwards
UP_WORDS = frozenset(
    {
        "rise",
        "increase",
        "grow",
        "climb",
        "gain",
        "jump",
        "soar",
        "surge",
        "rocket",
        "boost",
        "raise",
        "expand",
        "swell",
        "spike",
        "leap",
        "hike",
        "growth",
        "increment",
        "upturn",
        "rebound",
        "double",
        "triple",
        "treble",
        "quadruple",
        "add",
        "mount",
        "escalate",
        "balloon",
        "skyrocket",
        "inflate",
    }
)


DOWN_WORDS = frozenset(
    {
        "fall",
        "drop",
        "decline",
        "decrease",
        "cut",
        "reduce",
        "shrink",
        "slump",
        "plunge",
        "tumble",
        "slide",
        "sink",
        "dip",
        "lower",
        "slash",
        "halve",
        "lose",
        "loss",
        "reduction",
        "downturn",
        "contract",
        "plummet",
        "shed",
        "dwindle",
        "diminish",
        "ease",
        "retreat",
        "slip",
        "crash",
        "collapse",
        "decay",
    }
)


#: adverbs and particles that give a change its direction ("went up 5%", "down 3%")
UP_PARTICLES = frozenset({"up", "higher"})


DOWN_PARTICLES = frozenset({"down", "lower"})


#: derivation families (:mod:`halluscope.qhi.match`) and the words that state them
SUM_WORDS = frozenset(
    {
        "total",
        "combined",
        "combine",
        "altogether",
        "together",
        "overall",
        "sum",
        "aggregate",
        "cumulative",
        "cumulatively",
        "collectively",
        "jointly",
        "tally",
        "totalling",
        "totaling",
    }
)


DIFFERENCE_WORDS = frozenset(
    {"difference", "gap", "margin", "lead", "net", "shortfall", "deficit", "surplus", "remainder", "remaining", "rest"}
)


MULTIPLE_WORDS = frozenset(
    {
        "twice",
        "double",
        "triple",
        "treble",
        "quadruple",
        "half",
        "halve",
        "times",
        "thrice",
        "fold",
        "twofold",
        "threefold",
        "fourfold",
    }
)


RATIO_WORDS = frozenset({"times", "ratio", "per", "every", "each", "average"})


SHARE_WORDS = frozenset({"share", "proportion", "fraction", "portion", "percentage"})


POINT_WORDS = frozenset({"point", "points"})


#: every derivation family a query may state
FAMILIES = ("sum", "difference", "multiple", "ratio", "change", "share", "points")


def _governors(span):
    """The mention's root and up to :data:`HEAD_HOPS` of its heads, nearest first."""
    token = span.root
    yield token
    for _ in range(HEAD_HOPS):
        if token.head is token:
            return
        token = token.head
        yield token


def _particle_direction(verb, memo: dict[int, str] | None) -> str:
    """The direction a verb's particle or adverb gives it ("went up", "came down"), ""
    when none. ``memo`` (token index -> direction, one dict per Doc) keeps a verb that
    governs many quantities from having its children read once per quantity."""
    if memo is not None and verb.i in memo:
        return memo[verb.i]
    found = ""
    for child in verb.children:
        if child.dep_ in ("prt", "advmod") and child.lower_ in UP_PARTICLES:
            found = "up"
            break
        if child.dep_ in ("prt", "advmod") and child.lower_ in DOWN_PARTICLES:
            found = "down"
            break
    if memo is not None:
        memo[verb.i] = found
    return found


def direction_of(span, memo: dict[int, str] | None = None) -> str:
    """``"up"`` / ``"down"`` / ``""`` for one quantity mention (module docstring);
    ``memo``: see :func:`_particle_direction`."""
    doc = span.doc
    before = doc[span.start - 1].lower_ if span.start > 0 else ""
    if before in UP_PARTICLES:
        return "up"
    if before in DOWN_PARTICLES:
        return "down"
    for token in _governors(span):
        if span.start <= token.i < span.end:
            continue
        lemma = token.lemma_.lower()
        if token.pos_ in ("VERB", "NOUN"):
            if lemma in UP_WORDS:
                return "up"
            if lemma in DOWN_WORDS:
                return "down"
            if token.pos_ == "VERB":
                return _particle_direction(token, memo)  # a clause's verb: the chain stops here
    return ""


def _window(span) -> tuple[int, int]:
    """Token bounds of up to :data:`WINDOW` tokens on each side of the mention, inside
    its sentence: found by stepping at most WINDOW tokens (``Span.sent`` would walk the
    whole sentence, and ``Doc.has_annotation`` the whole text, once per mention)."""
    doc = span.doc
    first = span.start
    while first > max(0, span.start - WINDOW) and not doc[first].is_sent_start:
        first -= 1  # is_sent_start is None where no sentence is marked: the window runs on
    last = span.end
    while last < min(len(doc), span.end + WINDOW) and not doc[last].is_sent_start:
        last += 1
    return first, last


def derivations_of(span, direction: str = "") -> frozenset[str]:
    """The derivation families the words around a mention state (module docstring)."""
    doc = span.doc
    first, last = _window(span)
    lemmas = {t.lemma_.lower() for t in doc[first:last]} | {t.lower_ for t in doc[first:last]}
    lemmas |= {t.lemma_.lower() for t in _governors(span)}
    found = set()
    in_all = any(t.lower_ == "all" and t.i > 0 and doc[t.i - 1].lower_ == "in" for t in doc[first:last])
    if lemmas & SUM_WORDS or in_all:
        found.add("sum")
    if lemmas & DIFFERENCE_WORDS or (direction and _follows(doc, span, ("by",))):
        found.add("difference")
    if lemmas & MULTIPLE_WORDS or any(t.lower_.endswith("-fold") for t in doc[first:last]):
        found.add("multiple")
    if lemmas & RATIO_WORDS:
        found.add("ratio")
    if direction:
        found.add("change")
    after = doc[span.end].lower_ if span.end < len(doc) else ""
    if after == "of" or lemmas & SHARE_WORDS:
        found.add("share")
    if lemmas & POINT_WORDS:
        found.add("points")
    return frozenset(found)


def _follows(doc, span, words: tuple[str, ...]) -> bool:
    """Whether ``words`` stand right before the mention or right after it."""
    n = len(words)
    before = tuple(t.lower_ for t in doc[max(0, span.start - n) : span.start])
    after = tuple(t.lower_ for t in doc[span.end : span.end + n])
    return before == words or after == words
