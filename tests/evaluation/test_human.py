"""Human performance, FQuAD's way: the leave-one-out metric, then the report from the database.

Every figure is worked out by hand in the comment above it. Tokens are those of the French
normalization (fquad-fr): lower-case, typographic apostrophes folded, "l'" dropped at the start
of a word, punctuation dropped, then the articles le, la, les, du, des, au, aux, un, une. For
F1, p and t are the numbers of predicted and true tokens, c the tokens shared, P = c/p,
R = c/t and F1 = 2PR / (P + R); each answer is scored against the best of the two others.
"""

import json
import re
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command

from annotation.models import Answer
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, lease_release, questions_submit
from core.roles import Role
from corpus.models import Article
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.metrics import FQUAD_FR, human_performance, leave_one_out, leave_one_out_v2
from evaluation.selectors.human import human_performance_report
from tests.factories import UserFactory


def exactly(value):
    """Compare a float with a hand-computed fraction, allowing only rounding error."""
    return pytest.approx(value, rel=1e-12, abs=1e-12)


# The metric on small examples


def test_leave_one_out_on_a_date():
    # tokens: "le 14 juillet 1789" → [14, juillet, 1789] ("le" is an article)
    #         "14 juillet 1789"    → [14, juillet, 1789]
    #         "juillet 1789"       → [juillet, 1789]
    # answer 1 against 2 and 3: equal to 2 → EM 1, F1 1
    # answer 2 against 1 and 3: equal to 1 → EM 1, F1 1
    # answer 3 against 1 (or 2): c=2, p=2, t=3 → P=1, R=2/3, F1 = (4/3)/(5/3) = 0.8; EM 0
    answers = ["le 14 juillet 1789", "14 juillet 1789", "juillet 1789"]
    assert leave_one_out(answers, FQUAD_FR) == [(1.0, 1.0), (1.0, 1.0), (0.0, exactly(0.8))]
    # the question: EM (1 + 1 + 0)/3 = 2/3, F1 (1 + 1 + 0.8)/3 = 2.8/3
    assert human_performance([answers], FQUAD_FR) == {
        "exact_match": exactly(200 / 3),
        "f1": exactly(280 / 3),
        "questions": 1,
        "skipped": 0,
    }


def test_leave_one_out_folds_the_typographic_apostrophe_and_drops_l():
    # "l’Assemblée nationale": ’ → ', then "l'" at a word's start goes → [assemblée, nationale]
    # "L'Assemblée nationale": lower-cased, the same                   → [assemblée, nationale]
    # "Assemblée"                                                       → [assemblée]
    # 1 and 2 are equal: EM 1, F1 1 each; 3 against 1: c=1, p=1, t=2 → P=1, R=1/2,
    # F1 = 1/(3/2) = 2/3, EM 0
    answers = ["l’Assemblée nationale", "L'Assemblée nationale", "Assemblée"]
    assert FQUAD_FR.tokens(answers[0]) == ["assemblée", "nationale"]
    assert leave_one_out(answers) == [(1.0, 1.0), (1.0, 1.0), (0.0, exactly(2 / 3))]


def test_leave_one_out_best_over_the_others_and_no_shared_token():
    # "l’Exposition universelle de 1889" → [exposition, universelle, de, 1889] ("de" stays)
    # "Exposition universelle"           → [exposition, universelle]
    # "1889"                             → [1889]
    # 1 vs 2: c=2, p=4, t=2 → P=1/2, R=1, F1 = 1/(3/2) = 2/3; 1 vs 3: c=1, p=4, t=1 →
    #   P=1/4, R=1, F1 = (1/2)/(5/4) = 0.4; best 2/3
    # 2 vs 1: c=2, p=2, t=4 → P=1, R=1/2 → 2/3; 2 vs 3: no shared token → 0; best 2/3
    # 3 vs 1: c=1, p=1, t=4 → P=1, R=1/4 → 0.4; 3 vs 2: 0; best 0.4. No EM anywhere.
    answers = ["l’Exposition universelle de 1889", "Exposition universelle", "1889"]
    assert leave_one_out(answers) == [
        (0.0, exactly(2 / 3)),
        (0.0, exactly(2 / 3)),
        (0.0, exactly(0.4)),
    ]


def test_human_performance_skips_questions_without_exactly_three_answers():
    # the first question as above (EM 2/3, F1 2.8/3); two answers and four answers are skipped
    sets = [
        ["le 14 juillet 1789", "14 juillet 1789", "juillet 1789"],
        ["Paris", "Paris"],
        ["a", "b", "c", "d"],
    ]
    assert human_performance(sets) == {
        "exact_match": exactly(200 / 3),
        "f1": exactly(280 / 3),
        "questions": 1,
        "skipped": 2,
    }
    assert human_performance([["Paris", "Paris"]]) == {
        "exact_match": None,
        "f1": None,
        "questions": 0,
        "skipped": 1,
    }


def test_leave_one_out_needs_two_answers():
    with pytest.raises(ValueError):
        leave_one_out(["seule"])


# The report from the database

DEV_TEXT = (
    "La Bastille fut prise le 14 juillet 1789 par les émeutiers parisiens ; la forteresse "
    "fut ensuite démolie sur l’ordre de l’Assemblée."
)
TEST_TEXT = "Gustave Eiffel fit construire la tour pour l’Exposition universelle de 1889 à Paris."


def span(text, answer):
    return {"answer_start": text.index(answer), "answer_text": answer}


def question(text, paragraph_text, answer):
    return {"text": text, **span(paragraph_text, answer), "seconds_spent": 30}


@pytest.fixture
def people(db):
    return [UserFactory(username=f"ann{i}", roles=[Role.ANNOTATOR]) for i in range(3)]


@pytest.fixture
def written(db, people):
    """ann0's questions: Q1–Q4 on the dev paragraph, Q5 on the test one (all sampled)."""
    for split, text in (("dev", DEV_TEXT), ("test", TEST_TEXT)):
        article_store(
            language="fr",
            source=SourceArticle(title=split, source_title=split),
            paragraphs=[text],
            wave="1.0",
            split=split,
            kind="file",
        )
    campaign = campaign_create(
        name="Questions",
        splits=["dev", "test"],
        questions_min=1,
        questions_max=5,
        review_rate=Decimal("1"),
    )
    dev = lease_claim_next(campaign=campaign, annotator=people[0]).lease
    assert dev.paragraph.text == DEV_TEXT
    q1, q2, q3, q4 = questions_submit(
        lease=dev,
        questions=[
            question("Quand la Bastille fut-elle prise ?", DEV_TEXT, "le 14 juillet 1789"),
            question("Qu'advint-il de la forteresse ?", DEV_TEXT, "démolie"),
            question("Qui prit la Bastille ?", DEV_TEXT, "les émeutiers parisiens"),
            question("Sur l’ordre de qui fut-elle démolie ?", DEV_TEXT, "l’Assemblée"),
        ],
    )
    test = lease_claim_next(campaign=campaign, annotator=people[0]).lease
    assert test.paragraph.text == TEST_TEXT
    (q5,) = questions_submit(
        lease=test,
        questions=[
            question(
                "Pour quel événement la tour fut-elle construite ?",
                TEST_TEXT,
                "l’Exposition universelle de 1889",
            )
        ],
    )
    return campaign, [q1, q2, q3, q4, q5]


@pytest.fixture
def answered(written, people):
    """Two more answers per question, given through the answer leases, in question order.

    ann1: Q1 « juillet 1789 », Q2 « démolie », Q3 no answer, Q4 « Assemblée »,
          Q5 « Exposition universelle »
    ann2: Q1 « 14 juillet 1789 », Q2 « fut ensuite démolie », Q3 « émeutiers parisiens »,
          Q4 skipped (given back), Q5 « 1889 »
    """
    _campaign, questions = written
    answers = campaign_create(name="Réponses", kind="additional_answers", splits=["dev", "test"])
    plan = {
        people[1]: [
            (DEV_TEXT, "juillet 1789"),
            (DEV_TEXT, "démolie"),
            None,
            (DEV_TEXT, "Assemblée"),
            (TEST_TEXT, "Exposition universelle"),
        ],
        people[2]: [
            (DEV_TEXT, "14 juillet 1789"),
            (DEV_TEXT, "fut ensuite démolie"),
            (DEV_TEXT, "émeutiers parisiens"),
            "skip",
            (TEST_TEXT, "1889"),
        ],
    }
    for person, steps in plan.items():
        for expected, step in zip(questions, steps, strict=True):
            lease = answer_claim_next(campaign=answers, annotator=person).lease
            assert lease.question_id == expected.pk
            if step == "skip":
                lease_release(lease=lease, reason="skip")
            elif step is None:
                answer_submit(lease=lease, data={"no_answer": True, "seconds_spent": 8})
            else:
                answer_submit(lease=lease, data={**span(*step), "seconds_spent": 25})
        assert answer_claim_next(campaign=answers, annotator=person) is None
    return questions


# Per question (answers in the report's order does not change any figure):
#   Q1 (dev): ann0 [14 juillet 1789] EM 1 F1 1; ann1 [juillet 1789] EM 0 F1 0.8;
#             ann2 [14 juillet 1789] EM 1 F1 1 → EM 2/3, F1 2.8/3
#   Q2 (dev): ann0 [démolie] 1, 1; ann1 [démolie] 1, 1; ann2 [fut ensuite démolie] vs
#             [démolie]: c=1, p=3, t=1 → P=1/3, R=1, F1 = (2/3)/(4/3) = 0.5; EM 0
#             → EM 2/3, F1 2.5/3
#   Q3 (dev): ann1 said "no answer" → left out, counted unanswerable
#   Q4 (dev): two answers only (ann2 gave it back) → skipped
#   Q5 (test): ann0 [exposition universelle de 1889] 0, 2/3; ann1 [exposition universelle]
#             0, 2/3; ann2 [1889] 0, 0.4 → EM 0, F1 (2/3 + 2/3 + 0.4)/3 = 26/45
# dev: EM 100·(2/3 + 2/3)/2 = 200/3; F1 100·(2.8/3 + 2.5/3)/2 = 100·5.3/6 = 265/3
# test: EM 0, F1 100·26/45 = 520/9
# per annotator, over Q1, Q2, Q5:
#   ann0: EM (1 + 1 + 0)/3 → 200/3; F1 (1 + 1 + 2/3)/3 = 8/9 → 800/9
#   ann1: EM (0 + 1 + 0)/3 → 100/3; F1 (0.8 + 1 + 2/3)/3 = 37/45 → 740/9
#   ann2: EM (1 + 0 + 0)/3 → 100/3; F1 (1 + 0.5 + 0.4)/3 = 1.9/3 → 190/3
EXPECTED = {
    "splits": {
        "dev": {
            "exact_match": exactly(200 / 3),
            "f1": exactly(265 / 3),
            "questions": 2,
            "skipped": 1,
            "unanswerable": 1,
        },
        "test": {
            "exact_match": 0.0,
            "f1": exactly(520 / 9),
            "questions": 1,
            "skipped": 0,
            "unanswerable": 0,
        },
    },
    "annotators": [
        {
            "annotator": "ann0",
            "answers": 3,
            "exact_match": exactly(200 / 3),
            "f1": exactly(800 / 9),
        },
        {
            "annotator": "ann1",
            "answers": 3,
            "exact_match": exactly(100 / 3),
            "f1": exactly(740 / 9),
        },
        {
            "annotator": "ann2",
            "answers": 3,
            "exact_match": exactly(100 / 3),
            "f1": exactly(190 / 3),
        },
    ],
    "paper": {"dev": {"f1": 92.1, "exact_match": 78.3}, "test": {"f1": 91.2, "exact_match": 75.9}},
    "normalization": {"name": "fquad-fr", "version": "1"},
    "language": "fr",
    # SQuAD 2.0's way (three judgments, "" for "no answer", the others' non-empty answers the
    # gold, else [""]):
    #   Q1, Q2 as above (no empty judgment): EM 2/3 each; F1 2.8/3 and 2.5/3
    #   Q3 (answerable): ann0 [émeutiers, parisiens] ("les" dropped) vs ann2's equal → 1, 1;
    #      ann1 "" vs the two non-empty → 0, 0; ann2 vs ann0 (ann1's "" left out) → 1, 1
    #      → EM 2/3, F1 2/3
    #   Q4: two judgments → skipped; Q5 (test) as above
    # dev: 3 answerable questions, EM (2/3 · 3)/3 → 200/3; F1 (2.8 + 2.5 + 2)/9 = 7.3/9 → 730/9
    "v2": {
        "dev": {
            "exact": exactly(200 / 3),
            "f1": exactly(730 / 9),
            "total": 3,
            "HasAns_exact": exactly(200 / 3),
            "HasAns_f1": exactly(730 / 9),
            "HasAns_total": 3,
            "NoAns_exact": None,
            "NoAns_f1": None,
            "NoAns_total": 0,
            "skipped": 1,
        },
        "test": {
            "exact": 0.0,
            "f1": exactly(520 / 9),
            "total": 1,
            "HasAns_exact": 0.0,
            "HasAns_f1": exactly(520 / 9),
            "HasAns_total": 1,
            "NoAns_exact": None,
            "NoAns_f1": None,
            "NoAns_total": 0,
            "skipped": 0,
        },
    },
}


def test_the_report_per_split_and_per_annotator(answered):
    assert human_performance_report() == EXPECTED


def test_the_report_of_one_split(answered):
    # test only: Q5, per annotator one answer each: ann0 0, 2/3; ann1 0, 2/3; ann2 0, 0.4
    assert human_performance_report(split="test") == {
        **EXPECTED,
        "splits": {"test": EXPECTED["splits"]["test"]},
        "v2": {"test": EXPECTED["v2"]["test"]},
        "annotators": [
            {"annotator": "ann0", "answers": 1, "exact_match": 0.0, "f1": exactly(200 / 3)},
            {"annotator": "ann1", "answers": 1, "exact_match": 0.0, "f1": exactly(200 / 3)},
            {"annotator": "ann2", "answers": 1, "exact_match": 0.0, "f1": exactly(40.0)},
        ],
    }
    assert human_performance_report(split="train")["splits"] == {}
    assert human_performance_report(split="train")["v2"] == {}


def test_the_report_uses_the_reviewed_answer_and_leaves_out_rejected_questions(answered):
    reviewer = UserFactory(username="rev", roles=[Role.REVIEWER])
    campaign = answered[0].campaign
    # Q1 is corrected: the author's answer becomes « juillet 1789 » (ann1's answer)
    lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
    assert lease.question_id == answered[0].pk
    review_submit(lease=lease, data={"verdict": "correct", **span(DEV_TEXT, "juillet 1789")})
    # Q2 is rejected: left out of everything
    lease = review_claim_next(campaign=campaign, reviewer=reviewer).lease
    assert lease.question_id == answered[1].pk
    review_submit(lease=lease, data={"verdict": "reject", "reason": "ambiguous"})
    # Q1 now: ann0 [juillet 1789] 1, 1; ann1 [juillet 1789] 1, 1; ann2 [14 juillet 1789]
    #   vs [juillet 1789]: c=2, p=3, t=2 → P=2/3, R=1, F1 = (4/3)/(5/3) = 0.8; EM 0
    #   → EM 2/3, F1 2.8/3: dev is Q1 alone, Q3 and Q4 as before
    # per annotator over Q1 and Q5:
    #   ann0: EM (1 + 0)/2 = 50, F1 (1 + 2/3)/2 = 5/6 → 250/3
    #   ann1: the same
    #   ann2: EM 0, F1 (0.8 + 0.4)/2 = 0.6 → 60
    report = human_performance_report()
    assert report["splits"]["dev"] == {
        "exact_match": exactly(200 / 3),
        "f1": exactly(280 / 3),
        "questions": 1,
        "skipped": 1,
        "unanswerable": 1,
    }
    assert report["splits"]["test"] == EXPECTED["splits"]["test"]
    assert report["annotators"] == [
        {"annotator": "ann0", "answers": 2, "exact_match": 50.0, "f1": exactly(250 / 3)},
        {"annotator": "ann1", "answers": 2, "exact_match": 50.0, "f1": exactly(250 / 3)},
        {"annotator": "ann2", "answers": 2, "exact_match": 0.0, "f1": exactly(60.0)},
    ]


def test_only_unanswerable_questions_give_no_figure(written, people):
    answers = campaign_create(name="Réponses", kind="additional_answers", splits=["test"])
    lease = answer_claim_next(campaign=answers, annotator=people[1]).lease
    answer_submit(lease=lease, data={"no_answer": True})
    assert human_performance_report()["splits"] == {
        "test": {
            "exact_match": None,
            "f1": None,
            "questions": 0,
            "skipped": 0,
            "unanswerable": 1,
        }
    }
    assert human_performance_report()["annotators"] == []
    # v2.0: Q5 has two judgments (ann0's answer, ann1's "no answer"): skipped
    assert human_performance_report()["v2"]["test"]["skipped"] == 1


def test_no_additional_answer_yet_is_an_empty_report(written):
    assert human_performance_report() == {
        **EXPECTED,
        "splits": {},
        "v2": {},
        "annotators": [],
    }


# The command


def test_the_command_prints_the_report_as_json(answered):
    out = StringIO()
    call_command("human_performance", "--json", stdout=out)
    printed = out.getvalue()
    report = human_performance_report()
    assert printed == json.dumps(report, ensure_ascii=False, sort_keys=True) + "\n"
    assert json.loads(printed) == EXPECTED


def test_the_command_summary_beside_the_papers_figures(answered):
    out = StringIO()
    call_command("human_performance", stdout=out)
    assert out.getvalue().splitlines() == [
        "Normalization: fquad-fr v1",
        "dev: F1 88.3, EM 66.7 over 2 questions; 1 without three answers yet, "
        "1 marked unanswerable (paper: F1 92.1, EM 78.3)",
        "test: F1 57.8, EM 0.0 over 1 questions; 0 without three answers yet, "
        "0 marked unanswerable (paper: F1 91.2, EM 75.9)",
        'dev, SQuAD 2.0 (three judgments, no answer = ""): F1 81.1, EM 66.7 over 3 questions; '
        "answerable 3: F1 81.1, EM 66.7; unanswerable 0: F1 —, EM —; 1 without three judgments yet",
        'test, SQuAD 2.0 (three judgments, no answer = ""): F1 57.8, EM 0.0 over 1 questions; '
        "answerable 1: F1 57.8, EM 0.0; unanswerable 0: F1 —, EM —; 0 without three judgments yet",
        "  ann0: F1 88.9, EM 66.7 over 3 answers",
        "  ann1: F1 82.2, EM 33.3 over 3 answers",
        "  ann2: F1 63.3, EM 33.3 over 3 answers",
    ]


def test_the_command_for_one_split_and_with_nothing_yet(written):
    out = StringIO()
    call_command("human_performance", "--split", "dev", stdout=out)
    assert out.getvalue().splitlines() == [
        "Normalization: fquad-fr v1",
        "No question has additional answers yet.",
    ]


# SQuAD 2.0's way: unanswerable questions, "" for "no answer"


def test_leave_one_out_v2_by_hand():
    # ["", "", ""]: each "" against [""] → EM 1, F1 1
    assert leave_one_out_v2(["", "", ""]) == [(1.0, 1.0)] * 3
    # ["", "", "démolie"]: a "" against ["", "démolie"] → gold [démolie] (the empty one left
    # out) → 0, 0; "démolie" against ["", ""] → gold [""] → 0, 0
    assert leave_one_out_v2(["", "", "démolie"]) == [(0.0, 0.0)] * 3
    # ["la forteresse", "", "forteresse démolie"]: fr tokens [forteresse], [], [forteresse,
    # démolie]; 1 vs [2 tokens]: c=1, p=1, t=2 → P=1, R=1/2, F1 2/3; "" vs two non-empty → 0;
    # 3 vs [forteresse]: c=1, p=2, t=1 → P=1/2, R=1, F1 2/3
    assert leave_one_out_v2(["la forteresse", "", "forteresse démolie"]) == [
        (0.0, exactly(2 / 3)),
        (0.0, 0.0),
        (0.0, exactly(2 / 3)),
    ]
    with pytest.raises(ValueError):
        leave_one_out_v2([""])


@pytest.fixture
def impossible(answered, people):
    """Three unanswerable questions on the dev paragraph (ann0, plausible spans) and their
    additional judgments (stored as the answer service stores a "no answer" or a span):
    U1: ann1 no answer, ann2 « démolie »; U2: ann1 and ann2 no answer; U3: ann1 no answer only.
    """
    campaign = campaign_create(name="Sans réponse", kind="unanswerable", splits=["dev"])
    lease = lease_claim_next(campaign=campaign, annotator=people[0]).lease
    assert lease.paragraph.text == DEV_TEXT
    plausible = [
        ("Quand la forteresse fut-elle reconstruite ?", "démolie"),
        ("Qui reconstruisit la Bastille ?", "les émeutiers parisiens"),
        ("Quand l'Assemblée fut-elle dissoute ?", "l’Assemblée"),
    ]
    u1, u2, u3 = questions_submit(
        lease=lease,
        questions=[
            {
                "text": text,
                "plausible_answer_start": DEV_TEXT.index(span_text),
                "plausible_answer_text": span_text,
                "seconds_spent": 30,
                "is_impossible": True,
            }
            for text, span_text in plausible
        ],
    )
    assert (u1.is_impossible, u2.is_impossible, u3.is_impossible) == (True, True, True)
    no = {"kind": Answer.Kind.ADDITIONAL, "text": "", "answer_start": 0, "no_answer": True}
    for unanswerable in (u1, u2, u3):
        Answer.objects.create(question=unanswerable, author=people[1], **no)
    Answer.objects.create(question=u2, author=people[2], **no)
    Answer.objects.create(
        question=u1,
        author=people[2],
        kind=Answer.Kind.ADDITIONAL,
        text="démolie",
        answer_start=DEV_TEXT.index("démolie"),
    )
    return u1, u2, u3


def test_the_v2_report_with_unanswerable_questions(impossible):
    # U1: judgments "" (its author's), "" (ann1), "démolie" (ann2) → 0, 0 each (above);
    #     the plausible span « démolie » of ann0 is never a judgment
    # U2: "", "", "" → 1, 1; U3: two judgments → skipped
    # dev HasAns as before (Q1–Q3: EM 200/3, F1 730/9); NoAns U1, U2: EM 50, F1 50
    # overall: EM (2/3 · 3 + 0 + 1)/5 = 3/5 → 60; F1 (7.3/3 + 0 + 1)/5 = 10.3/15 → 206/3
    report = human_performance_report()
    assert report["v2"]["dev"] == {
        "exact": exactly(60.0),
        "f1": exactly(206 / 3),
        "total": 5,
        "HasAns_exact": exactly(200 / 3),
        "HasAns_f1": exactly(730 / 9),
        "HasAns_total": 3,
        "NoAns_exact": 50.0,
        "NoAns_f1": 50.0,
        "NoAns_total": 2,
        "skipped": 2,
    }
    # v1.1 figures unchanged: unanswerable questions are not in them
    assert report["splits"] == EXPECTED["splits"]
    assert report["annotators"] == EXPECTED["annotators"]
    assert report["v2"]["test"] == EXPECTED["v2"]["test"]


def test_the_command_shows_the_v2_figures(impossible):
    out = StringIO()
    call_command("human_performance", "--split", "dev", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[2] == (
        'dev, SQuAD 2.0 (three judgments, no answer = ""): F1 68.7, EM 60.0 over 5 '
        "questions; answerable 3: F1 81.1, EM 66.7; unanswerable 2: F1 50.0, EM 50.0; "
        "2 without three judgments yet"
    )
    out = StringIO()
    call_command("human_performance", "--split", "dev", "--json", stdout=out)
    assert json.loads(out.getvalue())["v2"]["dev"]["NoAns_total"] == 2


def test_the_page_shows_the_v2_figures(impossible, client):
    admin = UserFactory(username="boss", roles=[Role.ADMIN])
    client.force_login(admin)
    client.cookies["django_language"] = "en"
    html = client.get("/manage/human-performance/?split=dev").content.decode()
    table = html[
        html.index('id="human-performance-v2"') : html.index('id="human-performance-annotators"')
    ]
    row = table[table.index('data-split="dev"') :]
    cells = re.findall(r'<td class="num">([^<]*)</td>', row)[:8]
    # F1 206/3, EM 60, 5 questions; answerable 730/9 / 200/3 over 3; unanswerable 50 / 50 over 2;
    # 2 without three judgments
    assert cells == ["68.7", "60.0", "5", "81.1 / 66.7", "3", "50.0 / 50.0", "2", "2"]
    assert "SQuAD 2.0: with unanswerable questions" in html


def test_the_report_scores_with_the_language_of_the_articles(answered):
    # the same answers in an English corpus: squad-en, whose punctuation is ASCII only
    Article.objects.update(language="en")
    # Q5 (test): ann0 [l’exposition, universelle, de, 1889] (’ is not ASCII punctuation),
    #   ann1 [exposition, universelle], ann2 [1889]
    #   ann0: vs ann1 c=1, p=4, t=2 → P=1/4, R=1/2, F1 1/3; vs ann2 c=1, p=4, t=1 →
    #         P=1/4, R=1, F1 2/5 → 2/5
    #   ann1: vs ann0 c=1, p=2, t=4 → 1/3; vs ann2 0 → 1/3
    #   ann2: vs ann0 c=1, p=1, t=4 → P=1, R=1/4, F1 2/5 → 2/5
    #   F1 (2/5 + 1/3 + 2/5)/3 = 17/45 → 340/9 (fquad-fr gave 520/9); EM 0
    report = human_performance_report(split="test", language="en")
    assert report["normalization"] == {"name": "squad-en", "version": "1"}
    assert report["splits"]["test"]["f1"] == exactly(340 / 9)
    assert report["v2"]["test"]["f1"] == exactly(340 / 9)
