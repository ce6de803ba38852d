"""Read a finished release back as examples: what baselines train on and are scored against.

Contexts and questions come from the release's HF JSONL or SQuAD file; the answers of dev and
test come from its internal gold file (test answers may be held back in the public files).
An imported training file (`TrainingFile`, a SQuAD-format JSON) is read the same way, HF style.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext as _

from annotation.models import export_id
from annotation.selectors.questions import questions_by_export_id
from core.errors import ServiceError
from exports.formats.squad import read_squad
from exports.models import Release
from exports.services.releases import release_file_open, release_storage


def _file(release: Release, name: str):
    return release.files.filter(name=name, internal=False).first()


def release_examples(release: Release, split: str) -> list[dict]:
    """Return the split's examples, HF style: id, title, context, question, answers.

    A split the release holds no question in has no data file: no example.

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
    if squad is None and split in release.manifest.get("splits_without_questions", []):
        return []  # built without a question there, so without a data file
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
            _hf_example(article, paragraph.context, q)
            | ({"is_impossible": None if held_back else q.is_impossible} if v2 else {})
            for article in read_squad(handle)
            for paragraph in article.paragraphs
            for q in paragraph.questions
        ]
    return examples


def _hf_example(article, context: str, q) -> dict:
    """Return a SQuAD question as an HF-style example: id, title, context, question, answers."""
    return {
        "id": q.id,
        "title": article.title,
        "context": context,
        "question": q.question,
        "answers": {
            "text": [a.text for a in q.answers],
            "answer_start": [a.answer_start for a in q.answers],
        },
    }


def question_types(ids) -> dict[str, str]:
    """Return {export id: question type} of released question ids (imported ids or uuids)."""
    rows = questions_by_export_id(ids).values_list("source_id", "uuid", "question_type")
    return {export_id(source, uuid): qtype for source, uuid, qtype in rows}


SKIP_MISALIGNED = "misaligned"  # the first answer is not the context's text at its offset
SKIP_UNANSWERED = "unanswered"  # no answer, and not said unanswerable (is_impossible)
SKIP_MALFORMED = "malformed"  # the reader skipped the entry (`SquadProblem`)


def squad_training_examples(articles) -> tuple[list[dict], list[dict]]:
    """Return (HF-style examples, the skipped questions) of SQuAD articles.

    A question is kept for training when it is unanswerable (`is_impossible`, no answers) or
    when its first answer is exactly the context's text at its offset; the other questions are
    skipped (a translated SQuAD often has answers that moved or changed in translation), each
    named as {"id", "reason", "detail"}.
    """
    examples, skipped = [], []
    for article in articles:
        for paragraph in article.paragraphs:
            context = paragraph.context
            for q in paragraph.questions:
                if skip := _training_skip(context, q):
                    skipped.append(skip)
                else:
                    examples.append(_hf_example(article, context, q))
    return examples, skipped


def _training_skip(context: str, q) -> dict | None:
    """Return why a question cannot train a model (its first answer is not the context's text
    at its offset, or it has none without being unanswerable), or None."""
    if q.answers:
        first = q.answers[0]
        found = context[first.answer_start : first.answer_start + len(first.text)]
        if found != first.text:
            detail = (
                f"the answer {_clip(first.text)!r} is not the context's text at "
                f"{first.answer_start} ({_clip(found)!r})"
            )
            return _skip(q.id, SKIP_MISALIGNED, detail)
    elif not q.is_impossible:
        return _skip(q.id, SKIP_UNANSWERED, "no answer, and is_impossible is not true")
    return None


def squad_problem_skip(problem) -> dict:
    """Return a malformed entry the reader skipped (`SquadProblem`) as a skipped question."""
    return _skip(problem.qa_id, SKIP_MALFORMED, str(problem))


def _skip(qa_id, reason: str, detail: str) -> dict:
    return {"id": qa_id, "reason": reason, "detail": detail}


def _clip(text: str, limit: int = 80) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def training_file_examples(training_file) -> list[dict]:
    """Return an imported training file's examples (`squad_training_examples`' rules)."""
    with release_storage().open(training_file.storage_name, "rb") as handle:
        examples, _skipped = squad_training_examples(read_squad(handle, on_problem=_ignore))
    return examples


def _ignore(problem) -> None:
    """Entries the import already counted as skipped are skipped again, quietly."""
