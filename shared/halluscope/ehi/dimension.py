"""EHI, the entity dimension (CHI paper eq. 2-7; docs/papers.md): named entities of the
summary found in the source by exact form, synonym, acronym or partial name, a name in
another entity's place contradicted (docs/papers.md#ehi-entities-swapped-within-the-source);
in a lower-cased summary, also the names its parse missed
(docs/papers.md#ehi-names-in-lower-case-summaries)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..dimensions.base import Dimension, drop_units, swapped_units
from ..factors import entity_factors
from ..signature_text import Field, mapping_digest


class Entities(Dimension):
    name = "ehi"
    units = "entities"
    equations = "CHI paper eq. 2-7"
    attributed = True
    text_grounded = True

    def extractor(self, options) -> Callable[[Any], list]:
        from .extract import extract_entities

        return extract_entities

    def matcher(self, options, resources):
        from .match import EntityMatcher

        return EntityMatcher(
            synonyms=options.entity_synonyms,
            text_grounding=options.grounding == "text",
            places=self._places(options, resources),
        )

    @staticmethod
    def _places(options, resources):
        """WordNet's places of a name for the ``place`` mode, under ``formula="support"``
        with WordNet; None otherwise (the paper matches names by form, acronym and part)."""
        if options.formula != "support":
            return None
        from ..scoring_options import lexicon_of

        lexicon = lexicon_of(options, resources)
        return lexicon.places if lexicon is not None and lexicon.available else None

    def complete(self, summary_units, source_units, summary, source, options, resources):
        """A lower-cased summary's names its parse missed: the source's
        (:func:`~halluscope.ehi.recovered_names.named_in_lowercase`) and, with WordNet, those
        the source never writes (:func:`~halluscope.ehi.recovered_names.introduced_names`,
        :func:`~halluscope.ehi.recovered_names.introduced_organisations`);
        docs/papers.md#ehi-names-in-lower-case-summaries."""
        if options.formula != "support":
            return summary_units
        from ..scoring_options import lexicon_of
        from .recovered_names import introduced_names, introduced_organisations, named_in_lowercase, written_words

        units = summary_units + named_in_lowercase(summary.text, summary_units, source_units)
        lexicon = lexicon_of(options, resources)
        if lexicon is None or not lexicon.available:
            return units
        words_of = functools.partial(resources.text_table, written_words)
        units = units + introduced_names(summary.text, summary.doc, units, source.text, lexicon.name_kind, words_of)
        return units + introduced_organisations(
            summary.text, summary.doc, units, source.text, lexicon.is_organisation, words_of
        )

    def refine(self, jobs, found, plan, parsed, options, contradictions):
        if options.formula != "support":
            return jobs, found
        from ..units import RecoveredEntity
        from .swaps import swapped_entity

        found = swapped_units(
            jobs,
            found,
            plan,
            parsed,
            lambda unit, match, pool, summary, source: swapped_entity(unit, match, summary, source),
        )
        # a name recovered from a lower-cased summary counts only when it stands in
        # another name's place (docs/papers.md#ehi-names-in-lower-case-summaries)
        return drop_units(
            jobs,
            found,
            plan,
            lambda unit, match: not isinstance(unit, RecoveredEntity) or (match is not None and match.contradicts),
        )

    def nearest(self, unit, pool):
        """The source entity sharing the most words with it, else one of the same label."""
        words = set(unit.key.lower().split())
        shared = [(len(words & set(e.key.lower().split())), e) for e in pool]
        best = max(shared, key=lambda pair: (pair[0], -pair[1].span[0]), default=(0, None))
        if best[1] is not None and best[0]:
            common = " ".join(w for w in unit.key.lower().split() if w in set(best[1].key.lower().split()))
            return best[1], f"shares only '{common}': another name"
        same_label = [e for e in pool if e.label == unit.label]
        if same_label:
            return same_label[0], f"another {unit.label} of the source; no alias or partial name links them"
        return None

    def factors(self, counts) -> dict[str, float]:
        return entity_factors(counts)

    @property
    def signature_fields(self) -> tuple[Field, ...]:
        return (Field("ent", ("entity_synonyms",), self._modes, also=("formula",)),)

    def _modes(self, call) -> str:
        """The ``ent`` field: the matching modes on in ``call``; "+lcnames": the names a
        lower-cased summary writes that its parse missed (:meth:`complete`)."""
        options = call.options
        return (
            "exact+syn+acr+partial"
            + ("+lcnames" if options.formula == "support" else "")
            + ("+place" if self._places(options, call.resources) is not None else "")
            + (f"+userdict@{mapping_digest(options.entity_synonyms)}" if options.entity_synonyms else "")
        )


ENTITIES = Entities()
