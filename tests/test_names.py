"""The one rule for names (issue 28, item 8): the terminal game, the web rooms and the score sheet all
refuse names that hide or impersonate, and take look-alikes for the same name."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from eights.names import NAME_LENGTH, BadName, clean_name, same_name
from eights.rules import load_preset
from eights.scorecard import PlayerError, Sheet
from eights.table.session import UsageError, parse_names
from tests.web.test_app import client, db, send, until

__all__ = ["client", "db"]  # the web tests' fixtures, used here

HIDING = {
    "the Hangul filler U+3164": "\u3164",
    "a zero-width space": "Ann\u200b",
    "a zero-width joiner": "A\u200dnn",
    "a right-to-left override": "\u202eAnn",
    "a left-to-right isolate": "Ann\u2066",
    "a control character": "Ann\x07",
    "a Braille blank": "\u2800",
    "a variation selector": "Ann\ufe0f",
    "a private-use character": "Ann\ue000",
    "marks only": "\u0301\u0301",
    "a pile of accents": "Ann\u0301\u0302\u0303\u0304\u0305",
    "no letter": "!!!",
    "too long": "A" * (NAME_LENGTH + 1),
}


@pytest.mark.parametrize("name", HIDING.values(), ids=HIDING.keys())
def test_names_that_hide_or_flood_are_refused_in_one_line(name: str) -> None:
    with pytest.raises(BadName, match=r"^name: ") as caught:
        clean_name(name)
    assert "\n" not in str(caught.value)


def test_a_name_is_normalised_and_accents_and_other_scripts_are_welcome() -> None:
    assert clean_name("  Zoe\u0308   Ann ") == "Zoë Ann"  # NFC: one code point for ë
    assert clean_name("Мария") == "Мария"
    assert clean_name("李小龍") == "李小龍"
    assert clean_name("A" * NAME_LENGTH) == "A" * NAME_LENGTH


LOOK_ALIKES = [
    ("Ann", "ann"),
    ("Ann", "\u0410nn"),  # Cyrillic capital A
    ("Olga", "\u041elga"),  # Cyrillic capital O
    ("Cid", "\u0421id"),  # Cyrillic capital Es
    ("Ann", "\uff21nn"),  # fullwidth A
    ("Ann", "𝐀nn"),  # mathematical bold A
    ("Мария", "Mария"),  # Latin M in a Cyrillic name
    ("paul", "pauI"),  # capital I for small l
]


@pytest.mark.parametrize(("first", "second"), LOOK_ALIKES)
def test_look_alikes_are_the_same_name(first: str, second: str) -> None:
    assert same_name(first, second) and same_name(second, first)


@pytest.mark.parametrize(("first", "second"), [("Ann", "Anne"), ("Bob", "Bab"), ("Tom", "Tim"), ("José", "Jose")])
def test_different_names_stay_different(first: str, second: str) -> None:
    assert not same_name(first, second)


def test_play_names_refuse_a_look_alike_of_another_person() -> None:
    with pytest.raises(UsageError, match="looks like 'Ann'"):
        parse_names("Ann,\u0410nn")
    with pytest.raises(UsageError, match="given twice"):
        parse_names("Ann,Ann")
    with pytest.raises(UsageError, match="U\\+202E"):
        parse_names("Ann,\u202eBob")


def test_the_score_sheet_takes_the_same_rule() -> None:
    derange = load_preset("derange")
    with pytest.raises(PlayerError, match="too long"):
        Sheet.new(derange, ["A" * 200, "Bob"], dealer="Bob")
    with pytest.raises(PlayerError, match="U\\+202E"):
        Sheet.new(derange, ["Ann", "\u202eboB"], dealer="Ann")
    with pytest.raises(PlayerError, match="looks like 'Ann'"):
        Sheet.new(derange, ["Ann", "\u0410nn"], dealer="Ann")
    with pytest.raises(PlayerError, match="invisible"):
        Sheet.new(derange, ["Ann", "\u3164"], dealer="Ann")


def test_a_sheet_saved_under_the_old_rule_still_opens() -> None:
    sheet = Sheet.new(load_preset("derange"), ["Ann", "Bob"], dealer="Ann")
    data = sheet.to_dict()
    data["players"] = ["A" * 40, "Bob"]
    data["first_dealer"] = "Bob"
    assert Sheet.from_dict(data).players == ("A" * 40, "Bob")


def test_a_web_room_refuses_a_look_alike_of_a_seated_name(client: TestClient) -> None:
    room = client.post("/api/rooms", json={"name": "Ann", "seats": ["me", "open", "open"]}).json()
    assert client.post("/api/rooms", json={"name": "\u3164"}).status_code == 400
    with client.websocket_connect("/ws") as ws:
        send(ws, type="hello", room=room["code"], token=None)
        until(ws, "state")
        send(ws, type="sit", seat=1, name="\u0410nn")  # a Cyrillic A
        assert until(ws, "error")["code"] == "bad_name"
        send(ws, type="sit", seat=1, name="Bob\u202e")
        assert until(ws, "error")["code"] == "bad_name"
