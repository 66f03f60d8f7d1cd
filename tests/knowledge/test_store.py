"""The compiled knowledge base: build, open, query; damaged files give clear errors."""

from __future__ import annotations

import sqlite3

import pytest

from knowledge import build, store
from knowledge.infra.errors import DatabaseError, InputError
from knowledge.store import KnowledgeBase


def test_build_and_query_mini(tmp_path, mini_data):
    path = tmp_path / "kb.sqlite"
    build.build(path, mini_data)
    with KnowledgeBase(path) as kb:
        assert kb.stats()["measurements"] == 4
        rows = kb.measurements(metric="throughput", where={"cache_mode": "WRITEBACK"})
        assert [r.key for r in rows] == ["T1-01"]
        assert rows[0].value_si == pytest.approx(59.77e6)
        assert rows[0].factors["hypervisor"] == "KVM"
        assert [r.key for r in kb.measurements(where={"vms_per_host": "1.0"})] == ["T1-01", "T1-02"]
        assert [r.key for r in kb.measurements(where={"storage_system": "*"})] == ["S2-01"]
        rec = kb.get("001", "S2-01")
        assert (rec.value_low, rec.value_high, rec.qualifier, rec.value_si) == (18, 19, "~", 18.5 * 60)
        assert kb.conclusions("cache_mode")[0].evidence == ("T1-01", "T1-02")
        assert kb.testbeds()[0].ram == "4 GB"
        assert kb.measurements(document="001", locator="table 1")[1].value == 3.98


def test_query_errors_are_user_facing(kb):
    with pytest.raises(InputError, match="factor 'cachemode' is not known"):
        kb.measurements(where={"cachemode": "none"})
    with pytest.raises(InputError, match="vms_per_host is numeric"):
        kb.measurements(where={"vms_per_host": "two"})
    with pytest.raises(InputError, match="document '9' is not known"):
        kb.measurements(document="9")
    with pytest.raises(InputError, match="ambiguous"):
        kb.measurements(document="00")


def test_real_kb_has_every_document_and_testbeds(kb):
    stats = kb.stats()
    assert set(stats["per_document"]) == {d.id for d in kb.documents()}
    assert stats["testbeds"] >= 10
    assert stats["measurements"] == sum(stats["per_document"].values())
    assert sum(stats["per_metric"].values()) == stats["measurements"]


def test_build_is_atomic_and_leaves_no_temporary_files(tmp_path, mini_data):
    path = tmp_path / "kb.sqlite"
    path.write_bytes(b"old")
    broken = mini_data / "001_59d3b1dfbc4dd7d1" / "measurements.csv"
    broken.write_text(broken.read_text().replace("MB/s", "MBps", 1))
    with pytest.raises(Exception, match="MBps"):
        build.build(path, mini_data)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith("kb.sqlite")] == ["kb.sqlite"]


def test_ensure_compiled_caches_by_digest(mini_data, monkeypatch, tmp_path):
    monkeypatch.setattr(store, "bundled_kb_path", lambda: tmp_path / "none.sqlite")
    first = store.ensure_compiled(mini_data)
    mtime = first.stat().st_mtime_ns
    assert store.ensure_compiled(mini_data) == first and first.stat().st_mtime_ns == mtime
    path = mini_data / "001_59d3b1dfbc4dd7d1" / "measurements.csv"
    path.write_text(path.read_text().replace("59.77", "60.00"))
    second = store.ensure_compiled(mini_data)
    assert second != first
    with KnowledgeBase(second) as kb:
        assert kb.get("001", "T1-01").value == 60.0


def test_open_without_path_compiles_into_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.setattr(store, "bundled_kb_path", lambda: tmp_path / "none.sqlite")
    with KnowledgeBase.open() as kb:
        assert kb.path.parent.name == "cache"
        assert kb.stats()["measurements"] > 500


@pytest.mark.parametrize("content", [b"", b"not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 300])
def test_damaged_file_gives_a_clear_message(tmp_path, content):
    path = tmp_path / "kb.sqlite"
    path.write_bytes(content)
    with pytest.raises(DatabaseError) as info:
        KnowledgeBase(path)
    assert str(path) in str(info.value)
    assert path.read_bytes() == content


def test_foreign_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "other.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    with pytest.raises(DatabaseError, match="not a Capacity Advisor knowledge base"):
        KnowledgeBase(path)


def test_truncated_kb_is_detected(tmp_path, kb_path):
    data = kb_path.read_bytes()
    path = tmp_path / "cut.sqlite"
    path.write_bytes(data[: len(data) // 2])
    with pytest.raises(DatabaseError, match=str(path)):
        kb = KnowledgeBase(path)
        kb.all_measurements()


def test_newer_kb_schema_is_refused(tmp_path, kb_path):
    path = tmp_path / "new.sqlite"
    path.write_bytes(kb_path.read_bytes())
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version = 99")
    con.commit()
    con.close()
    with pytest.raises(DatabaseError, match="schema version 99"):
        KnowledgeBase(path)


def test_a_foreign_file_at_the_cached_kb_path_is_not_replaced(tmp_path, monkeypatch):
    """Where the compiled knowledge base is cached, a file of someone else stays untouched."""
    monkeypatch.setattr(store, "bundled_kb_path", lambda: tmp_path / "no-shipped-kb.sqlite")

    from knowledge import curated
    from knowledge.infra.errors import DatabaseError
    from knowledge.infra.paths import user_cache_dir
    from knowledge.store import ensure_compiled

    digest = curated.data_digest(curated.DATA_DIR)
    cached = user_cache_dir() / f"knowledge-{digest[:16]}.sqlite"
    for content in (b"my notes\n", b""):
        cached.write_bytes(content)
        with pytest.raises(DatabaseError, match="not a Capacity Advisor knowledge base; it was left untouched"):
            ensure_compiled()
        assert cached.read_bytes() == content
    cached.unlink()
    con = sqlite3.connect(cached)
    con.execute("CREATE TABLE mine (x)")
    con.commit()
    con.close()
    before = cached.read_bytes()
    with pytest.raises(DatabaseError, match="left untouched"):
        ensure_compiled()
    assert cached.read_bytes() == before
    cached.unlink()
    assert ensure_compiled() == cached  # our own file is made when nothing is there
