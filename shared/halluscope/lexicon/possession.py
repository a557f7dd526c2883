"""Possession transfers: whether a verb moves possession (buy, sell, lend, win) and which
party of the transfer its subject is (:meth:`PossessionQueries.transfer_direction`); queries of
:class:`halluscope.lexicon.lexical.Lexicon` (docs/lexical.md#transfers)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .links import normalise_lemma


class PossessionQueries:
    """The transfer queries of :class:`halluscope.lexicon.lexical.Lexicon`, which provides
    the reader, the answer cache (``_answer``) and the considered senses (``_considered``)."""

    if TYPE_CHECKING:
        reader: Any

        def _answer(self, question: str, word: str, ask: Callable[[str], Any]) -> Any: ...

        def _considered(self, lemma: str, tag: str) -> tuple[Any, ...]: ...

    def transfers_possession(self, verb_lemma: str) -> bool:
        """Whether one of the verb's considered senses is in WordNet's ``verb.possession``
        lexicographer file (buy, sell, lend, borrow, win, lose, import, export): the
        verbs whose antonyms are converses, one transfer seen from either party
        ("Lakeside sold the warehouse to DHX" = "DHX bought the warehouse"). False
        without WordNet."""
        lemma = normalise_lemma(verb_lemma)
        if self.reader is None or not lemma:
            return False
        return any(synset.lexname() == "verb.possession" for synset in self._considered(lemma, "v"))

    def transfer_direction(self, verb_lemma: str) -> str | None:
        """Which party of a transfer the verb's subject is: "gives" when the first of its
        considered senses that lies under a transfer root is under one of
        :data:`_GIVING_ROOTS` (give, donate, award, sell, lend, pay, hand, offer, send,
        ship, export: the receiver is its "to" argument), "receives" when that sense is under get.v.01
        (receive, get, acquire, buy, borrow, accept, win, earn: the giver is its "from"
        argument); None for any other verb and without WordNet (docs/lexical.md#transfers)."""
        return self._answer("direction", normalise_lemma(verb_lemma), self._direction)

    def _direction(self, lemma: str) -> str | None:
        for synset in self._considered(lemma, "v"):
            above = {synset.name()} | {s.name() for s in synset.closure(lambda s: s.hypernyms())}
            if above & _RECEIVING_ROOTS:
                return "receives"
            if above & _GIVING_ROOTS:
                return "gives"
        return None


#: WordNet synsets under which a verb's subject receives (get.v.01: "come into the
#: possession of something") or gives or sends (give.v.01, give.v.03, give.v.08,
#: transfer.v.05: "cause to change ownership"; send.v.01, transport.v.04 "ship",
#: transfer.v.02 "move from one place to another"): :meth:`PossessionQueries.transfer_direction`
_RECEIVING_ROOTS = frozenset({"get.v.01"})


_GIVING_ROOTS = frozenset(
    {"give.v.01", "give.v.03", "give.v.08", "transfer.v.05", "send.v.01", "transport.v.04", "transfer.v.02"}
)
