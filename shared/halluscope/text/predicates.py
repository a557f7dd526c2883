"""The arguments of every predicate of a parsed text, as the clause reader
(:mod:`.clauses`) reads them: for text grounding's roles (docs/architecture.md#layers)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .clause_words import GENERIC_SUBJECTS, GROUNDING_LABELS, REPORTING_VERBS
from .clauses import ClauseReader
from .syntax import _is_predicate

if TYPE_CHECKING:
    from spacy.tokens import Doc


def predicate_arguments(doc: Doc, *, compound: bool = True) -> dict[int, tuple[list[str], list[str]]]:
    """For each predicate token (by index) of a parsed ``doc``, its (agent keys,
    patient keys) as the extractor reads them: subjects with clausal and conjunct
    inheritance, passive agents, relative-clause antecedents and subject grounding;
    an agentless passive's subjects, every verb's objects and the noun a past participle
    modifies (:func:`~halluscope.text.syntax._participle_of`) are patients. Text
    grounding uses it to check that a summary's subject-verb pair has its subject in
    the same role in the source (:func:`halluscope.rhi.grounding.relation_in_sentence`)."""
    arguments = PredicateArguments(doc, compound=compound)
    # of(i) is None only for a token that is no predicate
    return {
        token.i: keys for token in doc if _is_predicate(token, True) and (keys := arguments.of(token.i)) is not None
    }


class PredicateArguments:
    """:func:`predicate_arguments` read one predicate at a time, on demand: text grounding
    asks about a few predicates of a source, not all of them. ``of(i)``: the (agent keys,
    patient keys) of the token at index ``i``, or None when it is no predicate; each
    computed once."""

    def __init__(self, doc: Doc, *, compound: bool = True) -> None:
        self.doc = doc
        self._extractor = ClauseReader(
            doc,
            compound,
            True,
            True,
            False,
            frozenset(REPORTING_VERBS),
            frozenset(GENERIC_SUBJECTS),
            frozenset(GROUNDING_LABELS),
        )
        self._keys: dict[int, tuple[list[str], list[str]] | None] = {}

    def of(self, i: int) -> tuple[list[str], list[str]] | None:
        if i not in self._keys:
            token = self.doc[i]
            if not _is_predicate(token, True):
                self._keys[i] = None
            else:
                self._keys[i] = self._extractor.argument_keys(token, self._extractor.sentence_entities(token.sent))
        return self._keys[i]
