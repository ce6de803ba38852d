"""Signals the annotation app sends for the floors above it (evaluation's model in the loop).

A lower floor may not import a higher one (`tests/test_architecture.py`): annotation says what
happened, inside the transaction that did it, and the receivers connected in the upper apps'
`ready` add their part to the same transaction.
"""

from django.dispatch import Signal

# Sent by `annotation.services.work` once a paragraph's questions are stored: `lease` (the
# write lease), `questions` (the stored Question rows, in order) and `keys` (the page's key of
# each question, "" where none was given, same order).
questions_written = Signal()

# Sent by `annotation.services.reviews` when a review changed a question's original answer
# (a correction, or an unanswerable question made answerable): `question`.
answer_changed = Signal()
