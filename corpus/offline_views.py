"""An offline Wikipedia for the demo: the few MediaWiki API calls the scraper makes, answered
from a corpus file (a SQuAD file's contexts, or a corpus JSONL).

`make run` has no internet: it points WIKIPEDIA_API_URL here and OFFLINE_WIKIPEDIA_FILE at PIAF's
2020 export (300 real French Wikipedia articles, 109 of them not in the demo corpus), so that
an admin can run a real scrape from the page. The category CORPUS_CATEGORY holds every article
of the file. The replies have the shape of the real API's (`list=categorymembers` with
continuation, `prop=extracts`, `prop=info`); page ids are made from the titles, and revisions
are 0 (unknown): the text is the file's, not a Wikipedia revision's. Off unless the setting
names a file.
"""

from __future__ import annotations

import zlib
from functools import cache
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.http import Http404, JsonResponse
from django.views.decorators.http import require_GET

from core.languages import language
from corpus.readers import CorpusFileError, read_corpus_file

PAGE_SIZE = 500


@cache
def _articles(path: str, modified: float, code: str) -> dict[str, str]:
    """Return {title: extract} of the file, as MediaWiki's plain-text extract writes it."""
    try:
        sources = read_corpus_file(Path(path))
    except CorpusFileError:
        return {}
    # Each article ends with the language's first end-matter heading, as a real one would.
    end_matter = f"== {language(code).end_matter[0]} =="
    pages = {}
    for source in sources:
        blocks = list(source.paragraphs) if source.text is None else [source.text]
        pages[_normalized(source.title)] = "\n\n".join([*blocks, end_matter])
    return pages


def _pages() -> dict[str, str]:
    path = settings.OFFLINE_WIKIPEDIA_FILE
    if not path or not Path(path).is_file():
        raise Http404
    return _articles(str(path), Path(path).stat().st_mtime, settings.WIKIPEDIA_LANGUAGE)


def _normalized(title: str) -> str:
    name = " ".join(title.replace("_", " ").split())
    return name[:1].upper() + name[1:]


def _page_id(title: str) -> int:
    return 1_000 + zlib.crc32(title.encode()) % 90_000_000


def _url(title: str) -> str:
    path = quote(title.replace(" ", "_"), safe=";@$!*(),/~:")
    return language(settings.WIKIPEDIA_LANGUAGE).wiki.article_url_prefix + path


def _members(params, pages: dict[str, str]) -> dict:
    category = _normalized(params.get("cmtitle", "").partition(":")[2])
    members = sorted(pages) if category == _normalized(settings.CORPUS_CATEGORY) else []
    start = int(params.get("cmcontinue", "0") or 0)
    chunk = members[start : start + PAGE_SIZE]
    body = {
        "batchcomplete": "",
        "query": {"categorymembers": [{"pageid": _page_id(t), "ns": 0, "title": t} for t in chunk]},
    }
    if start + PAGE_SIZE < len(members):
        body["continue"] = {"cmcontinue": str(start + PAGE_SIZE), "continue": "-||"}
    return body


def _entry(title: str, pages: dict[str, str], prop: str, missing: int) -> tuple[str, dict]:
    if title not in pages:
        return str(missing), {"ns": 0, "title": title, "missing": ""}
    entry = {"pageid": _page_id(title), "ns": 0, "title": title}
    if prop == "extracts":
        entry["extract"] = pages[title]
    else:
        entry |= {"lastrevid": 0, "fullurl": _url(title), "canonicalurl": _url(title)}
    return str(entry["pageid"]), entry


@require_GET
def api(request):
    """Answer the scraper's queries from the offline file (404 when none is configured)."""
    pages, params = _pages(), request.GET
    if params.get("list") == "categorymembers":
        return JsonResponse(_members(params, pages))
    prop = params.get("prop")
    if prop not in ("extracts", "info"):
        body = {"error": {"code": "badvalue", "info": "The offline Wikipedia answers no more."}}
        return JsonResponse(body)
    titles = [_normalized(t) for t in params.get("titles", "").split("|") if t]
    found = dict(_entry(title, pages, prop, -1 - i) for i, title in enumerate(titles))
    return JsonResponse({"batchcomplete": "", "query": {"pages": found}})
