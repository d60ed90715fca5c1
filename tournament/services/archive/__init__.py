"""The event archive: the whole event as one JSON document that imports back without loss.

Only what people entered is written; every score is recomputed from it by the engine on import.
The format is documented in docs/archive.md.
"""

from tournament.services.archive.export import event_export
from tournament.services.archive.load import ImportReport, archive_import, event_import
from tournament.services.archive.reading import archive_parse
from tournament.services.archive.schema import FORMAT, VERSION

__all__ = ["FORMAT", "VERSION", "ImportReport", "archive_import", "archive_parse", "event_export", "event_import"]
