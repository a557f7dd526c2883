"""The word lists clause reading uses: reporting verbs, generic subjects, light verbs,
negative governors, object-control verbs, role prepositions and the dependency sets of
subjects, objects and clauses (docs/papers.md#relation-extraction). Data, not rules."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .number_words import MULTIPLY_VERBS, NUMERIC_LABELS

if TYPE_CHECKING:
    pass


#: Reporting / meta-discourse verbs skipped by Algorithm 2 line 8 (lemmas).
REPORTING_VERBS: frozenset[str] = frozenset(
    {
        "say",
        "tell",
        "report",
        "claim",
        "state",
        "announce",
        "add",
        "explain",
        "note",
        "mention",
        "comment",
        "remark",
        "reply",
        "respond",
        "write",
        "declare",
        "assert",
        "allege",
        "insist",
        "argue",
        "ask",
        "quote",
        "said",
        "told",  # the sm lemmatizer occasionally leaves these unlemmatized
    }
)


#: subject pronouns that stand for whoever says what their clause says
#: (:meth:`~halluscope.text.clauses.ClauseReader.speaker`): "Arsenal said they would appeal"
REPORTED_PRONOUNS: frozenset[str] = frozenset({"he", "she", "they", "it"})


#: Generic subjects replaced by a named entity of the sentence (Algorithm 4, GroundSubject).
GENERIC_SUBJECTS: frozenset[str] = frozenset(
    {
        "he",
        "she",
        "they",
        "it",
        "we",
        "i",
        "you",
        "him",
        "her",
        "them",
        "us",
        "this",
        "that",
        "these",
        "those",
        "who",
        "which",
        "company",
        "firm",
        "official",
        "government",
        "people",
        "man",
        "woman",
        "person",
        "group",
        "spokesman",
        "spokeswoman",
        "spokesperson",
        "source",
        "authority",
        "organisation",
        "organization",
        "team",
        "club",
        "country",
        "agency",
        "minister",
        "leader",
        "player",
        "side",
    }
)


#: Verbs never paired with their subject alone (``intransitive``): they say
#: little without an object ("he has", "it does", "they got").
LIGHT_VERBS: frozenset[str] = frozenset({"be", "have", "do", "get"})


#: Governors whose ``xcomp`` clause did not happen ("failed to pay" -> not_pay).
NEGATIVE_GOVERNORS: frozenset[str] = frozenset({"refuse", "fail", "decline", "neglect"})


#: Verbs whose direct object is the subject of their infinitive ("police told residents
#: to leave": the residents leave; "ordered Ms Powell to stay", "urged people to vote",
#: "forced the club to pay"): object control. A verb outside the list keeps its own
#: subject for the infinitive ("used the money to buy", "spent years supporting",
#: "beat Spain to reach the final", "paid £5m to sign him"), as does a listed verb
#: with no direct object ("he asked to leave").
OBJECT_CONTROL_VERBS: frozenset[str] = frozenset(
    {
        "advise",
        "allow",
        "appoint",
        "ask",
        "authorise",
        "authorize",
        "beg",
        "cause",
        "challenge",
        "compel",
        "convince",
        "elect",
        "empower",
        "enable",
        "encourage",
        "force",
        "help",
        "hire",
        "implore",
        "incite",
        "induce",
        "inspire",
        "instruct",
        "invite",
        "lead",
        "lobby",
        "motivate",
        "nominate",
        "oblige",
        "order",
        "permit",
        "persuade",
        "pressure",
        "pressurise",
        "prompt",
        "push",
        "recruit",
        "remind",
        "request",
        "require",
        "spur",
        "teach",
        "tell",
        "train",
        "urge",
        "warn",
    }
)


#: Adjectives of a copula whose infinitive did not happen ("was unable to pay" -> not_pay).
NEGATIVE_ADJECTIVES: frozenset[str] = frozenset({"unable"})


#: Prepositions whose object is a party of a transfer ("lent 400 million euros to
#: Moldova", "borrowed ... from Germany"): kept as ``RelationUnit.roles``; a ``dative``
#: noun ("gave the hospital $10 million") counts as "to".
ROLE_PREPOSITIONS: frozenset[str] = frozenset({"to", "from"})


#: Entity labels that can ground a generic subject (Algorithm 4 line 15).
GROUNDING_LABELS: frozenset[str] = frozenset({"PERSON", "ORG", "GPE", "NORP"})


_CONTENT_POS = frozenset({"NOUN", "PROPN", "VERB", "ADJ"})


_SUBJECT_POS = frozenset({"NOUN", "PROPN"})


_OBJ_DEPS = frozenset({"dobj", "obj", "attr"})


_CLAUSAL_DEPS = frozenset({"xcomp", "ccomp"})


#: dependencies that join a name's words other than as compounds ("Bank of England",
#: "Aeronautics and Space"): such a name is one slot (:meth:`~halluscope.text.clauses.ClauseReader.joined_name`)
_JOINING_DEPS = frozenset({"prep", "pobj", "cc", "conj"})


#: relative pronouns, which stand for the noun their clause qualifies
RELATIVE_PRONOUNS = frozenset({"who", "which", "that", "whom"})


#: Penn Treebank bracket tokens of tokenised corpora (CNN/DM summaries): punctuation
PTB_BRACKETS: frozenset[str] = frozenset({"-lrb-", "-rrb-", "-lsb-", "-rsb-", "-lcb-", "-rcb-"})


#: dependencies in which a gerund heads a noun phrase ("delayed the Moon landing")
_NOMINAL_DEPS = frozenset({"nsubj", "nsubjpass", "dobj", "obj", "pobj", "attr", "compound"})


#: common nouns in spaCy's stop list that name a thing, a party or an event: a ``NOUN``
#: with one of these lemmas is a content word, not a stop word ("Lancaster's side", "the
#: show", "a move to Chelsea"), so a triple with one as its subject or object is
#: extracted. Not the stop list's nouns of place or share ("part", "top", "back",
#: "amount"), which mostly stand in idioms ("take part", "part of", "at the top")
#: (docs/papers.md#stop-list-nouns)
CONTENT_STOP_NOUNS: frozenset[str] = frozenset({"call", "move", "name", "show", "side"})


#: verbs that state a quantity change ("doubled its staff to 80"): QHI checks these
#: claims (qhi/extract.py), as it checks nouns inside spaCy's numeric mentions
#: (NUMERIC_LABELS), so they make no relation of their own (one claim, one dimension)
QUANTITY_VERBS: frozenset[str] = frozenset(MULTIPLY_VERBS)


#: adverbial particles spaCy may tag as a preposition when "of" follows them ("pulled out
#: of the race": "out" a ``prep`` heading "of")
PARTICLES_BEFORE_OF = frozenset({"out", "off", "away"})


#: words that, as a verb's subject or object, say that no one did it or nothing was done
NEGATIVE_ARGUMENTS = frozenset({"nobody", "nothing", "none", "noone"})


_NEGATIVE_ARGUMENT_DEPS = frozenset({"nsubj", "nsubjpass", "dobj"})


#: words that make a "no" before an amount a bound, not a negation ("no less than 13")
_COMPARED = frozenset({"less", "more", "fewer", "than"})


#: the most governors :func:`~halluscope.text.syntax.effective_negation` reads up a chain of infinitives
XCOMP_DEPTH = 8


_WHOSE = re.compile(r"(?<![^\W_])whose(?![^\W_])", re.IGNORECASE)


#: the numeric entity labels of an amount: not a rank, a date or a time ("her 2010 marriage
#: was her second" is a claim the relation keeps)
AMOUNT_LABELS = NUMERIC_LABELS - {"ORDINAL", "DATE", "TIME"}
