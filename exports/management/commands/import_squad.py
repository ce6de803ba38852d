from pathlib import Path

from django.conf import settings

from core.commands import PlatformCommand
from exports.services.importing import squad_import


class Command(PlatformCommand):
    help = (
        "Import the questions and answers of a SQuAD-format .json file (v1.1, or v2.0 with "
        "unanswerable questions and their plausible answers), with its articles and "
        "paragraphs, in one transaction. Questions already imported (same id) are skipped, so "
        "a file can be imported again safely."
    )

    def add_command_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--wave", required=True, help="Wave of the new articles, like 1.0.")
        parser.add_argument(
            "--split",
            choices=["train", "dev", "test"],
            default=None,
            help="Put every new article in this split (default: by the configured ratios).",
        )
        parser.add_argument(
            "--language",
            default=None,
            help="Language of the articles (default WIKIPEDIA_LANGUAGE).",
        )
        parser.add_argument("--seed", type=int, default=0, help="Seed of the split assignment.")

    def run(self, *, path, wave, split, language, seed, **options):
        report = squad_import(
            path=path,
            wave=wave,
            language=language or settings.WIKIPEDIA_LANGUAGE,
            split=split,
            seed=seed,
        )
        return report.as_dict()

    def summary(self, result):
        splits = ", ".join(f"{k} {v}" for k, v in result["splits"].items()) or "none"
        lines = [
            f"{result['questions_imported']} questions and {result['answers_imported']} answers "
            f"imported"
            + (
                f", {result['unanswerable_imported']} of the questions unanswerable (with "
                f"{result['plausible_imported']} plausible answers)."
                if result.get("unanswerable_imported")
                else "."
            ),
            f"Articles: {result['articles_created']} created ({splits}), "
            f"{result['articles_matched']} already there. Paragraphs: "
            f"{result['paragraphs_created']} created, {result['paragraphs_matched']} already "
            f"there.",
            f"{len(result['duplicates'])} duplicates skipped, {len(result['repaired'])} answers "
            f"repaired, {len(result['misaligned'])} misaligned (flagged), "
            f"{len(result['problems'])} malformed entries skipped.",
        ]
        lines += [f"  repaired {r['id']}: {r['from']} → {r['to']}" for r in result["repaired"]]
        lines += [
            f"  misaligned {m['id']}: {m['text']!r} at {m['answer_start']}"
            for m in result["misaligned"]
        ]
        lines += [f"  skipped: {problem}" for problem in result["problems"]]
        return "\n".join(lines)
