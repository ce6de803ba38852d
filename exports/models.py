"""Releases: a dataset export built by a background job, immutable once finished."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.models import CreatedBy, Job, optional_key


class Release(CreatedBy, Job):
    """A named, versioned export of the annotated corpus in one or more formats.

    `options` holds what the admin chose (formats, splits, approved only, test answers held
    back or not, review history or not); `manifest` what the build wrote. The files are rows
    of `ReleaseFile`, created in the same transaction that marks the release done, so a
    release either has all its files or none.
    """

    name = models.CharField(_("name"), max_length=100, unique=True)
    version = models.CharField(_("version"), max_length=32)
    description = models.TextField(_("description"), blank=True)
    options = models.JSONField(_("options"), default=dict)
    manifest = models.JSONField(_("manifest"), default=dict, blank=True)
    # The baselines to run once the build succeeds (issue 17): [{"kind": "lexical"} |
    # {"kind": "finetune", "model", "hyperparameters"} | {"kind": "http", "model"}, …].
    score_with = models.JSONField(_("score with"), default=list, blank=True)
    # A scheduled snapshot (docs/release-schedules.md): its schedule, the digest of the data
    # it was built from, and when the schedule's retention deleted its downloadable files
    # (the rows, manifest, scores and the internal answers stay).
    schedule = optional_key(
        "exports.ReleaseSchedule", models.SET_NULL, "snapshots", verbose_name=_("schedule")
    )
    data_fingerprint = models.CharField(_("data fingerprint"), max_length=64, blank=True)
    files_pruned_at = models.DateTimeField(_("files removed"), null=True, blank=True)

    class Meta(Job.Meta):
        verbose_name = _("release")
        verbose_name_plural = _("releases")
        indexes = [
            # Pages at scale (issue 13): the list of releases, newest first, a page at a time
            # (keyset on created_at, id), and the finished ones offered by the choosers
            # (compare, results, leaderboard).
            models.Index(fields=["-created_at", "-id"], name="exports_release_listed"),
            models.Index(
                fields=["-created_at", "-id"],
                condition=models.Q(status="succeeded"),
                name="exports_release_finished",
            ),
        ]

    def __str__(self):
        return f"{self.name} {self.version}"

    @property
    def squad_version(self) -> str:
        """The dataset's kind, chosen when the release is made (`options["squad_version"]`):
        "1.1" (answerable questions only) or "2.0" (with unanswerable ones)."""
        return self.options.get("squad_version", "1.1")

    @property
    def storage_prefix(self) -> str:
        return f"releases/{self.pk}"


class ReleaseSchedule(CreatedBy, models.Model):
    """Snapshots of a campaign group built by Celery beat (docs/release-schedules.md).

    At each slot (hourly, daily at `hour`, weekly on `weekday` at `hour`, in the server's
    time zone) the tick builds a release of the group's questions with `options`, scored
    with `score_with`, unless the data has not changed since the last snapshot
    (`last_fingerprint`); only the last `keep_last` snapshots keep their files.
    """

    class Frequency(models.TextChoices):
        HOURLY = "hourly", _("every hour")
        DAILY = "daily", _("every day")
        WEEKLY = "weekly", _("every week")

    name = models.CharField(_("name"), max_length=80, unique=True)
    version = models.CharField(_("version"), max_length=16, default="1.0")
    campaigns = models.ManyToManyField(
        "annotation.Campaign", verbose_name=_("campaigns"), blank=True, related_name="+"
    )
    frequency = models.CharField(_("frequency"), max_length=8, choices=Frequency.choices)
    hour = models.PositiveSmallIntegerField(_("hour"), default=2)
    weekday = models.PositiveSmallIntegerField(_("weekday"), default=0)  # 0: Monday
    # The release options (formats, splits, approved_only, include_test_answers,
    # include_history, squad_version), as `exports.options.check_options` keeps them.
    options = models.JSONField(_("release options"), default=dict)
    score_with = models.JSONField(_("score with"), default=list, blank=True)
    keep_last = models.PositiveIntegerField(_("snapshots that keep their files"), default=5)
    enabled = models.BooleanField(_("enabled"), default=True)
    next_run_at = models.DateTimeField(_("next run"), null=True, blank=True)
    last_checked_at = models.DateTimeField(_("last checked"), null=True, blank=True)
    last_fingerprint = models.CharField(_("last fingerprint"), max_length=64, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("release schedule")
        verbose_name_plural = _("release schedules")
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(keep_last__gte=1), name="exports_schedule_keeps_one"
            ),
            models.CheckConstraint(
                condition=models.Q(hour__lte=23, weekday__lte=6),
                name="exports_schedule_slot_in_range",
            ),
        ]
        indexes = [
            # The tick's question: which enabled schedules are due.
            models.Index(
                fields=["next_run_at"],
                condition=models.Q(enabled=True),
                name="exports_schedule_due",
            ),
        ]

    def __str__(self):
        return self.name


class ReleaseFile(models.Model):
    """One file of a finished release: where it is stored, its size, digest and counts."""

    release = models.ForeignKey(Release, on_delete=models.CASCADE, related_name="files")
    name = models.CharField(_("name"), max_length=200)
    storage_name = models.CharField(_("stored as"), max_length=300)
    bytes = models.BigIntegerField(_("bytes"))
    sha256 = models.CharField(_("SHA-256"), max_length=64)
    counts = models.JSONField(_("counts"), default=dict)
    media_type = models.CharField(_("media type"), max_length=100)
    # Kept on the server for scoring (the answers of every split, test included); never
    # downloadable and not in the manifest.
    internal = models.BooleanField(_("internal"), default=False)

    class Meta:
        verbose_name = _("release file")
        verbose_name_plural = _("release files")
        ordering = ["release_id", "name"]
        constraints = [
            models.UniqueConstraint(fields=["release", "name"], name="exports_file_one_per_name"),
        ]

    def __str__(self):
        return self.name


class TokenCache(models.Model):
    """A text's tokens as a tokenizer gave them, kept so that the next MRQA export does not
    tokenize the same paragraph or question again (`exports.services.tokens.CachedTokenizer`).

    The key is the SHA-256 of the tokenizer's name (spaCy's version and the pipeline's) and
    the text, so a changed text or another tokenizer is another entry; nothing else points
    here, and the table can be emptied at any time (the next export fills it again). The
    tokens are (start, length) pairs of code-point offsets, packed as little-endian 32-bit
    integers: about 8 bytes a token, a tenth of their JSON.
    """

    key = models.CharField(_("key"), max_length=64, primary_key=True)
    spans = models.BinaryField(_("token spans"))

    class Meta:
        verbose_name = _("cached tokens")
        verbose_name_plural = _("cached tokens")

    def __str__(self):
        return self.key


class TokenSweep(models.Model):
    """How far the background sweep has kept tokens ahead (`exports.services.tokens.tokens_ahead`),
    per tokenizer: every paragraph and question up to these ids has its tokens kept."""

    tokenizer = models.CharField(_("tokenizer"), max_length=200, primary_key=True)
    paragraph_id = models.BigIntegerField(_("last paragraph"), default=0)
    question_id = models.BigIntegerField(_("last question"), default=0)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("token sweep")
        verbose_name_plural = _("token sweeps")

    def __str__(self):
        return self.tokenizer
