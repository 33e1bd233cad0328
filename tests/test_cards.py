"""The card notation (docs/rules.md section 1 reads every card this way): ``8H``, ``10C``/``TC``,
any case, suit letters or symbols, the two jokers told apart, round-tripping repr."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eights.cards import (
    ALL_CARDS,
    GUARANTEE_JOKER,
    JOKER,
    Card,
    CardError,
    Suit,
    format_cards,
    parse_cards,
    parse_rank,
    standard_pack,
)


def test_rank_then_suit_letter_reads_the_card():
    card = Card("8H")
    assert card.rank == 8
    assert card.suit is Suit.HEARTS
    assert str(card) == "8H"


@pytest.mark.parametrize("text", ["10C", "TC", "10c", "tc", "Tc", "t♣", "10♣", " 10C "])
def test_ten_is_written_10_or_t_in_any_case(text):
    card = Card(text)
    assert card.rank == 10
    assert card.suit is Suit.CLUBS
    assert str(card) == "10C"


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("ah", 1, Suit.HEARTS),
        ("As", 1, Suit.SPADES),
        ("jd", 11, Suit.DIAMONDS),
        ("qS", 12, Suit.SPADES),
        ("kc", 13, Suit.CLUBS),
        ("2d", 2, Suit.DIAMONDS),
    ],
)
def test_any_case_reads_the_same_card(text, rank, suit):
    card = Card(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert Card(text.upper()) is card
    assert Card(text.lower()) is card


@pytest.mark.parametrize(
    ("symbol", "letter"),
    [("♣", "C"), ("♦", "D"), ("♥", "H"), ("♠", "S")],
)
def test_suit_symbols_read_like_letters(symbol, letter):
    for rank in ("A", "2", "8", "10", "J", "Q", "K"):
        assert Card(rank + symbol) is Card(rank + letter)


def test_pretty_uses_the_suit_symbol_and_words_spell_it_out():
    assert Card("8H").pretty() == "8♥"
    assert Card("10C").pretty() == "10♣"
    assert Card("8H").words() == "eight of hearts"
    assert Card("AS").words() == "ace of spades"


def test_the_two_jokers_are_told_apart():
    gj = Card("GJ")
    jk = Card("JK")
    assert gj is GUARANTEE_JOKER
    assert jk is JOKER
    assert gj != jk
    assert gj.is_joker and jk.is_joker
    assert gj.suit is None and jk.suit is None
    assert gj.rank == jk.rank == 14
    assert str(gj) == "GJ" and str(jk) == "JK"
    assert Card("gj") is gj and Card("jk") is jk
    # The other joker of baby-eating is also written NGJ.
    assert Card("NGJ") is jk
    assert gj.words() == "the Guarantee Joker"
    assert not Card("JH").is_joker and Card("JH").rank == 11


def test_every_card_repr_round_trips():
    assert len(ALL_CARDS) == 54
    assert len({str(c) for c in ALL_CARDS}) == 54
    for card in ALL_CARDS:
        again = eval(repr(card), {"Card": Card})
        assert again is card
        assert Card(str(card)) is card
        assert Card(int(card)) is card
        assert Card(card.pretty()) is card


@given(st.sampled_from(ALL_CARDS), st.booleans())
def test_notation_round_trips_in_any_case(card, lower):
    text = str(card).lower() if lower else str(card)
    assert Card(text) is card
    assert repr(card) == f"Card({str(card)!r})"


def test_card_ids_are_rank_then_suit():
    assert int(Card("AC")) == 0
    assert int(Card("AD")) == 1
    assert int(Card("2C")) == 4
    assert int(Card("KS")) == 51
    assert int(Card("JK")) == 52
    assert int(Card("GJ")) == 53
    assert Card.of(8, Suit.HEARTS) is Card("8H")


@pytest.mark.parametrize("text", ["", "8", "H", "1H", "11H", "8X", "8HH", "ZZ", "JOKER", "0C", "10", "♥8", "G J"])
def test_bad_text_raises_card_error_naming_the_text_and_the_valid_forms(text):
    with pytest.raises(CardError) as info:
        Card(text)
    message = str(info.value)
    assert repr(text) in message
    for form in ("8H", "10C", "TC", "GJ", "JK", "♣"):
        assert form in message


def test_card_error_is_a_value_error():
    with pytest.raises(ValueError):
        Card("nonsense")


def test_out_of_range_card_id_is_refused():
    for cid in (-1, 54, 100):
        with pytest.raises(CardError, match=str(cid)):
            Card(cid)


def test_parse_cards_reads_a_string_or_a_list():
    assert [str(c) for c in parse_cards("8H, 10c TC  Q♠")] == ["8H", "10C", "10C", "QS"]
    assert parse_cards(["gj", "jk"]) == [GUARANTEE_JOKER, JOKER]
    assert format_cards(parse_cards("ah 10d gj")) == "AH 10D GJ"


def test_parse_cards_names_the_first_bad_text():
    with pytest.raises(CardError, match="'9Z'"):
        parse_cards("8H 9Z 10C")


def test_suits_parse_from_letters_symbols_and_words():
    assert Suit.parse("h") is Suit.HEARTS
    assert Suit.parse("♦") is Suit.DIAMONDS
    assert Suit.parse("spades") is Suit.SPADES
    assert Suit.parse("Club") is Suit.CLUBS
    with pytest.raises(CardError) as info:
        Suit.parse("X")
    assert "'X'" in str(info.value)
    assert "C, D, H, S" in str(info.value)


def test_ranks_parse_with_t_for_ten():
    assert parse_rank("t") == 10
    assert parse_rank("10") == 10
    assert parse_rank("a") == 1
    with pytest.raises(CardError, match="'Z'"):
        parse_rank("Z")


def test_standard_pack_holds_each_card_once_per_deck():
    pack = standard_pack()
    assert len(pack) == 52 and len(set(pack)) == 52
    assert JOKER not in pack
    two = standard_pack(2, jokers=2)
    assert len(two) == 106
    assert two.count(Card("8H")) == 2
    assert two.count(JOKER) == 1 and two.count(GUARANTEE_JOKER) == 1
