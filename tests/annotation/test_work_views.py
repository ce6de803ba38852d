"""The annotators' pages: next paragraph, the annotation page, giving a paragraph back."""

from annotation.models import Lease
from annotation.services.work import lease_claim_next


def test_next_paragraph_claims_and_opens_the_page(client, campaign, paragraphs, annotators):
    client.force_login(annotators[0])
    response = client.post(f"/annotate/campaigns/{campaign.pk}/next/")
    lease = Lease.objects.get()
    assert response["Location"] == f"/annotate/leases/{lease.pk}/"
    page = client.get(response["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="paragraph" class="paragraph-text" lang="fr" dir="ltr" tabindex="0"' in html
    assert f'data-submit-url="/api/v1/leases/{lease.pk}/submit/"' in html
    assert '<script id="annotate-draft" type="application/json">{}</script>' in html


def test_next_paragraph_needs_a_post(client, campaign, paragraphs, annotators):
    client.force_login(annotators[0])
    assert client.get(f"/annotate/campaigns/{campaign.pk}/next/").status_code == 405
    assert Lease.objects.count() == 0


def test_nothing_left_says_so(client, campaign, annotators):
    client.force_login(annotators[0])
    response = client.post(f"/annotate/campaigns/{campaign.pk}/next/", follow=True)
    assert "Tous les paragraphes de cette campagne sont pris." in response.content.decode()


def test_someone_elses_lease_page_is_refused(client, campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[1]).lease
    client.force_login(annotators[0])
    assert client.get(f"/annotate/leases/{lease.pk}/").status_code == 403
    assert (
        client.post(f"/annotate/leases/{lease.pk}/release/", {"reason": "skip"}).status_code == 403
    )
    assert Lease.objects.get(pk=lease.pk).status == "active"
    assert client.get("/annotate/leases/999999/").status_code == 404


def test_release_from_the_page(client, campaign, paragraphs, annotators):
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    client.force_login(annotators[0])
    response = client.post(
        f"/annotate/leases/{lease.pk}/release/", {"reason": "unsuitable", "note": "Liste de dates"}
    )
    assert response["Location"] == "/annotate/"
    lease.refresh_from_db()
    assert (lease.status, lease.release_reason, lease.release_note) == (
        "released",
        "unsuitable",
        "Liste de dates",
    )


def test_paragraph_text_is_escaped(client, campaign, paragraphs, annotators):
    paragraphs[0].text = "<script>alert(1)</script> " + paragraphs[0].text
    paragraphs[0].save()
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    client.force_login(annotators[0])
    html = client.get(f"/annotate/leases/{lease.pk}/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_reviewers_cannot_open_annotation_pages(client, campaign, paragraphs, reviewer):
    client.force_login(reviewer)
    assert client.post(f"/annotate/campaigns/{campaign.pk}/next/").status_code == 403


def test_the_home_says_continue_where_an_item_is_held(client, campaign, paragraphs, annotator):
    client.force_login(annotator)
    assert "Next paragraph" in client.get("/annotate/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    lease_claim_next(campaign=campaign, annotator=annotator)

    page = client.get("/annotate/", HTTP_ACCEPT_LANGUAGE="en")

    assert page.context["held"] == {campaign.pk}
    assert "Continue your paragraph" in page.content.decode()
    assert "Next paragraph" not in page.content.decode()


def test_a_sent_paragraphs_page_says_it_was_sent_and_offers_the_next(
    client, campaign, paragraphs, annotators
):
    """Issue 25: Back after "Send" (or a reload) asks the server, which shows the paragraph as
    sent, with its questions, and "Next paragraph": no form that would be refused."""
    from annotation.services.work import questions_submit
    from tests.annotation.conftest import good_questions

    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    questions = good_questions(paragraphs[0])
    questions[0]["text"] = "Question <b>0</b> ?"
    questions_submit(lease=lease, questions=questions)
    client.force_login(annotators[0])
    page = client.get(f"/annotate/leases/{lease.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<p role="status" id="sent-message">Ce paragraphe a été envoyé.</p>' in html
    assert 'data-sent="true"' in html
    assert '<form id="question-form" class="form question-form" novalidate hidden>' in html
    assert 'id="submit-paragraph" class="button-primary" disabled hidden' in html
    assert (
        '<p class="question-text" lang="fr" dir="ltr">Question &lt;b&gt;0&lt;/b&gt; ?</p>' in html
    )
    assert html.count('<li class="question-item">') == 3
    assert 'id="next-paragraph"' in html
    assert "no-store" in page["Cache-Control"]


def test_the_page_fetched_ahead_is_kept_by_the_browser_and_no_other(
    client, campaign, paragraphs, annotators
):
    """Issue 25: the next paragraph's page, fetched ahead under `?ahead=`, may be kept for the
    click (one fetch); its own address is never kept (Back and reloads ask the server)."""
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    client.force_login(annotators[0])
    ahead = client.get(f"/annotate/leases/{lease.pk}/?ahead=k3x9")
    assert ahead.status_code == 200
    assert ahead["Cache-Control"] == "private, max-age=120"
    plain = client.get(f"/annotate/leases/{lease.pk}/")
    assert "no-store" in plain["Cache-Control"] and "max-age=0" in plain["Cache-Control"]


def test_a_sent_paragraphs_page_counts_and_marks_its_answers_as_the_live_page_does(
    client, campaign, paragraphs, annotators
):
    """Issue 25 item 1, left over: the server-rendered sent state showed "3" and no marks; the
    live page shows "3 / 3–5" and each answer marked in the paragraph (text kept escaped)."""
    from annotation.services.work import questions_submit

    paragraphs[0].text = "Paris <b>est</b> la capitale de la France depuis longtemps."
    paragraphs[0].save()
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    assert lease.paragraph_id == paragraphs[0].pk
    text = paragraphs[0].text
    questions = [
        {
            "text": f"Question {i} ?",
            "answer_start": text.index(word),
            "answer_text": word,
            "seconds_spent": 40,
        }
        for i, word in enumerate(["France", "Paris", "capitale"])
    ]
    questions_submit(lease=lease, questions=questions)
    client.force_login(annotators[0])

    def mark(label, number, word):
        return (
            f'<mark class="answer-mark" title="{label} {number}" aria-description="{label} '
            f'{number}" data-span-index="{number - 1}">{word}</mark>'
        )

    for language, label in (("fr", "Réponse"), ("en", "Answer")):
        client.cookies["django_language"] = language
        html = client.get(f"/annotate/leases/{lease.pk}/").content.decode()
        assert '<span id="question-counter" class="counter-badge">3 / 3–5</span>' in html
        assert (
            'elementtiming="paragraph">'
            f"{mark(label, 2, 'Paris')} &lt;b&gt;est&lt;/b&gt; la {mark(label, 3, 'capitale')} "
            f"de la {mark(label, 1, 'France')} depuis longtemps.</p>"
        ) in html


def test_the_number_of_questions_asked_agrees_with_it(client, paragraphs, annotators):
    """Issue 25, left over: a campaign asking for exactly one question said "1 to 1 questions"."""
    from annotation.services.campaigns import campaign_create

    one = campaign_create(name="One", splits=["dev"], questions_min=1, questions_max=1)
    lease = lease_claim_next(campaign=one, annotator=annotators[0]).lease
    client.force_login(annotators[0])
    for language, asked, per_paragraph in (
        ("en", "1 question", "1 question per paragraph"),
        ("fr", "1 question", "1 question par paragraphe"),
    ):
        client.cookies["django_language"] = language
        page = client.get(f"/annotate/leases/{lease.pk}/").content.decode()
        assert f'·\n      {asked}\n      <span id="draft-status"' in page
        home = client.get("/annotate/").content.decode()
        assert f"· {per_paragraph}</p>" in home
    one.questions_min, one.questions_max = 2, 4
    one.save()
    for language, asked, per_paragraph in (
        ("en", "2 to 4 questions", "2 to 4 questions per paragraph"),
        ("fr", "2 à 4 questions", "2 à 4 questions par paragraphe"),
    ):
        client.cookies["django_language"] = language
        page = client.get(f"/annotate/leases/{lease.pk}/").content.decode()
        assert f'·\n      {asked}\n      <span id="draft-status"' in page
        home = client.get("/annotate/").content.decode()
        assert f"· {per_paragraph}</p>" in home


def test_the_keyboard_shortcuts_name_the_keys_in_the_pages_language(
    client, campaign, paragraphs, annotators
):
    """The French page said "Maj+flèches" in its help but listed <kbd>Shift</kbd>, <kbd>Enter</kbd>
    and <kbd>Esc</kbd> among its shortcuts: a French keyboard reads Maj, Entrée and Échap."""
    lease = lease_claim_next(campaign=campaign, annotator=annotators[0]).lease
    client.force_login(annotators[0])
    keys = {
        "fr": ("<kbd>Maj</kbd>", "<kbd>Entrée</kbd>", "<kbd>Échap</kbd>"),
        "en": ("<kbd>Shift</kbd>", "<kbd>Enter</kbd>", "<kbd>Esc</kbd>"),
    }
    for language, (shift, enter, esc) in keys.items():
        client.cookies["django_language"] = language
        html = client.get(f"/annotate/leases/{lease.pk}/").content.decode()
        assert f"<dt>{shift}+<kbd>←</kbd>/<kbd>→</kbd></dt>" in html
        assert f"<dt><kbd>Ctrl</kbd>+{shift}+<kbd>←</kbd>/<kbd>→</kbd></dt>" in html
        assert f"<dt>{enter}</dt>" in html
        assert f"<dt><kbd>Ctrl</kbd>+{enter}</dt>" in html
        assert f"<dt>{esc}</dt>" in html
