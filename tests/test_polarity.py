"""Contradictions inside aligned sentences (halluscope.match.polarity): real spaCy parses,
WordNet where a rule needs it."""

import pytest
from halluscope.match.claims import aligned_sentence
from halluscope.match.opposites import OPPOSITE_WORDS
from halluscope.match.polarity import sentence_flips
from halluscope.resources import get_resources


@pytest.fixture(scope="module")
def resources():
    return get_resources()


@pytest.fixture(scope="module")
def lexicon(resources):
    """The WordNet Lexicon; the test is skipped without WordNet 3.0."""
    found = resources.lexicon()
    if not found.available:
        pytest.skip("WordNet 3.0 is not installed")
    return found


def flips(resources, summary, source, lexicon=None):
    nlp = resources.nlp(None)
    found = sentence_flips(resources.text_index(nlp(summary)), resources.text_index(nlp(source)), lexicon)
    return [(f.text, f.span, f.match.mode, f.match.evidence[0].text, f.match.detail) for f in found]


def test_opposites_are_symmetric_but_for_following():
    assert OPPOSITE_WORDS["after"] == {"before"} and OPPOSITE_WORDS["more"] == {"less", "fewer"}
    assert OPPOSITE_WORDS["fewer"] == {"more"}
    # a source's "following" is "after"; a summary's is often the verb: one way only
    assert OPPOSITE_WORDS["before"] == {"after", "following"} and "following" not in OPPOSITE_WORDS


def test_before_against_a_source_following(resources):
    source = (
        "Mesut Ozil seemed to be enjoying his home comforts after arriving back in London "
        "following the international break."
    )
    summary = "Ozil returned to London before the international break."
    assert flips(resources, summary, source) == [
        (
            "before",
            (24, 30),
            "opposite",
            "following",
            "'before' against the opposite 'following' of the aligned source sentence",
        )
    ]
    assert flips(resources, "Ozil returned to London after the international break.", source) == []


def test_a_direction_word_against_its_opposite_in_the_aligned_sentence(resources):
    source = "The boss was booked during the match. His underwear was on show after the boss ripped his trousers."
    summary = "His underwear was on show before the boss ripped his trousers."
    assert flips(resources, summary, source) == [
        (
            "before",
            (26, 32),
            "opposite",
            "after",
            "'before' against the opposite 'after' of the aligned source sentence",
        )
    ]
    # the same words with "after" kept: nothing flips
    assert flips(resources, "His underwear was on show after the boss ripped his trousers.", source) == []


def test_an_opposite_elsewhere_in_the_source_does_not_count(resources):
    # "after" is in the source, but not in the sentence the summary sentence is aligned to
    source = "After the vote the hall emptied. Members arrived before the debate on the budget."
    assert flips(resources, "Members arrived before the budget debate.", source) == []


def test_a_direction_word_is_read_in_the_sentence_aligned_second(resources, lexicon):
    # the summary sentence joins two source sentences, and the one about the voters is
    # aligned first: "after" is in the second
    source = (
        "Andrew Travers left the authority by mutual agreement after the error, officials said. "
        "Voters were initially turned away from all 155 polling stations in Barnet on Thursday."
    )
    summary = (
        "The chief executive of Barnet council has left his role {} a blunder led to some voters "
        "being turned away from polling stations on Thursday."
    )
    assert flips(resources, summary.format("before"), source, lexicon) == [
        (
            "before",
            (56, 62),
            "opposite",
            "after",
            "'before' against the opposite 'after' of the source sentence aligned second",
        )
    ]
    assert flips(resources, summary.format("after"), source, lexicon) == []
    source = (
        "The law seeks to end an era of revolving governments in Italy. "
        "The lower house of parliament gave final approval to the bill by 334 votes to 61."
    )
    assert flips(
        resources,
        "Italy's higher house of parliament has passed a reform that seeks to end an era of revolving governments.",
        source,
        lexicon,
    ) == [
        (
            "higher",
            (8, 14),
            "opposite",
            "lower",
            "'high' against the opposite 'lower' of the source sentence aligned second",
        )
    ]


def test_only_a_direction_word_the_first_sentence_lacks_is_read_further(resources, lexicon):
    # each of these flips when every word is read in the second sentence: a noun of a
    # pair ("mother"), a word the first sentence holds itself ("South America" there), a
    # verb ("closed")
    assert (
        flips(
            resources,
            "Smith has two sons from his first marriage and lives in Leeds with his daughter and her father.",
            "Smith has two sons from his first marriage. He lives in Leeds with his daughter and her mother.",
            lexicon,
        )
        == []
    )
    assert (
        flips(
            resources,
            "Parts of south america and india will be able to see the eclipse.",
            "Parts of South America will see the eclipse on Friday. The eclipse will not be visible in North America.",
            lexicon,
        )
        == []
    )
    assert (
        flips(
            resources,
            "Police found the stolen car after the dealership opened the showroom.",
            "Police found the stolen car on Monday. The dealership closed the showroom after the theft.",
            lexicon,
        )
        == []
    )


def test_a_negation_added_or_dropped(resources):
    source = "A stray dog in Washington state has used up three of her lives."
    assert flips(resources, "A stray dog in Washington state has not used up three of her lives.", source) == [
        (
            "used",
            (40, 44),
            "negation",
            "used",
            "'use up' negated here, affirmed in the aligned source sentence ('used')",
        )
    ]
    assert flips(
        resources,
        "The dog in Washington state did use up three lives.",
        "The dog in Washington state did not use up three lives.",
    ) == [
        ("use", (32, 35), "negation", "use", "'use up' affirmed here, negated in the aligned source sentence ('use')")
    ]
    # the same polarity on both sides, or the lemma with both polarities in the source: no flip
    assert flips(resources, "The dog in Washington state has used up three lives.", source) == []
    assert (
        flips(
            resources,
            "The club was not happy with the referee.",
            "The club was happy with the result but was not happy with the referee.",
        )
        == []
    )


def test_wordnet_antonyms_with_converse_transfers_left_out(resources, lexicon):
    source = "The starlet rejected a move to Chelsea last week."
    assert flips(resources, "The starlet accepted a move to Chelsea last week.", source, lexicon) == [
        (
            "accepted",
            (12, 20),
            "opposite",
            "rejected",
            "'accept' against the opposite 'rejected' of the aligned source sentence",
        )
    ]
    assert flips(resources, "The starlet accepted a move to Chelsea last week.", source) == []  # no lexicon
    # an opposite under a negation agrees with the source
    assert flips(resources, "The starlet did not accept a move to Chelsea last week.", source, lexicon) == []
    # sold / bought: one transfer seen from its two parties
    assert (
        flips(
            resources,
            "Globex bought the factory from Acme in March.",
            "Acme sold the factory to Globex in March.",
            lexicon,
        )
        == []
    )


def test_alignment_needs_shared_content(resources):
    nlp = resources.nlp(None)
    source = resources.text_index(nlp("The river flooded the town. The mayor thanked the volunteers."))
    summary = resources.text_index(nlp("The mayor thanked the firefighters and volunteers."))
    assert aligned_sentence(summary.sentences[0], source) == 1
    lonely = resources.text_index(nlp("Volunteers came."))
    assert aligned_sentence(lonely.sentences[0], source) is None  # one shared content word only


def test_no_negation_flip_where_a_negative_word_negates(resources):
    # "has no plans to close" negates through a determiner, which effective_negation does not read
    source = "The bank has no plans to close any branches in Wales."
    assert flips(resources, "The bank does not plan to close any branches in Wales.", source) == []


def test_an_opposite_must_be_said_of_the_same_thing(resources):
    # "first" modifies "time", the source's "last" modifies "season": no opposite
    source = "Hereford have been expelled from the Conference for the first time since the end of last season."
    assert flips(resources, "Hereford have been expelled for the first time since last season.", source) == []
    assert flips(
        resources,
        "Hereford have been expelled from the Conference for the last time.",
        "Hereford have been expelled from the Conference for the first time.",
    ) == [("last", (56, 60), "opposite", "first", "'last' against the opposite 'first' of the aligned source sentence")]
    # a verb's opposite must share an argument with it
    lexicon = resources.lexicon()
    if not lexicon.available:
        pytest.skip("WordNet 3.0 is not installed")
    assert (
        flips(
            resources,
            "Police detained the activists in Beijing on Monday.",
            "Police released the journalists in Beijing on Monday after the activists were detained.",
            lexicon,
        )
        == []
    )
    assert [
        f[:3]
        for f in flips(
            resources,
            "Police detained the journalists in Beijing on Monday.",
            "Police released the journalists in Beijing on Monday.",
            lexicon,
        )
    ] == [("detained", (7, 15), "opposite")]


def test_a_verbs_opposite_written_as_another_part_of_speech_is_no_flip(resources):
    # "okay" (an antonym of the verb "reject") is an adjective here: no predicate, no
    # shared argument, no flip (and no crash: found on the lockbox half)
    lexicon = resources.lexicon()
    if not lexicon.available:
        pytest.skip("WordNet 3.0 is not installed")
    assert (
        flips(
            resources,
            "The council rejected the plan on Tuesday.",
            "The council said the plan was okay on Tuesday.",
            lexicon,
        )
        == []
    )


def test_a_subject_or_object_that_says_none_is_a_negation(resources):
    # session 26: "No rowers were injured" read as affirmed, so it stood beside "Two rowers
    # were injured" without a flip (and "Nobody" hid the verb's polarity)
    assert flips(resources, "No rowers were injured in the incident.", "Two rowers were injured in the incident.") == [
        (
            "injured",
            (15, 22),
            "negation",
            "injured",
            "'injure' negated here, affirmed in the aligned source sentence ('injured')",
        )
    ]
    assert [
        f[:3]
        for f in flips(resources, "Two rowers were injured in the incident.", "No rowers were injured in the incident.")
    ] == [("injured", (16, 23), "negation")]
    assert [f[:3] for f in flips(resources, "Nobody was hurt in the crash.", "Two people were hurt in the crash.")] == [
        ("hurt", (11, 15), "negation")
    ]
    assert [
        f[:3]
        for f in flips(resources, "Police found no weapons in the house.", "Police found two weapons in the house.")
    ] == [("found", (7, 12), "negation")]
    # the same negation on both sides, and a claim with nothing in common: no flip
    assert flips(resources, "No rowers were injured in the incident.", "No rowers were injured in the incident.") == []
    assert flips(resources, "No one was injured.", "Several people were injured.") == []


def test_a_negative_subject_up_a_chain_of_infinitives_negates_them_and_hides_nothing(resources):
    # session 27: "leave" is not_leave through "Nobody wanted to" (effective_negation), so
    # "Nobody" is read as its negation, not as a word that makes its polarity unreadable
    assert [
        f[:3]
        for f in flips(
            resources,
            "Nobody in the squad wanted to leave the club.",
            "Several players in the squad wanted to leave the club.",
        )
    ] == [("wanted", (20, 26), "negation"), ("leave", (30, 35), "negation")]
    assert [
        f[:3]
        for f in flips(
            resources,
            "Several players in the squad wanted to leave the club.",
            "Nobody in the squad wanted to leave the club.",
        )
    ] == [("wanted", (29, 35), "negation"), ("leave", (39, 44), "negation")]
    # a negative word elsewhere up the tree still hides the polarity ("has no plans to")
    assert flips(resources, "The club has no plans to sell the striker.", "The club plans to sell the striker.") == []


def test_a_negated_copula_shares_its_prepositional_argument(resources):
    # the subjects differ ("Ozil", "The German star"): the claim is tied by "fine form"
    source = "The German star was in fine form as the World Cup winners beat Georgia 2-0 on Sunday."
    assert flips(resources, "Ozil was not in fine form as Germany beat Georgia 2-0.", source) == [
        ("was", (5, 8), "negation", "was", "'be' negated here, affirmed in the aligned source sentence ('was')")
    ]
    # a shared preposition alone ties nothing: the source's "was" is another claim, and
    # what remains is a negation the source never makes (test_a_negation_the_source_never_makes)
    assert [
        f[4]
        for f in flips(
            resources,
            "The team was not in trouble after the World Cup winners beat Georgia.",
            "The German star was in fine form as the World Cup winners beat Georgia 2-0 on Sunday.",
        )
    ] == ["'be' negated here; the aligned source sentence negates nothing"]


def test_a_negative_word_negates_only_what_it_governs(resources):
    # "none" hangs under "inspired", not over "revealed": the negation of "revealed" is read
    source = (
        "Julia Louis-Dreyfus has revealed that her hairstyle in Veep was inspired by none other than Hillary Clinton."
    )
    summary = "Julia Louis-Dreyfus has not revealed that her hairstyle in Veep was inspired by Hillary Clinton."
    assert [f[:3] for f in flips(resources, summary, source)] == [("revealed", (28, 36), "negation")]
    # "Nobody" is the subject of the source's "arrested", which no "not" negates: its
    # polarity is not readable, and the summary's "did not arrest" is no flip
    assert (
        flips(
            resources,
            "Police did not arrest the men after the protest in the capital.",
            "Nobody arrested the men after the protest in the capital.",
        )
        == []
    )


def test_the_same_polarity_elsewhere_in_the_sentence_blocks_only_the_same_claim(resources):
    # the source affirms "be able to see" of the same places; its "won't be" is said of "it"
    source = (
        "Parts of South America, India and Russia will be able to see the eclipse, "
        "but it won't be visible in Greenland."
    )
    assert [
        f[:3]
        for f in flips(
            resources, "Parts of South America, India and Russia will not be able to see the eclipse.", source
        )
    ] == [("be", (50, 52), "negation"), ("see", (61, 64), "negation")]
    # ("see" too: a negated copula negates the infinitive its adjective governs, "will not
    # be able to see"); said with the summary's polarity of the same thing: no flip
    assert flips(resources, "The eclipse will not be visible in Greenland.", source) == []


def test_a_direction_word_with_the_same_object_wherever_it_attaches(resources):
    # "before" hangs on "are", "after" on "host": their object, "wins", is the same
    source = "The Foxes host Swansea on Saturday three points from safety after back-to-back wins."
    assert [
        f[:4] for f in flips(resources, "The Foxes are three points from safety before back-to-back wins.", source)
    ] == [("before", (39, 45), "opposite", "after")]
    # an opposite with another object and another head says nothing of this one
    assert (
        flips(
            resources,
            "Members arrived at the hall before the vote.",
            "Members arrived at the hall on Monday and left after the debate.",
        )
        == []
    )


def test_converse_verbs_of_the_same_subject_are_opposites(resources, lexicon):
    source = "Author Florian Huber has sold thousands of copies of his book."
    assert [
        f[:4] for f in flips(resources, "Florian Huber has bought thousands of copies of his book.", source, lexicon)
    ] == [("bought", (18, 24), "opposite", "sold")]


def test_converse_verbs_in_infinitives_take_the_subject_of_the_verb_above(resources, lexicon):
    source = "Tevez is on course to win a second Serie A title with the Old Lady."
    # "win" and "lose" have no subject of their own: Tevez, the subject of "is", is theirs
    assert [f[:4] for f in flips(resources, "Tevez is on course to lose a second Serie A title.", source, lexicon)] == [
        ("lose", (22, 26), "opposite", "win")
    ]
    # another subject up the chain: one side may win what the other loses
    assert (
        flips(
            resources,
            "Arsenal are on course to lose the title.",
            "Chelsea are on course to win the title this season.",
            lexicon,
        )
        == []
    )
    # no subject on either side, the same object: the same claim
    assert [
        f[:4]
        for f in flips(
            resources,
            "Keeping Leicester up will feel like losing a trophy.",
            "Keeping Leicester up will feel like winning a trophy, he said.",
            lexicon,
        )
    ] == [("losing", (36, 42), "opposite", "winning")]
    # a subject on one side only: not said of the same party
    assert (
        flips(
            resources,
            "Keeping Leicester up will feel like losing a trophy.",
            "Keeping Leicester up will feel like Chelsea winning a trophy.",
            lexicon,
        )
        == []
    )
    # under an object-control verb the infinitive is its object's (session 27): Smith buys
    # where the source has Smith sell, but Jones may sell what Smith buys
    assert [
        f[:4]
        for f in flips(
            resources,
            "The court ordered Smith to buy the house back.",
            "The court ordered Smith to sell the house back.",
            lexicon,
        )
    ] == [("buy", (27, 30), "opposite", "sell")]
    assert flips(resources, "Police told Jones to sell the car.", "Police told Smith to buy the car.", lexicon) == []


def test_a_negation_the_source_never_makes(resources):
    # the source states the claim in a form no predicate of its own shows: no "be on
    # board" to negate, and the aligned sentence denies nothing
    source = (
        "Lady Antebellum singer Hillary Scott's tour bus caught fire on a Texas freeway, but everyone "
        "on board was safely evacuated. Michael Barnett captured video of the fire."
    )
    summary = "Hillary Scott's tour bus caught fire on a freeway. Hillary Scott was not on board."
    [flip] = flips(resources, summary, source)
    assert flip[:3] == ("was", (65, 68), "negation")
    assert flip[4] == "'be' negated here; the aligned source sentence negates nothing"
    assert flip[3].startswith("Lady Antebellum singer Hillary Scott's tour bus caught fire")
    # a source sentence that denies in any form (a neg, a negative word, a denial) may
    # say the summary's negation otherwise: no flip
    for denial in (
        "but nobody on board was hurt.",
        "but the crew refused to leave the bus.",
        "but everyone on board was not hurt.",
    ):
        assert flips(resources, summary, source.replace("but everyone on board was safely evacuated.", denial)) == []
    # a content verb the source negates elsewhere is no negation the source never makes
    assert (
        flips(
            resources,
            "Police did not arrest the singer after the fire on the freeway.",
            "The fire on the freeway spread quickly after noon. Police did not arrest anyone.",
        )
        == []
    )
    # an affirmed summary sentence has nothing of it
    assert flips(resources, "Hillary Scott was on board the tour bus.", source) == []


def test_compass_directions_are_opposites(resources):
    source = "The incident occurred in international airspace north of Poland, an official said."
    assert flips(resources, "The incident occurred in international airspace south of Poland.", source) == [
        ("south", (48, 53), "opposite", "north", "'south' against the opposite 'north' of the aligned source sentence")
    ]
    assert flips(resources, "The incident occurred in international airspace north of Poland.", source) == []


def test_a_light_verb_negated_in_a_sentence_about_the_same_thing_is_said(resources):
    # the aligned sentence denies nothing, but another sentence on the same words has
    # the negated "be": the summary's negation is the source's
    source = (
        "Passenger Jin Pai was standing on the rim of a toilet when it collapsed. "
        "He was worried the toilet seat might not be clean, the passenger told police."
    )
    summary = "Passenger Jin Pai was standing on the toilet rim as the seat was not clean."
    assert flips(resources, summary, source) == []
    # a negated "be" in a sentence about something else excuses nothing
    other = (
        "Passenger Jin Pai was standing on the rim of a toilet when it collapsed. "
        "The airline said the flight was not delayed."
    )
    assert [f[4] for f in flips(resources, summary, other)] == [
        "'be' negated here; the aligned source sentence negates nothing"
    ]


def test_the_word_itself_blocks_an_opposite_only_in_its_own_part_of_speech(resources):
    # "lasted" is the verb "last", not the adjective: "first race" still flips
    source = "Fernando Alonso only lasted 21 laps in Sepang in his first race of the 2015 season."
    assert flips(
        resources, "Fernando Alonso only lasted 21 laps in Sepang in his last race of the season.", source
    ) == [("last", (53, 57), "opposite", "first", "'last' against the opposite 'first' of the aligned source sentence")]
    # the adjective itself in the aligned sentence: an opposite there may be about something else
    assert (
        flips(
            resources,
            "His last race of the season was in Sepang.",
            "His first race and his last race of the season were in Sepang.",
        )
        == []
    )


def test_a_direction_word_said_of_the_same_verb_through_a_clause_or_an_infinitive(resources):
    # the source's "after" marks a clause the parse hangs on "forced"; the summary's
    # "before" hangs on "play", which "forced" governs
    source = (
        "Police have been forced to play Prince Charming after numerous residents complained "
        "that their shoes had gone missing."
    )
    summary = "police have been forced to play prince charming before numerous complaints."
    assert flips(resources, summary, source) == [
        (
            "before",
            (48, 54),
            "opposite",
            "after",
            "'before' against the opposite 'after' of the aligned source sentence",
        )
    ]
    assert flips(resources, "police have been forced to play prince charming after numerous complaints.", source) == []
    # said of another verb, about another thing: no flip
    assert (
        flips(
            resources,
            "Residents of the town were arrested before the match.",
            "Residents of the town were released after the game.",
        )
        == []
    )


def test_indirect_antonyms_of_a_verb_said_of_the_same_thing(resources, lexicon):
    # "ban" is a way to "forbid" (WordNet hypernym), whose antonym is "allow"
    source = "A teacher has been banned from the classroom after he let pupils change their answers."
    assert [f[:4] for f in flips(resources, "A teacher has been allowed from the classroom.", source, lexicon)] == [
        ("allowed", (19, 26), "opposite", "banned")
    ]


def test_a_verbs_antonym_in_another_sense_when_the_arguments_tie_them(resources, lexicon):
    # fire's fourth sense (dismiss) is hire's antonym; the shared agent ties the two verbs
    source = "Saudi forces responded to mortar rounds fired by Houthis on a Saudi border site."
    assert [
        f[:4] for f in flips(resources, "Saudi forces responded to mortar rounds hired by Houthis.", source, lexicon)
    ] == [("hired", (40, 45), "opposite", "fired")]


def test_a_modifier_hung_on_another_modifier_is_said_of_the_noun(resources, lexicon):
    # the parse hangs "last" on "acoustic" and "first" on "tour"
    source = "White will wrap his touring efforts with a brief, first-ever acoustic tour that will hit five states."
    assert [
        f[:4]
        for f in flips(
            resources, "White will wrap his touring efforts with a brief, last-ever acoustic tour.", source, lexicon
        )
    ] == [("last", (50, 54), "opposite", "first")]


def test_an_opposite_verb_is_no_flip_where_another_sentence_says_the_claim(resources, lexicon):
    # the aligned sentence (most words in common) says "closed"; the next says "reopened"
    summary = "The Natural History Museum in Vienna reopened on 14 March after a renovation."
    both = (
        "The Natural History Museum in Vienna closed in January for a renovation of its halls. "
        "The museum reopened to the public on 14 March."
    )
    assert flips(resources, summary, both, lexicon) == []
    only_closed = "The Natural History Museum in Vienna closed in January for a renovation of its halls."
    assert [f[:4] for f in flips(resources, summary, only_closed, lexicon)] == [
        ("reopened", (37, 45), "opposite", "closed")
    ]


def test_an_opposite_ending_in_s_is_read_as_the_sentence_indexes_it(resources, lexicon):
    # sentences index "dangerous" as "dangerou" (a plural-insensitive form): so are the opposites
    source = "The mountain road is dangerous in winter, police said."
    assert [f[:4] for f in flips(resources, "The mountain road is safe in winter.", source, lexicon)] == [
        ("safe", (21, 25), "opposite", "dangerous")
    ]


def test_a_negation_word_is_read_by_the_negation_rule_only(resources):
    # "never" negates "plays": one flip, on the verb, not a second one for never/always
    source = "Smith always plays at home on Sundays, his coach said."
    assert [f[:4] for f in flips(resources, "Smith never plays at home on Sundays.", source)] == [
        ("plays", (12, 17), "negation", "plays")
    ]


def test_a_nouns_wordnet_antonym_said_of_the_same_thing(resources, lexicon):
    """Nouns flip too (session 23): "victory" against "defeat" where both attach to the
    same word; a noun with another head is about something else."""
    source = "Fans displayed the messages on Bloomfield Road ahead of their 3-0 defeat by Charlton."
    assert flips(
        resources, "Fans displayed the messages on Bloomfield Road ahead of their 3-0 victory.", source, lexicon
    ) == [
        (
            "victory",
            (66, 73),
            "opposite",
            "defeat",
            "'victory' against the opposite 'defeat' of the aligned source sentence",
        )
    ]
    assert (
        flips(resources, "Fans displayed the messages on Bloomfield Road ahead of their 3-0 defeat.", source, lexicon)
        == []
    )
    # "victory" hangs on "celebrated", "defeat" on "ahead of": not said of the same thing
    assert flips(resources, "Fans celebrated a victory on Bloomfield Road.", source, lexicon) == []
