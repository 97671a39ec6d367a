"""Set-at-a-time card loading: cards shared across sets and documents, the last set wins."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from sqlalchemy import func, select, update

from kb import lookup, lookup_sqlite
from kb.ingest import ingest_paths
from kb.langs import fold
from kb.models import (
    Card,
    CardClarification,
    CardLocalization,
    CardSet,
    ClarificationText,
    Printing,
)
from kb.pipeline import open_db

MINI = Path(__file__).resolve().parent / "data" / "mtgjson" / "mini.json"
SAGA = "aaaaaaaa-0000-0000-0000-000000000001"


def _all_printings(tmp_path: Path) -> Path:
    """An AllPrintings-shaped file: the mini set, then a reprint set with the Saga reworded."""
    data = json.loads(MINI.read_text(encoding="utf-8"))
    first = data["data"]
    second = copy.deepcopy(first)
    second["code"], second["name"] = "TS2", "Test Reprints"
    for card in second["cards"]:
        card["setCode"] = "TS2"
        card["uuid"] = card["uuid"].replace("00000000-", "11111111-", 1)
        if card["identifiers"].get("scryfallOracleId") == SAGA:
            card["text"] = "I — Draw two cards."
    path = tmp_path / "AllPrintings.json"
    path.write_text(json.dumps({"meta": data["meta"], "data": {"TST": first, "TS2": second}}))
    return path


def _saga(session) -> tuple[int, str, int]:
    card = session.scalar(select(Card).where(Card.oracle_id == SAGA))
    text = session.scalar(
        select(CardLocalization.text).where(
            CardLocalization.card_id == card.id, CardLocalization.language == "en"
        )
    )
    printings = session.scalar(select(func.count()).where(Printing.card_id == card.id))
    return card.id, text, printings


def test_sets_of_one_document_share_cards_and_the_last_set_wins(settings, tmp_path):
    db = open_db(settings)
    report = ingest_paths(db, [_all_printings(tmp_path)])
    assert not report.failed
    with db.session() as session:
        assert session.scalar(select(func.count(CardSet.id))) == 2
        card_id, text, printings = _saga(session)
        assert text.startswith("I — Draw two cards.")
        assert printings == 4  # two printings in each set, one card
        assert session.scalar(select(func.count(Card.id)).where(Card.oracle_id == SAGA)) == 1
        # The reprint's rulings are the same clarifications, linked once.
        links = session.scalar(select(func.count()).where(CardClarification.card_id == card_id))
        assert links == 2
        texts = session.scalar(select(func.count(ClarificationText.id)))

    # Another document printing the card updates the shared card: its text is the set's again.
    single = tmp_path / "single"
    single.mkdir()
    (single / "TST.json").write_text(MINI.read_text(encoding="utf-8"), encoding="utf-8")
    assert not ingest_paths(db, [single]).failed
    with db.session() as session:
        same_id, text, printings = _saga(session)
        assert (same_id, printings) == (card_id, 6)
        assert text.startswith("I — Draw a card.")
        assert session.scalar(select(func.count(ClarificationText.id))) == texts


def _folded_rows(session) -> list[tuple[str, str | None]]:
    rows = session.execute(select(Card.name, Card.folded_name)).all()
    return rows + session.execute(select(CardLocalization.name, CardLocalization.folded_name)).all()


def test_names_are_stored_folded_and_folded_again_when_a_set_renames_them(settings, tmp_path):
    """`kb card` finds a folded name by the stored folded form, so every write keeps it true."""
    path = _all_printings(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    for card in data["data"]["TS2"]["cards"]:
        if card["identifiers"].get("scryfallOracleId") == SAGA:
            card["name"] = "Tést SAGA’s Écho"
            for face in card["foreignData"]:
                if face["language"] == "French":
                    face["name"] = "La SAGA d’Éssai"
    path.write_text(json.dumps(data), encoding="utf-8")
    db = open_db(settings)
    assert not ingest_paths(db, [path]).failed
    with db.session() as session:
        rows = _folded_rows(session)
        assert all(folded == fold(name) for name, folded in rows), rows
        assert {"test saga's echo", "la saga d'essai"} <= {folded for _, folded in rows}
    # The card and its name written by another document: folded again.
    single = tmp_path / "single"
    single.mkdir()
    (single / "TST.json").write_text(MINI.read_text(encoding="utf-8"), encoding="utf-8")
    assert not ingest_paths(db, [single]).failed
    with db.session() as session:
        rows = _folded_rows(session)
        assert all(folded == fold(name) for name, folded in rows), rows
        assert "test saga's echo" not in {folded for _, folded in rows}


def test_a_folded_name_is_found_by_its_stored_folded_form(settings, tmp_path):
    """Both lookup paths read cards.folded_name / card_localizations.folded_name, not a fold of
    every name: a stored folded form is what a typed name is matched with."""
    db = open_db(settings)
    assert not ingest_paths(db, [_all_printings(tmp_path)]).failed
    with db.session() as session:
        card_id = session.scalar(select(Card.id).where(Card.oracle_id == SAGA))
        session.execute(
            update(CardLocalization)
            .where(CardLocalization.card_id == card_id, CardLocalization.language == "fr")
            .values(folded_name="stored only")
        )
        session.commit()
        assert lookup.card_view(session, "STORED ONLY")["oracle_id"] == SAGA
        assert lookup.card_view(session, "ored on")["oracle_id"] == SAGA  # in part
    db.dispose()
    if settings.database_url is None:
        for query in ("STORED ONLY", "ored on"):
            assert lookup_sqlite.answer(settings.database, "card", query)["oracle_id"] == SAGA
