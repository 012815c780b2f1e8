"""The scenario library (LF-12): hosts' scenarios for a game, each under a unique name."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from arena.store import rows as col
from arena.store.database import Database
from arena.store.models import ScenarioRow
from arena.store.records import ScenarioRecord
from arena.store.rows import Reading, Rows, healthy


class ScenarioExists(Exception):
    """A scenario of that name is already in the library: nothing was written."""


def _scenario(row: ScenarioRow) -> ScenarioRecord:
    r = Reading("scenarios", row.name)
    return ScenarioRecord(row.name, r(col.GAME, row.game), r(col.SCENARIO_TEXT, row.text),
                          r(col.NOTE, row.note), r(col.CREATED, row.created))


class ScenarioRows(Database):
    """The ``scenarios`` table."""

    def save_scenario(self, record: ScenarioRecord) -> None:
        """Add a scenario; raises :class:`ScenarioExists` if the name is taken (names are
        unique, and a saved scenario is never changed under a name others chose it by)."""
        try:
            with self.session() as s, s.begin():
                if s.get(ScenarioRow, record.name) is not None:
                    raise ScenarioExists(record.name)
                s.add(ScenarioRow(name=record.name, game=record.game, text=record.text,
                                  note=record.note, created=record.created))
        except IntegrityError:  # another process saved the same name at the same moment
            raise ScenarioExists(record.name) from None

    def get_scenario(self, name: str) -> ScenarioRecord | None:
        with self.session() as s:
            row = s.get(ScenarioRow, name)
            return None if row is None else _scenario(row)

    def list_scenarios(self, limit: int = 500) -> Rows[ScenarioRecord]:
        """The library, by name (the texts included: a listing shows each one's title); a
        damaged scenario is left out and named in ``.damaged``."""
        with self.session() as s:
            rows = s.scalars(select(ScenarioRow).order_by(ScenarioRow.name).limit(limit))
            return healthy(rows, _scenario)

    def count_scenarios(self) -> int:
        with self.session() as s:
            return int(s.scalar(select(func.count()).select_from(ScenarioRow)) or 0)
