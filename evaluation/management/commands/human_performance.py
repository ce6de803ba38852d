from core.commands import PlatformCommand
from core.languages import codes
from evaluation.selectors.human import human_performance_report


def _figure(value) -> str:
    return "—" if value is None else f"{value:.1f}"


class Command(PlatformCommand):
    help = (
        "Print FQuAD's human performance: each of a question's three answers in turn against "
        "the two others, EM and F1 with the French normalization, per split and per annotator; "
        'then SQuAD 2.0\'s, with unanswerable questions ("" = no answer), overall, answerable '
        "and unanswerable."
    )

    def add_command_arguments(self, parser):
        parser.add_argument("--split", choices=["train", "dev", "test"], default=None)
        parser.add_argument(
            "--language",
            choices=codes(),
            default=None,
            help="The questions of this language (default: the site's, WIKIPEDIA_LANGUAGE).",
        )

    def run(self, *, split, language, **options):
        return human_performance_report(split=split, language=language)

    def summary(self, result):
        norm = result["normalization"]
        lines = [f"Normalization: {norm['name']} v{norm['version']}"]
        if not result["splits"]:
            lines.append("No question has additional answers yet.")
        for name, row in result["splits"].items():
            paper = result["paper"].get(name)
            beside = f" (paper: F1 {paper['f1']}, EM {paper['exact_match']})" if paper else ""
            lines.append(
                f"{name}: F1 {_figure(row['f1'])}, EM {_figure(row['exact_match'])} over "
                f"{row['questions']} questions; {row['skipped']} without three answers yet, "
                f"{row['unanswerable']} marked unanswerable{beside}"
            )
        for name, row in result.get("v2", {}).items():
            lines.append(
                f'{name}, SQuAD 2.0 (three judgments, no answer = ""): F1 {_figure(row["f1"])}, '
                f"EM {_figure(row['exact'])} over {row['total']} questions; answerable "
                f"{row['HasAns_total']}: F1 {_figure(row['HasAns_f1'])}, "
                f"EM {_figure(row['HasAns_exact'])}; unanswerable {row['NoAns_total']}: "
                f"F1 {_figure(row['NoAns_f1'])}, EM {_figure(row['NoAns_exact'])}; "
                f"{row['skipped']} without three judgments yet"
            )
        for row in result["annotators"]:
            lines.append(
                f"  {row['annotator']}: F1 {_figure(row['f1'])}, EM {_figure(row['exact_match'])} "
                f"over {row['answers']} answers"
            )
        return "\n".join(lines)
