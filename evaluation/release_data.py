"""Read a finished release back as examples: what baselines train on and are scored against.

Contexts and questions come from the release's HF JSONL or SQuAD file; the answers of dev and
test come from its internal gold file (test answers may be held back in the public files).
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

from annotation.models import export_id
from annotation.selectors.questions import questions_by_export_id
from core.errors import ServiceError
from exports.formats.squad import read_squad
from exports.models import Release
from exports.services import release_file_open


def _file(release: Release, name: str):
    return release.files.filter(name=name, internal=False).first()


def release_examples(release: Release, split: str) -> list[dict]:
    """Return the split's examples, HF style: id, title, context, question, answers.

    In a SQuAD v2.0 release, an unanswerable question's `answers.text` is [] and every
    example has `is_impossible` (from the SQuAD file's flag, or the HF file's empty answer
    list); None where the split's answers are held back (the files do not tell: the gold
    file does, which only the server reads).
    """
    v2 = release.squad_version == "2.0"
    held_back = split == "test" and not release.options.get("include_test_answers", False)
    hf = _file(release, f"hf-{split}.jsonl")
    if hf is not None:
        with release_file_open(hf) as handle:
            examples = [json.loads(line) for line in handle]
        if v2:
            for example in examples:
                example["is_impossible"] = None if held_back else not example["answers"]["text"]
        return examples
    squad = _file(release, f"squad-{split}.json")
    if squad is None:
        raise ServiceError(
            {
                "release": [
                    _("The release has no SQuAD or HF JSONL file for %(split)s.") % {"split": split}
                ]
            },
            status=409,
        )
    with release_file_open(squad) as handle:
        examples = [
            {
                "id": q.id,
                "title": article.title,
                "context": paragraph.context,
                "question": q.question,
                "answers": {
                    "text": [a.text for a in q.answers],
                    "answer_start": [a.answer_start for a in q.answers],
                },
            }
            | ({"is_impossible": None if held_back else q.is_impossible} if v2 else {})
            for article in read_squad(handle)
            for paragraph in article.paragraphs
            for q in paragraph.questions
        ]
    return examples


def question_types(ids) -> dict[str, str]:
    """Return {export id: question type} of released question ids (imported ids or uuids)."""
    rows = questions_by_export_id(ids).values_list("source_id", "uuid", "question_type")
    return {export_id(source, uuid): qtype for source, uuid, qtype in rows}
