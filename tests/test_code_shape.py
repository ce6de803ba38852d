"""bench/code_shape.py sorts the `duplicates` tool's pairs by what their first place holds, so
that issue 26's count says how many pairs are declarations, route tables, keyword rows, data
tables, and how many are other code (each of those written down in docs/architecture.md)."""

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_bench():
    spec = importlib.util.spec_from_file_location("code_shape", ROOT / "bench" / "code_shape.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


shape = load_bench()

FIELDS = """
    created_at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        verbose_name = _("model round")
        verbose_name_plural = _("model rounds")
        ordering = ["campaign_id", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "number"],
                name="annotation_modelround_number",
            ),
        ]
"""
CHOICES = """
    class Status(models.TextChoices):
        OPEN = "open", _("in qualification")
        PASSED = "passed", _("passed")
        FAILED = "failed", _("failed")
        RESET = "reset", _("started again")
        LEFT = "left", _("left")
"""
ROUTES = """
    path("manage/results/", results.results_page, name="results"),
    path(
        "manage/results/scores/",
        results_tables.scores_page,
        name="results-scores",
    ),
    path("manage/results/runs/", results.runs_page, name="results-runs"),
"""
KEYWORDS = """
    return Submission.objects.create(
        release=release,
        split=split,
        submitted_by=user,
        label=label,
        exact_match=exact,
        f1=f1,
    )
"""
MESSAGES = """
    ("Thai", "\\u0e00", "\\u0e7f"),
    ("Hangul Jamo", "\\u1100", "\\u11ff"),
    ("Hiragana", "\\u3040", "\\u309f"),
    ("Katakana", "\\u30a0", "\\u30ff"),
    ("CJK", "\\u4e00", "\\u9fff"),
    ("Hangul", "\\uac00", "\\ud7af"),
"""
LOGIC = """
    try:
        with path.open(encoding="utf-8") as handle:
            data = json.load(handle)
    except OSError as error:
        raise CorpusFileError(f"{path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise CorpusFileError(f"{path}: not JSON ({error.msg})") from None
    if not isinstance(data, dict):
        raise CorpusFileError(f"{path}: not a JSON object")
"""


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (FIELDS, "declarations"),
        (CHOICES, "declarations"),
        (ROUTES, "routes"),
        (KEYWORDS, "keyword rows"),
        (MESSAGES, "data tables"),
        (LOGIC, "other"),
        ("\n\n    )\n", "other"),  # nothing but punctuation: no kind holds
    ],
)
def test_a_run_is_sorted_by_what_most_of_its_lines_are(text, kind):
    assert shape.pair_kind(text.splitlines()) == kind


def test_the_tally_reads_each_pairs_first_place_and_marks_its_row(tmp_path):
    (tmp_path / "a.py").write_text(KEYWORDS + LOGIC, encoding="utf-8")
    rows = [
        "3 pairs of places (2 files read), each sharing runs of 6 or more ...",
        "D1 a.py:2-9 ~ b.py:40-47 shape",
        "D2 a.py:10-19 ~ b.py:3-12 shape (+1 more run)",
        "left out: 1 run of 6 lines that stands in more than 8 places (too common to list)",
    ]
    counts, marked = shape.tally(rows, root=tmp_path)
    assert counts == {
        "declarations": 0,
        "routes": 0,
        "keyword rows": 1,
        "data tables": 0,
        "other": 1,
    }
    assert marked == [
        "D1 a.py:2-9 ~ b.py:40-47 shape  [keyword rows]",
        "D2 a.py:10-19 ~ b.py:3-12 shape (+1 more run)  [other]",
    ]
