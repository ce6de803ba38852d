"""bench/quality_sim.py at a tiny size, in the test database: both campaigns get the same
work through the API, the fixed one reviews exactly a quarter, the adaptive one's warm-up
reviews everything, and the report prints its figures."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def load_bench():
    spec = importlib.util.spec_from_file_location("quality_sim", ROOT / "bench" / "quality_sim.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("quality_sim", module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.django_db
def test_the_simulation_runs_both_campaigns_on_the_same_work(capsys, settings):
    settings.SECURE_SSL_REDIRECT = False
    sim = load_bench()
    fixed, adaptive = sim.simulate(careful=2, careless=1, questions=12, gold=3, log=False)
    # The same scripted work: the same wrong questions in both campaigns.
    wrong = sum(sum(spec[2]) for spec in sim.population(1, 2, 1, 12))
    assert fixed.wrong == adaptive.wrong == wrong
    # Fixed 25 %: 12 questions each, exactly 3 sampled each (the band), all reviewed.
    assert fixed.reviewed == 9
    # Adaptive: the 20-question warm-up reviews all 36 questions, so every error is caught.
    assert (adaptive.reviewed, adaptive.caught, adaptive.caught_share) == (36, wrong, 1.0)
    assert [person.written for person in adaptive.people] == [12, 12, 12]
    assert sim.report(fixed, adaptive) is False  # too small to save anything
    out = capsys.readouterr().out
    assert "FIGURE quality_sim.reviewed_items 36 items" in out
    assert "FIGURE quality_sim.reviewed_items.floor 9 items" in out
    assert "target: at least 30% fewer reviewed items: MISSED" in out
