"""Stored messages shown in the reader's language (core/i18n.py): numbers through the locale
(F1 3,3 in French), and the plural form that follows each count."""

import json

from django.utils import translation

from core.i18n import Text, interpolate, translated

NNBSP, NBSP = "\u202f", "\u00a0"


def shown(text: Text, language: str) -> str:
    params = json.loads(json.dumps(text.params))  # as the JSON column gives them back
    with translation.override(language):
        return translated(text.msgid, params)


def test_numbers_in_a_message_are_written_the_readers_way():
    values = {"split": "dev", "f1": 3.26, "em": 0.0, "n": 12345, "share": 12.5}
    text = "%(split)s: F1 %(f1).1f / EM %(em).1f; %(n)d questions, %(share)s %%"
    with translation.override("fr"):
        assert interpolate(text, values) == (f"dev: F1 3,3 / EM 0,0; 12{NBSP}345 questions, 12,5 %")
    with translation.override("en"):
        assert interpolate(text, values) == "dev: F1 3.3 / EM 0.0; 12,345 questions, 12.5 %"


def test_a_counted_message_takes_the_singular_for_one():
    def kept(paragraphs, blocks):
        return Text.counted(
            "Kept %(kept)d paragraph, %(dropped)s.",
            "Kept %(kept)d paragraphs, %(dropped)s.",
            "kept",
            {
                "kept": paragraphs,
                "dropped": Text.counted(
                    "dropped %(n)d block", "dropped %(n)d blocks", "n", {"n": blocks}
                ),
            },
        )

    assert shown(kept(1, 1), "en") == "Kept 1 paragraph, dropped 1 block."
    assert shown(kept(3, 2), "en") == "Kept 3 paragraphs, dropped 2 blocks."
    assert shown(kept(0, 0), "en") == "Kept 0 paragraphs, dropped 0 blocks."
    assert shown(kept(1, 1), "fr") == "1 paragraphe gardé, 1 bloc écarté."
    assert shown(kept(0, 2), "fr") == "0 paragraphe gardé, 2 blocs écartés."  # French 0: one


def test_a_baseline_run_status_line_writes_its_figures_in_the_readers_language():
    from evaluation.services.baselines.execute import _summary

    both = _summary(
        {"dev": {"f1": 3.26, "exact_match": 0.0}, "test": {"f1": 5.6, "exact_match": 1.04}}
    )
    assert shown(both, "fr") == (f"dev{NBSP}: F1 3,3 / EM 0,0{NNBSP}; test{NBSP}: F1 5,6 / EM 1,0")
    assert shown(both, "en") == "dev: F1 3.3 / EM 0.0; test: F1 5.6 / EM 1.0"
    one = _summary({"dev": {"f1": 3.26, "exact_match": 0.0}})
    assert shown(one, "fr") == f"dev{NBSP}: F1 3,3 / EM 0,0"
