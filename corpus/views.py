"""Corpus pages for admins: articles, statistics, scrape runs."""

from django.contrib import messages
from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from core.charts import bar_chart
from core.errors import ServiceError
from core.forms import form_add_service_errors
from core.permissions import role_required
from core.roles import Role
from core.views import job_status_response
from corpus.forms import ArticleFilterForm, ArticleSplitForm, ScrapeRunForm
from corpus.models import Article, ScrapeRun
from corpus.scraping import scrape_run_can_resume, scrape_run_resume, scrape_run_start
from corpus.selectors import article_list, corpus_stats, next_wave, scraping_source, waves
from corpus.services import article_set_split

admin_only = role_required(Role.ADMIN)


@admin_only
def articles_page(request):
    form = ArticleFilterForm(request.GET or None)
    filters = form.cleaned_data if form.is_valid() else {}
    articles = article_list(
        split=filters.get("split", ""), wave=filters.get("wave", ""), query=filters.get("q", "")
    )
    page = Paginator(articles, 50).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    return render(
        request,
        "corpus/articles.html",
        {
            "form": form,
            "page": page,
            "waves": waves(),
            "query": query.urlencode(),
        },
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
    stats = corpus_stats()
    titles = {
        "articles": _("Articles per split"),
        "paragraphs": _("Paragraphs per split"),
        "questions": _("Questions per split"),
    }
    charts = [
        bar_chart(title, [(t["split"], t[key]) for t in stats["totals"]])
        for key, title in titles.items()
    ]
    return render(request, "corpus/stats.html", {**stats, "charts": charts})


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
                    created_by=request.user,
                )
            except ServiceError as error:
                form_add_service_errors(form, error)
            else:
                return redirect("corpus:scrape-run", pk=run.pk)
        status = 400
    runs = ScrapeRun.objects.select_related("created_by")[:50]
    context = {"form": form, "runs": runs, "source": scraping_source()}
    return render(request, "corpus/scrape_runs.html", context, status=status)


@admin_only
def scrape_run_page(request, pk: int):
    run = get_object_or_404(ScrapeRun, pk=pk)
    if request.htmx:
        return render(request, "corpus/scrape_run.html#scrape-run-counters", {"run": run})
    entries = run.log_entries.all()
    return render(
        request,
        "corpus/scrape_run.html",
        {"run": run, "entries": entries, "can_resume": scrape_run_can_resume(run)},
    )


@admin_only
def scrape_run_status(request, pk: int):
    return job_status_response(request, get_object_or_404(ScrapeRun, pk=pk))


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
