"""The `evaluate` command's inputs, read and checked: a SQuAD v1.1 or v2.0 dataset, the
predictions ({question id: answer}) and v2.0's no-answer probabilities.

Each reader refuses what the official scripts would crash on or silently miscount, with a
CommandError naming the file and what is wrong in it (the command's docstring says which).
"""

import json
import math
from pathlib import Path

from django.core.management.base import CommandError

from exports.formats.squad import SquadFormatError, SquadProblem, read_squad

V2_VERSIONS = ("v2.0", "2.0")  # what SQuAD 2.0's own files say, and the bare number


def load_dataset(path: str, *, squad_version: str = "1.1", document=None) -> dict[str, list[str]]:
    """Return {question id: [answer texts]} of a SQuAD file, in file order.

    Raise CommandError naming the file for an unreadable file, invalid JSON, a document without
    a "data" list, or any malformed entry (the first few are named, with where they are). In
    v1.1 a question without any answer is an error (a held-back split); in v2.0 it is an
    unanswerable question, unless the file says it is not (``"is_impossible": false``).
    document: the file's parsed JSON when the caller has it (read once, not twice).
    """
    dataset = {
        question.id: [answer.text for answer in question.answers]
        for article in _articles(path)
        for paragraph in article.paragraphs
        for question in paragraph.questions
    }
    if not dataset:
        raise CommandError(f"dataset {path}: no question to score")
    unanswered = _unanswered(dataset, path, squad_version, document)
    if unanswered:
        raise CommandError(
            f"dataset {path}: {len(unanswered)} question(s) without any answer to compare "
            f"with, e.g. {unanswered[0]!r} (a held-back test split cannot be scored)"
        )
    return dataset


def _articles(path: str) -> list:
    """Return a SQuAD file's articles; raise CommandError for a file that cannot be read, is
    not SQuAD or holds malformed entries (the first three named)."""
    problems: list[SquadProblem] = []
    try:
        articles = list(read_squad(path, on_problem=problems.append))
    except SquadFormatError as error:
        raise CommandError(f"dataset {error}") from None
    except OSError as error:
        raise CommandError(f"dataset {path}: cannot read the file: {error.strerror}") from None
    if problems:
        shown = "; ".join(str(problem) for problem in problems[:3])
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise CommandError(f"dataset {path}: malformed SQuAD entries: {shown}{more}")
    return articles


def _unanswered(dataset: dict, path: str, squad_version: str, document) -> list[str]:
    """Return the ids of the questions without an answer that cannot be scored."""
    if squad_version == "2.0":
        # Unanswerable when it says so. A file that never says (a v1.1 file read as v2.0 on
        # purpose) means it by "answers": []; in one that does, a question without answers
        # that does not say (a held-back test split of a v2.0 release: no is_impossible at
        # all, but version "v2.0") or says false cannot be scored.
        document = dataset_document(path) if document is None else document
        says = _impossible_flags(document)
        held_back = bool(says) or (
            isinstance(document, dict) and document.get("version") in V2_VERSIONS
        )
        return [
            qid
            for qid, truths in dataset.items()
            if not truths and (says.get(qid) is False or (held_back and qid not in says))
        ]
    return [question_id for question_id, truths in dataset.items() if not truths]


def dataset_document(path: str):
    """Return a file's parsed JSON, or None when it cannot be read (load_dataset says why)."""
    try:
        with Path(path).open("rb") as file:
            return json.load(file)
    except (OSError, ValueError):
        return None


def _questions(document) -> list[dict]:
    """Return the question objects of a SQuAD document, skipping what is not one."""
    data = document.get("data") if isinstance(document, dict) else None
    return [
        qa
        for article in (data if isinstance(data, list) else [])
        if isinstance(article, dict) and isinstance(article.get("paragraphs"), list)
        for paragraph in article["paragraphs"]
        if isinstance(paragraph, dict) and isinstance(paragraph.get("qas"), list)
        for qa in paragraph["qas"]
        if isinstance(qa, dict)
    ]


def _impossible_flags(document) -> dict[str, bool]:
    """Return {question id: is_impossible} of the questions that say it."""
    return {
        str(qa.get("id")): bool(qa["is_impossible"])
        for qa in _questions(document)
        if "is_impossible" in qa
    }


def dataset_squad_version(document) -> str:
    """Return "2.0" for a SQuAD 2.0 document (version "v2.0" or "2.0", or any is_impossible
    key), else "1.1" (an unreadable file too: load_dataset then names its problem)."""
    if isinstance(document, dict) and document.get("version") in V2_VERSIONS:
        return "2.0"
    return "2.0" if any("is_impossible" in qa for qa in _questions(document)) else "1.1"


def _json_object(path: str, label: str, shape: str) -> dict:
    """Return the JSON object of a file; CommandError naming the file (`label path`) when it
    cannot be read, is not JSON, or is not an object of this `shape`."""
    try:
        with Path(path).open("rb") as file:
            document = json.load(file)
    except OSError as error:
        raise CommandError(f"{label} {path}: cannot read the file: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CommandError(f"{label} {path}: not valid JSON: {error}") from None
    if not isinstance(document, dict):
        raise CommandError(f"{label} {path}: expected an object {shape}, found {_kind(document)}")
    return document


def load_na_probs(path: str, dataset: dict, predictions: dict) -> dict[str, float]:
    """Return the {question id: probability of no answer} object of an na-prob file.

    Raise CommandError naming the file for an unreadable file, invalid JSON, a document that
    is not an object, a value that is not a number in [0, 1] (naming its id), or a question of
    the dataset that has a prediction but no probability (counted, the first named).
    """
    na_probs = _json_object(path, "na-prob", "{question id: probability}")
    for question_id, probability in na_probs.items():
        if isinstance(probability, bool) or not isinstance(probability, int | float):
            raise CommandError(
                f"na-prob {path}: the probability for {question_id!r} must be a number, "
                f"found {_kind(probability)}"
            )
        if not (math.isfinite(probability) and 0 <= probability <= 1):
            raise CommandError(
                f"na-prob {path}: the probability for {question_id!r} must be between 0 and 1, "
                f"found {probability}"
            )
    absent = [qid for qid in dataset if qid in predictions and qid not in na_probs]
    if absent:
        raise CommandError(
            f"na-prob {path}: {len(absent)} question(s) with a prediction have no probability, "
            f"e.g. {absent[0]!r}"
        )
    return na_probs


def load_predictions(path: str) -> dict[str, str]:
    """Return the {question id: answer} object of a predictions file.

    Raise CommandError naming the file for an unreadable file, invalid JSON, a document that is
    not an object, or an answer that is not a string (naming its id).
    """
    predictions = _json_object(path, "predictions", "{question id: answer}")
    for question_id, answer in predictions.items():
        if not isinstance(answer, str):
            raise CommandError(
                f"predictions {path}: the answer for {question_id!r} must be a string, "
                f"found {_kind(answer)}"
            )
    return predictions


def _kind(value) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    names |= {int: "a number", float: "a number", type(None): "null"}
    return names.get(type(value), type(value).__name__)
