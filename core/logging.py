"""Logging filters: one line for a refused request, a traceback only where something broke."""

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """Drop the traceback of a request refused with a 4xx (a 403, a 404, a bad Host header).

    Django logs such refusals with the exception that made them; its traceback says nothing
    the line does not, and a page of it for every 403 hides the real errors. 5xx keep theirs.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if (status is not None and status < 500) or record.name.startswith("django.security"):
            record.exc_info = None
            record.exc_text = None
        return True
