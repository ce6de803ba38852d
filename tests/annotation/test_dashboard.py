"""Campaign dashboard: progress, question types against targets, unsuitable reports; and the
corpus statistics count the questions."""

from annotation.models import Question
from annotation.services.campaigns import campaign_update
from annotation.services.reviews import review_claim_next, review_submit
from annotation.services.work import lease_claim_next, lease_release, questions_submit
from tests.annotation.conftest import good_questions


def submit_on(campaign, annotator, paragraph, texts):
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    assert lease.paragraph == paragraph
    payload = good_questions(paragraph)
    for item, text in zip(payload, texts, strict=True):
        item["text"] = text
    questions_submit(lease=lease, questions=payload)


def test_dashboard_shows_progress_types_targets_and_reports(
    admin_client, campaign, paragraphs, annotators
):
    campaign_update(campaign=campaign, question_type_targets={"why": 20, "how": 10})
    submit_on(
        campaign,
        annotators[0],
        paragraphs[0],
        ["Pourquoi la Loire ?", "Comment la Loire ?", "Où coule la Loire ?"],
    )
    submit_on(
        campaign,
        annotators[1],
        paragraphs[1],
        ["Pourquoi le canal ?", "Qui dirigea les travaux ?", "Quand fut-il inauguré ?"],
    )
    lease = lease_claim_next(campaign=campaign, annotator=annotators[2]).lease
    lease_release(lease=lease, reason="unsuitable", note="<b>que des chiffres</b>")

    response = admin_client.get(f"/manage/campaigns/{campaign.pk}/dashboard/")
    assert response.status_code == 200
    assert response.context["progress"] == {
        "paragraphs": 3,
        "submitted": 2,
        "in_progress": 0,
        "reported": 1,
        "questions": 6,
        "unanswerable": None,  # the campaign asks for none
        "model": None,  # it never had a model in the loop
        "annotators": 2,
    }
    rows = {
        row["type"]: (row["count"], row["share"], row["target"])
        for row in response.context["types"]
    }
    assert rows["why"] == (2, 33.3, 20)
    assert rows["how"] == (1, 16.7, 10)
    assert rows["where"] == (1, 16.7, None)
    assert rows["who"] == (1, 16.7, None)
    assert rows["when"] == (1, 16.7, None)
    assert rows["what"] == (0, 0.0, None)
    html = response.content.decode()
    # The scale is the largest share (why, 33.3 %): the 20 % target of "why" sits at 60.1 %.
    assert 'x1="60.1" x2="60.1"' in html
    assert "&lt;b&gt;que des chiffres&lt;/b&gt;" in html


def test_dashboard_is_for_admins(client, campaign, annotator):
    client.force_login(annotator)
    assert client.get(f"/manage/campaigns/{campaign.pk}/dashboard/").status_code == 403


def test_corpus_statistics_count_questions_per_split(
    admin_client, campaign, paragraphs, annotators
):
    submit_on(campaign, annotators[0], paragraphs[0], ["Qui ?", "Quoi ?", "Où ?"])
    totals = admin_client.get("/manage/corpus/stats/").context["totals"]
    assert [(t["split"], t["questions"]) for t in totals] == [("train", 0), ("dev", 3), ("test", 0)]


def test_reviews_of_a_campaign_are_not_counted_as_its_paragraphs(
    admin_client, campaign, paragraphs, annotators, reviewer
):
    submit_on(
        campaign,
        annotators[0],
        paragraphs[0],
        ["Pourquoi la Loire ?", "Comment la Loire ?", "Où coule la Loire ?"],
    )
    Question.objects.update(sampled_for_review=True)
    for _ in range(2):
        review = review_claim_next(campaign=campaign, reviewer=reviewer).lease
        review_submit(lease=review, data={"verdict": "approve"})
    review_claim_next(campaign=campaign, reviewer=reviewer)  # a third, held

    progress = admin_client.get(f"/manage/campaigns/{campaign.pk}/dashboard/").context["progress"]

    assert (progress["paragraphs"], progress["submitted"], progress["in_progress"]) == (3, 1, 0)


def test_dashboard_counters_take_the_singular_for_one(
    admin_client, campaign, paragraphs, annotators
):
    """Issue 25 §17: "1 annotators", "3 questions" beside "1 annotators"."""
    submit_on(
        campaign,
        annotators[0],
        paragraphs[0],
        ["Pourquoi la Loire ?", "Comment la Loire ?", "Où coule la Loire ?"],
    )
    url = f"/manage/campaigns/{campaign.pk}/dashboard/"
    english = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    french = admin_client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<div class="counter"><strong>1</strong>annotator</div>' in english
    assert '<div class="counter"><strong>3</strong>questions</div>' in english
    assert '<div class="counter"><strong>0</strong>reported unsuitable</div>' in english
    assert '<div class="counter"><strong>1</strong>annotateur</div>' in french
    assert '<div class="counter"><strong>0</strong>signalé inadapté</div>' in french  # 0: one
