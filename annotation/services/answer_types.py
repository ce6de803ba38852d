"""Answer types (`Answer.answer_type`): evaluation's analysis job types the answers
(docs/answer-types.md) and hands the types here, chunk by chunk."""

from __future__ import annotations

from django.db import transaction

from annotation.models import Answer


def answer_types_store_chunk(*, types: dict[int, tuple[int, str, str]], pipeline: str) -> int:
    """Store the answer types of a chunk (`{answer id: (start, text, type)}`, each typed by
    `pipeline` for that span); return how many were stored.

    The rows are locked and read again first: an answer whose span changed meanwhile (a
    review correction, which clears its type) is left untyped, not given its old span's type.
    """
    with transaction.atomic():
        locked = Answer.objects.select_for_update().filter(pk__in=list(types))
        spans = {
            pk: (start, text)
            for pk, start, text in locked.values_list("pk", "answer_start", "text")
        }
        rows = [
            Answer(pk=pk, answer_type=kind, answer_type_pipeline=pipeline)
            for pk, (start, text, kind) in types.items()
            if spans.get(pk) == (start, text)
        ]
        Answer.objects.bulk_update(rows, ["answer_type", "answer_type_pipeline"])
    return len(rows)
