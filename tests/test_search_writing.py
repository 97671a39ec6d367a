"""The full build's fast paths (kb.search.writing) write the index Whoosh's own writer would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_search_index import make_small_kb


def _content(folder: Path) -> list[Any]:
    """Everything a reader sees of an index: postings, lengths, stored fields and columns."""
    from whoosh import index as whoosh_index

    from kb.search.schema import INDEX_NAME

    ix = whoosh_index.open_dir(str(folder), indexname=INDEX_NAME)
    with ix.searcher() as searcher:
        reader = searcher.reader()
        found: list[Any] = [reader.doc_count_all(), sorted(reader.indexed_field_names())]
        for name in sorted(reader.indexed_field_names()):
            if reader.schema[name].scorable:
                found.append((name, reader.field_length(name), reader.max_field_length(name)))
            for term in reader.lexicon(name):
                info = reader.term_info(name, term)
                found.append((name, term, info.weight(), info.doc_frequency()))
                postings = reader.postings(name, term)
                while postings.is_active():
                    found.append((postings.id(), postings.weight(), postings.value()))
                    postings.next()
        for docnum in reader.all_doc_ids():
            found.append(reader.stored_fields(docnum))
            found.append([reader.doc_field_length(docnum, f) for f in reader.schema.names()])
        for column in ("key", "hash", "type"):
            found.append(list(reader.column_reader(column)))
    ix.close()
    return found


def _segment_files(folder: Path) -> dict[str, bytes]:
    """The bytes of each file of an index's one segment, by the file's name without the
    segment's random id: terms (with their block bounds), postings, columns, stored fields."""
    from whoosh import index as whoosh_index

    from kb.search.schema import INDEX_NAME

    ix = whoosh_index.open_dir(str(folder), indexname=INDEX_NAME)
    try:
        (segment,) = ix._segments()
        storage = segment.open_compound_file(ix.storage)
        return {
            name.split(".", 1)[1]: bytes(storage.open_file(name).read()) for name in storage.list()
        }
    finally:
        ix.close()


def test_the_full_builds_fast_paths_write_what_whooshs_writer_would(
    settings: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The same index with Whoosh's pool, ID and KEYWORD fields as with kb's term pool and
    fields: every term, posting, weight, value, length, stored field and column value."""
    from whoosh.fields import ID, KEYWORD

    from kb import pipeline
    from kb.search import build_index, open_index, writing

    make_small_kb(settings)
    ours = settings.index_dir
    whooshs = tmp_path / "whoosh-index"
    monkeypatch.setattr(writing, "use_term_pool", lambda writer: None)
    monkeypatch.setattr(writing, "Ident", ID)
    monkeypatch.setattr(writing, "Keywords", KEYWORD)
    db = pipeline.open_db(settings, create=False)
    try:
        build_index(db, whooshs)
    finally:
        db.dispose()
    monkeypatch.undo()

    theirs = _content(whooshs)
    assert len(theirs) > 1000
    assert _content(ours) == theirs
    files = _segment_files(whooshs)
    assert {"trm", "pst", "_stored.col"} <= set(files)
    assert _segment_files(ours) == files
    with open_index(ours) as a, open_index(whooshs) as b:
        for query in ("vote", "ring tempts you", "set:khm", "edition:2024-01-05 vote", "trickster"):
            assert a.search(query) == b.search(query)


def test_the_term_pool_refuses_postings_out_of_document_order() -> None:
    from kb.search.writing import TermPool

    pool = TermPool()
    pool.add(("text_en", b"vote", 3, 1.0, b""))
    with pytest.raises(ValueError, match="increasing numbers"):
        pool.add(("text_en", b"vote", 3, 1.0, b""))
    pool.add(("text_en", b"abc", 1, 1.0, b""))
    pool.add(("card", b"vote", 0, 2.0, b"x"))
    assert list(pool.iter_postings()) == [
        ("card", b"vote", 0, 2.0, b"x"),
        ("text_en", b"abc", 1, 1.0, b""),
        ("text_en", b"vote", 3, 1.0, b""),
    ]


def test_keyword_and_id_fields_give_whooshs_postings() -> None:
    from whoosh.fields import ID, KEYWORD

    from kb.search.writing import Ident, Keywords

    for value in ("KHM khm  M21\tdom\nKHM", "", "2025-02-07 2024-01-05", "Écho ÉCHO"):
        for lowercase in (False, True):
            fast = sorted(Keywords(lowercase=lowercase, scorable=False).index(value))
            assert fast == sorted(KEYWORD(lowercase=lowercase, scorable=False).index(value))
        assert list(Ident().index(value)) == list(ID().index(value))
    assert sorted(Keywords(commas=True).index("a b, c")) == sorted(
        KEYWORD(commas=True).index("a b, c")
    )
