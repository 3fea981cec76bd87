"""An embedded SQLite store of run results, keyed by the content-addressed run id.

Table ``runs(run_id PRIMARY KEY, config, result, finished)``; each result is written in its own
transaction (``INSERT OR IGNORE``), in WAL journal mode, so a sweep killed at any moment leaves every
completed run intact and no half-written one, and re-running the sweep skips what is already there
(resume without loss or duplicates). Within one sweep only the driver process writes; workers return results.
A run may carry named binary *artifacts* (e.g. the trained weights a later diagnosis reads), table
``artifacts(run_id, name, data)``, written in the same transaction as its result.

Several sweeps may share one store (two terminals, two machines on one file system): before a run is
started its id is *claimed* in the table ``claims(run_id PRIMARY KEY, owner, claimed)`` with an atomic
``INSERT OR IGNORE`` inside an immediate transaction, so exactly one sweep trains each run. A claim is
released when its result is stored (same transaction) or when its sweep ends; a claim whose owner process
is gone (same host) or that is older than ``stale_after`` seconds is taken over, so a killed sweep's runs
are not lost.

A file that is not a SQLite database, or whose tables are not this store's, raises :class:`StoreError`
naming the file. ``read_only=True`` opens an existing store for reading only (SQLite's read-only mode: the
file is never written, its tables never created; a SQLite file without this store's tables is refused), for
the commands that only report on a store.

:meth:`ResultStore.export_runs` writes stored runs as gzipped JSON lines (one ``{"run_id", "config",
"result", "finished"}`` object per line, sorted by run id, plus ``"artifacts": {name: base64}`` when asked
for and present) and :meth:`ResultStore.import_runs` reads them back (``INSERT OR IGNORE``, every id checked
against its config's content address under one of the given schemas): a small, text-based, mergeable form
in which a long sweep's finished parts are committed, so that the next part can resume on another machine
from a fresh store.
"""

from __future__ import annotations

import base64
import gzip
import json
import os
import socket
import sqlite3
import time
import uuid
from pathlib import Path

from theory._args import as_bool, as_path, as_real

from numerics.experiments.ids import canonical_json, content_id

_RUNS_COLUMNS = ("run_id", "config", "result", "finished")
_CLAIMS_COLUMNS = ("run_id", "owner", "claimed")
_ARTIFACTS_COLUMNS = ("run_id", "name", "data")
# A run of the full profile takes minutes to an hour; a claim older than this is assumed abandoned.
DEFAULT_STALE_AFTER = 24 * 3600.0


class StoreError(ValueError):
    """The store file is missing its folder, is not a SQLite database, or holds other tables."""


def _owner_id() -> str:
    # host:pid:random: the pid lets a sweep on the same host detect a dead owner; the token guards pid reuse
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _owner_alive(owner: str) -> bool:
    host, _, rest = owner.partition(":")
    pid_text = rest.split(":", 1)[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return True                      # another machine: only the age can tell
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class ResultStore:
    """Results by run id (see the module docstring). ``create=False`` refuses to create a missing file;
    ``read_only=True`` (implies ``create=False``) opens an existing store without ever writing to it: storing,
    claiming or importing is then a :class:`StoreError`."""

    def __init__(self, path: str | Path, *, create: bool = True, stale_after: float = DEFAULT_STALE_AFTER,
                 read_only: bool = False):
        self.path = as_path("path", path)     # a str or os.PathLike (":memory:" included), never a descriptor
        self.owner = _owner_id()
        self.read_only = as_bool("read_only", read_only)
        create = as_bool("create", create) and not self.read_only
        if self.read_only and self.path == ":memory:":
            raise ValueError("read_only=True needs a store file; a new ':memory:' store has nothing to read")
        self.stale_after = as_real("stale_after", stale_after, minimum=0.0)
        if self.path != ":memory:":
            p = Path(self.path)
            if p.is_dir():
                raise StoreError(f"store {self.path!r} is a folder, not a SQLite file")
            if not p.parent.is_dir():
                raise StoreError(f"store {self.path!r}: folder {str(p.parent)!r} does not exist")
            if not create and not p.exists():
                raise StoreError(f"store {self.path!r} does not exist")
        try:
            if self.read_only:
                self._conn = sqlite3.connect(Path(self.path).resolve().as_uri() + "?mode=ro", uri=True,
                                             timeout=60.0, isolation_level=None)
                self._check_tables()
            else:
                self._conn = sqlite3.connect(self.path, timeout=60.0, isolation_level=None)
                self._setup()
        except sqlite3.DatabaseError as exc:
            if hasattr(self, "_conn"):
                self._conn.close()
            raise StoreError(f"store {self.path!r} is not a usable SQLite result store ({exc})") from None

    def _setup(self) -> None:
        c = self._conn
        if self.path != ":memory:":
            c.execute("PRAGMA journal_mode=WAL")
        c.execute("PRAGMA synchronous=NORMAL")
        with self._transaction():
            c.execute("CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, config TEXT NOT NULL, "
                      "result TEXT NOT NULL, finished REAL NOT NULL)")
            c.execute("CREATE TABLE IF NOT EXISTS claims (run_id TEXT PRIMARY KEY, owner TEXT NOT NULL, "
                      "claimed REAL NOT NULL)")
            c.execute("CREATE TABLE IF NOT EXISTS artifacts (run_id TEXT NOT NULL, name TEXT NOT NULL, "
                      "data BLOB NOT NULL, PRIMARY KEY (run_id, name))")
        self._check_tables()

    def _check_tables(self) -> None:
        """The three tables with this store's columns (a missing table has none), and a readable first page."""
        c = self._conn
        for table, want in (("runs", _RUNS_COLUMNS), ("claims", _CLAIMS_COLUMNS), ("artifacts", _ARTIFACTS_COLUMNS)):
            cols = tuple(r[1] for r in c.execute(f"PRAGMA table_info({table})"))
            if cols != want:
                what = f"has columns {cols}" if cols else "is missing"
                raise sqlite3.DatabaseError(f"table {table} {what}, expected {want}")
        c.execute("SELECT COUNT(*) FROM runs").fetchone()      # reads a page: a truncated file fails here

    def _transaction(self):
        if self.read_only:
            raise StoreError(f"store {self.path!r} is open read-only: nothing can be stored, claimed or imported")
        return _Immediate(self._conn)

    # ----------------------------------------------------------------------------------------- results
    def put(self, run_id: str, config: dict, result: dict, *, artifacts: dict | None = None) -> bool:
        """Store one result and its ``artifacts`` (``{name: bytes}``) atomically, and drop its claim; False
        (nothing changed) if the run is already there."""
        artifacts = _check_artifacts(artifacts)
        with self._transaction():
            cur = self._conn.execute("INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?)",
                                     (run_id, canonical_json(config), json.dumps(result), time.time()))
            if cur.rowcount == 1:
                self._conn.executemany("INSERT INTO artifacts VALUES (?, ?, ?)",
                                       [(run_id, k, sqlite3.Binary(v)) for k, v in artifacts.items()])
            self._conn.execute("DELETE FROM claims WHERE run_id = ?", (run_id,))
        return cur.rowcount == 1

    def artifact(self, run_id: str, name: str) -> bytes:
        """The artifact ``name`` stored with ``run_id``; a ``KeyError`` naming both if there is none."""
        row = self._conn.execute("SELECT data FROM artifacts WHERE run_id = ? AND name = ?", (run_id, name)).fetchone()
        if row is None:
            raise KeyError(f"store {self.path!r} has no artifact {name!r} of run {run_id!r}")
        return bytes(row[0])

    def done_ids(self) -> set[str]:
        return {r[0] for r in self._conn.execute("SELECT run_id FROM runs")}

    def get(self, run_id: str) -> dict | None:
        row = self._conn.execute("SELECT config, result FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        if row is None:
            return None
        return {"run_id": run_id, "config": json.loads(row[0]), "result": json.loads(row[1])}

    def records(self) -> list[dict]:
        rows = self._conn.execute("SELECT run_id, config, result FROM runs ORDER BY finished").fetchall()
        return [{"run_id": r[0], "config": json.loads(r[1]), "result": json.loads(r[2])} for r in rows]

    def __len__(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM runs").fetchone()[0])

    def export_runs(self, path: str | Path, run_ids=None, *, artifacts: bool = False) -> int:
        """Write the stored runs (those of ``run_ids`` when given) to ``path`` as gzipped JSON lines, sorted by
        run id (module docstring), with their artifacts if ``artifacts``; returns the number written. The file
        is replaced atomically."""
        dest = Path(as_path("path", path))
        artifacts = as_bool("artifacts", artifacts)
        if not dest.parent.is_dir():
            raise StoreError(f"export path {str(dest)!r}: folder {str(dest.parent)!r} does not exist")
        wanted = None if run_ids is None else {str(r) for r in run_ids}
        rows = self._conn.execute("SELECT run_id, config, result, finished FROM runs ORDER BY run_id").fetchall()
        tmp = dest.with_name(dest.name + ".tmp")
        n = 0
        # no name, mtime=0: the same runs give the same bytes, so a re-export of an unchanged part is no git change
        with open(tmp, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as gz:
            for rid, config, result, finished in rows:
                if wanted is not None and rid not in wanted:
                    continue
                line = {"run_id": rid, "config": json.loads(config), "result": json.loads(result),
                        "finished": finished}
                stored = self._artifacts(rid) if artifacts else {}
                if stored:
                    line["artifacts"] = {k: base64.b64encode(v).decode("ascii") for k, v in stored.items()}
                gz.write((json.dumps(line, sort_keys=True) + "\n").encode())
                n += 1
        os.replace(tmp, dest)
        return n

    def _artifacts(self, run_id: str) -> dict[str, bytes]:
        rows = self._conn.execute("SELECT name, data FROM artifacts WHERE run_id = ? ORDER BY name", (run_id,))
        return {name: bytes(data) for name, data in rows}

    def import_runs(self, path: str | Path, schemas) -> tuple[int, int]:
        """Add the runs of an :meth:`export_runs` file; returns (added, already stored). Each line's run id
        must be its config's content address under one of ``schemas`` (those of the experiment kinds the
        store holds, e.g. ``(runs.SCHEMA,)``); a bad file raises :class:`StoreError` naming the line and
        stores nothing of it."""
        src = Path(as_path("path", path))
        if isinstance(schemas, (str, int)) or not schemas:
            raise TypeError(f"schemas must be a non-empty tuple of schemas (int or str), got {schemas!r}")
        schemas = tuple(schemas)
        if not src.is_file():
            raise StoreError(f"import file {str(src)!r} does not exist")
        lines, i = [], 0
        try:
            with gzip.open(src, "rt", encoding="utf-8") as fh:
                for i, text in enumerate(fh, 1):
                    lines.append(_import_record(json.loads(text), schemas))
        except (OSError, EOFError, ValueError, TypeError) as exc:
            raise StoreError(f"import file {str(src)!r} line {i + 1 if i == len(lines) else i}: {exc}") from None
        added = 0
        with self._transaction():
            for rec, blobs in lines:
                cur = self._conn.execute("INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?)",
                                         (rec["run_id"], canonical_json(rec["config"]), json.dumps(rec["result"]),
                                          float(rec["finished"])))
                if cur.rowcount == 1:
                    self._conn.executemany("INSERT INTO artifacts VALUES (?, ?, ?)",
                                           [(rec["run_id"], k, sqlite3.Binary(v)) for k, v in blobs.items()])
                added += cur.rowcount == 1
        return added, len(lines) - added

    # ------------------------------------------------------------------------------------------ claims
    def claim(self, run_id: str) -> bool:
        """Claim ``run_id`` for this store object's sweep: True if it is ours to run now.

        False when the result is already stored or another live sweep holds a fresh claim. One immediate
        transaction (SQLite's write lock), so two sweeps can never both get True for one id.
        """
        now = time.time()
        with self._transaction():
            c = self._conn
            if c.execute("SELECT 1 FROM runs WHERE run_id = ?", (run_id,)).fetchone():
                return False
            row = c.execute("SELECT owner, claimed FROM claims WHERE run_id = ?", (run_id,)).fetchone()
            if row is not None:
                owner, claimed = row
                if owner == self.owner:
                    return True
                if _owner_alive(owner) and now - claimed < self.stale_after:
                    return False
                c.execute("DELETE FROM claims WHERE run_id = ?", (run_id,))
            c.execute("INSERT OR IGNORE INTO claims VALUES (?, ?, ?)", (run_id, self.owner, now))
            return True

    def release(self, run_id: str | None = None) -> None:
        """Drop this sweep's claim on ``run_id`` (all of its claims when None)."""
        with self._transaction():
            if run_id is None:
                self._conn.execute("DELETE FROM claims WHERE owner = ?", (self.owner,))
            else:
                self._conn.execute("DELETE FROM claims WHERE run_id = ? AND owner = ?", (run_id, self.owner))

    def claimed_elsewhere(self) -> set[str]:
        """Ids that another sweep is running now (fresh claims of live owners)."""
        now = time.time()
        rows = self._conn.execute("SELECT run_id, owner, claimed FROM claims WHERE owner != ?", (self.owner,))
        return {r for r, o, t in rows if _owner_alive(o) and now - t < self.stale_after}

    def close(self) -> None:
        try:
            if self.path != ":memory:" and not self.read_only:
                self.release()
        except sqlite3.Error:
            pass
        self._conn.close()

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_RECORD_KEYS = {"run_id", "config", "result", "finished"}


def _import_record(rec, schemas: tuple) -> tuple[dict, dict[str, bytes]]:
    """One exported line, checked: (record, artifacts)."""
    if not isinstance(rec, dict) or not _RECORD_KEYS <= set(rec) <= _RECORD_KEYS | {"artifacts"}:
        raise ValueError("not a run record (run_id, config, result, finished[, artifacts])")
    if rec["run_id"] not in {content_id(rec["config"], s) for s in schemas}:
        raise ValueError(f"run id {rec['run_id']!r} is not its config's content address")
    blobs = rec.get("artifacts", {})
    if not isinstance(blobs, dict) or not all(isinstance(v, str) for v in blobs.values()):
        raise ValueError("artifacts must map names to base64 text")
    return rec, {str(k): base64.b64decode(v, validate=True) for k, v in blobs.items()}


def _check_artifacts(artifacts) -> dict:
    if artifacts is None:
        return {}
    if not isinstance(artifacts, dict) or not all(isinstance(k, str) and isinstance(v, (bytes, bytearray))
                                                  for k, v in artifacts.items()):
        raise TypeError(f"artifacts must be a dict name (str) -> bytes, got {type(artifacts).__name__}")
    return artifacts


class _Immediate:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (``ROLLBACK`` on error): takes the write lock up front, so a
    read-then-write (a claim) cannot interleave with another connection's."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, *exc) -> None:
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
