"""Dependency-parse discourse links (Mind the Link §3.1, Table 6; offline DL-ACU backend; docs/papers.md#dl-acu)."""

import pytest
from halluscope.acu.dep_links import find_dependency_links
from parsed import parse


def links(text):
    return find_dependency_links(parse(text))


def triples(text):
    return [(link["relation"], link["marker"], link["text"]) for link in links(text)]


# Table 6 of Mind the Link (FRANK summaries) and the unit this backend builds for each.
TABLE6 = [
    (
        "However, the shooter tried to ram the gates before firing at the guard at least once.",
        ("time", "before", "The shooter tried to ram the gates before firing at the guard."),
    ),
    (
        "Police believe the shooter barricaded himself inside after noticing a couple fighting in a car.",
        ("time", "after", "Police believe the shooter barricaded himself after noticing a couple fighting in a car."),
    ),
    (
        "French scientists say they have found a way to hide the earth's vast mountains of Mont Blanc.",
        (
            "purpose",
            "to",
            "French scientists say they have found a way to hide the earth's vast mountains of Mont Blanc.",
        ),
    ),
    (
        "The banks in the Indian capital, Delhi, have been shut down because of corruption and "
        "corruption, the BBC has learned.",
        (
            "cause",
            "because of",
            "The banks in the Indian capital, Delhi, have been shut down because of corruption and "
            "corruption, the BBC has learned.",
        ),
    ),
]


@pytest.mark.parametrize("summary,expected", TABLE6)
def test_table6_examples(summary, expected):
    assert triples(summary) == [expected]


MARKERS = [
    # temporal
    (
        "After noticing the leak, engineers shut the plant.",
        ("time", "after", "Engineers shut the plant after noticing the leak."),
    ),
    (
        "The crowd cheered when the team scored a goal.",
        ("time", "when", "The crowd cheered when the team scored a goal."),
    ),
    ("Prices rose while wages fell.", ("time", "while", "Prices rose while wages fell.")),
    ("They waited until the storm passed.", ("time", "until", "They waited until the storm passed.")),
    ("As prices rose, sales fell.", ("time", "as", "Sales fell as prices rose.")),
    (
        "The team has won every game since the coach arrived.",
        ("time", "since", "The team has won every game since the coach arrived."),
    ),
    # causal
    ("He was late because he missed the bus.", ("cause", "because", "He was late because he missed the bus.")),
    (
        "Since the road was closed, drivers took a detour.",
        ("cause", "since", "Drivers took a detour since the road was closed."),
    ),
    ("As he was tired, he went to bed.", ("cause", "as", "He went to bed as he was tired.")),
    ("The match was cancelled due to heavy rain.", ("cause", "due to", "The match was cancelled due to heavy rain.")),
    (
        "The factory closed as a result of the strike.",
        ("cause", "as a result of", "The factory closed as a result of the strike."),
    ),
    # purpose
    (
        "The company cut prices so that it could win customers.",
        ("purpose", "so that", "The company cut prices so that it could win customers."),
    ),
    (
        "She saved money in order to buy a house.",
        ("purpose", "in order to", "She saved money in order to buy a house."),
    ),
    ("She used the money to buy a car.", ("purpose", "to", "She used the money to buy a car.")),
    ("He came home and left to hide.", ("purpose", "to", "He left to hide.")),
]


@pytest.mark.parametrize("summary,expected", MARKERS)
def test_one_per_marker(summary, expected):
    assert triples(summary) == [expected]


@pytest.mark.parametrize(
    "summary",
    [
        "The cat sat on the mat.",
        "She has lived in Paris since 2010.",  # since + date: a time expression, no link
        "He works as a teacher.",  # "as" preposition
        "The plant shut down after the leak.",  # after + noun: not an event clause
        "The shooter tried to ram the gates.",  # control verb: "to" is no purpose
        "To be honest, I never liked it.",  # sentence adverbial, not a purpose
        "The CEO declined to comment.",
    ],
)
def test_no_links(summary):
    assert links(summary) == []


def test_sentence_index_and_fields():
    found = links("The cat sat on the mat. He was late because he missed the bus.")
    assert found == [
        {
            "relation": "cause",
            "marker": "because",
            "text": "He was late because he missed the bus.",
            "sentence_index": 1,
        }
    ]


def test_two_links_in_one_sentence_and_negation():
    assert triples("When asked about the deal, the CEO declined to comment because talks were ongoing.") == [
        ("time", "when", "The CEO declined to comment when asked about the deal."),
        ("cause", "because", "The CEO declined to comment because talks were ongoing."),
    ]
    assert triples("Officials did not reopen the road until engineers had inspected the bridge.") == [
        ("time", "until", "Officials did not reopen the road until engineers had inspected the bridge.")
    ]
    assert triples(
        "The government raised taxes in order to reduce the deficit, but critics said that the move would hurt growth."
    ) == [("purpose", "in order to", "The government raised taxes in order to reduce the deficit.")]
