"""An incremental ingest ends where a knowledge base built from scratch does, byte for byte.

test_scale compares an incremental relink with a full relink of the same database; here the
comparison is with a second knowledge base that ingested everything at once: same JSON dump,
same number of rule texts and of bodies stored once.
"""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import func, select
from test_scale import DATA, dump, two_editions

from kb.bodies import counts
from kb.config import Settings
from kb.models import RuleBody
from kb.pipeline import ingest, open_db

ROOT = Path(__file__).resolve().parent.parent


def _scratch(settings: Settings, tmp_path: Path) -> Settings:
    """A second, empty knowledge base beside the test's (its own SQLite file or schema)."""
    return Settings(home=tmp_path / "scratch", corpus=settings.corpus, base_dir=ROOT)


def _bodies(settings: Settings) -> tuple[int, int, int]:
    db = open_db(settings, create=False)
    try:
        with db.session() as session:
            rows, distinct = counts(session)
            return rows, distinct, session.scalar(select(func.count()).select_from(RuleBody)) or 0
    finally:
        db.dispose()


def test_adding_an_edition_ends_as_a_build_from_scratch(settings, seeds, tmp_path) -> None:
    first, second = two_editions(tmp_path / "cr")
    mini = DATA / "mtgjson" / "mini.json"
    ingest(settings, [seeds, mini, first])
    stepwise_bodies = _bodies(settings)
    report = ingest(settings, [second])
    assert report.loaded
    scratch = _scratch(settings, tmp_path)
    ingest(scratch, [seeds, mini, first, second])
    assert dump(settings) == dump(scratch)
    rows, distinct, stored = _bodies(settings)
    assert (rows, distinct, stored) == _bodies(scratch)
    # The second edition is a copy with one rule changed: it adds rows, not bodies.
    assert rows > stepwise_bodies[0] and stored - stepwise_bodies[2] <= 2
    assert stored == distinct


def test_changing_a_set_file_ends_as_a_build_from_scratch(settings, seeds, tmp_path) -> None:
    first, second = two_editions(tmp_path / "cr")
    sets = tmp_path / "sets"
    sets.mkdir()
    mini = sets / "mini.json"
    data = json.loads((DATA / "mtgjson" / "mini.json").read_text(encoding="utf-8"))
    mini.write_text(json.dumps(data), encoding="utf-8")
    ingest(settings, [seeds, first, second, mini])
    cards = data["data"]["cards"]
    cards[0]["rulings"][0]["text"] += " See rule 100.1b."
    cards[0]["text"] += "\nVigilance"
    cards[1]["rulings"] = []
    mini.write_text(json.dumps(data), encoding="utf-8")
    assert ingest(settings, [mini]).loaded
    scratch = _scratch(settings, tmp_path)
    ingest(scratch, [seeds, first, second, mini])
    incremental = dump(settings)
    assert '"matched": "rule 100.1b"' in incremental
    assert incremental == dump(scratch)
