"""The corpus: articles, their paragraphs (exactly as annotators see them), scrape runs."""

from urllib.parse import quote

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.i18n import translated
from core.languages import find
from core.models import CreatedBy, Job


class Split(models.TextChoices):
    TRAIN = "train", _("train")
    DEV = "dev", _("dev")
    TEST = "test", _("test")


class ScrapeRun(CreatedBy, Job):
    """One sample of a category's articles fetched from Wikipedia into the corpus."""

    category = models.CharField(_("category"), max_length=255)
    language = models.CharField(_("language"), max_length=12)
    sample_size = models.PositiveIntegerField(_("sample size"))
    seed = models.BigIntegerField(_("seed"))
    wave = models.CharField(_("wave"), max_length=20)
    ratios = models.JSONField(_("split weights"), default=dict)
    min_chars = models.PositiveIntegerField(_("minimum paragraph length"), default=500)
    max_chars = models.PositiveIntegerField(_("maximum paragraph length"), null=True, blank=True)
    # Frozen when the sample is drawn, so a resumed run fetches exactly the same articles.
    plan = models.JSONField(_("sampled titles and their splits"), default=list, blank=True)
    articles_total = models.PositiveIntegerField(_("articles to fetch"), default=0)
    articles_done = models.PositiveIntegerField(_("articles fetched"), default=0)
    articles_failed = models.PositiveIntegerField(_("articles failed"), default=0)
    paragraphs_kept = models.PositiveIntegerField(_("paragraphs kept"), default=0)

    class Meta(Job.Meta):
        verbose_name = _("scrape run")
        verbose_name_plural = _("scrape runs")
        # The runs page lists them newest first, a page at a time (keyset on this order).
        indexes = [models.Index(fields=["created_at", "id"], name="corpus_scraperun_created")]

    def __str__(self):
        return f"{self.category} · wave {self.wave} · #{self.pk}"


class Article(models.Model):
    """A Wikipedia article of the corpus; it belongs to exactly one split."""

    class Source(models.TextChoices):
        WIKIPEDIA = "wikipedia", _("Wikipedia")
        FILE = "file", _("file")

    language = models.CharField(_("language"), max_length=12, default="fr")
    title = models.CharField(_("title"), max_length=300)
    # The title as the source spelled it (SQuAD files may wrap it in HTML); shown escaped.
    source_title = models.CharField(_("source title"), max_length=1000, blank=True)
    page_id = models.PositiveBigIntegerField(_("page id"), null=True, blank=True)
    revision_id = models.PositiveBigIntegerField(_("revision id"), null=True, blank=True)
    url = models.URLField(_("URL"), max_length=1000, blank=True)
    wave = models.CharField(_("wave"), max_length=20)
    split = models.CharField(_("split"), max_length=8, choices=Split.choices)
    split_fixed = models.BooleanField(
        _("split fixed by an admin"),
        default=False,
        help_text=_("Set when an admin chose the split by hand; later waves keep it."),
    )
    source = models.CharField(_("source"), max_length=16, choices=Source.choices)
    scrape_run = models.ForeignKey(
        ScrapeRun,
        verbose_name=_("scrape run"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="articles",
    )
    fetched_at = models.DateTimeField(_("fetched"), null=True, blank=True)
    text_sha256 = models.CharField(_("SHA-256 of the paragraphs"), max_length=64)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("article")
        verbose_name_plural = _("articles")
        ordering = ["language", "title"]
        constraints = [
            models.UniqueConstraint(
                fields=["language", "title"], name="corpus_article_unique_title"
            ),
            models.CheckConstraint(
                condition=models.Q(split__in=Split.values), name="corpus_article_split_valid"
            ),
        ]
        indexes = [
            models.Index(fields=["split", "wave"], name="corpus_article_split_wave"),
            # The articles page: a page in title order is a walk of (title, id) from the
            # cursor, of (wave, title, id) for one wave (which also lists the waves, one
            # probe each). A title search uses a trigram index on PostgreSQL (migration 0006).
            models.Index(fields=["title", "id"], name="corpus_article_title_id"),
            models.Index(fields=["wave", "title", "id"], name="corpus_article_wave_title"),
            # The articles moved by hand, for the statistics' fingerprint (few rows).
            models.Index(
                fields=["split", "id"],
                condition=models.Q(split_fixed=True),
                name="corpus_article_fixed",
            ),
        ]

    def __str__(self):
        return self.title

    @property
    def attribution_url(self) -> str:
        """The article's address: the one fetched, else the Wikipedia page its title names.

        Imported files (PIAF, SQuAD) give a title only; the address made from it points at the
        article as it is now, not at the revision the text was taken from.
        """
        if self.url:
            return self.url
        entry = find(self.language)
        title = quote(self.title.replace(" ", "_"), safe="()',!:;")
        if entry is None:
            return f"https://{self.language.split('-')[0]}.wikipedia.org/wiki/{title}"
        return f"{entry.wiki.article_url_prefix}{title}"


class Paragraph(models.Model):
    """A paragraph; every answer offset in the system indexes `text` in code points."""

    article = models.ForeignKey(
        Article, verbose_name=_("article"), on_delete=models.CASCADE, related_name="paragraphs"
    )
    position = models.PositiveIntegerField(_("position"))
    text = models.TextField(_("text"))

    class Meta:
        verbose_name = _("paragraph")
        verbose_name_plural = _("paragraphs")
        ordering = ["article_id", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["article", "position"], name="corpus_paragraph_unique_position"
            ),
            models.CheckConstraint(
                condition=~models.Q(text=""), name="corpus_paragraph_text_not_empty"
            ),
        ]

    def __str__(self):
        return f"{self.article} §{self.position}"


class ScrapeLogEntry(models.Model):
    """What happened to one article of a run: kept paragraphs, what was dropped and why."""

    class Level(models.TextChoices):
        INFO = "info", _("info")
        WARNING = "warning", _("warning")
        ERROR = "error", _("error")

    run = models.ForeignKey(ScrapeRun, on_delete=models.CASCADE, related_name="log_entries")
    created_at = models.DateTimeField(_("time"), auto_now_add=True)
    level = models.CharField(_("level"), max_length=8, choices=Level.choices)
    title = models.CharField(_("article"), max_length=300, blank=True)
    message = models.TextField(_("message"))  # an English msgid, translated when shown
    message_params = models.JSONField(_("message values"), default=dict, blank=True)
    dropped = models.JSONField(_("dropped blocks"), default=list, blank=True)

    class Meta:
        verbose_name = _("scrape log entry")
        verbose_name_plural = _("scrape log entries")
        ordering = ["run_id", "pk"]
        # A run's log, a page at a time in the order it was written (one entry per article).
        # Ordered by time, not by id alone: for (run, id) the planner walks the primary key
        # instead, through every entry of the runs before, as if a run's were spread evenly.
        indexes = [
            models.Index(fields=["run", "created_at", "id"], name="corpus_scrapelog_run_time")
        ]

    def __str__(self):
        return f"{self.level}: {self.title} {self.message[:60]}"

    @property
    def message_text(self) -> str:
        """The message in the reader's language."""
        return translated(self.message, self.message_params)
