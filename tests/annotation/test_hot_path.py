"""The work loop's hot path: what a claim and a submission send to the database, and the plain
dicts that answer them, which must say exactly what the serializers say."""

import json

from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.services import token_issue
from annotation.api.serializers.questions import QuestionSerializer
from annotation.api.serializers.work import LeaseSerializer, lease_data, written_data
from annotation.models import Lease, Question
from annotation.services.answers import answer_claim_next
from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from tests.annotation.conftest import TEXTS, good_questions
from tests.needs import require_service


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_issue(user=user)}")
    return client


def _statements(queries) -> list[str]:
    """The statements a transaction would send outside the test's own (no savepoints)."""
    return [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]


def _more_paragraphs(count: int) -> None:
    for index in range(count):
        article_store(
            language="fr",
            source=SourceArticle(title=f"Plus {index}", source_title=f"Plus {index}"),
            paragraphs=[TEXTS[index % len(TEXTS)] + f" ({index})"],
            wave="1.0",
            split="dev",
            kind="file",
        )


def test_the_lease_dict_is_what_the_serializer_says(campaign, paragraphs, annotators):
    write = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    write = Lease.objects.select_related("campaign", "paragraph__article", "question").get(
        pk=write.pk
    )
    assert lease_data(write) == json.loads(json.dumps(LeaseSerializer(write).data))
    questions_submit(lease=write, questions=good_questions(paragraphs[0]))
    answers = campaign_create(name="Réponses", kind="additional_answers", splits=["dev"])
    answer = answer_claim_next(campaign=answers, annotator=annotators[1]).lease
    assert answer.question is not None
    assert lease_data(answer) == LeaseSerializer(answer).data


def test_the_written_questions_dict_is_what_the_serializer_says(campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    stored = questions_submit(lease=lease, questions=good_questions(paragraphs[0]))
    with CaptureQueriesContext(connection) as queries:
        mine = [written_data(question, annotators[0].username) for question in stored]
    assert queries.captured_queries == []
    read = Question.objects.select_related("author", "paragraph__article").order_by("position")
    assert mine == QuestionSerializer(read.prefetch_related("answers"), many=True).data
    assert [len(q["answers"]) for q in mine] == [1, 1, 1]


def test_a_claim_and_a_submission_send_the_same_few_statements_at_any_size(
    campaign, paragraphs, annotators
):
    client = _client(annotators[0])

    def cycle():
        with CaptureQueriesContext(connection) as claimed:
            lease = client.post(f"/api/v1/campaigns/{campaign.pk}/leases/").json()
        paragraph = Lease.objects.get(pk=lease["id"]).paragraph
        with CaptureQueriesContext(connection) as sent:
            response = client.post(
                f"/api/v1/leases/{lease['id']}/submit/",
                {"questions": good_questions(paragraph)},
                format="json",
            )
        assert response.status_code == 201, response.content
        return _statements(claimed.captured_queries), _statements(sent.captured_queries)

    cycle()  # the first submission also makes the annotator's review counter
    first_claim, first_submit = cycle()
    _more_paragraphs(40)
    later_claim, later_submit = cycle()
    assert (len(first_claim), len(first_submit)) == (len(later_claim), len(later_submit))
    # claim: end the overdue leases; the claim itself, which reads the lease back with its
    # paragraph and article
    assert len(later_claim) == 2, later_claim
    # submit: the lease read locked; the review counter made or locked and read; then one
    # statement: the lease marked sent, the counter written, the questions, their answers and
    # versions stored
    assert len(later_submit) == 3, later_submit


def test_the_hot_statements_are_prepared_on_postgresql(campaign, paragraphs, annotators):
    """Run twice on one connection, the claim is a prepared statement: PostgreSQL neither
    parses nor plans it again (core.rows.prepared_cursor; prepare_threshold 2 in config.env).
    The ORM's statements are not prepared: bound on the client, they take any number of
    parameters (a statement bound on the server takes at most 65,535)."""
    if connection.vendor != "postgresql":
        require_service("prepared statements need DATABASE_URL to point at PostgreSQL")
    client = _client(annotators[0])
    for paragraph in paragraphs[:3]:
        lease = client.post(f"/api/v1/campaigns/{campaign.pk}/leases/").json()
        sent = client.post(
            f"/api/v1/leases/{lease['id']}/submit/",
            {"questions": good_questions(paragraph)},
            format="json",
        )
        assert sent.status_code == 201
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ["%WITH mine AS%"],
        )
        assert cursor.fetchone()[0] == 1
        cursor.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE %s",
            ['%FROM "annotation_question"%'],
        )
        assert cursor.fetchone()[0] == 0
    assert Question.objects.filter(pk__in=range(1, 70_001)).count() == 9
