"""An embedded SQLite store of run results, keyed by the content-addressed run id.

One table ``runs(run_id PRIMARY KEY, config, result, finished)``; each result is written in its own
transaction (``INSERT OR IGNORE``), in WAL journal mode, so a sweep killed at any moment leaves every
completed run intact and no half-written one, and re-running the sweep skips what is already there
(resume without loss or duplicates). Only the sweep's driver process writes; workers return results.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from .runs import canonical_json


class ResultStore:
    def __init__(self, path: str | Path):
        self.path = str(path)
        self._conn = sqlite3.connect(self.path, timeout=60.0)
        if self.path != ":memory:":
            self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        with self._conn:
            self._conn.execute("CREATE TABLE IF NOT EXISTS runs (run_id TEXT PRIMARY KEY, config TEXT NOT NULL, "
                               "result TEXT NOT NULL, finished REAL NOT NULL)")

    def put(self, run_id: str, config: dict, result: dict) -> bool:
        """Store one result atomically; returns False (and changes nothing) if ``run_id`` is already there."""
        with self._conn:
            cur = self._conn.execute("INSERT OR IGNORE INTO runs VALUES (?, ?, ?, ?)",
                                     (run_id, canonical_json(config), json.dumps(result), time.time()))
        return cur.rowcount == 1

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

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
