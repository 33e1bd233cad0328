"""What saving a match may answer, known both to the store that raises it (``eights.store``) and to the tables
that wait for it (the web table's rooms), which import no database: the store could not be used, or a room's
owner was replaced (another instance took the room over)."""


class StoreError(Exception):
    """The match store cannot be used: one line naming the database and what to do."""


class Fenced(StoreError):
    """A write of a room's owner that is no longer its owner (another instance took the room over, with a
    newer fence): refused, with nothing of it written."""
