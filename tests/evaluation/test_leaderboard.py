"""The leaderboard: submissions scored on the dev or hidden test split of a finished release.

The dataset is written through the services people use (articles stored, questions written,
answered again by two annotators), then released with the test answers held back. Every
response and page of these tests is checked for the test answers, which must never leave the
server.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from accounts.services import token_issue
from annotation.models import Question
from annotation.services.answers import answer_claim_next, answer_submit
from annotation.services.campaigns import campaign_create
from annotation.services.reviews import review_claim_next
from annotation.services.work import lease_claim_next, questions_submit
from core.errors import ServiceError
from core.roles import Role
from corpus.models import Article
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.models import BaselineRun, Submission
from evaluation.selectors.human import human_performance_report
from exports.models import Release
from exports.services.releases import release_build, release_create
from tests.factories import UserFactory
from tests.services import manage, manage_env

# Release files go to a folder of each test (tests/conftest.py).
pytestmark = pytest.mark.usefixtures("releases_folder")

API = "/api/v1/submissions/"
PAGE = "/leaderboard/"
MB = 1024 * 1024

# ---------------------------------------------------------------------------------------------
# The dataset: two dev articles (six questions, three answers each), one test article

BASTILLE = (
    "La prise de la Bastille eut lieu le 14 juillet 1789 à Paris, au cœur du faubourg "
    "Saint-Antoine, et marqua le début de la Révolution."
)
EIFFEL = (
    "La tour Eiffel fut construite par Gustave Eiffel pour l'Exposition universelle de 1889 "
    "à Paris."
)
LIGHTHOUSE = (
    "Le phare de Zyrbaquonne-les-Glaces fut allumé en 1852 par l'ingénieur Ambroise Vénétrel, "
    "qui le dessina lui-même."
)
# Words of the test answers only: no response or page may ever hold them.
TEST_ANSWER_WORDS = ("Zyrbaquonne", "Ambroise")

# title: (split, text, [(label, question, answer)])
ARTICLES = {
    "Prise de la Bastille": (
        "dev",
        BASTILLE,
        [
            ("Q1", "Quand la Bastille fut-elle prise ?", "le 14 juillet 1789"),
            ("Q2", "Dans quelle ville se trouvait la Bastille ?", "Paris"),
            ("Q3", "Dans quel faubourg se trouvait-elle ?", "faubourg Saint-Antoine"),
        ],
    ),
    "Tour Eiffel": (
        "dev",
        EIFFEL,
        [
            ("Q4", "Qui construisit la tour ?", "Gustave Eiffel"),
            ("Q5", "Pour quel événement fut-elle construite ?", "l'Exposition universelle de 1889"),
            ("Q6", "En quelle année eut lieu l'Exposition ?", "1889"),
        ],
    ),
    "Phare": (
        "test",
        LIGHTHOUSE,
        [
            ("T1", "Quel phare fut allumé en 1852 ?", "phare de Zyrbaquonne-les-Glaces"),
            ("T2", "Qui alluma le phare ?", "l'ingénieur Ambroise Vénétrel"),
            ("T3", "En quelle année le phare fut-il allumé ?", "1852"),
        ],
    ),
}
ORIGINAL = {
    label: answer for *_s, questions in ARTICLES.values() for label, _q, answer in questions
}
# The two additional answers of each dev question (first answerer, second answerer).
EXTRA = {
    "Q1": ("le 14 juillet 1789", "le 14 juillet"),
    "Q2": ("Paris", "Paris"),
    "Q3": ("faubourg Saint-Antoine", "au cœur du faubourg Saint-Antoine"),
    "Q4": ("Gustave Eiffel", "Gustave Eiffel"),
    "Q5": ("l'Exposition universelle de 1889", "l'Exposition universelle de 1889"),
    "Q6": ("1889", "1889"),
}
DEV = ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6"]
TEST = ["T1", "T2", "T3"]


@dataclass
class Board:
    release: Release
    ids: dict  # label -> question id in the release
    writer: object
    answerers: list
    boss: object
    outsider: object  # an annotator who never saw a question of the release

    def predictions(self, answers: dict[str, str]) -> dict[str, str]:
        return {self.ids[label]: text for label, text in answers.items()}

    def perfect(self, labels) -> dict[str, str]:
        return self.predictions({label: ORIGINAL[label] for label in labels})


def write_dataset(writer, answerers) -> dict[str, str]:
    """Store the articles, write their questions, answer the dev ones twice more."""
    for title, (split, text, _questions) in ARTICLES.items():
        article_store(
            language="fr",
            source=SourceArticle(title=title, source_title=title, url="", revision_id=None),
            paragraphs=[text],
            wave="1.0",
            split=split,
            kind="file",
        )
    campaign = campaign_create(name="Questions", splits=["dev", "test"])
    labels = {}
    for _ in ARTICLES:
        lease = lease_claim_next(campaign=campaign, annotator=writer).lease
        _split, text, spec = ARTICLES[lease.paragraph.article.title]
        payload = [
            {"text": q, "answer_start": text.index(a), "answer_text": a, "seconds_spent": 30}
            for _label, q, a in spec
        ]
        written = questions_submit(lease=lease, questions=payload)
        labels |= {q.pk: label for (label, *_rest), q in zip(spec, written, strict=True)}
    extra = campaign_create(name="Réponses", kind="additional_answers", splits=["dev"])
    for index, person in enumerate(answerers):
        for _ in DEV:
            lease = answer_claim_next(campaign=extra, annotator=person).lease
            answer = EXTRA[labels[lease.question_id]][index]
            start = lease.question.paragraph.text.index(answer)
            answer_submit(lease=lease, data={"answer_start": start, "answer_text": answer})
    return {labels[q.pk]: q.export_id for q in Question.objects.filter(pk__in=labels)}


def built_release(boss, name: str, **options) -> Release:
    options = {"formats": ["squad"], "splits": ["dev", "test"]} | options
    release = release_create(created_by=boss, name=name, version="1.0", **options)
    release_build(release=release)
    release.refresh_from_db()
    assert release.status == Release.Status.SUCCEEDED, release.error
    return release


@pytest.fixture(autouse=True)
def english(settings):
    """The messages these tests quote are the English source texts."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def board(db) -> Board:
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    answerers = [UserFactory(username=f"answerer{i}", roles=[Role.ANNOTATOR]) for i in (1, 2)]
    boss = UserFactory(username="boss", roles=[Role.ADMIN])
    ids = write_dataset(writer, answerers)
    release = built_release(boss, "fquad-mini")
    outsider = UserFactory(username="outsider", roles=[Role.ANNOTATOR])
    return Board(release, ids, writer, answerers, boss, outsider)


@pytest.fixture
def slow_rate(settings):
    """Three submissions an hour, to reach the limit quickly."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] | {"submissions": "3/hour"}
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": rates}


def fresh_quota(user) -> None:
    """Forget the user's submissions counted by the throttle (Redis outlives test databases)."""
    cache.delete(f"throttle_submissions_{user.pk}")  # not clear(): Redis holds the job queues


def api_for(user) -> APIClient:
    fresh_quota(user)
    client = APIClient()
    client.force_authenticate(user)
    return client


def page_for(user) -> Client:
    fresh_quota(user)
    client = Client()
    client.force_login(user)
    return client


def shown(response) -> str:
    """Return the body of a response, checked to hold no test answer."""
    body = response.content.decode()
    for word in TEST_ANSWER_WORDS:
        assert word not in body, word
    return body


def submit(client, board: Board, **data):
    payload = {"release": board.release.pk, "split": "dev", "label": "CamemBERT base"} | data
    response = client.post(API, payload, format="json")
    shown(response)
    return response


# ---------------------------------------------------------------------------------------------
# Scores


def test_perfect_predictions_score_100_on_dev_and_on_the_hidden_test(board):
    api = api_for(board.outsider)

    dev = submit(api, board, predictions=board.perfect(DEV))
    test = submit(api, board, split="test", label="oracle", predictions=board.perfect(TEST))

    assert dev.status_code == 201, dev.content
    body = dev.json()
    submission = Submission.objects.get(pk=body["id"])
    assert body == {
        "id": submission.pk,
        "label": "CamemBERT base",
        "split": "dev",
        "release": board.release.pk,
        "exact_match": 100.0,
        "f1": 100.0,
        "total": 6,
        "normalization": {"name": "fquad-fr", "version": "1"},
        "squad_version": "1.1",
        "metrics": {},  # v2.0 figures only
        "created_at": body["created_at"],
    }
    assert test.status_code == 201, test.content
    assert (test.json()["exact_match"], test.json()["f1"], test.json()["total"]) == (100, 100, 3)
    stored = Submission.objects.get(pk=test.json()["id"])
    assert (stored.split, stored.submitted_by, stored.label) == ("test", board.outsider, "oracle")
    assert (stored.normalization, stored.normalization_version) == ("fquad-fr", "1")


PARTIAL = {
    "Q1": "14 juillet",  # French: "le 14 juillet" (second answerer) without its article
    "Q2": "à Paris",  # "à" is no article: P 1/2, R 1 → F1 2/3
    "Q3": "Saint-Antoine",  # best against "faubourg Saint-Antoine": P 1, R 1/2 → F1 2/3
    "Q4": "Gustave Eiffel",
    "Q5": "Exposition universelle de 1889",  # French: the elided "l'" goes
    "Q6": "1889",
}


def test_partial_predictions_get_the_exact_french_figures(board):
    response = submit(api_for(board.writer), board, predictions=board.predictions(PARTIAL))

    assert response.status_code == 201, response.content
    body = response.json()
    # Summed in the gold file's order (Bastille then Eiffel), as the official script does.
    assert body["exact_match"] == 100.0 * 4 / 6
    assert body["f1"] == 100.0 * (1.0 + 2 / 3 + 2 / 3 + 1.0 + 1.0 + 1.0) / 6
    assert (round(body["exact_match"], 2), round(body["f1"], 2)) == (66.67, 88.89)
    assert body["normalization"] == {"name": "fquad-fr", "version": "1"}


@pytest.mark.parametrize(
    ("language", "name"),
    [
        ("fr", "fquad-fr"),
        ("fr-ca", "fquad-fr"),
        ("en", "squad-en"),
        ("de", "mlqa-de"),
        ("zh", "mlqa-zh"),
        ("ko", "korquad-chars"),
        ("ro", "chars"),
    ],
)
def test_the_normalization_follows_the_language_of_the_articles(board, language, name):
    Article.objects.update(language=language)
    _options_without_language(board.release)  # a release from before issue 27 names none

    response = submit(api_for(board.writer), board, predictions=board.predictions(PARTIAL))

    assert response.status_code == 201, response.content
    assert response.json()["normalization"] == {"name": name, "version": "1"}
    stored = Submission.objects.get()
    assert (stored.normalization, stored.normalization_version) == (name, "1")
    if name != "fquad-fr":  # "le 14 juillet" and "l'Exposition" keep their article
        assert response.json()["exact_match"] < 100.0 * 4 / 6


def _options_without_language(release):
    release.options = {k: v for k, v in release.options.items() if k != "language"}
    release.save(update_fields=["options"])


def test_a_release_of_one_language_is_scored_with_its_languages_mode(board):
    # Its `language` option decides, whatever other languages share its questions' ids.
    assert board.release.options["language"] == "fr"
    Article.objects.update(language="de")

    response = submit(api_for(board.writer), board, predictions=board.predictions(PARTIAL))

    assert response.json()["normalization"] == {"name": "fquad-fr", "version": "1"}


def test_a_score_stored_as_word_reads_as_chars(board):
    # rows stored before issue 27 say "word": the same rules, now called "chars"
    Article.objects.update(language="ro")
    _options_without_language(board.release)
    response = submit(api_for(board.writer), board, predictions=board.predictions(PARTIAL))
    assert response.json()["normalization"] == {"name": "chars", "version": "1"}
    Submission.objects.update(normalization="word")  # as an old row holds it

    api = api_for(board.outsider)
    listed = api.get(API, {"release": board.release.pk, "split": "dev"}).json()
    row = next(row for row in listed if row["kind"] == "submission")
    assert row["normalization"] == {"name": "chars", "version": "1"}


def test_a_mode_whose_package_is_missing_refuses_the_submission_by_name(monkeypatch):
    # a language pointed at m2qa-zh on a server without jieba: 503 naming the package
    from evaluation.metrics import M2QA_ZH, community
    from evaluation.services.leaderboard.submissions import _check_installed

    monkeypatch.setitem(sys.modules, "jieba", None)
    community._jieba_cut.cache_clear()
    try:
        with pytest.raises(ServiceError) as refused:
            _check_installed(M2QA_ZH)
    finally:
        community._jieba_cut.cache_clear()
    assert refused.value.status == 503
    assert refused.value.errors == {
        "predictions": [
            "This release is scored with the m2qa-zh metric, which needs the package "
            "jieba==0.42.1; it is not installed on this server. Ask an administrator."
        ]
    }


# ---------------------------------------------------------------------------------------------
# Refusals: a 4xx naming the field, and nothing stored


def ids_named(message: str) -> list[str]:
    return re.findall(r"“([^”]*)”", message)


def refused(response, status: int, field: str) -> str:
    assert response.status_code == status, response.content
    errors = response.json()["errors"]
    assert list(errors) == [field], errors
    assert Submission.objects.count() == 0
    return " ".join(errors[field])


@pytest.mark.parametrize(
    ("data", "status", "field", "words"),
    [
        ({"release": 999_999}, 404, "release", "999999"),
        ({"release": "one"}, 400, "release", "id"),
        ({"release": None}, 400, "release", "id"),
        ({"split": "train"}, 400, "split", "dev or test"),
        ({"split": None}, 400, "split", "dev or test"),
        ({"label": ""}, 400, "label", "label"),
        ({"label": "   "}, 400, "label", "label"),
        ({"label": "x" * 201}, 400, "label", "200"),
        ({"label": 12}, 400, "label", "label"),
        ({"label": "nul\u0000"}, 400, "label", "NUL"),
        ({"predictions": ["a", "b"]}, 400, "predictions", "object"),
        ({"predictions": "a"}, 400, "predictions", "object"),
        ({"predictions": None}, 400, "predictions", "object"),
    ],
)
def test_bad_fields_are_refused_by_name(board, data, status, field, words):
    response = submit(api_for(board.writer), board, **({"predictions": board.perfect(DEV)} | data))

    assert words in refused(response, status, field)


def test_several_bad_fields_are_named_together(board):
    response = submit(api_for(board.writer), board, split="train", label="", predictions=[])

    assert response.status_code == 400
    assert sorted(response.json()["errors"]) == ["label", "predictions", "split"]
    assert Submission.objects.count() == 0


def test_answers_that_are_not_strings_are_named_up_to_five(board):
    predictions = board.perfect(DEV) | {board.ids["Q1"]: 1, board.ids["Q2"]: None}
    predictions |= {f"n{i}": ["list"] for i in range(5)}

    message = refused(
        submit(api_for(board.writer), board, predictions=predictions), 400, "predictions"
    )

    assert "7" in message
    assert ids_named(message) == [board.ids["Q1"], board.ids["Q2"], "n0", "n1", "n2"]
    assert message.endswith(", ….")


def test_predictions_for_unknown_ids_are_named_up_to_five_with_their_count(board):
    predictions = board.perfect(DEV) | {f"x{i}": "Paris" for i in range(7)}
    predictions[board.ids["T1"]] = "phare"  # a test question is not a dev question

    message = refused(
        submit(api_for(board.writer), board, predictions=predictions), 400, "predictions"
    )

    assert message.startswith("8 ")
    assert ids_named(message) == ["x0", "x1", "x2", "x3", "x4"]


def test_a_submission_must_answer_every_question_of_the_split(board):
    predictions = board.perfect(["Q1"])

    message = refused(
        submit(api_for(board.writer), board, predictions=predictions), 400, "predictions"
    )

    assert "5 of 6" in message
    assert ids_named(message) == [board.ids[label] for label in ("Q2", "Q3", "Q4", "Q5", "Q6")]
    assert not message.endswith(", ….")


# ---------------------------------------------------------------------------------------------
# The hidden test stays honest: only people who never saw its answers are scored on it


def test_people_who_saw_the_test_answers_are_not_scored_on_test(board):
    """The writer of the test questions, and an admin, are refused on test (403), not on dev."""
    for person in (board.writer, board.boss):
        response = submit(api_for(person), board, split="test", predictions=board.perfect(TEST))
        assert response.status_code == 403, response.content
        assert list(response.json()["errors"]) == ["split"]
    assert submit(api_for(board.writer), board, predictions=board.perfect(DEV)).status_code == 201
    assert list(Submission.objects.values_list("split", flat=True)) == ["dev"]


def test_whoever_held_a_lease_on_a_test_question_is_not_scored_on_test(board):
    """A reviewer who opened a test question to audit it saw its answer."""
    reviewer = UserFactory(username="auditor", roles=[Role.REVIEWER])
    question = Question.objects.get(source_id="", uuid=board.ids["T1"])
    Question.objects.update(sampled_for_review=False)
    Question.objects.filter(pk=question.pk).update(sampled_for_review=True)
    assert (
        review_claim_next(campaign=question.campaign, reviewer=reviewer).lease.question == question
    )

    response = submit(api_for(reviewer), board, split="test", predictions=board.perfect(TEST))

    message = refused(response, 403, "split")
    assert message == (
        "You wrote, answered or reviewed questions of this test split, so it cannot score "
        "your model fairly: submit on dev."
    )


def test_a_refusal_on_test_never_names_a_test_question(board):
    response = submit(
        api_for(board.outsider), board, split="test", predictions=board.perfect(["T1"])
    )

    message = refused(response, 400, "predictions")
    assert message == ("A submission answers every question of the split; 2 of 3 are missing.")
    assert not any(board.ids[label] in response.content.decode() for label in TEST)


def test_the_questions_api_holds_back_test_answers_from_all_but_admins(board):
    """What an annotator could copy into a submission: their own test questions' answers."""

    def listed(person, split):
        response = api_for(person).get("/api/v1/questions/", {"split": split})
        assert response.status_code == 200
        return response.json()["results"]

    reviewer = UserFactory(username="auditor", roles=[Role.REVIEWER])
    for person in (board.writer, reviewer):
        rows = listed(person, "test")
        assert sorted(row["text"] for row in rows) == sorted(
            q for _l, q, _a in ARTICLES["Phare"][2]
        )
        assert {(row["answers_held_back"], len(row["answers"])) for row in rows} == {(True, 0)}
        detail = shown(api_for(person).get(f"/api/v1/questions/{rows[0]['id']}/"))
        version = json.loads(detail)["revisions"][0]
        assert (version["answer_start"], version["answer_text"]) == (None, None)
    dev = listed(board.writer, "dev")
    assert {(row["answers_held_back"], len(row["answers"]) > 0) for row in dev} == {(False, True)}
    admin = listed(board.boss, "test")
    assert {row["answers"][0]["text"] for row in admin} == {ORIGINAL[label] for label in TEST}


def test_ids_in_messages_are_cut_short_and_printable(board):
    predictions = board.perfect(DEV) | {"z" * 5000: "x", "\ud800": "y"}
    payload = {
        "release": board.release.pk,
        "split": "dev",
        "label": "l",
        "predictions": predictions,
    }
    body = json.dumps(payload)  # ASCII, so the lone surrogate travels as \ud800

    response = api_for(board.writer).post(API, body, content_type="application/json")

    message = refused(response, 400, "predictions")

    assert ids_named(message) == ["z" * 60 + "…", "\\ud800"]


def test_an_unfinished_release_or_a_split_it_lacks_is_a_conflict(board):
    pending = release_create(created_by=board.boss, name="next", version="2.0", formats=["squad"])
    dev_only = built_release(board.boss, "dev-only", splits=["dev"])
    api = api_for(board.outsider)

    not_built = submit(api, board, release=pending.pk, predictions=board.perfect(DEV))
    no_test = submit(api, board, release=dev_only.pk, split="test", predictions=board.perfect(TEST))

    assert "finished" in refused(not_built, 409, "release")
    assert "test" in refused(no_test, 409, "split")


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b'[{"release": 1}]', "non_field_errors"),
        (b'{"release": 1, "predictions": {', "detail"),
        (b"[" * 100_000, "detail"),  # refused by the parser, as broken JSON is
    ],
    ids=["a list", "broken JSON", "nested too deeply"],
)
def test_a_body_that_is_not_a_json_object_is_refused(board, body, field):
    response = api_for(board.writer).post(API, body, content_type="application/json")

    refused(response, 400, field)


def test_a_form_encoded_body_is_refused(board):
    response = api_for(board.writer).post(API, {"release": board.release.pk, "split": "dev"})

    refused(response, 415, "detail")


# ---------------------------------------------------------------------------------------------
# Size


def test_a_50_mb_body_is_refused_before_it_is_read(board):
    head = {"release": board.release.pk, "split": "dev", "label": "big"}
    # One 50 MB answer, built as one string: cheap to make, and a valid JSON body.
    huge = (
        json.dumps(head)[:-1] + f', "predictions": {{"{board.ids["Q1"]}": "{"a" * (50 * MB)}"}}}}'
    )

    response = api_for(board.writer).post(API, huge, content_type="application/json")

    assert refused(response, 413, "predictions") == (
        "A submission is at most 20 MB; send a smaller predictions file."
    )


def test_a_large_declared_length_is_refused_without_reading_the_body(board):
    # The test client's payload asserts when more is read than it holds: reading would fail.
    response = api_for(board.writer).generic(
        "POST", API, b"{}", content_type="application/json", CONTENT_LENGTH=str(60 * MB)
    )

    assert "20 MB" in refused(response, 413, "predictions")


def test_the_limit_is_the_setting_and_a_valid_body_over_djangos_default_passes(board, settings):
    long_answer = "Paris " * (MB // 2)  # 3 MB: above Django's default 2.5 MB, under 20 MB
    predictions = board.perfect(DEV) | {board.ids["Q2"]: long_answer}
    api = api_for(board.writer)

    accepted = submit(api, board, predictions=predictions)
    settings.SUBMISSION_MAX_MB = 1
    refused_body = submit(api, board, label="again", predictions=predictions)

    assert accepted.status_code == 201, accepted.content
    assert refused_body.status_code == 413
    assert refused_body.json() == {
        "errors": {
            "predictions": ["A submission is at most 1 MB; send a smaller predictions file."]
        }
    }
    assert Submission.objects.count() == 1


def test_djangos_own_refusal_of_a_body_is_the_same_413(board, settings):
    # DRF reads a JSON body through request.body, which Django refuses past its own limit.
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    predictions = board.perfect(DEV) | {board.ids["Q2"]: "Paris " * 500}  # 3 kB

    response = submit(api_for(board.writer), board, predictions=predictions)

    assert "20 MB" in refused(response, 413, "predictions")


# ---------------------------------------------------------------------------------------------
# Rate limit


def test_the_fourth_submission_within_the_hour_is_throttled(board, slow_rate):
    api = api_for(board.writer)
    for n in range(3):
        assert (
            submit(api, board, label=f"run {n}", predictions=board.perfect(DEV)).status_code == 201
        )

    fourth = submit(api, board, label="run 3", predictions=board.perfect(DEV))
    page = Client()
    page.force_login(board.writer)
    by_page = post_page(page, board, label="page", predictions=upload(board.perfect(DEV)))

    assert fourth.status_code == 429
    assert list(fourth.json()["errors"]) == ["detail"]
    assert by_page.status_code == 429  # the page and the API share the quota
    assert "Too many submissions" in shown(by_page)
    assert Submission.objects.count() == 3
    # Reading the leaderboard is not limited, and another user has a quota of their own.
    assert api.get(API, {"release": board.release.pk, "split": "dev"}).status_code == 200
    other = submit(api_for(board.answerers[0]), board, predictions=board.perfect(DEV))
    assert other.status_code == 201


def test_refused_attempts_count_too(board, slow_rate):
    api = api_for(board.writer)
    for _ in range(3):
        assert submit(api, board, split="train", predictions={}).status_code == 400

    assert submit(api, board, predictions=board.perfect(DEV)).status_code == 429
    assert Submission.objects.count() == 0


# ---------------------------------------------------------------------------------------------
# The leaderboard


@pytest.fixture
def scored(board):
    """Two submissions on dev, one on test, two baselines (one failed) and humans."""
    api = api_for(board.writer)
    partial = submit(api, board, label="partial", predictions=board.predictions(PARTIAL))
    perfect = submit(
        api_for(board.answerers[0]), board, label="perfect", predictions=board.perfect(DEV)
    )
    hidden = submit(
        api_for(board.outsider),
        board,
        split="test",
        label="on test",
        predictions=board.perfect(TEST),
    )
    assert {partial.status_code, perfect.status_code, hidden.status_code} == {201}
    baseline = BaselineRun.objects.create(
        release=board.release,
        kind=BaselineRun.Kind.LEXICAL,
        status=BaselineRun.Status.SUCCEEDED,
        metrics={"dev": {"exact_match": 70.0, "f1": 90.0, "total": 6}},
        normalization="fquad-fr",
        normalization_version="1",
        created_by=board.boss,
    )
    BaselineRun.objects.create(
        release=board.release,
        kind=BaselineRun.Kind.LEXICAL,
        status=BaselineRun.Status.FAILED,
        metrics={"dev": {"exact_match": 99.0, "f1": 99.0}},
    )
    return {
        "partial": partial.json()["id"],
        "perfect": perfect.json()["id"],
        "test": hidden.json()["id"],
        "baseline": baseline.pk,
    }


def test_the_api_lists_humans_then_entries_best_first(board, scored):
    response = api_for(board.answerers[1]).get(API, {"release": board.release.pk, "split": "dev"})
    shown(response)

    assert response.status_code == 200
    rows = response.json()
    assert [(r["kind"], r["id"], r["rank"]) for r in rows] == [
        ("human", None, None),
        ("submission", scored["perfect"], 1),
        ("baseline", scored["baseline"], None),
        ("submission", scored["partial"], 2),
    ]
    human = human_performance_report(split="dev")["splits"]["dev"]
    assert human["questions"] == 6
    assert rows[0]["exact_match"] == human["exact_match"]
    assert rows[0]["f1"] == human["f1"]
    assert (round(rows[0]["exact_match"], 2), round(rows[0]["f1"], 2)) == (88.89, 97.78)
    assert rows[0]["total"] == 6
    assert "database" in rows[0]["note"]
    assert rows[1] | {"created_at": None} == {
        "rank": 1,
        "kind": "submission",
        "id": scored["perfect"],
        "label": "perfect",
        "submitted_by": "answerer1",
        "exact_match": 100.0,
        "f1": 100.0,
        "total": 6,
        "created_at": None,
        "normalization": {"name": "fquad-fr", "version": "1"},
        "v2": None,  # a v1.1 release
        "note": "",
    }
    assert (rows[2]["f1"], rows[2]["exact_match"], rows[2]["total"]) == (90.0, 70.0, 6)
    assert rows[2]["submitted_by"] == "boss"


def test_the_test_leaderboard_shows_figures_only(board, scored):
    response = api_for(board.writer).get(API, {"release": board.release.pk, "split": "test"})
    shown(response)

    rows = response.json()
    assert [(r["kind"], r["id"], r["f1"]) for r in rows] == [("submission", scored["test"], 100.0)]


@pytest.mark.parametrize(
    ("query", "status", "field"),
    [
        ({"split": "dev"}, 400, "release"),
        ({"release": 999_999, "split": "dev"}, 404, "release"),
        ({"release": "{pk}", "split": "train"}, 400, "split"),
        ({"release": "{pk}"}, 400, "split"),
    ],
)
def test_the_api_refuses_a_bad_choice_of_leaderboard(board, query, status, field):
    query = {k: str(v).format(pk=board.release.pk) for k, v in query.items()}

    response = api_for(board.writer).get(API, query)

    assert response.status_code == status
    assert list(response.json()["errors"]) == [field]


def rows_of(page: str) -> list[tuple[str, str]]:
    return re.findall(r'<tr class="row-(\w+)" data-kind="\w+"(?: data-id="(\d+)")?>', page)


def test_the_page_lists_submissions_best_first_with_the_human_row(board, scored):
    page = shown(page_for(board.answerers[1]).get(PAGE, {"release": board.release.pk}))

    assert rows_of(page) == [
        ("human", ""),
        ("submission", str(scored["perfect"])),
        ("baseline", str(scored["baseline"])),
        ("submission", str(scored["partial"])),
    ]
    assert "computed from the questions now in the database" in page
    assert "fquad-fr v1" in page
    test_page = shown(
        page_for(board.writer).get(PAGE, {"release": board.release.pk, "split": "test"})
    )
    assert rows_of(test_page) == [("submission", str(scored["test"]))]


def test_the_page_escapes_labels(board):
    label = '<script>alert("x")</script>'
    assert (
        submit(
            api_for(board.writer), board, label=label, predictions=board.perfect(DEV)
        ).status_code
        == 201
    )

    page = shown(page_for(board.writer).get(PAGE))

    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


@pytest.mark.parametrize(
    "query", [{"split": "train"}, {"release": "999999"}, {"release": "x"}], ids=str
)
def test_the_page_answers_404_for_a_leaderboard_that_does_not_exist(board, query):
    assert page_for(board.writer).get(PAGE, query).status_code == 404


# ---------------------------------------------------------------------------------------------
# The page's submission form


def upload(data, name="predictions.json") -> SimpleUploadedFile:
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    return SimpleUploadedFile(name, raw, content_type="application/json")


def post_page(client, board: Board, split="dev", **data):
    url = f"{PAGE}?release={board.release.pk}&split={split}"
    response = client.post(url, data)
    shown(response)
    return response


def test_a_file_submitted_on_the_page_is_scored_and_listed(board):
    client = page_for(board.answerers[0])

    response = post_page(
        client, board, label="mon modèle", predictions=upload(board.predictions(PARTIAL))
    )

    assert response.status_code == 302
    submission = Submission.objects.get()
    assert (submission.label, submission.split, submission.submitted_by) == (
        "mon modèle",
        "dev",
        board.answerers[0],
    )
    assert submission.f1 == 100.0 * (1.0 + 2 / 3 + 2 / 3 + 1.0 + 1.0 + 1.0) / 6
    page = shown(client.get(response["Location"]))
    assert ("submission", str(submission.pk)) in rows_of(page)
    assert "mon modèle" in page


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"label": "kept label"}, "predictions", "Choose the JSON file"),
        ({"label": "kept label", "predictions": b"{not json"}, "predictions", "not JSON"),
        ({"label": "kept label", "predictions": b"\xff\xfe\xfa"}, "predictions", "not JSON"),
        ({"label": "kept label", "predictions": ["a"]}, "predictions", "object"),
        ({"label": "kept label", "predictions": {"x": "y"}}, "predictions", "missing"),
        ({"label": "", "predictions": "perfect"}, "label", "Give a label"),
        ({"label": "y" * 201, "predictions": "perfect"}, "label", "200"),
    ],
    ids=["no file", "not JSON", "not UTF-8", "a list", "unknown and missing", "no label", "long"],
)
def test_the_page_shows_a_refusal_next_to_its_field_and_keeps_the_label(board, data, field, words):
    data = dict(data)
    if "predictions" in data:
        value = data["predictions"]
        data["predictions"] = upload(board.perfect(DEV) if value == "perfect" else value)

    response = post_page(page_for(board.writer), board, **data)

    assert response.status_code == 400
    form = response.context["form"]
    assert list(form.errors) == [field]
    assert words in " ".join(form.errors[field])
    assert Submission.objects.count() == 0
    if data["label"] == "kept label":
        assert 'value="kept label"' in response.content.decode()


def test_the_page_refuses_a_huge_body_unread(board):
    client = page_for(board.writer)
    url = f"{PAGE}?release={board.release.pk}&split=dev"

    response = client.generic(
        "POST",
        url,
        b"--x--",
        content_type="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(50 * MB),
    )

    assert response.status_code == 413
    assert "at most 20 MB" in " ".join(response.context["form"].errors["predictions"])
    assert Submission.objects.count() == 0
    assert rows_of(shown(response)) == [("human", "")]  # the leaderboard is still shown


def test_the_page_answers_djangos_refusal_of_a_body_as_413(board, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000  # Django counts the form's fields, not files

    response = post_page(
        page_for(board.writer), board, label="l" * 5000, predictions=upload(board.perfect(DEV))
    )

    assert response.status_code == 413
    assert list(response.context["form"].errors) == ["predictions"]
    assert Submission.objects.count() == 0


def test_the_page_checks_csrf(board):
    client = Client(enforce_csrf_checks=True)
    client.force_login(board.writer)
    fresh_quota(board.writer)

    response = post_page(client, board, label="forged", predictions=upload(board.perfect(DEV)))

    assert response.status_code == 403
    assert Submission.objects.count() == 0


# ---------------------------------------------------------------------------------------------
# Who may submit and see


@pytest.fixture
def people(db):
    return {
        "annotator": UserFactory(username="ann", roles=[Role.ANNOTATOR]),
        "reviewer": UserFactory(username="rev", roles=[Role.REVIEWER]),
        "admin": UserFactory(username="adm", roles=[Role.ADMIN]),
        "nobody": UserFactory(username="nobody", roles=[]),
    }


@pytest.mark.parametrize("role", ["annotator", "reviewer", "admin"])
def test_every_role_may_submit_and_see(board, people, role):
    user = people[role]

    by_api = submit(api_for(user), board, label=role, predictions=board.perfect(DEV))
    page = page_for(user).get(PAGE)

    assert by_api.status_code == 201
    assert page.status_code == 200
    assert role in shown(page)


def test_a_user_without_a_role_may_neither_submit_nor_see(board, people):
    api, client = api_for(people["nobody"]), page_for(people["nobody"])

    posted = submit(api, board, predictions=board.perfect(DEV))
    listed = api.get(API, {"release": board.release.pk, "split": "dev"})
    page = client.get(PAGE)
    page_post = post_page(client, board, label="x", predictions=upload(board.perfect(DEV)))

    assert (posted.status_code, listed.status_code, page.status_code) == (403, 403, 403)
    assert page_post.status_code == 403
    assert list(posted.json()["errors"]) == ["detail"]
    assert Submission.objects.count() == 0


def test_anonymous_people_are_asked_to_sign_in(board):
    api = APIClient()

    posted = submit(api, board, predictions=board.perfect(DEV))
    listed = api.get(API, {"release": board.release.pk, "split": "dev"})
    page = Client().get(PAGE)

    assert (posted.status_code, listed.status_code) == (401, 401)
    assert page.status_code == 302
    assert page["Location"] == f"/accounts/login/?next={PAGE}"
    assert Submission.objects.count() == 0


def test_a_token_works_for_scripts(board):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=board.writer)}")
    fresh_quota(board.writer)

    response = submit(api, board, predictions=board.perfect(DEV))

    assert response.status_code == 201


def test_the_admin_home_links_to_the_leaderboard(board):
    page = page_for(board.boss).get("/manage/")

    assert page.status_code == 200
    assert f'href="{PAGE}"' in page.content.decode()


# ---------------------------------------------------------------------------------------------
# Settings


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("SUBMISSIONS_RATE", "lots", "Bad environment variable SUBMISSIONS_RATE: expected a"),
        ("SUBMISSION_MAX_MB", "0", "Bad environment variable SUBMISSION_MAX_MB: expected a"),
    ],
)
def test_start_up_stops_on_a_bad_leaderboard_setting(tmp_path, name, value, message):
    result = manage("check", env=manage_env(VAR_DIR=str(tmp_path), **{name: value}), timeout=60)

    assert result.returncode == 1
    assert message in result.stderr


def test_the_settings_defaults(settings):
    assert settings.SUBMISSION_MAX_MB == 20
    assert settings.SUBMISSIONS_RATE == "20/hour"
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["submissions"] == "20/hour"
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE >= 20 * MB


def test_the_page_says_when_no_release_is_finished(db):
    user = UserFactory(username="early", roles=[Role.REVIEWER])

    page = page_for(user).get(PAGE)

    assert page.status_code == 200
    assert "No release is finished yet" in page.content.decode()
    assert 'id="submission-form"' not in page.content.decode()


def test_the_question_page_holds_back_test_answers_from_all_but_admins(board):
    """The page a question's author opens from their home: the same rule as the API."""
    test_question = Question.objects.get(uuid=board.ids["T1"])
    dev_question = Question.objects.get(uuid=board.ids["Q1"])
    reviewer = UserFactory(username="auditor", roles=[Role.REVIEWER])
    for person in (board.writer, reviewer):
        page = page_for(person).get(f"/questions/{test_question.uuid}/").content.decode()
        assert "The answers of test questions are held back" in page
        listed = re.search(r'<ul id="question-answers">(.*?)</ul>', page, re.S).group(1)
        history = re.search(r'<ol id="question-history">(.*?)</ol>', page, re.S).group(1)
        assert ("<q>" in listed, "<q>" in history) == (False, False)
    dev = page_for(board.writer).get(f"/questions/{dev_question.uuid}/").content.decode()
    assert "le 14 juillet 1789" in dev and "held back" not in dev
    admin = page_for(board.boss).get(f"/questions/{test_question.uuid}/").content.decode()
    assert "Zyrbaquonne" in admin and "held back" not in admin


# ---------------------------------------------------------------------------------------------
# SQuAD v2.0 releases: "" = no answer, optional no-answer probabilities, HasAns / NoAns

# Made v2.0 by its options, its dev gold holding [] for Q5 and Q6 (unanswerable), as the
# exports write a v2.0 release's gold file.
V2_PREDICTIONS = {
    "Q1": "le 14 juillet 1789",  # EM 1
    "Q2": "Paris",  # EM 1
    "Q3": "",  # answerable, said no answer: 0
    "Q4": "Gustave Eiffel",  # EM 1
    "Q5": "",  # unanswerable, no answer: 1
    "Q6": "1889",  # unanswerable, answered: 0
}
V2_NA_PROBS = {"Q1": 0.1, "Q2": 0.2, "Q3": 0.9, "Q4": 0.3, "Q5": 0.8, "Q6": 0.4}
# exact = f1 = 4/6; HasAns Q1–Q4: 3/4 = 75; NoAns Q5, Q6: 1/2 = 50
# no answer (unanswerable = positive): TP Q5, FP Q3, FN Q6, TN Q1, Q2, Q4 → P = R = F1 = 50
# best: start 2 (both unanswerable right when everything is ""), then by na_prob: Q1 +1 → 3,
#   Q2 +1 → 4, Q4 +1 → 5 (best, at 0.3), Q6 −1 → 4, Q5 +0, Q3 +0 → 100·5/6 at 0.3
V2_METRICS = {
    "squad_version": "2.0",
    "HasAns_exact": 75.0,
    "HasAns_f1": 75.0,
    "HasAns_total": 4,
    "NoAns_exact": 50.0,
    "NoAns_f1": 50.0,
    "NoAns_total": 2,
    "best_exact": 100.0 * 5 / 6,
    "best_exact_thresh": 0.3,
    "best_f1": 100.0 * 5 / 6,
    "best_f1_thresh": 0.3,
    "no_answer": {
        "precision": 50.0,
        "recall": 50.0,
        "f1": 50.0,
        "true_positives": 1,
        "false_positives": 1,
        "false_negatives": 1,
        "true_negatives": 3,
        "missing": 0,
    },
}


@pytest.fixture
def v2_board(board) -> Board:
    from exports.services.releases import release_storage

    release = board.release
    release.options = release.options | {"squad_version": "2.0"}
    release.save(update_fields=["options"])
    item = release.files.get(name="gold-dev.json", internal=True)
    path = release_storage().path(item.storage_name)
    with open(path, encoding="utf-8") as handle:
        gold = json.load(handle)
    gold[board.ids["Q5"]] = gold[board.ids["Q6"]] = []
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(gold, handle)
    return board


def test_a_v2_submission_is_scored_the_v2_way(v2_board):
    predictions = v2_board.predictions(V2_PREDICTIONS)
    na_probs = v2_board.predictions(V2_NA_PROBS)

    response = submit(
        api_for(v2_board.writer), v2_board, predictions=predictions, na_probs=na_probs
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["exact_match"], body["f1"], body["total"]) == (100.0 * 4 / 6, 100.0 * 4 / 6, 6)
    assert body["squad_version"] == "2.0"
    assert body["metrics"] == V2_METRICS
    assert Submission.objects.get().metrics == V2_METRICS


def test_without_probabilities_no_best_thresholds(v2_board):
    predictions = v2_board.predictions(V2_PREDICTIONS)

    response = submit(api_for(v2_board.writer), v2_board, predictions=predictions)

    assert response.status_code == 201, response.content
    expected = {key: value for key, value in V2_METRICS.items() if not key.startswith("best_")}
    assert response.json()["metrics"] == expected


def test_the_v2_leaderboard_rows_and_page(v2_board):
    submit(
        api_for(v2_board.writer),
        v2_board,
        predictions=v2_board.predictions(V2_PREDICTIONS),
        na_probs=v2_board.predictions(V2_NA_PROBS),
    )
    api = api_for(v2_board.outsider)
    rows = api.get(API, {"release": v2_board.release.pk, "split": "dev"}).json()
    human, submission = rows
    assert submission["v2"] == {
        "HasAns_exact": 75.0,
        "HasAns_f1": 75.0,
        "HasAns_total": 4,
        "NoAns_exact": 50.0,
        "NoAns_f1": 50.0,
        "NoAns_total": 2,
        "no_answer_f1": 50.0,
        "best_f1": 100.0 * 5 / 6,
        "best_f1_thresh": 0.3,
    }
    # humans, the SQuAD 2.0 way, from the database (its six dev questions are answerable):
    # the same three answers as FQuAD's figure, so the same EM and F1 (the first test above)
    assert (human["kind"], human["total"], human["v2"]["NoAns_total"]) == ("human", 6, 0)
    assert human["v2"]["HasAns_f1"] == human["f1"]
    assert "no answer" in human["note"]

    page = page_for(v2_board.outsider)
    page.cookies["django_language"] = "en"
    html = shown(page.get(PAGE, {"release": v2_board.release.pk, "split": "dev"}))
    assert 'id="squad-v2-note"' in html
    assert "HasAns F1" in html and "No-answer F1" in html
    row = html[html.index('data-kind="submission"') :]
    assert re.findall(r'<td class="num v2-[a-z]+">([^<]*)</td>', row)[:3] == [
        "75.00",
        "50.00",
        "50.00",
    ]


def test_the_v2_page_form_takes_the_probabilities(v2_board):
    page = page_for(v2_board.writer)
    page.cookies["django_language"] = "en"
    files = {
        "predictions": SimpleUploadedFile(
            "p.json", json.dumps(v2_board.predictions(V2_PREDICTIONS)).encode()
        ),
        "na_probs": SimpleUploadedFile(
            "n.json", json.dumps(v2_board.predictions(V2_NA_PROBS)).encode()
        ),
    }
    query = f"?release={v2_board.release.pk}&split=dev"
    response = page.post(PAGE + query, {"label": "v2 model", **files}, follow=True)

    assert response.status_code == 200
    assert "(F1 75.00 on the answerable ones, 50.00 on the unanswerable ones)" in shown(response)
    assert Submission.objects.get().metrics == V2_METRICS | {"squad_version": "2.0"}


@pytest.mark.parametrize(
    ("na_probs", "words"),
    [
        ("0.5", "object"),
        ([0.5], "object"),
        ({"Q1": 1.5}, "1 is not: “Q1”"),
        ({"Q1": -0.1, "Q2": "0.2", "Q3": True, "Q4": None}, "4 are not: “Q1”, “Q2”, “Q3”, “Q4”"),
        ({"Q1": 0.1, "Q2": 0.2}, "4 of 6 are missing: “Q3”, “Q4”, “Q5”, “Q6”"),
        ({**V2_NA_PROBS, "zz": 0.5}, "1 id is not a question of the dev split: “zz”"),
    ],
)
def test_bad_no_answer_probabilities_are_refused_by_name(v2_board, na_probs, words):
    def labelled(value):
        if not isinstance(value, dict):
            return value
        return {v2_board.ids.get(key, key): item for key, item in value.items()}

    predictions = v2_board.predictions(V2_PREDICTIONS)

    response = submit(
        api_for(v2_board.writer), v2_board, predictions=predictions, na_probs=labelled(na_probs)
    )

    message = refused(response, 400, "na_probs")
    for label, question_id in v2_board.ids.items():
        message = message.replace(question_id, label)
    assert words in message


def test_no_answer_probabilities_on_a_v1_release_are_refused(board):
    response = submit(
        api_for(board.writer),
        board,
        predictions=board.perfect(DEV),
        na_probs={board.ids[label]: 0.5 for label in DEV},
    )

    assert "SQuAD v1.1" in refused(response, 400, "na_probs")


def test_on_test_missing_probabilities_are_counted_not_named(v2_board):
    response = submit(
        api_for(v2_board.outsider),
        v2_board,
        split="test",
        predictions=v2_board.perfect(TEST),
        na_probs={v2_board.ids["T1"]: 0.5},
    )

    message = refused(response, 400, "na_probs")
    assert message == "Give a probability for every question of the split; 2 of 3 are missing."


def test_on_a_v2_release_reviewers_are_insiders_of_the_test_split(v2_board):
    """A reviewer reads every test question with its campaign and reviews, which tell the
    unanswerable ones apart: on a v2.0 release they may not score a model on test; on dev,
    and on a v1.1 release's test split when they audited none of it, they may."""
    reviewer = UserFactory(username="auditor", roles=[Role.REVIEWER])
    api = api_for(reviewer)
    response = submit(api, v2_board, split="test", predictions=v2_board.perfect(TEST))
    message = refused(response, 403, "split")
    assert message.startswith("Reviewers can tell which test questions are unanswerable")
    assert Submission.objects.count() == 0
    dev = submit(api, v2_board, predictions=v2_board.predictions(V2_PREDICTIONS))
    assert dev.status_code == 201, dev.content
    v2_board.release.options = v2_board.release.options | {"squad_version": "1.1"}
    v2_board.release.save(update_fields=["options"])
    assert (
        submit(api, v2_board, split="test", predictions=v2_board.perfect(TEST)).status_code == 201
    )
