"""``evaluate DATASET PREDICTIONS``: the official SQuAD v1.1 evaluation, in our normalizations.

Reads what the official ``evaluate-v1.1.py`` reads (a SQuAD v1.1 file and a JSON object
``{question id: answer}``) and scores with ``evaluation.metrics.score``. The summary's first
line is what the official script prints, ``{"exact_match": …, "f1": …}`` (percentages, every
digit: with the defaults both numbers are the official script's to the last bit), then the
normalization and the counts. ``--json`` prints one object with the same ``exact_match`` and
``f1`` plus ``total`` (questions in the dataset), ``missing`` (questions without a prediction,
scored 0) and ``normalization`` (``{"name", "version"}``).

Choice of normalization:

- default: ``--lang en`` with the whitespace tokenizer, i.e. ``squad-en``, the official
  script's own rules, so that ``evaluate`` without options gives the official figures;
- ``--lang fr``: ``fquad-fr``, FQuAD's rules (French articles, "l'" and the typographic
  apostrophe), what FQuAD's published figures use;
- ``--tokenizer word``: ``word``, for languages written without spaces (each CJK, kana, Hangul
  or Thai character a token, Unicode punctuation removed, no article list). It has no language,
  so it is refused together with ``--lang``.

Where the command is stricter than the official script (which crashes or silently miscounts):
a malformed dataset entry (a question without an id, a duplicate id, an answer without text…)
is an error naming where it is, not skipped, since skipping would change the total; a question
without any answer (a held-back test split) is an error; every prediction must be a string.
The dataset's ``version`` is not checked (PIAF's files say "1.0" and have the same format), and
predictions for questions outside the dataset are ignored, as the official script does. The
official script's "Unanswered question … will receive score 0." line per question without a
prediction becomes the ``missing`` count.
"""

import json
from pathlib import Path

from django.core.management.base import CommandError

from core.commands import PlatformCommand
from evaluation.metrics import FQUAD_FR, SQUAD_EN, WORD, Normalization, score
from exports.formats.squad import SquadFormatError, SquadProblem, read_squad

LANGUAGES = {"en": SQUAD_EN, "fr": FQUAD_FR}
DEFAULT_LANGUAGE = "en"
TOKENIZERS = ("whitespace", "word")


def choose_normalization(lang: str | None, tokenizer: str) -> Normalization:
    """Return the normalization for --lang and --tokenizer; CommandError for word with a lang."""
    if tokenizer == "word":
        if lang is not None:
            raise CommandError(
                "--tokenizer word uses the 'word' normalization, which has no article list "
                "and no language: leave out --lang"
            )
        return WORD
    return LANGUAGES[lang or DEFAULT_LANGUAGE]


def load_dataset(path: str) -> dict[str, list[str]]:
    """Return {question id: [answer texts]} of a SQuAD file, in file order.

    Raise CommandError naming the file for an unreadable file, invalid JSON, a document without
    a "data" list, or any malformed entry (the first few are named, with where they are).
    """
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
    dataset = {
        question.id: [answer.text for answer in question.answers]
        for article in articles
        for paragraph in article.paragraphs
        for question in paragraph.questions
    }
    if not dataset:
        raise CommandError(f"dataset {path}: no question to score")
    unanswered = [question_id for question_id, truths in dataset.items() if not truths]
    if unanswered:
        raise CommandError(
            f"dataset {path}: {len(unanswered)} question(s) without any answer to compare "
            f"with, e.g. {unanswered[0]!r} (a held-back test split cannot be scored)"
        )
    return dataset


def load_predictions(path: str) -> dict[str, str]:
    """Return the {question id: answer} object of a predictions file.

    Raise CommandError naming the file for an unreadable file, invalid JSON, a document that is
    not an object, or an answer that is not a string (naming its id).
    """
    try:
        with Path(path).open("rb") as file:
            predictions = json.load(file)
    except OSError as error:
        raise CommandError(f"predictions {path}: cannot read the file: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise CommandError(f"predictions {path}: not valid JSON: {error}") from None
    if not isinstance(predictions, dict):
        raise CommandError(
            f"predictions {path}: expected an object {{question id: answer}}, "
            f"found {_kind(predictions)}"
        )
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


class Command(PlatformCommand):
    help = (
        "Score predictions ({question id: answer}, JSON) against a SQuAD v1.1 file like the "
        "official evaluate-v1.1.py: exact_match and f1 in percent. Default --lang en with the "
        "whitespace tokenizer, the official script's own rules; --lang fr for FQuAD's rules; "
        "--tokenizer word for languages written without spaces."
    )

    def add_command_arguments(self, parser):
        parser.add_argument("dataset", help="SQuAD v1.1 JSON file ({'version', 'data': [...]})")
        parser.add_argument("predictions", help="JSON object {question id: answer}")
        parser.add_argument(
            "--lang",
            choices=sorted(LANGUAGES),
            default=None,
            help="answer language: en (the official script's rules, the default) or fr "
            "(FQuAD's rules)",
        )
        parser.add_argument(
            "--tokenizer",
            choices=TOKENIZERS,
            default="whitespace",
            help="whitespace (default) or word (each CJK/kana/Hangul/Thai character a token; "
            "not with --lang)",
        )

    def run(self, *, dataset, predictions, lang, tokenizer, **options):
        norm = choose_normalization(lang, tokenizer)
        truths = load_dataset(dataset)
        answers = load_predictions(predictions)
        result = score(truths, answers, norm)
        return {
            "exact_match": result["exact_match"],
            "f1": result["f1"],
            "total": result["total"],
            "missing": result["missing"],
            "normalization": {"name": norm.name, "version": norm.version},
        }

    def summary(self, result):
        """The official script's output line, then the normalization and the counts."""
        official = json.dumps({"exact_match": result["exact_match"], "f1": result["f1"]})
        norm = result["normalization"]
        return (
            f"{official}\n"
            f"Normalization: {norm['name']} v{norm['version']}; {result['total']} questions, "
            f"{result['missing']} without a prediction (scored 0)"
        )
