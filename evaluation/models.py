"""Evaluation: leaderboard submissions, baseline runs and dataset analyses."""

from urllib.parse import urlsplit

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.models import CreatedBy, Job, optional_key
from evaluation.run_failures import run_failure


class Submission(models.Model):
    """Predictions ({question id: answer}) scored against a split of a finished release.

    The answers they are scored against never leave the server (the release's internal gold
    files); only the figures are stored and shown.
    """

    class Split(models.TextChoices):
        DEV = "dev", _("dev")
        TEST = "test", _("test")

    release = models.ForeignKey(
        "exports.Release", on_delete=models.CASCADE, related_name="submissions"
    )
    split = models.CharField(_("split"), max_length=8, choices=Split.choices)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="submissions"
    )
    label = models.CharField(_("model or team"), max_length=200)
    exact_match = models.FloatField(_("exact match (%)"))
    f1 = models.FloatField(_("F1 (%)"))
    total = models.PositiveIntegerField(_("questions"))
    normalization = models.CharField(_("normalization"), max_length=32)
    normalization_version = models.CharField(_("normalization version"), max_length=16)
    # SQuAD v2.0 releases: {"squad_version": "2.0", HasAns_*, NoAns_*, best_* (with no-answer
    # probabilities), "no_answer": {precision, recall, f1, counts}}; {} for a v1.1 submission.
    metrics = models.JSONField(_("SQuAD v2.0 figures"), default=dict, blank=True)
    created_at = models.DateTimeField(_("submitted"), auto_now_add=True)

    class Meta:
        verbose_name = _("submission")
        verbose_name_plural = _("submissions")
        ordering = ["-f1", "-exact_match", "created_at", "pk"]
        indexes = [
            # Pages at scale (issue 13): a split's leaderboard is its best submissions, read
            # in the ranking's order straight from this index (a bounded top).
            models.Index(
                fields=["release", "split", "-f1", "-exact_match", "created_at", "id"],
                name="evaluation_submission_board",
            ),
        ]

    def __str__(self):
        return f"{self.label} · {self.split} · F1 {self.f1:.1f}"


class BaselineRun(CreatedBy, Job):
    """A baseline scored on a release: lexical (CPU), fine-tuned or evaluate-only (GPU worker),
    or a model served over HTTP by the MRQA predict-server protocol."""

    class Kind(models.TextChoices):
        LEXICAL = "lexical", _("sliding window (lexical, CPU)")
        FINETUNE = "finetune", _("fine-tune a transformer, then evaluate")
        EVALUATE = "evaluate", _("evaluate a fine-tuned transformer")
        HTTP = "http", _("a model served over HTTP (MRQA protocol)")
        LEARNING_CURVE = "learning_curve", _("learning curve (fine-tune on nested fractions)")

    class Mode(models.TextChoices):
        """How a fine-tuning run's training data relates to the release it is scored on
        ("" for the other kinds, which train nothing)."""

        IN_DOMAIN = "in_domain", _("trained on this release")
        ZERO_SHOT = "zero_shot", _("zero-shot (trained elsewhere)")
        TRANSLATE_TRAIN = "translate_train", _("translate-train")
        AUGMENTED = "augmented", _("augmented (union of sources)")

    release = models.ForeignKey(
        "exports.Release", on_delete=models.CASCADE, related_name="baseline_runs"
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    model = models.CharField(_("model (hub name, local path or URL)"), max_length=500, blank=True)
    hyperparameters = models.JSONField(_("hyper-parameters"), default=dict, blank=True)
    device = models.CharField(_("device"), max_length=100, blank=True)
    metrics = models.JSONField(_("scores per split"), default=dict, blank=True)
    breakdown = models.JSONField(_("scores per question and answer type"), default=dict, blank=True)
    log = models.TextField(_("log"), blank=True)
    checkpoint = models.CharField(_("checkpoint folder"), max_length=500, blank=True)
    normalization = models.CharField(_("normalization"), max_length=32, blank=True)
    normalization_version = models.CharField(_("normalization version"), max_length=16, blank=True)
    # What a fine-tuning run trained on (docs/experiments.md): [] is the release's own train
    # split (the default, as before); else [{"type": "release" | "file", "id", "label"}], the
    # union of those sources, each named as it was when the run started.
    train_sources = models.JSONField(_("training sources"), default=list, blank=True)
    mode = models.CharField(_("mode"), max_length=16, choices=Mode.choices, blank=True)
    # A run a release asked for when it was built (issue 17): its place in the release's
    # `score_with` list ("score-0", "score-1"…); unique per release, so a redelivered build
    # task cannot start the same baseline twice. "" for the runs an admin started.
    scoring_key = models.CharField(_("scoring slot"), max_length=64, blank=True)
    # A learning-curve run (issue 17): its points (fraction, training questions, dev EM/F1,
    # per question and answer type) and the fitted curve.
    curve = models.JSONField(_("learning curve"), default=dict, blank=True)

    class Meta(Job.Meta):
        verbose_name = _("baseline run")
        verbose_name_plural = _("baseline runs")
        constraints = [
            *Job.Meta.constraints,
            models.UniqueConstraint(
                fields=["release", "scoring_key"],
                condition=~models.Q(scoring_key=""),
                name="evaluation_run_one_per_scoring_slot",
            ),
        ]
        indexes = [
            # A release's runs, newest first, a page at a time (keyset on created_at, id).
            models.Index(
                fields=["release", "-created_at", "-id"], name="evaluation_run_by_release"
            ),
        ]

    def __str__(self):
        return f"{self.get_kind_display()} · {self.model_name or '—'}"

    @property
    def failure_text(self) -> str:
        """What failed and what to do, above the raw error (`evaluation.run_failures`)."""
        return run_failure(self.kind, self.error)

    @property
    def model_name(self) -> str:
        """Return the model's short name for tables: a folder's or hub name's last part, or
        an HTTP model's host (never the rest of its address, which may hold a token)."""
        if not self.model:
            return ""
        if self.kind == self.Kind.HTTP:
            return urlsplit(self.model).hostname or ""
        return self.model.rstrip("/").rsplit("/", 1)[-1]


class TrainingFile(CreatedBy):
    """A SQuAD-format file (v1.1 or v2.0) an admin imported to train baselines on: a translated
    SQuAD, another team's dataset. Stored in the releases storage like release files, checked
    when imported; private to its uploader unless shared with the other admins."""

    name = models.CharField(_("name"), max_length=200)
    language = models.CharField(_("language"), max_length=16, blank=True)
    translated = models.BooleanField(_("machine-translated"), default=False)
    shared = models.BooleanField(_("shared with the other admins"), default=False)
    storage_name = models.CharField(_("stored as"), max_length=300, blank=True)
    bytes = models.BigIntegerField(_("bytes"), default=0)
    sha256 = models.CharField(_("SHA-256"), max_length=64, blank=True)
    squad_version = models.CharField(_("SQuAD version"), max_length=8, default="1.1")
    # {"articles", "paragraphs", "questions", "answerable", "unanswerable", "skipped"}
    counts = models.JSONField(_("counts"), default=dict, blank=True)
    # The questions the import skipped, in the file's order (the first 1,000; `counts` has
    # them all): [{"id": the qa's id or null, "reason": "misaligned" | "unanswered" |
    # "malformed", "detail": where and what, in English like the reader's reports}].
    skipped = models.JSONField(_("skipped questions"), default=list, blank=True)
    created_at = models.DateTimeField(_("imported"), auto_now_add=True)

    class Meta:
        verbose_name = _("training file")
        verbose_name_plural = _("training files")
        ordering = ["-created_at", "-id"]

    def __str__(self):
        return self.name


class DatasetAnalysis(CreatedBy, Job):
    """Answer types (spaCy) and other figures of the corpus, computed by a background job."""

    results = models.JSONField(_("results"), default=dict, blank=True)

    class Meta(Job.Meta):
        verbose_name = _("dataset analysis")
        verbose_name_plural = _("dataset analyses")
        indexes = [
            # The analysis page reads the newest analysis and the newest finished one: one
            # index probe each, however many analyses were run.
            models.Index(fields=["-created_at", "-id"], name="evaluation_analysis_latest"),
            models.Index(
                fields=["-finished_at", "-id"],
                condition=models.Q(status="succeeded"),
                name="evaluation_analysis_done",
            ),
        ]

    def __str__(self):
        return f"analysis {self.pk} ({self.status})"


class CrossEvaluation(CreatedBy, Job):
    """A finished baseline run scored on another dataset (docs/experiments.md): the dev or test
    split of another finished release, or an imported SQuAD-format file (`TrainingFile`), as
    the FQuAD paper scores a FQuAD-trained model on SQuAD's dev set and back. The results
    page's cross-dataset matrix shows it as a column beside the run's own release's splits."""

    class Split(models.TextChoices):
        DEV = "dev", _("dev")
        TEST = "test", _("test")

    run = models.ForeignKey(BaselineRun, on_delete=models.CASCADE, related_name="cross_evaluations")
    release = optional_key("exports.Release", models.CASCADE, "cross_evaluations")
    # A release's split; "" for an imported file (all its answerable questions).
    split = models.CharField(_("split"), max_length=8, choices=Split.choices, blank=True)
    # A deleted file leaves the figures, under the name it had (`target_label`).
    training_file = optional_key(TrainingFile, models.SET_NULL, "cross_evaluations")
    file_key = models.PositiveBigIntegerField(_("file scored"), null=True, blank=True)
    target_label = models.CharField(_("scored on"), max_length=300)
    metrics = models.JSONField(_("scores"), default=dict, blank=True)
    breakdown = models.JSONField(_("scores per question and answer type"), default=dict, blank=True)
    normalization = models.CharField(_("normalization"), max_length=32, blank=True)
    normalization_version = models.CharField(_("normalization version"), max_length=16, blank=True)

    class Meta(Job.Meta):
        verbose_name = _("cross-dataset evaluation")
        verbose_name_plural = _("cross-dataset evaluations")
        constraints = [
            *Job.Meta.constraints,
            # A release's split, or a file: never both, never neither when recorded.
            models.CheckConstraint(
                condition=(
                    models.Q(
                        release__isnull=False, split__in=["dev", "test"], file_key__isnull=True
                    )
                    | models.Q(release__isnull=True, split="", file_key__isnull=False)
                ),
                name="evaluation_crossevaluation_one_target",
            ),
            # One evaluation per run and target: a second request is refused (409), a failed
            # one is replaced.
            models.UniqueConstraint(
                fields=["run", "release", "split"],
                condition=models.Q(release__isnull=False),
                name="evaluation_crossevaluation_one_per_split",
            ),
            models.UniqueConstraint(
                fields=["run", "file_key"],
                condition=models.Q(file_key__isnull=False),
                name="evaluation_crossevaluation_one_per_file",
            ),
        ]

    def __str__(self):
        return f"run {self.run_id} on {self.target_label}"

    @property
    def target_key(self) -> str:
        """The matrix column this evaluation fills: "release-<id>-<split>" or "file-<id>"."""
        if self.file_key is not None:
            return f"file-{self.file_key}"
        return f"release-{self.release_id}-{self.split}"
