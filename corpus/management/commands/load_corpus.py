from pathlib import Path

from django.conf import settings

from core.commands import PlatformCommand
from corpus.services.articles import corpus_load


class Command(PlatformCommand):
    help = (
        "Load articles and paragraphs offline: a SQuAD-format .json file's contexts (grouped by "
        "title) or a corpus .jsonl (one article per line: title, paragraphs or text, optional "
        "url, page_id, revision_id, split)."
    )

    def add_command_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--wave", default="1.0", help="Wave of the new articles (default 1.0).")
        parser.add_argument(
            "--language",
            default=None,
            help="Language of the articles (default WIKIPEDIA_LANGUAGE).",
        )
        parser.add_argument("--seed", type=int, default=0, help="Seed of the split assignment.")
        parser.add_argument(
            "--split",
            choices=["train", "dev", "test"],
            default=None,
            help="Put every new article in this split instead.",
        )

    def run(self, *, path, wave, language, seed, split, **options):
        result = corpus_load(
            path=path,
            wave=wave,
            language=language or settings.WIKIPEDIA_LANGUAGE,
            seed=seed,
            split=split,
        )
        return {
            "articles_created": result.created,
            "paragraphs_created": result.paragraphs,
            "articles_skipped": len(result.skipped),
            "articles_empty": result.empty,
            "splits": dict(sorted(result.splits.items())),
        }

    def summary(self, result):
        splits = ", ".join(f"{k} {v}" for k, v in result["splits"].items()) or "none"
        return (
            f"{result['articles_created']} articles and {result['paragraphs_created']} "
            f"paragraphs loaded ({splits}); {result['articles_skipped']} already in the "
            f"corpus, {len(result['articles_empty'])} without any paragraph."
        )
