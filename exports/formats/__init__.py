"""Dataset file formats: one writer class per format, looked up by name in `FORMATS`.

Every writer follows `records.FormatWriter`: it is built with its own keyword options
(`include_answers` for all; `dataset` and `split` for MRQA), and `write(articles, out)` streams
an iterable of `records.ExportArticle` to a binary file and returns `records.ExportCounts`.
These modules import nothing from Django, so they can be used and tested on their own.
"""

from exports.formats.hf import HfJsonlWriter
from exports.formats.mrqa import MrqaWriter
from exports.formats.records import FormatWriter
from exports.formats.squad import SquadWriter

FORMATS: dict[str, type[FormatWriter]] = {
    "squad": SquadWriter,
    "hf": HfJsonlWriter,
    "mrqa": MrqaWriter,
}

__all__ = ["FORMATS"]
