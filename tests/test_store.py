"""numerics.experiments.store: results by content-addressed run id, written once and never overwritten; artifacts
stored with their run in one transaction; claims shared by sweeps on one store; errors naming the file."""

from __future__ import annotations

import socket
import sqlite3
import time

import numpy as np
import pytest

from numerics.experiments.store import ResultStore, StoreError
from numerics.experiments.ids import content_id
import tiny_inputs as tiny

CONFIG = {"model": {"arch": "lstm", "width": 2}, "seed": 0}


def test_artifacts_are_stored_with_their_run_once(tmp_path):
    path = tmp_path / "a.sqlite"
    blob = bytes(range(256)) * 3
    with ResultStore(path) as st:
        assert st.put("r1", {"x": 1}, {"v": 1}, artifacts={"states": blob, "empty": b""})
        assert not st.put("r1", {"x": 1}, {"v": 2}, artifacts={"states": b"other"})   # nothing replaced
        with pytest.raises(KeyError, match="'missing'.*'r1'"):
            st.artifact("r1", "missing")
        with pytest.raises(TypeError, match="artifacts"):
            st.put("r2", {}, {}, artifacts={"states": "text, not bytes"})
        assert "r2" not in st.done_ids()                                           # refused before writing
    with ResultStore(path, create=False) as st:                                      # survives a reopen
        assert st.artifact("r1", "states") == blob and st.artifact("r1", "empty") == b""
        assert st.get("r1")["result"] == {"v": 1}


def test_export_carries_artifacts_and_checks_every_schema(tmp_path):
    a, b = {"x": 1}, {"y": 2}
    ids = {content_id(a, "train/1"): a, content_id(b, "diagnosis/1"): b}
    with ResultStore(tmp_path / "a.sqlite") as st:
        for rid, cfg in ids.items():
            st.put(rid, cfg, {"v": 1}, artifacts={"states": bytes(range(7))} if cfg is a else None)
        assert st.export_runs(tmp_path / "plain.jsonl.gz") == 2
        assert st.export_runs(tmp_path / "full.jsonl.gz", artifacts=True) == 2
    with ResultStore(tmp_path / "b.sqlite") as st:
        with pytest.raises(StoreError, match="content address"):      # a schema missing: refused, nothing stored
            st.import_runs(tmp_path / "full.jsonl.gz", ("train/1",))
        assert len(st) == 0
        with pytest.raises(TypeError, match="schemas"):
            st.import_runs(tmp_path / "full.jsonl.gz", "train/1")
        assert st.import_runs(tmp_path / "full.jsonl.gz", ("train/1", "diagnosis/1")) == (2, 0)
        assert st.artifact(content_id(a, "train/1"), "states") == bytes(range(7))
    with ResultStore(tmp_path / "c.sqlite") as st:                       # without artifacts: results only
        assert st.import_runs(tmp_path / "plain.jsonl.gz", ("train/1", "diagnosis/1")) == (2, 0)
        with pytest.raises(KeyError, match="states"):
            st.artifact(content_id(a, "train/1"), "states")


def test_store_put_is_idempotent(tmp_path):
    with ResultStore(tmp_path / "s.sqlite") as st:
        rid = content_id(CONFIG, "test/1")
        assert st.put(rid, CONFIG, {"relmse": 0.5})
        assert not st.put(rid, CONFIG, {"relmse": 0.1})                   # never overwritten, never duplicated
        assert len(st) == 1 and st.get(rid)["result"] == {"relmse": 0.5} and st.get(rid)["config"] == CONFIG
        assert st.get("0" * 16) is None and st.done_ids() == {rid}


def test_store_errors_in_python():
    with pytest.raises(StoreError, match="does not exist"):
        ResultStore("/definitely/not/here/s.sqlite")


def test_claims_are_exclusive_and_released(tmp_path):
    path = tmp_path / "c.sqlite"
    with ResultStore(path) as a, ResultStore(path) as b:
        assert a.claim("r1") and a.claim("r1")               # idempotent for its owner
        assert not b.claim("r1")                             # held by a live sweep
        assert b.claimed_elsewhere() == {"r1"}
        a.put("r1", {"x": 1}, {"relmse": 0.5})               # storing drops the claim...
        assert not b.claim("r1")                             # ...and a stored run is never claimed again
        assert a.claim("r2")
    with ResultStore(path) as c:                             # a closed (finished) sweep releases its claims
        assert c.claim("r2")


def test_stale_claims_are_taken_over(tmp_path):
    path = tmp_path / "c.sqlite"
    with sqlite3.connect(path) as conn:
        ResultStore(path).close()
        dead_pid = 2**22 + 12345                              # above Linux's pid_max default: no such process
        conn.execute("INSERT INTO claims VALUES (?, ?, ?)", ("killed", f"{socket.gethostname()}:{dead_pid}:x", time.time()))
        conn.execute("INSERT INTO claims VALUES (?, ?, ?)", ("old", "other-host:1:x", time.time() - 100))
        conn.execute("INSERT INTO claims VALUES (?, ?, ?)", ("fresh", "other-host:1:y", time.time()))
    with ResultStore(path, stale_after=50) as st:
        assert st.claim("killed")                            # owner process gone (a SIGKILLed sweep)
        assert st.claim("old")                               # older than stale_after
        assert not st.claim("fresh")                         # another machine's live claim


# ---------------------------------------------------------------------------------------------- bad arguments, bounds, extreme parameters


def _bad_calls():
    """(call, exception, text the message must hold): each used to crash, pass silently or raise an error
    that did not name the parameter."""
    from numerics.experiments import ids

    return [
        (lambda: ids.canonical_json(np.nan), ValueError, "obj"),
        (lambda: ids.canonical_json(np.int64(-1)), TypeError, "obj"),
    ]


@pytest.mark.parametrize("i", range(len(_bad_calls())))
def test_bad_argument_is_named(i):
    tiny.assert_named(*_bad_calls()[i])


@pytest.mark.parametrize("bad", [0, None, 2.0, b"s.sqlite"])
def test_store_takes_paths_only(bad):
    from numerics.experiments.store import ResultStore

    with pytest.raises(TypeError, match="path"):
        ResultStore(bad)


def test_store_accepts_pathlike(tmp_path):
    from numerics.experiments.store import ResultStore

    with ResultStore(tmp_path / "s.sqlite") as store:
        assert len(store) == 0
