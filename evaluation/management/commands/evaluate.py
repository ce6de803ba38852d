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
- ``--lang LANG``, any other language of the registry: its community's mode
  (``evaluation.metrics.LANGUAGE_NORMALIZATIONS``: es, de, vi, ar, hi, zh → MLQA's; ko →
  KorQuAD's character F1; th → M2QA's Thai words; docs/metrics.md has the table);
- ``--normalization NAME``: any mode by its stored name (``mlqa-en``, ``korquad-chars``,
  ``m2qa-zh``…, and ``word``, the old name of ``chars``); not with ``--lang`` or ``--tokenizer``;
- ``--tokenizer chars`` (``word``, its old name, still works): ``chars``, for languages written
  without spaces (each CJK, kana, Hangul or Thai character a token, Unicode punctuation
  removed, no article list). It has no language, so it is refused together with ``--lang``.

A mode that needs a missing optional package (m2qa-zh: jieba; m2qa-th: pythainlp) is refused
with the package's name and how to install it, before anything is read.

Where the command is stricter than the official script (which crashes or silently miscounts):
a malformed dataset entry (a question without an id, a duplicate id, an answer without text…)
is an error naming where it is, not skipped, since skipping would change the total; a question
without any answer (a held-back test split) is an error; every prediction must be a string.
The dataset's ``version`` is not checked (PIAF's files say "1.0" and have the same format), and
predictions for questions outside the dataset are ignored, as the official script does. The
official script's "Unanswered question … will receive score 0." line per question without a
prediction becomes the ``missing`` count.

SQuAD v2.0 (unanswerable questions): a dataset whose ``version`` is "v2.0" (or "2.0") or that has
any ``is_impossible`` key is scored like the official ``evaluate-v2.0.py`` (``evaluation.metrics
.score_v2``); ``--squad-version 1.1|2.0`` forces either. A question with ``"answers": []`` is then
unanswerable, and a prediction "" says "no answer"; a question without answers whose
``is_impossible`` is false is a held-back one, an error as in v1.1. ``--na-prob FILE`` reads the
official ``na_prob.json`` ({question id: probability of no answer}, every number in [0, 1], one
for every question that has a prediction) and adds ``best_exact``, ``best_f1`` and their
thresholds; ``--na-prob-thresh`` (default 1.0) is the official option of that name. The output
has the official v2.0 keys (``exact``, ``f1``, ``total``, ``HasAns_*``, ``NoAns_*``, ``best_*``),
then ours: ``missing``, ``no_answer`` (telling unanswerable questions apart, FQuAD 2.0's
classification: precision, recall, F1 and the counts), ``normalization`` and ``squad_version``.
"""

import json

from django.core.management.base import CommandError

from core.commands import PlatformCommand
from evaluation.metrics import (
    ALIASES,
    CHARS,
    LANGUAGE_NORMALIZATIONS,
    NORMALIZATIONS,
    MissingTokenizer,
    Normalization,
    no_answer_classification,
    normalization,
    score,
    score_v2,
)
from evaluation.squad_inputs import (
    dataset_document,
    dataset_squad_version,
    load_dataset,
    load_na_probs,
    load_predictions,
)

LANGUAGES = LANGUAGE_NORMALIZATIONS  # --lang: the languages with a normalization of their own
DEFAULT_LANGUAGE = "en"
TOKENIZERS = ("whitespace", "chars", "word")  # word: the old name of chars
MODE_NAMES = (*NORMALIZATIONS, *ALIASES)
SQUAD_VERSIONS = ("1.1", "2.0")


def choose_normalization(
    lang: str | None, tokenizer: str, name: str | None = None
) -> Normalization:
    """Return the normalization for --lang, --tokenizer and --normalization, its optional
    package checked; CommandError for options that contradict or a package that is missing."""
    if name is not None:
        if lang is not None or tokenizer != "whitespace":
            raise CommandError(
                "--normalization names the mode itself: leave out --lang and --tokenizer"
            )
        norm = normalization(name)
    elif tokenizer in ("chars", "word"):
        if lang is not None:
            raise CommandError(
                f"--tokenizer {tokenizer} uses the 'chars' normalization, which has no article "
                "list and no language: leave out --lang"
            )
        norm = CHARS
    else:
        norm = LANGUAGES[lang or DEFAULT_LANGUAGE]
    try:
        norm.require()
    except MissingTokenizer as error:
        raise CommandError(str(error)) from None
    return norm


class Command(PlatformCommand):
    help = (
        "Score predictions ({question id: answer}, JSON) against a SQuAD file like the official "
        "evaluate-v1.1.py (exact_match and f1 in percent) or, for a SQuAD 2.0 file, "
        'evaluate-v2.0.py (exact, f1, HasAns_*, NoAns_*, best_* with --na-prob; "" = no '
        "answer). Default --lang en with the whitespace tokenizer, the official scripts' own "
        "rules; --lang fr for FQuAD's rules, --lang LANG for that language's community's mode; "
        "--normalization NAME for any mode; --tokenizer chars for languages written without "
        "spaces."
    )

    def add_command_arguments(self, parser):
        parser.add_argument(
            "dataset", help="SQuAD v1.1 or v2.0 JSON file ({'version', 'data': [...]})"
        )
        parser.add_argument("predictions", help="JSON object {question id: answer}")
        _add_normalization_arguments(parser)
        parser.add_argument(
            "--squad-version",
            choices=SQUAD_VERSIONS,
            default=None,
            help="score as SQuAD 1.1 or 2.0 (default: 2.0 for a file whose version is v2.0 or "
            "that has is_impossible keys, else 1.1)",
        )
        parser.add_argument(
            "--na-prob",
            default=None,
            metavar="FILE",
            help="v2.0: JSON object {question id: probability of no answer, in [0, 1]}; adds "
            "best_exact, best_f1 and their thresholds",
        )
        parser.add_argument(
            "--na-prob-thresh",
            type=float,
            default=1.0,
            help='v2.0: predict "" where the no-answer probability exceeds this (default 1.0)',
        )

    def run(
        self, *, dataset, predictions, lang, tokenizer, squad_version, na_prob, na_prob_thresh,
        normalization=None, **options,
    ):  # fmt: skip
        norm = choose_normalization(lang, tokenizer, normalization)
        document = dataset_document(dataset)
        version = squad_version or dataset_squad_version(document)
        if version == "1.1" and (na_prob is not None or na_prob_thresh != 1.0):
            raise CommandError(
                "--na-prob and --na-prob-thresh score SQuAD v2.0 (unanswerable questions): "
                "this dataset is scored as v1.1; add --squad-version 2.0"
            )
        truths = load_dataset(dataset, squad_version=version, document=document)
        answers = load_predictions(predictions)
        if version == "2.0":
            return self.run_v2(truths, answers, norm, na_prob, na_prob_thresh)
        result = score(truths, answers, norm)
        return {
            "exact_match": result["exact_match"],
            "f1": result["f1"],
            "total": result["total"],
            "missing": result["missing"],
            "normalization": {"name": norm.name, "version": norm.version},
        }

    def run_v2(self, truths, answers, norm, na_prob, na_prob_thresh) -> dict:
        na_probs = load_na_probs(na_prob, truths, answers) if na_prob is not None else None
        result = score_v2(truths, answers, na_probs, norm, na_prob_thresh)
        return result | {
            "no_answer": no_answer_classification(truths, answers, norm),
            "normalization": {"name": norm.name, "version": norm.version},
            "squad_version": "2.0",
        }

    def summary(self, result):
        """The official script's output line, then the normalization and the counts."""
        if result.get("squad_version") == "2.0":
            return self.summary_v2(result)
        norm = result["normalization"]
        official = json.dumps({"exact_match": result["exact_match"], "f1": result["f1"]})
        return (
            f"{official}\n"
            f"Normalization: {norm['name']} v{norm['version']}; {result['total']} questions, "
            f"{result['missing']} without a prediction (scored 0)"
        )

    def summary_v2(self, result):
        """The official v2.0 figures as one JSON line, then ours."""
        ours = ("missing", "no_answer", "normalization", "squad_version")
        official = json.dumps({key: value for key, value in result.items() if key not in ours})
        norm = result["normalization"]
        no_answer = result["no_answer"]
        return (
            f"{official}\n"
            f"SQuAD v2.0; normalization: {norm['name']} v{norm['version']}; "
            f"{result['total']} questions ({result.get('HasAns_total', 0)} answerable, "
            f"{result.get('NoAns_total', 0)} unanswerable), {result['missing']} without a "
            f"prediction (scored 0)\n"
            f"No answer (unanswerable = positive): precision {_figure(no_answer['precision'])}, "
            f"recall {_figure(no_answer['recall'])}, F1 {_figure(no_answer['f1'])}"
        )


def _figure(value) -> str:
    return "—" if value is None else f"{value:.2f}"


def _add_normalization_arguments(parser) -> None:
    """How answers are normalized: by language, by mode name, or by tokenizer."""
    parser.add_argument(
        "--lang",
        choices=sorted(LANGUAGES),
        default=None,
        help="answer language: en (the official script's rules, the default), fr "
        "(FQuAD's rules), or another language's community mode (MLQA, KorQuAD, M2QA)",
    )
    parser.add_argument(
        "--normalization",
        choices=MODE_NAMES,
        default=None,
        help="the mode by name (e.g. mlqa-de, korquad-chars, m2qa-zh); not with --lang or "
        "--tokenizer",
    )
    parser.add_argument(
        "--tokenizer",
        choices=TOKENIZERS,
        default="whitespace",
        help="whitespace (default) or chars (each CJK/kana/Hangul/Thai character a token; "
        "not with --lang); word is the old name of chars",
    )
