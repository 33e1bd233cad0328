"""The web scorecard (issue 22): its API over TestClient, its links (a read-only code, an edit token that only
the browser that started the sheet keeps), refusals that change nothing, the live feed, and the store's part
(codes, token hashes, revisions, migration 0004) on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from typer.testing import CliRunner

from eights.cli import app
from eights.rules import load_preset
from eights.scorecard import MAX_ROUNDS, HandError, Sheet, SheetError, left_from_text
from eights.store import Store, database_url
from eights.store.db import _alembic_config, now
from eights.store.models import Base
from eights.store.sheets import NoSuchSheet, NotAllowed, SharedSheet, Sheets, StaleSheet
from eights.web import scorecard
from eights.web.app import create_app

DERANGE = load_preset("derange")
CLASSIC = load_preset("classic")
runner = CliRunner()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(database_url(str(tmp_path / "web.db")))
    with TestClient(create_app(store, pace=0)) as test_client:
        yield test_client
    store.close()


def new_sheet(client: TestClient, **body: Any) -> tuple[str, str, dict[str, Any]]:
    body.setdefault("preset", "derange")
    body.setdefault("players", ["Ann", "Bob", "Cid"])
    body.setdefault("dealer", "Ann")
    answer = client.post("/api/sheets", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    return data["code"], data["token"], data["sheet"]


def write(client: TestClient, method: str, path: str, **body: Any) -> dict[str, Any]:
    answer = client.request(method, path, json=body)
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_a_derange_sheet_over_the_api_with_totals_worked_by_hand(client: TestClient) -> None:
    code, token, sheet = new_sheet(client)
    assert sheet["players"] == ["Ann", "Bob", "Cid"] and sheet["rounds"] == [] and sheet["revision"] == 0
    assert sheet["next"] == {"round": 1, "dealer": "Ann", "hand_size": 8}
    assert sheet["next_words"] == "Next: round 1, Ann deals 8 cards each."
    # Derange at three uses two packs: the picker offers the 52 cards, two of each, clubs first.
    assert len(sheet["pack"]) == 52 and {c["copies"] for c in sheet["pack"]} == {2}
    assert sheet["pack"][:2] == [
        {"card": "AC", "suit": "C", "copies": 2, "value": 15},
        {"card": "2C", "suit": "C", "copies": 2, "value": 30},
    ]
    url = f"/api/sheets/{code}"
    # Round 1: Ann out; Bob 8H KS = 50 + 20 = 70; Cid 14 points.
    one = write(
        client, "POST", f"{url}/rounds", token=token, revision=0, out="Ann", left={"Bob": ["8H", "KS"], "Cid": 14}
    )
    assert one["totals"] == [0, 70, 14] and one["revision"] == 1
    assert one["rounds"][0]["lines"] == ["went out", "8H 50 + KS 20 = 70", "14 points"]
    assert one["next"] == {"round": 2, "dealer": "Bob", "hand_size": 7}
    # Round 2: Bob out; Ann 4D = 4; Cid QS 3C = 10 + 30 = 40. Totals 4, 70, 54.
    two = write(client, "POST", f"{url}/rounds", token=token, revision=1, out="Bob", left={"Ann": "4D", "Cid": "QS 3C"})
    assert two["totals"] == [4, 70, 54] and two["leader"] == ["Ann"]
    # Round 3 blocked: everyone counts. Ann 5, Bob 2S = 30, Cid 0 points.
    three = write(
        client, "POST", f"{url}/rounds", token=token, revision=2, out=None, left={"Ann": 5, "Bob": ["2S"], "Cid": 0}
    )
    assert three["rounds"][2]["blocked"] and three["totals"] == [9, 100, 54]
    assert three["standings"] == [
        {"place": 1, "name": "Ann", "total": 9},
        {"place": 2, "name": "Cid", "total": 54},
        {"place": 3, "name": "Bob", "total": 100},
    ]
    # Edit round 1: Bob had only KS (20): every total after it follows.
    edited = write(client, "PUT", f"{url}/rounds/1", token=token, revision=3, out="Ann", left={"Bob": "KS", "Cid": 14})
    assert [r["totals"] for r in edited["rounds"]] == [[0, 20, 14], [4, 20, 54], [9, 50, 54]]
    # Delete round 2: round 3 moves up, still dealt by Cid (6 cards); undo brings it back.
    deleted = write(client, "DELETE", f"{url}/rounds/2", token=token, revision=4)
    assert deleted["totals"] == [5, 50, 14] and deleted["rounds"][1]["dealer"] == "Cid"
    assert deleted["rounds"][1]["hand_size"] == 6 and deleted["next"] == {"round": 3, "dealer": "Ann", "hand_size": 5}
    assert deleted["said"] == "deleted round 2; round 3 is now round 2, with the dealer and cards it had"
    undone = write(client, "POST", f"{url}/undo", token=token, revision=5)
    assert undone["totals"] == [9, 50, 54] and undone["said"] == "undid the deletion of round 2"
    finished = write(client, "POST", f"{url}/finish", token=token, revision=6)
    assert finished["over"] and finished["finished_early"] and finished["winners"] == ["Ann"]
    assert finished["next"] is None and finished["next_words"] == "The match was finished after 3 rounds: Ann wins."
    assert client.get(url).json()["totals"] == [9, 50, 54]
    csv_text = client.get(f"{url}/sheet.csv").text
    assert csv_text.splitlines()[-1] == "final,,,won: Ann,,,9,,,50,,,54"


def test_the_read_only_code_cannot_change_the_sheet(client: TestClient) -> None:
    code, token, _ = new_sheet(client)
    url = f"/api/sheets/{code}"
    for method, path, body in [
        ("POST", f"{url}/rounds", {"out": "Ann", "left": {"Bob": 3, "Cid": 4}}),
        ("PUT", f"{url}/rounds/1", {"out": "Ann", "left": {"Bob": 3, "Cid": 4}}),
        ("DELETE", f"{url}/rounds/1", {}),
        ("POST", f"{url}/undo", {}),
        ("POST", f"{url}/finish", {}),
    ]:
        answer = client.request(method, path, json={"token": code, **body})
        assert answer.status_code == 403, (method, path)
        assert answer.json() == {
            "error": "this link only shows the sheet: changes need its edit link, kept on the phone that started it"
        }
    no_token = client.request("POST", f"{url}/undo", json={})  # no token at all: the one shape of every error
    assert no_token.status_code == 400 and no_token.json() == {"error": "token: Field required"}
    assert client.get(url).json()["revision"] == 0
    assert token not in client.get(url).text  # the edit token is never shown to a reader


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (
            {"out": "Ann", "left": {"Bob": "8H 8H 8H", "Cid": 1}},
            "8H is entered 3 times (Bob 3), but the 2 packs hold only 2",
        ),
        ({"out": "Ann", "left": {"Bob": "JK", "Cid": 1}}, "JK is a joker, and derange is played without jokers"),
        (
            {"out": "Zed", "left": {"Bob": 3, "Cid": 1}},
            "went out: 'Zed' is not a player here; the players are Ann, Bob and Cid",
        ),
        ({"out": "Ann", "left": {"Bob": -3, "Cid": 1}}, "Bob: -3 points is negative"),
        ({"out": "Ann", "left": {"Ann": 3, "Bob": 3, "Cid": 1}}, "Ann went out, so Ann has no cards"),
        ({"out": "Ann", "left": {"Bob": 3}}, "no points or cards for Cid"),
    ],
)
def test_an_impossible_round_is_refused_in_one_line_and_changes_nothing(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    code, token, before = new_sheet(client)
    answer = client.post(f"/api/sheets/{code}/rounds", json={"token": token, "revision": 0, **body})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert words in error and "\n" not in error
    assert client.get(f"/api/sheets/{code}").json() == before


def test_a_stale_edit_is_refused_and_the_saved_sheet_comes_back(client: TestClient) -> None:
    code, token, _ = new_sheet(client)
    url = f"/api/sheets/{code}"
    write(client, "POST", f"{url}/rounds", token=token, revision=0, out="Ann", left={"Bob": 3, "Cid": 4})
    # Another phone with the edit link still shows revision 0 and enters round 1 again.
    answer = client.post(
        f"{url}/rounds", json={"token": token, "revision": 0, "out": "Bob", "left": {"Ann": 1, "Cid": 2}}
    )
    assert answer.status_code == 409
    data = answer.json()
    assert data["error"].startswith("the sheet was changed elsewhere since this page showed it")
    assert data["sheet"]["revision"] == 1 and data["sheet"]["totals"] == [0, 3, 4]
    assert client.get(url).json()["totals"] == [0, 3, 4]


def test_unknown_sheets_rules_and_players_are_one_line_each(client: TestClient) -> None:
    missing = client.get("/api/sheets/nothing-here")
    assert missing.status_code == 404
    assert (
        missing.json()["error"]
        == "there is no score sheet with the code 'nothing-here': check the link, or start a new sheet"
    )
    for body, words in [
        ({"preset": "snap", "players": ["Ann", "Bob"]}, "snap"),
        ({"players": ["Ann"]}, "1 player given: a sheet takes 2 to 8 players"),
        ({"players": ["Ann", "\u202eboB"]}, "invisible or control character (U+202E)"),
        ({"players": ["Ann", "ann"]}, "the name 'ann' is given twice"),
        (
            {"players": ["Ann", "Bob"], "dealer": "Cid"},
            "dealer: 'Cid' is not a player here; the players are Ann and Bob",
        ),
        ({"players": ["Ann", "Bob"], "options": {"short_rounds": "maybe"}}, "short_rounds"),
    ]:
        answer = client.post("/api/sheets", json=body)
        assert answer.status_code == 400, body
        assert words in answer.json()["error"]


def test_a_drawn_dealer(client: TestClient) -> None:
    _, _, sheet = new_sheet(client, preset="classic", players=["Cid", "bob", "Dee"], dealer=None)
    assert sheet["next"]["dealer"] in ("Cid", "bob", "Dee") and sheet["variant"] == "classic"


def test_no_route_lists_the_names_on_other_devices_sheets(client: TestClient) -> None:
    """Issue 28, item 8: the names offered come from the sheets a browser keeps, not from the server."""
    new_sheet(client, players=["Ann", "Bob"], dealer="Bob")
    answer = client.get("/api/sheets/names")
    assert answer.status_code == 404
    assert "Ann" not in answer.text and "Bob" not in answer.text


def test_baby_eating_counts_games_won_and_its_pack_has_the_jokers(client: TestClient) -> None:
    code, token, sheet = new_sheet(client, preset="baby-eating", players=["Ann", "Bob", "Cid", "Dee"], dealer="Ann")
    assert not sheet["keeps_points"] and [c["card"] for c in sheet["pack"][-2:]] == ["JK", "GJ"]
    url = f"/api/sheets/{code}"
    write(client, "POST", f"{url}/rounds", token=token, out="Bob")
    done = write(client, "POST", f"{url}/rounds", token=token, out="Bob")
    assert done["totals"] == [0, 2, 0, 0] and done["leader"] == ["Bob"]


def test_a_follower_sees_each_change_as_it_is_saved(client: TestClient) -> None:
    code, token, _ = new_sheet(client)
    with client.websocket_connect(f"/ws/sheets/{code}") as follower:
        assert follower.receive_json()["rounds"] == []
        write(client, "POST", f"/api/sheets/{code}/rounds", token=token, out="Ann", left={"Bob": 3, "Cid": 4})
        seen = follower.receive_json()
        assert seen["revision"] == 1 and seen["totals"] == [0, 3, 4]
        write(client, "POST", f"/api/sheets/{code}/undo", token=token)
        assert follower.receive_json()["rounds"] == []
    with client.websocket_connect("/ws/sheets/nothing-here") as stranger:
        assert stranger.receive_json()["error"].startswith("there is no score sheet with the code 'nothing-here'")


def test_the_pages_are_served(client: TestClient) -> None:
    for path in ("/scorecard", "/s/anything"):
        answer = client.get(path)
        assert answer.status_code == 200 and "scorecard.js" in answer.text


# ----- the store: links, tokens and revisions, on SQLite and PostgreSQL --------------------------------------


def saved_row(store: Store, sheet_id: int) -> tuple[object, ...]:
    with store.engine.connect() as connection:
        query = text("SELECT data, revision, view_code, edit_hash FROM sheets WHERE id = :id")
        return tuple(connection.execute(query, {"id": sheet_id}).one())


def test_a_shared_sheet_changes_only_with_its_edit_token_and_on_its_revision(store: Store) -> None:
    sheets = Sheets(store)
    sheet_id = sheets.new(Sheet.new(DERANGE, ["Ann", "Bob", "Cid"], dealer="Ann"))
    code, token = sheets.share(sheet_id)
    assert code != token and token not in str(saved_row(store, sheet_id))  # only the token's hash is kept
    shown = sheets.shared(code)
    assert (shown.id, shown.revision, shown.sheet.players) == (sheet_id, 0, ("Ann", "Bob", "Cid"))
    changed, _ = sheets.change_shared(code, token, 0, lambda s: s.add_round("Ann", {"Bob": "8H KS", "Cid": 14}))
    assert changed.revision == 1 and changed.sheet.totals == (0, 70, 14) and sheets.revision(code) == 1
    before = saved_row(store, sheet_id)
    with pytest.raises(NotAllowed, match="this link only shows the sheet: changes need its edit link"):
        sheets.change_shared(code, "a guess", 1, lambda s: s.undo())
    with pytest.raises(NotAllowed):
        sheets.change_shared(code, code, 1, lambda s: s.undo())  # the read-only code is no edit token
    with pytest.raises(StaleSheet, match="changed elsewhere since this page showed it"):
        sheets.change_shared(code, token, 0, lambda s: s.add_round("Bob", {"Ann": 3, "Cid": 4}))
    with pytest.raises(HandError, match="negative"):
        sheets.change_shared(code, token, 1, lambda s: s.add_round("Bob", {"Ann": -3, "Cid": 4}))
    assert saved_row(store, sheet_id) == before
    # A change from the command line (by id) moves the revision on too.
    sheets.change(sheet_id, lambda s: s.add_round("Bob", {"Ann": 3, "Cid": 4}))
    assert sheets.revision(code) == 2
    with pytest.raises(StaleSheet):
        sheets.change_shared(code, token, 1, lambda s: s.undo())
    # Sharing again gives new links; the old ones stop working.
    new_code, new_token = sheets.share(sheet_id)
    with pytest.raises(NoSuchSheet, match=f"no score sheet with the code {code!r}: check the link"):
        sheets.shared(code)
    with pytest.raises(NotAllowed):
        sheets.change_shared(new_code, token, None, lambda s: s.undo())
    sheets.change_shared(new_code, new_token, None, lambda s: s.undo())
    assert sheets.get(sheet_id).totals == (0, 70, 14) and sheets.revision(code) is None


def test_a_database_of_schema_0003_gains_the_links_and_keeps_its_sheets(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        command.upgrade(_alembic_config(connection), "0003")
        data = Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Bob").to_dict()
        connection.execute(
            text(
                "INSERT INTO sheets (created_at, updated_at, variant, names, finished, data) "
                "VALUES ('2026-11-25 09:00:00', '2026-11-25 09:00:00', 'classic', '[\"Ann\", \"Bob\"]', 0, :data)"
            ),
            {"data": json.dumps(data)},
        )
    engine.dispose()
    store = Store(database_url(str(path)))
    try:
        with store.engine.connect() as connection:
            context = MigrationContext.configure(connection)
            assert context.get_current_revision() == "0007"
            assert compare_metadata(context, Base.metadata) == []
        sheets = Sheets(store)
        (sheet_id,) = [summary.id for summary in sheets.list()]
        assert saved_row(store, sheet_id)[1:] == (0, None, None)  # kept, and not shared until asked
        code, _ = sheets.share(sheet_id)
        assert sheets.shared(code).sheet.players == ("Ann", "Bob")
    finally:
        store.close()


def test_points_past_what_the_pack_is_worth_are_refused(client: TestClient) -> None:
    """Issue 28, item 9: bound hand points on the sheet."""
    code, token, sheet = new_sheet(client)
    body = {"token": token, "revision": sheet["revision"], "out": "Ann", "left": {"Bob": 10**23, "Cid": 5}}
    answer = client.post(f"/api/sheets/{code}/rounds", json=body)
    assert answer.status_code == 400 and "more than the cards of the pack can be worth" in answer.json()["error"]
    assert client.get(f"/api/sheets/{code}").json()["rounds"] == []


def test_a_sheet_kept_offline_is_scored_again_and_a_refused_round_stops_there(client: TestClient) -> None:
    """Issue 30: a sheet started with no server brings its rounds; the server scores each with Sheet. The rounds
    before one the rules refuse are saved, and ``refused`` says which and why."""
    rounds = [
        {"out": "Ann", "left": {"Bob": ["8H", "KS"], "Cid": 14}},
        {"out": "Bob", "left": {"Ann": 4, "Cid": ["QS", "3C"]}},
        {"out": "Cid", "left": {"Ann": ["8C", "8C"], "Bob": ["8C"]}},  # three 8C in two packs
        {"out": "Ann", "left": {"Bob": 1, "Cid": 1}},
    ]
    body = {"preset": "derange", "players": ["Ann", "Bob", "Cid"], "dealer": "Bob", "rounds": rounds}
    answer = client.post("/api/sheets", json=body).json()
    assert answer["refused"] == (
        "round 3: 8C is entered 3 times (Ann 2, Bob), but the 2 packs hold only 2: "
        "give each card only as often as it is left in the hands"
    )
    sheet = answer["sheet"]
    assert [r["totals"] for r in sheet["rounds"]] == [[0, 70, 14], [4, 70, 54]]
    assert sheet["first_dealer"] == "Bob" and sheet["undo"] == [{"change": "add"}, {"change": "add"}]
    assert sheet["scoring_url"] == "/api/scoring?preset=derange"
    body = {**body, "rounds": rounds[:2], "finished": True}
    finished = client.post("/api/sheets", json=body).json()
    assert "refused" not in finished and finished["sheet"]["finished_early"] and finished["sheet"]["winners"] == ["Ann"]


def test_the_installable_app_and_its_scoring_are_served(client: TestClient) -> None:
    manifest = client.get("/scorecard.webmanifest")
    assert manifest.headers["content-type"] == "application/manifest+json"
    assert manifest.json()["start_url"] == "/scorecard"
    worker = client.get("/scorecard-sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "Service-Worker-Allowed" not in worker.headers
    assert "script-src 'self'" in worker.headers["content-security-policy"]
    scoring = client.get("/api/scoring", params=[("preset", "classic"), ("option", "target=200")]).json()
    assert scoring["tables"]["4"]["target"] == 200 and scoring["scoring"] == "winner_collects"
    refused = client.get("/api/scoring", params=[("preset", "classic"), ("option", "target")])
    assert refused.status_code == 400
    assert refused.json()["error"] == "option 'target' is not KEY=VALUE (like stacking=true or packs=2)"
    options = client.get("/api/scoring", params=[("option", "deal=7")] * 41)
    assert options.status_code == 400 and options.json()["error"].startswith("options: give at most 40")


# ----- what one stranger can make: rounds, views, expiry (issue 37) -----------------------------------------


def test_a_web_sheet_holds_at_most_max_rounds_and_refuses_more_in_words(client: TestClient) -> None:
    kept = [{"out": "Ann"}] * MAX_ROUNDS
    code, token, sheet = new_sheet(client, preset="baby-eating", players=["Ann", "Bob"], rounds=kept)
    assert len(sheet["rounds"]) == MAX_ROUNDS and not sheet["over"]
    refused = client.post(f"/api/sheets/{code}/rounds", json={"token": token, "out": "Bob"})
    assert refused.status_code == 400 and refused.json()["error"] == (
        f"round {MAX_ROUNDS + 1} cannot be entered: a score sheet holds at most {MAX_ROUNDS} rounds; "
        "finish the match (it is decided on the totals so far) and start a new sheet"
    )
    assert client.get(f"/api/sheets/{code}").json() == sheet  # unchanged
    too_many = client.post(
        "/api/sheets", json={"preset": "baby-eating", "players": ["Ann", "Bob"], "rounds": [*kept, {}]}
    )
    assert too_many.status_code == 400
    # Rules planning more rounds than a sheet holds make no sheet, and no scoring (a schedule of a billion rounds).
    huge = {"hands": "1000000000"}
    for answer in (
        client.post("/api/sheets", json={"preset": "classic", "options": huge, "players": ["Ann", "Bob"]}),
        client.get("/api/scoring", params=[("preset", "classic"), ("option", "hands=1000000000")]),
    ):
        assert answer.status_code == 400
        assert answer.json()["error"] == "hands: 1000000000 rounds are more than a score sheet holds; give at most 200"
    assert client.get("/api/scoring", params={"preset": "baby-eating"}).json()["most_rounds"] == MAX_ROUNDS


def test_a_sheets_view_is_made_once_per_change_however_many_read_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GETs and followers of a sheet share one view per revision: made when the sheet changes (here, on the
    web or at the terminal on the same database), never again for a reader."""
    made: list[int] = []
    make = scorecard.sheet_view

    def counted(shared: SharedSheet) -> dict[str, Any]:
        made.append(shared.revision)
        return make(shared)

    monkeypatch.setattr(scorecard, "sheet_view", counted)
    code, token, sheet = new_sheet(client)
    url = f"/api/sheets/{code}"
    assert [client.get(url).json() for _ in range(5)] == [sheet] * 5 and made == [0]
    with client.websocket_connect(f"/ws/sheets/{code}") as one, client.websocket_connect(f"/ws/sheets/{code}") as two:
        assert one.receive_json() == two.receive_json() == sheet
        changed = write(client, "POST", f"{url}/rounds", token=token, revision=0, out="Ann", left={"Bob": 3, "Cid": 4})
        assert one.receive_json() == two.receive_json() == changed
        assert client.get(url).json() == changed and made == [0, 1]
    desk = client.app.state.sheets  # type: ignore[attr-defined]
    desk.sheets.change(desk.sheets.shared(code).id, lambda s: s.add_round("Bob", {"Ann": 1, "Cid": 2}))
    assert [client.get(url).json()["revision"] for _ in range(3)] == [2] * 3 and made == [0, 1, 2]
    stale = client.post(f"{url}/undo", json={"token": token, "revision": 1})
    assert stale.status_code == 409 and stale.json()["sheet"]["revision"] == 2 and made == [0, 1, 2]
    said = write(client, "POST", f"{url}/undo", token=token, revision=2)
    assert said["said"] == "undid the entry of round 2" and said["revision"] == 3 and made == [0, 1, 2, 3]


def test_a_sheet_made_on_the_web_expires_once_nobody_used_it_for_sheet_seconds(client: TestClient) -> None:
    """Swept like the rooms, with the desk's clock: a look keeps a web sheet (written down at the next sweep);
    one nobody looked at or changed for sheet_seconds is forgotten. A terminal sheet, shared or not, stays."""
    desk = client.app.state.sheets  # type: ignore[attr-defined]
    life = timedelta(seconds=desk.limits.sheet_seconds)
    assert life == timedelta(days=30)
    start = now()
    code, _, _ = new_sheet(client)
    mine = desk.sheets.new(Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann"))  # made at the terminal
    mine_code, _ = desk.sheets.share(mine)

    def sweep_at(moment: datetime) -> list[str]:
        desk.clock = lambda: moment
        gone: list[str] = client.portal.call(desk.sweep)  # type: ignore[union-attr]
        return gone

    minute = timedelta(minutes=1)
    looked = start + life - minute
    assert client.get(f"/api/sheets/{code}").status_code == 200
    assert sweep_at(looked) == []  # the look, written down now
    assert sweep_at(looked + life - minute) == []  # not unused for sheet_seconds yet
    assert sweep_at(looked + life + minute) == [code]
    answer = client.get(f"/api/sheets/{code}")
    assert answer.status_code == 404 and "no score sheet with the code" in answer.json()["error"]
    assert sweep_at(start + 100 * life) == []
    assert client.get(f"/api/sheets/{mine_code}").status_code == 200
    assert desk.sheets.get(mine).players == ("Ann", "Bob")


def test_only_sheets_made_on_the_web_expire_and_a_use_or_a_change_keeps_them(store: Store) -> None:
    sheets = Sheets(store)
    start = now()
    web = sheets.new(Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann"), web=True)
    web_code, _ = sheets.share(web)
    mine = sheets.new(Sheet.new(CLASSIC, ["Ann", "Bob"], dealer="Ann"))
    mine_code, _ = sheets.share(mine)
    day = timedelta(days=1)
    sheets.touch([web_code, mine_code], start - 10 * day)  # used long ago (a touch makes no terminal sheet expire)
    assert sheets.expire(start - day) == []  # changed (made) since
    sheets.touch([web_code], start + 5 * day)
    assert sheets.expire(start + 4 * day) == []  # used since
    assert sheets.expire(start + 6 * day) == [web_code]
    with pytest.raises(NoSuchSheet):
        sheets.shared(web_code)
    assert sheets.expire(start + 1000 * day) == [] and sheets.shared(mine_code).id == mine


def test_a_forgotten_hand_is_refused_in_the_words_the_terminal_uses(client: TestClient) -> None:
    """Issue 40, item 2: Ann out and Save without Bob's cards saved "Bob no cards (0)"; the terminal refuses it.
    No cards at all is a hand not given, in the scorecard's core, for every front end."""
    code, token, before = new_sheet(client)
    answer = client.post(
        f"/api/sheets/{code}/rounds", json={"token": token, "revision": 0, "out": "Ann", "left": {"Bob": [], "Cid": 5}}
    )
    assert answer.status_code == 400
    sheet = Sheet.new(load_preset("derange"), ["Ann", "Bob", "Cid"], "Ann")
    with pytest.raises(SheetError) as terminal:  # what the terminal's sheet does with Bob's box left empty
        sheet.add_round("Ann", {"Cid": left_from_text("5")})
    assert (
        answer.json()["error"]
        == str(terminal.value)
        == (
            "no points or cards for Bob: give every player who did not go out their points or their cards left "
            "(0 points for no cards left)"
        )
    )
    assert client.get(f"/api/sheets/{code}").json() == before
    # Points 0 says that Bob had no cards left.
    zero = write(
        client, "POST", f"/api/sheets/{code}/rounds", token=token, revision=0, out="Ann", left={"Bob": 0, "Cid": 5}
    )
    assert zero["totals"] == [0, 0, 5]


def test_the_points_box_says_not_a_whole_number_and_card_errors_name_jokers_only_where_they_are_played(
    client: TestClient,
) -> None:
    """Issue 40, item 6: ``abc`` in the points box said "'abc' is not a card: … jokers GJ … and JK", and derange
    has no jokers."""
    code, token, _ = new_sheet(client)
    url = f"/api/sheets/{code}/rounds"
    answer = client.post(
        url, json={"token": token, "revision": 0, "out": "Ann", "left": {"Bob": {"points": "abc"}, "Cid": 5}}
    )
    assert answer.status_code == 400
    assert answer.json()["error"] == (
        "Bob: 'abc' is not a whole number in the digits 0-9; give the value of Bob's cards left, like 35, "
        "or the cards themselves"
    )
    code_line = runner.invoke(
        app, ["scorecard", "new", "--variant", "derange", "--players", "Ann,Bob,Cid", "--dealer", "Ann"]
    )
    assert code_line.exit_code == 0, code_line.output
    sheet_id = code_line.stdout.split(":")[0].split()[-1]
    terminal = runner.invoke(
        app, ["scorecard", "round", sheet_id, "--out", "Ann", "--points", "Bob=abc", "--points", "Cid=5"]
    )
    assert answer.json()["error"] in terminal.stderr
    typed = write(client, "POST", url, token=token, revision=0, out="Ann", left={"Bob": {"points": "12"}, "Cid": 5})
    assert typed["totals"] == [0, 12, 5]
    cards = client.post(url, json={"token": token, "revision": 1, "out": "Bob", "left": {"Ann": "8X", "Cid": 5}})
    assert cards.json()["error"].startswith("Ann: '8X' is not a card") and "joker" not in cards.json()["error"]
    assert client.get(f"/api/sheets/{code}").json()["revision"] == 1
    # Baby-eating plays two jokers: there the error names them.
    action, action_token, _ = new_sheet(client, preset="baby-eating")
    named = client.post(
        f"/api/sheets/{action}/rounds",
        json={"token": action_token, "revision": 0, "out": "Ann", "left": {"Bob": "8X", "Cid": "2C"}},
    )
    assert "jokers GJ (the Guarantee Joker) and JK" in named.json()["error"]
