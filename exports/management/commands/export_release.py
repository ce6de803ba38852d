from pathlib import Path

from core.commands import PlatformCommand
from corpus.models import Split
from exports.build import build_release_files, check_options


class Command(PlatformCommand):
    help = (
        "Write a release's files into a folder from the shell, as the release job does: the "
        "data files per split and format, the datasheet README.md and manifest.json."
    )

    def add_command_arguments(self, parser):
        parser.add_argument("--formats", default="squad,hf,mrqa", help="squad, hf, mrqa")
        parser.add_argument("--out", type=Path, required=True, help="Folder to write into.")
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
        checked = check_options(
            {
                "formats": [f.strip() for f in formats.split(",") if f.strip()],
                "splits": [s.strip() for s in splits.split(",") if s.strip()],
                "approved_only": options["approved_only"],
                "include_test_answers": options["include_test_answers"],
                "include_history": options["history"],
                "squad_version": squad_version,
            }
        )
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

    def summary(self, result):
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
