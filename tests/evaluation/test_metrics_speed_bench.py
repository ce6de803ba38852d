"""bench/metrics_speed.py on a few questions: its floor, and an official script given by path.

The official scripts are not in this repository; here a stand-in script plays one, run as a
subprocess on the benchmark's files as an official script would be.
"""

import re
import subprocess
import sys
from pathlib import Path

from tests.needs import PIAF, require_file

ROOT = Path(__file__).resolve().parents[2]
SMALL = ["--questions", "40", "--v2-questions", "40", "--repeat", "1"]

# Prints {"exact_match", "f1"} from the dataset and predictions it is given: EM and F1 by
# plain string equality (so not the official figures on perturbed predictions).
STAND_IN = """
import json, sys
data = json.load(open(sys.argv[1]))["data"]
predictions = json.load(open(sys.argv[2]))
qas = [qa for a in data for p in a["paragraphs"] for qa in p["qas"]]
right = sum(predictions.get(qa["id"]) in [x["text"] for x in qa["answers"]] for qa in qas)
print(json.dumps({"exact_match": 100.0 * right / len(qas), "f1": 100.0 * right / len(qas)}))
"""


def bench(*args: str) -> subprocess.CompletedProcess:
    require_file(PIAF, "the benchmark's questions")
    return subprocess.run(
        [sys.executable, "bench/metrics_speed.py", *SMALL, *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def figures(output: str) -> dict[str, float]:
    return {
        name: float(value)
        for name, value in re.findall(r"^FIGURE (\S+) (\S+) \S+$", output, flags=re.MULTILINE)
    }


def test_without_an_official_script_it_says_so_and_gives_ours_beside_a_floor():
    done = bench()
    assert done.returncode == 0, done.stderr
    assert "no official script given (--official PATH): none timed, none compared" in done.stdout
    assert "no official script given (--official-v2 PATH)" in done.stdout
    found = figures(done.stdout)
    names = ("metrics.v1_ours", "metrics.v2_ours", "metrics.v1_fquad_fr", "metrics.v2_chars")
    names += ("metrics.v1_mlqa_de", "metrics.v2_korquad_chars")
    for name in names:
        assert found[name] > 0 and found[f"{name}.floor"] > 0
        # printed to 6 significant digits: the ratio of the printed figure and floor, nearly
        ratio = found[name] / found[f"{name}.floor"]
        assert abs(found[f"{name}.ratio"] - ratio) <= 1e-4 * ratio
    assert "metrics.v1_official" not in found
    assert "load" in found


def test_an_official_script_is_run_on_the_same_files_and_compared(tmp_path):
    script = tmp_path / "evaluate-stand-in.py"
    script.write_text(STAND_IN, encoding="utf-8")
    done = bench("--only", "v1", "--official", str(script))
    # the stand-in's figures are not ours (perturbed predictions): compared, and exit status 1
    assert done.returncode == 1, done.stderr
    assert f"official script {script}:" in done.stdout
    assert "same figures as ours, every key it printed (exact float equality): False" in done.stdout
    found = figures(done.stdout)
    assert found["metrics.v1_official"] > 0 and found["metrics.v1_official.floor"] > 0


def test_a_missing_official_script_is_refused():
    done = bench("--official", "no/such/evaluate-v1.1.py")
    assert done.returncode == 2
    assert "no/such/evaluate-v1.1.py: no such file" in done.stderr
