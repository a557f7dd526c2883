"""EHI, the entity dimension (CHI paper eq. 2-7; docs/papers.md): named entities of the
summary found in the source by exact form, synonym, acronym or partial name, a name in
another entity's place contradicted (docs/papers.md#ehi-entities-swapped-within-the-source)."""
from __future__ import annotations

from typing import Any, Callable, Dict, List

from .base import Dimension, swapped_units


class Entities(Dimension):
    name = "ehi"
    units = "entities"
    equations = "CHI paper eq. 2-7"
    attributed = True
    text_grounded = True

    def extractor(self, options) -> Callable[[Any], list]:
        from ..extract.entities import extract_entities

        return extract_entities

    def matcher(self, options, resources):
        from ..match.entities import EntityMatcher

        return EntityMatcher(synonyms=options.entity_synonyms, text_grounding=options.grounding == "text")

    def refine(self, jobs, found, plan, parsed, options, contradictions):
        if options.formula != "support":
            return jobs, found
        from ..match.swaps import swapped_entity

        return jobs, swapped_units(jobs, found, plan, parsed,
                                   lambda unit, match, pool, summary, source: swapped_entity(unit, match, summary,
                                                                                              source))

    def factors(self, counts) -> Dict[str, float]:
        from ..factors import entity_factors

        return entity_factors(counts)

    def signature_parts(self, options, fuse, resources) -> List[str]:
        return ["ent:exact+syn+acr+partial" + ("+userdict" if options.entity_synonyms else "")]


ENTITIES = Entities()
