import json
from pathlib import Path

from django.core.management.base import CommandError

from core.commands import PlatformCommand
from core.errors import ServiceError
from corpus.models import Split
from exports.build import build_release_files
from exports.options import check_options
from exports.services.releases import release_create


def score_with_entry(spec: str, index: int) -> dict:
    """Read one --score-with: lexical, finetune:MODEL, http:URL, or a JSON object."""
    if spec.lstrip().startswith("{"):
        try:
            return json.loads(spec)
        except ValueError:
            raise ServiceError({f"score_with[{index}]": ["Not a JSON object."]}) from None
    kind, colon, model = spec.partition(":")
    return {"kind": kind.strip()} | ({"model": model.strip()} if colon else {})


class Command(PlatformCommand):
    help = (
        "Write a release's files into a folder from the shell, as the release job does: the "
        "data files per split and format, the datasheet README.md and manifest.json. With "
        "--record (implied by --score-with), record the release on the platform instead: the "
        "export worker builds it into the releases storage, then runs the baselines named by "
        "--score-with (docs/release-scoring.md)."
    )

    def add_command_arguments(self, parser):
        parser.add_argument("--formats", default="squad,hf,mrqa", help="squad, hf, mrqa")
        parser.add_argument("--out", type=Path, help="Folder to write into.")
        parser.add_argument(
            "--record",
            action="store_true",
            help="Record the release on the platform (built by the export worker) instead of "
            "writing a folder.",
        )
        parser.add_argument(
            "--score-with",
            dest="score_with",
            action="append",
            default=[],
            metavar="BASELINE",
            help="Run this baseline once the recorded release is built (repeat for more): "
            'lexical, finetune:MODEL, http:URL, or a JSON object like \'{"kind": "finetune", '
            '"model": "camembert-base", "hyperparameters": {"epochs": 2}}\'. Implies --record.',
        )
        parser.add_argument("--splits", default=",".join(Split.values))
        parser.add_argument("--name", default="dataset", help="Dataset name (MRQA header).")
        parser.add_argument("--release-version", dest="release_version", default="0")
        parser.add_argument("--include-test-answers", action="store_true")
        parser.add_argument("--approved-only", action="store_true")
        parser.add_argument("--history", action="store_true", help="Write history.jsonl too.")
        parser.add_argument(
            "--squad-version",
            dest="squad_version",
            default="1.1",
            help="1.1 (answerable questions only, the default) or 2.0 (with the unanswerable "
            "questions, SQuAD 2.0 layout; MRQA leaves them out).",
        )

    def run(self, *, out, formats, splits, name, release_version, squad_version, **options):
        chosen = {
            "formats": [f.strip() for f in formats.split(",") if f.strip()],
            "splits": [s.strip() for s in splits.split(",") if s.strip()],
            "approved_only": options["approved_only"],
            "include_test_answers": options["include_test_answers"],
            "include_history": options["history"],
            "squad_version": squad_version,
        }
        if options["record"] or options["score_with"]:
            return self._record(out, name, release_version, chosen, options["score_with"])
        if out is None:
            raise CommandError("--out: give the folder to write into (or --record).")
        checked = check_options(chosen)
        out.mkdir(parents=True, exist_ok=True)
        built = build_release_files(
            options=checked, name=name, version=release_version, directory=out
        )
        return {
            "out": str(out),
            "squad_version": checked.squad_version,
            "files": [
                {"name": f.name, "bytes": f.bytes, "sha256": f.sha256, "counts": f.counts}
                for f in built.files
            ],
        }

    def _record(self, out, name, release_version, chosen: dict, given_scoring: list) -> dict:
        """Record a release for the export worker to build (--record, --score-with)."""
        if out is not None:
            raise CommandError(
                "--out: a recorded release is built by the export worker into the releases "
                "storage; leave --out out and download its files from the release page."
            )
        score_with = [score_with_entry(s, i) for i, s in enumerate(given_scoring)]
        release = release_create(
            created_by=None, name=name, version=release_version, score_with=score_with, **chosen
        )
        return {
            "release": release.pk,
            "name": release.name,
            "version": release.version,
            "status": release.status,
            "options": release.options,
            "score_with": release.score_with,
        }

    def summary(self, result):
        if "release" in result:
            scoring = ", ".join(
                e["kind"] + (f" {e['model']}" if e.get("model") else "")
                for e in result["score_with"]
            )
            return (
                f"Recorded release {result['release']} ({result['name']} {result['version']}): "
                "the export worker builds it"
                + (f", then it is scored with {scoring}." if scoring else ".")
            )
        lines = [
            f"Wrote {len(result['files'])} files into {result['out']} "
            f"(SQuAD v{result['squad_version']}):"
        ]
        for f in result["files"]:
            questions = f["counts"].get("questions")
            extra = f", {questions} questions" if questions is not None else ""
            if f["counts"].get("unanswerable"):
                extra += f" ({f['counts']['unanswerable']} unanswerable)"
            if f["counts"].get("left_out"):
                extra += f", {f['counts']['left_out']} unanswerable left out"
            lines.append(f"  {f['name']}: {f['bytes']} bytes{extra}, sha256 {f['sha256']}")
        return "\n".join(lines)
