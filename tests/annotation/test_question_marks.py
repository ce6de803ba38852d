"""The language's question marks and script on the annotation page's server side: the checks
of a submission (a mark alone is no question; "？" and "?" end the same question), and what
the page is given (its direction, its marks, the word bounds of Chinese and Thai)."""

import json
import re
import sys

import pytest
from django.utils import translation

from annotation.services.work import lease_claim_next, questions_submit
from annotation.validation import Asked, check_questions, only_marks, question_marks, same_text
from core.errors import ServiceError
from tests.languages import campaign_in, store_paragraphs, xquad_paragraphs
from tests.needs import require_module

ZH = "北京是中国的首都，上海是最大的城市。"


def one(text, start, answer):
    return {"text": text, "answer_start": start, "answer_text": answer, "seconds_spent": 30}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_each_language_has_its_marks_and_thai_none():
    assert question_marks("fr") == ("?",)
    assert question_marks("zh") == ("？", "?")
    assert question_marks("ar") == ("؟", "?")
    assert question_marks("el") == (";", "\u037e")
    assert question_marks("th") == ()
    assert question_marks("xx") == ()  # no entry: no other language's mark


def test_a_final_mark_is_written_one_way_when_duplicates_are_found():
    zh, fr = question_marks("zh"), question_marks("fr")
    assert same_text("北京在哪里？", zh) == same_text("北京在哪里 ?", zh) == "北京在哪里？"
    assert same_text("Où est-il ?", fr) == same_text("où  est-il?", fr) == "où est-il?"
    assert same_text("Où est-il", fr) == "où est-il"  # no mark: not the same as with one
    assert same_text("Où est-il ?") == "où est-il ?"  # no marks given: as before
    assert only_marks(" ？ ?", zh) and only_marks("?", fr) and not only_marks("谁？", zh)
    assert not only_marks("?", ())  # Thai: no mark to count


def test_a_submission_in_chinese_is_checked_with_chinese_marks():
    asked = Asked(low=1, high=3, marks=question_marks("zh"))
    start = ZH.index("北京")
    errors, clean = check_questions(
        ZH,
        [one("首都是哪里？", start, "北京"), one("首都是哪里?", start, "北京")],
        asked=asked,
        _=str,
    )
    assert errors == {"questions[1].text": ["The same question is asked twice on this paragraph."]}
    errors, _ = check_questions(ZH, [one("？", start, "北京")], asked=asked, _=str)
    assert errors == {"questions[0].text": ["Write the question."]}
    errors, clean = check_questions(ZH, [one("首都是哪里", start, "北京")], asked=asked, _=str)
    assert errors == {} and clean[0].text == "首都是哪里"  # the mark is a hint, never required


def test_french_questions_are_checked_as_before():
    text = "La Loire traverse Orléans."
    asked = Asked(low=1, high=3, marks=question_marks("fr"))
    start = text.index("Orléans")
    errors, clean = check_questions(
        text, [one("Quelle ville traverse-t-elle", start, "Orléans")], asked=asked, _=str
    )
    assert errors == {} and clean[0].text == "Quelle ville traverse-t-elle"
    errors, _ = check_questions(text, [one("?", start, "Orléans")], asked=asked, _=str)
    assert errors == {"questions[0].text": ["Write the question."]}


@pytest.mark.django_db
def test_the_service_refuses_a_chinese_duplicate_told_apart_by_its_mark_only(annotator):
    paragraph = xquad_paragraphs("zh")[0]
    store_paragraphs("zh", [paragraph])
    campaign = campaign_in("zh", name="中文", questions_min=1, questions_max=3)
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    context = paragraph["context"]
    with pytest.raises(ServiceError) as refused:
        questions_submit(
            lease=lease,
            questions=[
                one("黑豹队的防守丢了多少分？", 10, "308"),
                one("黑豹队的防守丢了多少分?", 10, "308"),
            ],
        )
    assert refused.value.errors == {
        "questions[1].text": ["The same question is asked twice on this paragraph."]
    }
    stored = questions_submit(lease=lease, questions=[one("黑豹队的防守丢了多少分？", 10, "308")])
    answer = stored[0].answers.get()
    assert (answer.answer_start, answer.text) == (10, "308") and context[10:13] == "308"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("code", "direction", "marks", "tokenizer"),
    [
        ("zh", "ltr", ["？", "?"], "jieba"),
        ("th", "ltr", [], "pythainlp"),
        ("ar", "rtl", ["؟", "?"], None),
    ],
)
def test_the_page_gets_its_languages_direction_marks_and_words(
    client, annotator, code, direction, marks, tokenizer
):
    if tokenizer:
        require_module(tokenizer, "word bounds (the languages extra)")
    paragraph = xquad_paragraphs(code)[0]
    store_paragraphs(code, [paragraph])
    campaign = campaign_in(code, name=f"Campaign {code}", questions_min=1)
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    client.force_login(annotator)
    page = client.get(f"/annotate/leases/{lease.pk}/").content.decode()
    script = json.loads(
        re.search(r'<script id="paragraph-language" type="application/json">(.*?)</script>', page)[
            1
        ]
    )
    assert (script["lang"], script["dir"], script["marks"]) == (code, direction, marks)
    assert f'id="paragraph" class="paragraph-text" lang="{code}" dir="{direction}"' in page
    assert f'<textarea id="question-text" rows="2" lang="{code}" dir="{direction}"' in page
    messages = json.loads(
        re.search(r'<script id="annotate-messages" type="application/json">(.*?)</script>', page)[1]
    )
    # The page speaks the site's language (French), the hint names the campaign's mark.
    hint = f"Une question se termine par «\u202f{marks[0]}\u202f»." if marks else ""
    assert messages["noQuestionMark"] == hint
    if tokenizer is None:
        assert script["words"] is None
        return
    from corpus.words import inner_bounds

    assert script["words"] == {
        "tokenizer": tokenizer,
        "bounds": inner_bounds(paragraph["context"], code),
    }
    assert len(script["words"]["bounds"]) > 100  # the paragraph is 430 (zh), 1,360 (th) long


@pytest.mark.django_db
def test_a_french_page_is_left_to_right_with_the_french_hint(client, annotator):
    store_paragraphs("fr", [{"title": "Loire", "context": "La Loire traverse Orléans et Tours."}])
    campaign = campaign_in("fr", name="Questions", questions_min=1)
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    client.force_login(annotator)
    page = client.get(f"/annotate/leases/{lease.pk}/").content.decode()
    assert 'id="paragraph" class="paragraph-text" lang="fr" dir="ltr"' in page
    script = json.loads(
        re.search(r'<script id="paragraph-language" type="application/json">(.*?)</script>', page)[
            1
        ]
    )
    assert script == {"lang": "fr", "dir": "ltr", "marks": ["?"], "words": None}
    messages = json.loads(
        re.search(r'<script id="annotate-messages" type="application/json">(.*?)</script>', page)[1]
    )
    assert messages["noQuestionMark"] == "Une question se termine par «\u202f?\u202f»."


@pytest.mark.django_db
def test_a_missing_tokenizer_is_said_on_the_page_and_each_character_is_a_word(
    client, annotator, monkeypatch
):
    from corpus import words

    monkeypatch.setitem(sys.modules, "jieba", None)  # the optional package not installed
    words._cut.cache_clear()
    store_paragraphs("zh", [{"title": "北京", "context": "北京是首都。"}])
    campaign = campaign_in("zh", name="中文", questions_min=1)
    lease = lease_claim_next(campaign=campaign, annotator=annotator).lease
    client.force_login(annotator)
    try:
        page = client.get(f"/annotate/leases/{lease.pk}/").content.decode()
    finally:
        words._cut.cache_clear()
    script = json.loads(
        re.search(r'<script id="paragraph-language" type="application/json">(.*?)</script>', page)[
            1
        ]
    )
    assert script["words"] == {"tokenizer": None, "missing": "jieba", "bounds": [1, 2, 3, 4]}
    assert (
        '<p class="hint words-missing" id="words-missing">Mots entiers\u00a0: non disponibles en '
        "chinois (jieba n’est pas installé). Une sélection garde les caractères sélectionnés.</p>"
    ) in page
