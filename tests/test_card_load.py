"""Set-at-a-time card loading: cards shared across sets and documents, the last set wins."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from sqlalchemy import func, select

from kb.ingest import ingest_paths
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
