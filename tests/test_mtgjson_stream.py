"""MTGJSON read as a stream: AllPrintings and set files, plain or compressed, defects skipped."""

from __future__ import annotations

import bz2
import copy
import gzip
import json
import lzma
import zipfile
from pathlib import Path

import pytest
from sqlalchemy import func, select

from kb.corpus.mtgjson_stream import encoding_of, iter_sets
from kb.errors import ParseError
from kb.ingest import ingest_paths
from kb.models import Card, CardClarification, Document, IngestWarning, Printing
from kb.pipeline import open_db

DATA = Path(__file__).resolve().parent / "data"
MINI = DATA / "mtgjson" / "mini.json"


def _allprintings() -> bytes:
    """A two-set AllPrintings: the mini set and a reprint of it under another code."""
    mini = json.loads(MINI.read_text(encoding="utf-8"))
    other = copy.deepcopy(mini["data"])
    other["code"], other["name"] = "TS2", "Test Reprints"
    for card in other["cards"]:
        card["setCode"] = "TS2"
        card["uuid"] = card["uuid"].replace("00000000-", "22222222-")
    return json.dumps({"meta": mini["meta"], "data": {"TST": mini["data"], "TS2": other}}).encode()


def _write(path: Path, data: bytes, compression: str | None) -> Path:
    if compression == "xz":
        path.write_bytes(lzma.compress(data))
    elif compression == "gz":
        path.write_bytes(gzip.compress(data))
    elif compression == "bz2":
        path.write_bytes(bz2.compress(data))
    elif compression == "zip":
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr("AllPrintings.json", data)
    else:
        path.write_bytes(data)
    return path


@pytest.mark.parametrize("compression", [None, "xz", "gz", "bz2", "zip"])
def test_allprintings_in_every_published_compression(tmp_path, compression):
    suffix = f".json.{compression}" if compression else ".json"
    path = _write(tmp_path / f"AllPrintings{suffix}", _allprintings(), compression)
    sets = list(iter_sets(path))
    assert [(s.code, len(s.cards)) for s in sets] == [("TST", 3), ("TS2", 3)]
    assert encoding_of(path.read_bytes()[:8]) == (
        f"{compression}+utf-8" if compression else "utf-8"
    )
    # The printing without an oracle id is skipped in each set, with the set named.
    assert [w.message.split(" ", 1)[0] for s in sets for w in s.warnings] == ["TST", "TS2"]


def test_a_set_file_streams_like_its_parse(tmp_path):
    from kb.corpus import parse_file

    path = _write(tmp_path / "TST.json.gz", MINI.read_bytes(), "gz")
    (streamed,) = iter_sets(path)
    assert streamed == parse_file(MINI)


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b'{"meta": {}, "data": {"TST": {"code": "TST", "cards": [', "invalid JSON"),
        (b'{"meta": {}}', 'no "data" object'),
        (b"[1, 2]", 'no "data" object'),
    ],
)
def test_bad_files_are_parse_errors(tmp_path, data, words):
    for compression in (None, "xz"):
        path = _write(tmp_path / f"bad.json.{compression}", data, compression)
        with pytest.raises(ParseError) as caught:
            list(iter_sets(path))
        assert words in caught.value.reason and caught.value.path == str(path)


def test_truncated_archive_and_zip_without_one_json(tmp_path):
    cut = tmp_path / "AllPrintings.json.xz"
    cut.write_bytes(lzma.compress(_allprintings())[:300])
    with pytest.raises(ParseError, match=r"corrupt or truncated|invalid JSON"):
        list(iter_sets(cut))
    two = tmp_path / "two.json.zip"
    with zipfile.ZipFile(two, "w") as archive:
        archive.writestr("a.json", b"{}")
        archive.writestr("b.json", b"{}")
    with pytest.raises(ParseError, match=r"one \.json file, not 2"):
        list(iter_sets(two))


def test_ingest_loads_a_compressed_allprintings_once_per_card(tmp_path, settings):
    folder = tmp_path / "mtgjson"
    folder.mkdir()
    _write(folder / "AllPrintings.json.bz2", _allprintings(), "bz2")
    (folder / "AllPrintings.json.bz2.sha256").write_text("0" * 64)  # not a corpus file
    db = open_db(settings)
    try:
        report = ingest_paths(db, [folder])
        assert (len(report.loaded), report.failed) == (1, [])
        assert [w.kind for w in report.warnings] == ["no_oracle_id", "no_oracle_id"]
        with db.session() as session:
            count = lambda model: session.scalar(select(func.count()).select_from(model))  # noqa: E731
            assert count(Card) == 3  # deduplicated by oracle id across the two sets
            assert count(Printing) == 8
            # 3 card-ruling pairs (the saga's 2, the DFC's 1), not 6: each linked once.
            assert count(CardClarification) == 3
            assert session.scalar(select(Document.encoding)) == "bz2+utf-8"
            assert count(IngestWarning) == 2
    finally:
        db.dispose()


@pytest.fixture(scope="module")
def stx_sets(corpus_full, tmp_path_factory) -> Path:
    """STX and PSTX cut out of the real AllPrintings into set files (streamed, ~20 s)."""
    import ijson

    folder = tmp_path_factory.mktemp("stx")
    wanted = {"STX", "PSTX"}
    with lzma.open(corpus_full / "mtgjson" / "AllPrintings.json.xz") as stream:
        for code, value in ijson.kvitems(stream, "data", use_float=True):
            if code in wanted:
                document = {"meta": {}, "data": value}
                (folder / f"{code}.json").write_text(json.dumps(document), encoding="utf-8")
                wanted.discard(code)
                if not wanted:
                    break
    return folder


def test_an_empty_ruling_no_longer_drops_stx_and_pstx(stx_sets, settings):
    db = open_db(settings)
    try:
        report = ingest_paths(db, [stx_sets])
        with db.session() as session:
            sets = set(session.scalars(select(Printing.set_code).distinct()))
            archaic = session.scalar(
                select(Card).where(Card.name == "Wandering Archaic // Explore the Vastlands")
            )
            assert archaic is not None
            rulings = session.scalar(
                select(func.count())
                .select_from(CardClarification)
                .where(CardClarification.card_id == archaic.id)
            )
    finally:
        db.dispose()
    assert report.failed == [] and len(report.loaded) == 2
    assert sets == {"STX", "PSTX"}
    assert rulings > 0  # its other rulings load; only the empty one is skipped
    empty = [w for w in report.warnings if w.kind == "empty_ruling"]
    assert {w.message for w in empty} == {
        f"{code} 'Wandering Archaic // Explore the Vastlands': ruling of 2021-04-16 has no "
        "text: the ruling is skipped"
        for code in ("STX", "PSTX")
    }
