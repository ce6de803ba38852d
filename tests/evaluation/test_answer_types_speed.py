"""What makes answer types fast (issue 16's 60 s target) changes no type.

Only the sentences holding answers are parsed, the entity recogniser runs only on the pieces
whose answers' rules read entities, numpy's OpenBLAS multiplies the matrices on one thread,
and several processes give the same types as one (bench/answer_types.py times them).
"""

import pytest

from evaluation.services.analysis.answer_types import (
    AnswerType,
    answer_types,
    load_french,
    sentence_starts,
)
from evaluation.services.analysis.answer_types.loading import _one_blas_thread
from evaluation.services.analysis.answer_types.pipeline import _pieces
from tests.evaluation.test_answer_types import load_piaf_answers


@pytest.fixture(scope="module")
def nlp():
    return load_french()


class RecordingPipeline:
    """Wrap the French pipeline; record the texts it parses and those the recogniser sees."""

    def __init__(self, nlp):
        self.nlp = nlp
        self.pipe_names = nlp.pipe_names
        self.parsed = []
        self.recognised = []

    def pipe(self, texts, batch_size, disable=()):
        for doc in self.nlp.pipe(texts, batch_size=batch_size, disable=list(disable)):
            self.parsed.append(doc.text)
            yield doc

    def get_pipe(self, name):
        assert name == "ner"
        return self

    def ner_pipe(self, docs, batch_size):
        for doc in self.nlp.get_pipe("ner").pipe(docs, batch_size=batch_size):
            self.recognised.append(doc.text)
            yield doc


class RecordingRecogniser(RecordingPipeline):
    def get_pipe(self, name):
        recorder = self

        class Recogniser:
            def pipe(self, docs, batch_size):
                return recorder.ner_pipe(docs, batch_size)

        return Recogniser()


FIRST = "Les soldats construisent un pont sur la rivière près de Lyon. "
SECOND = "Le roi aime la chasse à courre. "
THIRD = "Victor Hugo est né à Besançon en 1802."


def test_only_the_sentences_with_answers_are_parsed_and_entities_only_where_read(nlp):
    context = FIRST + SECOND + THIRD
    third = len(FIRST + SECOND)
    items = [
        (context, context.index("Besançon"), "Besançon"),
        (context, 12, "construisent"),
        (context, third + THIRD.index("1802"), "1802"),
    ]
    recording = RecordingRecogniser(nlp)

    types = answer_types(items, nlp=recording)

    assert types == [AnswerType.PLACE, AnswerType.VERB, AnswerType.DATE]
    assert recording.parsed == [FIRST, THIRD]  # the second sentence holds no answer
    assert recording.recognised == [THIRD]  # "Lyon" is in no answer: no entity looked for


def test_a_capitalised_answer_whose_rules_read_no_entity_is_not_recognised(nlp):
    context = "En 1789, les États généraux se réunissent à Versailles."
    recording = RecordingRecogniser(nlp)

    types = answer_types([(context, 0, "En 1789")], nlp=recording)

    assert types == [AnswerType.DATE]
    assert recording.recognised == []


@pytest.mark.parametrize(
    ("text", "starts"),
    [
        ("Il vint. Elle partit ! Qui ? « Moi. » Fin.", [0, 9, 23, 29, 38]),
        ("Jules Verne (J. Verne) écrit. Né en 52 av. J.-C. Il meurt.", [0, 30, 49]),
        ("M. Dupont arrive. 1789 commence.", [0, 18]),
        ("Une phrase. une autre sans capitale.", [0]),
        ("Sans point final", [0]),
    ],
)
def test_sentence_starts(text, starts):
    assert sentence_starts(text) == starts


def test_pieces_join_sentences_an_answer_crosses_and_keep_offsets():
    context = "Un. Deux trois. Quatre cinq. Six."
    items = [
        (context, context.index("trois. Quatre"), "trois. Quatre"),
        (context, context.index("Six"), "Six"),
        (context, context.index("cinq"), "cinq"),
        (context, 0, "Un"),
    ]

    pieces = _pieces(items)

    assert [(piece.text, piece.offset) for piece in pieces] == [
        ("Un. ", 0),
        ("Deux trois. Quatre cinq. ", 4),
        ("Six.", 29),
    ]
    assert [piece.answers for piece in pieces] == [
        [(3, 0, 2)],
        [(0, 9, 22), (2, 23, 27)],
        [(1, 29, 32)],
    ]
    assert [piece.capitalised for piece in pieces] == [True, True, True]


def test_two_processes_give_the_types_of_one(nlp):
    items = load_piaf_answers(400)

    assert answer_types(items, nlp=nlp, n_process=2) == answer_types(items, nlp=nlp)


def test_numpy_blas_is_set_to_one_thread():
    assert _one_blas_thread() is True
