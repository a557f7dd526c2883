"""Word-level support: the summary's content words checked against its source (the
words in the scores, docs/lexical.md#in-the-scores), and its sentence contradictions
(docs/lexical.md#sentence-contradictions)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..batch import ParsedBatch
from ..details import match_json
from ..indices import support_share
from ..resources import Resources
from ..scoring_options import ScoringOptions, lexicon_of
from ..text.index import TextIndex, is_content
from ..units import Match


def content_word_precision(doc, pool: TextIndex) -> float:
    """The share of ``doc``'s content tokens (:func:`is_content`) whose lower-cased
    text is a token of the indexed ``pool`` text; 0.0 when ``doc`` has none. Words are compared as
    written, not as lemmas: "won" for "wins" is a change the units may not see. Half of
    CHI's w (``WordResult`` in :mod:`halluscope.pipeline`)."""
    content = [token for token in doc if is_content(token)]
    if not content:
        return 0.0
    tokens = pool.tokens
    return sum(token.lower_ in tokens for token in content) / len(content)


def sentence_contradictions(parsed: ParsedBatch, options: ScoringOptions, resources: Resources) -> list[list[Any]]:
    """Per row, the summary's sentence contradictions against its source
    (:func:`halluscope.match.polarity.sentence_flips`), found once per call for the
    relation dimension and the word-level support."""
    from ..match.polarity import sentence_flips

    lexicon = lexicon_of(options, resources)
    return [
        sentence_flips(parsed.index(summary), parsed.index(source), lexicon)
        for summary, source in zip(parsed.predictions, parsed.sources, strict=True)
    ]


@dataclass
class WordResult:
    """One summary's words against its source (:mod:`halluscope.words.matching`): its
    content words, each one's match in the source (None: unsupported; ``contradicts``:
    a WordNet antonym), and the two shares w averages (0.0 without content words):

    * ``support_share``: the content words the source supports by lemma, written form or
      WordNet (a paraphrase costs nothing);
    * ``written_share``: the content tokens (:func:`~halluscope.words.support.content_word_precision`:
      every token not a stop word or punctuation, numbers and repeats included) found in
      the source as written (a changed word form, "won" for "wins", or a swapped number
      costs).

    w = their mean, chosen by leave-one-dataset-out over the eight validation folds
    (docs/benchmarks.md#word-level-support-w)."""

    units: list[Any]
    matches: list[Match | None]
    written_share: float
    #: words the aligned source sentence negates or turns into their opposite
    #: (:mod:`halluscope.match.polarity`); a flipped content word's match is its flip
    flips: list[Any] = field(default_factory=list)

    @property
    def support_share(self) -> float:
        supported = [m is not None and not m.contradicts for m in self.matches]
        against = sum(m is not None and m.contradicts for m in self.matches)
        return support_share(supported, against) if supported else 0.0

    @property
    def contradicted(self) -> bool:
        """Whether the source contradicts one of the summary's verbs (a WordNet antonym
        anywhere in the source) or any word in its aligned sentence (a flip)."""
        return bool(self.flips) or any(
            m is not None and m.contradicts and unit.pos == "verb"
            for unit, m in zip(self.units, self.matches, strict=True)
        )

    @property
    def score(self) -> float:
        return (self.support_share + self.written_share) / 2

    def as_details(self) -> dict[str, Any]:
        units = []
        for unit, match in zip(self.units, self.matches, strict=True):
            entry = {
                "text": unit.text,
                "span": list(unit.span),
                "key": unit.key,
                "pos": unit.pos,
                "in_source": match_json(match),
                "status": "unsupported" if match is None else ("contradicted" if match.contradicts else "supported"),
            }
            units.append(entry)
        flips = [
            {"text": f.text, "span": list(f.span), "in_source": match_json(f.match), "status": "contradicted"}
            for f in self.flips
        ]
        return {
            "score": self.score,
            "support_share": self.support_share,
            "written_share": self.written_share,
            "units": units,
            "flips": flips,
        }


def word_support(
    parsed: ParsedBatch, options: ScoringOptions, resources: Resources, contradictions: list[list[Any]] | None = None
) -> list[WordResult]:
    """Per row, the summary's content words checked against its (indexed) source, with
    its sentence contradictions (``contradictions``, per row, when the call has found
    them already: :func:`sentence_contradictions`)."""
    from .matching import content_words, support_words

    lexicon = lexicon_of(options, resources)
    if contradictions is None:
        contradictions = sentence_contradictions(parsed, options, resources)
    out = []
    for summary, source, flips in zip(parsed.predictions, parsed.sources, contradictions, strict=True):
        units = content_words(summary.doc)
        index = parsed.index(source)
        matches = support_words(units, index, lexicon)
        flipped = {f.lemma: f.match for f in flips}
        # a word the whole source already contradicts keeps that reason (a WordNet antonym)
        matches = [
            match if match is not None and match.contradicts else flipped.get(unit.key, match)
            for unit, match in zip(units, matches, strict=True)
        ]
        out.append(WordResult(units, matches, content_word_precision(summary.doc, index), flips))
    return out
