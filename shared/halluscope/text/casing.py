"""Source-informed truecasing of lower-cased summaries (``truecase=True``, our default).

Most summaries in the benchmarks are lower-cased and tokenised ("leon yeaman , 55 ,
was killed ..."): 100% of CoGenSumm, FactCC and XSumFaith and 82-93% of SummEval
and FRANK validation summaries have no capital letter, while their sources are
cased. spaCy's tagger, parser and NER are trained on cased text and miss most
lower-cased names ("mccoy", "j p mcmanus"), so EHI finds too few entities and
relation triples are mis-parsed. Neither paper says what to do; we restore case
from the source before parsing:

* A text is truecased only when it has **no** upper-case letter and its source has
  at least one; any text with a capital letter is parsed exactly as given.
* Each source word (``\\w+``) votes for its written form; a capitalised word right
  after a sentence boundary (start of text, ``.!?:`` or a newline, optionally an
  opening quote or bracket) does not vote, since its capital says nothing, unless
  it is all capitals ("NASA"). A word takes the source's most frequent form when
  that form is not lower case and is more frequent than the lower-case one
  ("alaska" -> "Alaska", "us" stays "us" when the source writes "us" more often
  than "US").
* The first letter of each of the text's sentences (start of text, or after
  ``.!?`` and whitespace) is capitalised.
* A replacement is made only when it has exactly the same length, so every
  character offset of the truecased text is an offset of the original: spans in
  results and details point into the text the caller gave.

Words the source never writes (a hallucinated name, say) stay lower case.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable

_WORD = re.compile(r"\w+")


_AFTER_BOUNDARY = re.compile(r"(?:^|[.!?:\n])[\s\"'\u201c\u2018(\[]*$")


_SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)(\w)")


def _after_boundary(text: str, start: int) -> bool:
    return _AFTER_BOUNDARY.search(text[max(0, start - 6) : start]) is not None


def casing_table(source: str) -> dict[str, str]:
    """lower-case word -> the form the source writes it in, for words whose most
    frequent form (sentence-initial capitals not counted) is not lower case and
    outnumbers the lower-case form. A scoring call reads it through its resources'
    text tables, once per source while cached (:meth:`halluscope.resources.Resources.text_table`)."""
    forms: dict[str, Counter] = defaultdict(Counter)
    for match in _WORD.finditer(source):
        word = match.group()
        if not word.islower() and not word.isupper() and _after_boundary(source, match.start()):
            continue
        forms[word.lower()][word] += 1
    table = {}
    for lower, counts in forms.items():
        form, n = counts.most_common(1)[0]
        if form != lower and n > counts.get(lower, 0) and len(form) == len(lower):
            table[lower] = form
    return table


def truecase(text: str, source: str, table_of: Callable[[str], dict[str, str]] = casing_table) -> str:
    """``text`` with the source's casing restored (module docstring), same length;
    ``table_of(source)``: the source's :func:`casing_table`, asked only when ``text`` is
    truecased (a scoring call's reads it from its resources' text tables)."""
    if any(c.isupper() for c in text) or not any(c.isupper() for c in source):
        return text
    table = table_of(source)
    chars = list(text)
    for match in _WORD.finditer(text):
        form = table.get(match.group())
        if form is not None:
            chars[match.start() : match.end()] = form
    for match in _SENTENCE_START.finditer(text):
        position = match.start(1)
        upper = chars[position].upper()
        if len(upper) == 1:
            chars[position] = upper
    return "".join(chars)
