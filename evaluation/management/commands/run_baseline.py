from core.commands import PlatformCommand
from core.errors import ServiceError
from core.inputs import object_by_id
from evaluation.models import BaselineRun
from evaluation.services.baselines.execute import baseline_run_execute
from evaluation.services.baselines.runs import baseline_run_record, baseline_run_start
from evaluation.services.baselines.sources import training_file_import
from evaluation.services.curves.learning_curves import (
    learning_curve_execute,
    learning_curve_record,
    learning_curve_start,
)
from exports.models import Release

HYPERPARAMETER_OPTIONS = (
    "epochs",
    "learning_rate",
    "batch_size",
    "max_length",
    "stride",
    "max_steps",
    "seed",
)


def _add_source_arguments(parser) -> None:
    """Add a fine-tuning run's training sources: releases, training files, files to import."""
    parser.add_argument(
        "--train-release",
        dest="train_releases",
        type=int,
        action="append",
        help="Train on this finished release's train split (repeat for a union).",
    )
    parser.add_argument(
        "--train-file",
        dest="train_files",
        type=int,
        action="append",
        help="Train on this imported training file (its id; repeat for a union).",
    )
    parser.add_argument(
        "--import-train-file",
        dest="import_paths",
        action="append",
        metavar="PATH",
        help="Import this SQuAD-format JSON file (shared with the admins) and train on it.",
    )
    parser.add_argument(
        "--translated",
        action="store_true",
        help="The imported files are machine-translated (the run is then translate-train).",
    )
    parser.add_argument("--language", default="", help="The imported files' language.")


def _imported_files(options: dict) -> list[int]:
    """Import the files of --import-train-file (shared with the admins); return their ids."""
    ids = []
    for path in options.get("import_paths") or []:
        try:
            with open(path, "rb") as handle:
                imported = training_file_import(
                    file=handle,
                    language=options.get("language", ""),
                    translated=options.get("translated", False),
                    shared=True,
                )
        except OSError as error:
            raise ServiceError({"import_train_file": [f"{path}: {error.strerror}"]}) from None
        ids.append(imported.pk)
    return ids


def _run_figures(run: BaselineRun) -> dict:
    """Return what the command prints of a run: its row, its figures, its curve."""
    return {
        "id": run.pk,
        "kind": run.kind,
        "mode": run.mode,
        "train_sources": run.train_sources,
        "status": run.status,
        "metrics": run.metrics,
        "device": run.device,
        "error": run.error,
        "normalization": {"name": run.normalization, "version": run.normalization_version},
        **({"curve": _curve(run.curve)} if run.kind == BaselineRun.Kind.LEARNING_CURVE else {}),
    }


class Command(PlatformCommand):
    help = (
        "Score a baseline on a release's dev and test splits: fine-tune a transformers model "
        "(the FQuAD paper's hyper-parameters by default), evaluate one as it is, the lexical "
        "sliding window, or a model served over HTTP (MRQA protocol). Runs in this process, "
        "or on the workers with --queue. A fine-tuning run trains on the release's train split, "
        "or on the sources given (--train-release, --train-file, --import-train-file): "
        "zero-shot, translate-train or augmented (docs/experiments.md)."
    )

    def add_command_arguments(self, parser):
        parser.add_argument("--release", type=int, required=True, help="Release id.")
        parser.add_argument("--model", default="", help="Local folder, hub name or http URL.")
        parser.add_argument(
            "--kind", choices=BaselineRun.Kind.values, default=BaselineRun.Kind.FINETUNE
        )
        parser.add_argument("--epochs", type=int)
        parser.add_argument("--lr", dest="learning_rate", type=float)
        parser.add_argument("--batch-size", dest="batch_size", type=int)
        parser.add_argument("--max-length", dest="max_length", type=int)
        parser.add_argument("--stride", type=int)
        parser.add_argument("--max-steps", dest="max_steps", type=int)
        parser.add_argument("--seed", type=int)
        parser.add_argument("--queue", action="store_true", help="Send it to the workers.")
        _add_source_arguments(parser)
        parser.add_argument(
            "--fractions",
            default=None,
            help="learning_curve: percentages of the train questions, e.g. 10,25,50,100.",
        )

    def run(self, *, release, model, kind, queue, **options):
        found = object_by_id(
            Release.objects, release, field="release", missing=f"No release {release}."
        )
        settings = {n: options[n] for n in HYPERPARAMETER_OPTIONS if options.get(n) is not None}
        train_files = list(options.get("train_files") or []) + _imported_files(options)
        arguments = {
            "release": found,
            "kind": kind,
            "model": model,
            "hyperparameters": settings,
            "train_releases": options.get("train_releases"),
            "train_files": train_files,
        }
        fractions = options.get("fractions")  # a curve's; another kind refuses them
        if kind == BaselineRun.Kind.LEARNING_CURVE:
            run = self.learning_curve(arguments, fractions, queue)
        elif queue:
            run = baseline_run_start(**arguments, fractions=fractions)
        else:
            run = baseline_run_record(**arguments, fractions=fractions)
            baseline_run_execute(run=run)
        run.refresh_from_db()
        return _run_figures(run)

    def learning_curve(self, arguments: dict, fractions, queue: bool) -> BaselineRun:
        """A learning curve trains on the release's train split (sources are refused)."""
        settings = {k: v for k, v in arguments.items() if k != "kind"} | {"fractions": fractions}
        if queue:
            return learning_curve_start(**settings)
        run = learning_curve_record(**settings)
        learning_curve_execute(run=run)
        return run

    def summary(self, result):
        lines = [f"Baseline run {result['id']} ({result['kind']}): {result['status']}"]
        if result.get("train_sources"):
            names = " + ".join(source["label"] for source in result["train_sources"])
            lines.append(f"  trained on {names} ({result['mode'].replace('_', '-')})")
        if result["error"]:
            lines.append(f"  {result['error']}")
        for split, figures in result["metrics"].items():
            lines.append(
                f"  {split}: F1 {figures['f1']:.2f}, EM {figures['exact_match']:.2f} "
                f"over {figures['total']} questions"
            )
            if "no_answer" in figures:  # a SQuAD v2.0 release: both kinds, and telling them
                lines.append(
                    f"    answerable: F1 {_shown(figures.get('HasAns_f1'))} over "
                    f"{figures.get('HasAns_total', 0)}; unanswerable: EM "
                    f"{_shown(figures.get('NoAns_exact'))} over {figures.get('NoAns_total', 0)}; "
                    f"no-answer F1 {_shown(figures['no_answer'].get('f1'))}"
                )
        for point in result.get("curve", {}).get("points", []):
            lines.append(
                f"  {point['fraction']} % ({point['questions']} questions): dev F1 "
                f"{point['f1']:.2f}, EM {point['exact_match']:.2f} in {point['seconds']:.1f} s"
            )
        for row in result.get("curve", {}).get("estimates", []):
            if row["times"] > 1 and row["f1"] is not None:
                interval = (
                    "" if row["low"] is None else f" (90 %: {row['low']:.1f}–{row['high']:.1f})"
                )
                lines.append(
                    f"  at {row['times']}× ({row['n']} questions): F1 ≈ {row['f1']:.1f}{interval}"
                )
        if result["device"]:
            lines.append(f"  device: {result['device']}")
        return "\n".join(lines)


def _curve(curve: dict) -> dict:
    """The curve without its per-question scores (what a person or a script reads)."""
    points = [
        {k: v for k, v in point.items() if k != "per_question_f1"}
        for point in curve.get("points", [])
    ]
    return {k: v for k, v in curve.items() if k != "points"} | {"points": points}


def _shown(value) -> str:
    return "—" if value is None else f"{value:.2f}"
