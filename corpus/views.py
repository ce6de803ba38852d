"""Corpus pages for admins: articles, statistics, scrape runs."""

from urllib.parse import urlencode

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.charts import bar_chart
from core.errors import ServiceError
from core.forms import form_add_service_errors
from core.pagination import page_cursors
from core.permissions import role_required
from core.roles import Role
from core.services.figure_jobs import figure_read
from core.views import job_status_response
from corpus.forms import ArticleFilterForm, ArticleSplitForm, ScrapeRunForm
from corpus.models import Article, ScrapeRun
from corpus.selectors import (
    STATS_FIGURE,
    article_list_page,
    next_wave,
    scrape_log_page,
    scrape_run_list_page,
    scraping_source,
    waves,
)
from corpus.services.articles import article_set_split
from corpus.services.scraping import scrape_run_can_resume, scrape_run_resume, scrape_run_start

admin_only = role_required(Role.ADMIN)


@admin_only
def articles_page(request):
    """The articles in title order, a page at a time (keyset: "previous" and "next", no page
    numbers and no total). An old `?page=N` link shows the first page; a refused cursor
    answers 400 with the first page and says why."""
    form = ArticleFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    filters = {name: filters.get(name, "") for name in ("split", "wave", "q")}
    page = article_list_page(
        split=filters["split"],
        wave=filters["wave"],
        query=filters["q"],
        **page_cursors(request.GET),
    )
    return render(
        request,
        "corpus/articles.html",
        {
            "form": form,
            "page": page,
            "waves": waves(),
            "query": urlencode({name: value for name, value in filters.items() if value}),
        },
        status=page.status,
    )


@admin_only
@require_http_methods(["GET", "POST"])
def article_page(request, pk: int):
    article = get_object_or_404(Article, pk=pk)
    form, status = ArticleSplitForm(initial={"split": article.split}), 200
    if request.method == "POST":
        form = ArticleSplitForm(request.POST)
        if form.is_valid():
            article_set_split(article=article, split=form.cleaned_data["split"])
            return redirect("corpus:article", pk=article.pk)
        status = 400
    return render(
        request,
        "corpus/article.html",
        {
            "article": article,
            "paragraphs": article.paragraphs.all(),
            "form": form,
        },
        status=status,
    )


@admin_only
def stats_page(request):
    """The corpus statistics: computed now on a small corpus, else the stored figure (with
    the time it was computed; a job counts again when the corpus changed)."""
    figure = figure_read(STATS_FIGURE)
    stats = figure.value or {"rows": [], "totals": []}
    titles = {
        "articles": _("Articles per split"),
        "paragraphs": _("Paragraphs per split"),
        "questions": _("Questions per split"),
    }
    charts = [
        bar_chart(title, [(t["split"], t[key]) for t in stats["totals"]])
        for key, title in titles.items()
        if figure.value is not None
    ]
    return render(request, "corpus/stats.html", {**stats, "charts": charts, "figure": figure})


@admin_only
@require_http_methods(["GET", "POST"])
def scrape_runs_page(request):
    form, status = ScrapeRunForm(initial={"sample": 12, "wave": next_wave()}), 200
    if request.method == "POST":
        form = ScrapeRunForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                run = scrape_run_start(
                    category=data["category"],
                    sample_size=data["sample"],
                    seed=data["seed"],
                    wave=data["wave"],
                    language=data.get("language") or None,
                    created_by=request.user,
                )
            except ServiceError as error:
                form_add_service_errors(form, error)
            else:
                return redirect("corpus:scrape-run", pk=run.pk)
        status = 400
    runs = scrape_run_list_page(**page_cursors(request.GET))
    if runs.errors:
        status = 400
    context = {"form": form, "runs": runs, "source": scraping_source()}
    return render(request, "corpus/scrape_runs.html", context, status=status)


@admin_only
def scrape_run_page(request, pk: int):
    """A run, its counters (polled while it runs) and its log, a page at a time."""
    run = get_object_or_404(ScrapeRun.objects.defer("plan"), pk=pk)
    if request.htmx:
        return render(request, "corpus/scrape_run.html#scrape-run-counters", {"run": run})
    entries = scrape_log_page(run, **page_cursors(request.GET))
    return render(
        request,
        "corpus/scrape_run.html",
        {"run": run, "entries": entries, "can_resume": scrape_run_can_resume(run)},
        status=entries.status,
    )


@admin_only
def scrape_run_status(request, pk: int):
    """The status partial. The counters and the log beside it do not poll: when the status the
    page is polling ends, the page reloads once (htmx's HX-Refresh), so that a run seen to be
    done shows its log, not "Nothing logged yet" and a hint to reload."""
    run = get_object_or_404(ScrapeRun, pk=pk)
    response = job_status_response(request, run)
    if run.is_finished and request.headers.get("HX-Request") == "true":
        response["HX-Refresh"] = "true"
    return response


@admin_only
@require_http_methods(["POST"])
def scrape_run_resume_view(request, pk: int):
    run = get_object_or_404(ScrapeRun, pk=pk)
    try:
        scrape_run_resume(run=run)
    except ServiceError as error:
        messages.error(request, error.summary())
        return redirect("corpus:scrape-run", pk=run.pk)
    messages.success(request, _("The run starts again where it stopped."))
    return redirect("corpus:scrape-run", pk=run.pk)
