"""Releases per language: the language option, the MRQA tokenizer of the language, and the
datasheet's lines for what a language lacks (core.languages)."""

from types import SimpleNamespace

import pytest
from django.utils import translation

from annotation.services.campaigns import campaign_create
from core.errors import ServiceError
from core.language_text import language_name, unavailable, unavailable_lines
from exports.datasheet.markdown import language_section, question_types_section
from exports.formats.mrqa import (
    TokensUnavailable,
    language_tokenizer,
    language_tokenizer_name,
    spacy_model_name,
)
from exports.options import check_options
from tests.needs import require_module


def test_french_keeps_its_pipeline_and_other_languages_get_their_own_tokenizer():
    assert language_tokenizer_name("fr") == spacy_model_name("fr_core_news_sm")
    assert language_tokenizer("fr").name == language_tokenizer_name("fr")
    assert language_tokenizer("zh")("长城，中国。") == [
        ("长", 0), ("城", 1), ("，", 2), ("中", 3), ("国", 4), ("。", 5),
    ]  # fmt: skip
    assert language_tokenizer("ko")("서울은 한국의 수도이다.") == [
        ("서울은", 0), ("한국의", 4), ("수도이다", 8), (".", 12),
    ]  # fmt: skip
    assert language_tokenizer("vi")("Tôi là sinh viên.") == [
        ("Tôi", 0), ("là", 4), ("sinh", 7), ("viên", 12), (".", 16),
    ]  # fmt: skip
    assert language_tokenizer("ar").name.endswith("blank:ar")
    assert language_tokenizer_name("zh").endswith("blank:zh nlp.tokenizer.segmenter=char")


def test_thai_tokens_are_words_without_the_spaces():
    require_module("pythainlp", "Thai's MRQA tokens (its registry entry names the install)")
    tokens = language_tokenizer("th")("สวัสดีครับ โลก")
    assert tokens == [("สวัสดี", 0), ("ครับ", 6), ("โลก", 11)]
    assert language_tokenizer_name("th").startswith("spacy ")
    assert " blank:th pythainlp " in language_tokenizer_name("th")


def test_a_language_without_mrqa_tokens_says_so(monkeypatch):
    from core.languages import LANGUAGES

    thai = LANGUAGES["th"]
    monkeypatch.setitem(LANGUAGES, "th", type(thai)(**{**thai.__dict__, "mrqa_tokens": None}))
    with pytest.raises(TokensUnavailable, match="^MRQA tokens: not available for Thai$"):
        language_tokenizer("th")
    with translation.override("fr"):
        assert unavailable("mrqa_tokens", "th") == "Jetons MRQA\u00a0: non disponibles en thaï."


def test_not_available_lines_in_both_interface_languages():
    with translation.override("en"):
        assert unavailable("answer_types", "th") == "Answer types: not available for Thai."
        assert unavailable("answer_types", "fr") is None
        assert unavailable("question_types", "en") == "Question types: not available for English."
        assert language_name("zh") == "Chinese"
        assert unavailable_lines("fr") == []
        assert unavailable_lines("pt") == [
            "Question types: not available for pt.",
            "Answer types: not available for pt.",
            "MRQA tokens: not available for pt.",
            "Guidelines: none in pt yet; the campaign starts with the English text.",
        ]
    with translation.override("fr"):
        assert (
            unavailable("answer_types", "th") == "Types de réponse\u00a0: non disponibles en thaï."
        )
        assert language_name("zh") == "chinois"
    with pytest.raises(ValueError, match="'colour' is not a language piece"):
        unavailable("colour", "fr")


def test_the_datasheet_names_the_language_and_says_what_it_lacks():
    thai = SimpleNamespace(language="th", splits=["train"])
    lines = "\n".join(language_section(thai))
    assert "Thai (`th`, ไทย), written left to right." in lines
    assert "Paragraphs of at least 476 characters" in lines
    assert "compare answers under the `chars` normalization" in lines
    assert "- Question types: not available" in lines
    assert "- Answer types: not available" in lines
    assert "- MRQA tokens: spaCy `blank:th`" in lines
    assert question_types_section(None, thai) == [
        "## Question types (% of questions)",
        "",
        "Question types: not available for Thai (question-word rules exist for French only).",
        "",
    ]
    arabic = "\n".join(language_section(SimpleNamespace(language="ar")))
    assert "Arabic (`ar`, العربية), written right to left." in arabic
    french = "\n".join(language_section(SimpleNamespace(language="fr")))
    assert "- Answer types: spaCy `fr_core_news_md`" in french
    assert "under the `fquad-fr` normalization" in french


def test_a_release_takes_its_campaigns_language_and_refuses_a_mix(db):
    french = campaign_create(name="Questions FR")
    chinese = campaign_create(name="问题", language="zh")

    assert check_options({"formats": ["squad"], "campaigns": [french.pk]}).language == "fr"
    assert check_options({"formats": ["mrqa"], "campaigns": [chinese.pk]}).language == "zh"
    assert check_options({"formats": ["squad"], "language": "zh"}).language == "zh"
    with translation.override("en"), pytest.raises(ServiceError) as mixed:
        check_options({"formats": ["squad"]})
    assert mixed.value.errors == {
        "language": [
            "These campaigns are in several languages (fr, zh): a release holds one; "
            "choose its language."
        ]
    }
    with translation.override("en"), pytest.raises(ServiceError) as other:
        check_options({"formats": ["squad"], "campaigns": [french.pk], "language": "zh"})
    assert other.value.errors == {"language": ["The chosen campaigns are in fr, not in zh."]}
    with translation.override("en"), pytest.raises(ServiceError) as unknown:
        check_options({"formats": ["squad"], "language": "pt"})
    assert list(unknown.value.errors) == ["language"]
    assert unknown.value.errors["language"][0].startswith("Choose one of the languages fr, en, ")


def test_the_release_api_takes_a_language_and_refuses_a_mix(db, admin_client):
    campaign_create(name="Questions FR")
    campaign_create(name="问题", language="zh")
    body = {"name": "r", "version": "1", "formats": ["squad"]}

    mixed = admin_client.post("/api/v1/releases/", body, content_type="application/json")
    assert mixed.status_code == 400
    assert list(mixed.json()["errors"]) == ["language"]
    chosen = admin_client.post(
        "/api/v1/releases/", body | {"language": "zh"}, content_type="application/json"
    )
    assert chosen.status_code == 201, chosen.json()
    assert chosen.json()["options"]["language"] == "zh"


CHINESE = (
    "长城是中国古代的军事防御工程，修筑的历史可上溯到西周时期。春秋战国时期各国为了防御"
    "外敌，纷纷在边境修筑城墙。秦灭六国统一天下后，秦始皇连接和修缮战国长城，始有万里长城之称。"
    "明朝是最后一个大规模修筑长城的朝代，今天人们所看到的长城多是此时修筑。"
)


def test_a_chinese_release_is_chinese_end_to_end(db, releases_folder):
    """Only the Chinese questions, MRQA tokens one character each, and a datasheet that names
    Chinese, counts answer lengths in characters and says what Chinese lacks."""
    import gzip
    import json

    from annotation.services.work import lease_claim_next, questions_submit
    from core.roles import Role
    from corpus.readers import SourceArticle
    from corpus.services.articles import article_store
    from exports.models import Release
    from exports.services.releases import release_build, release_create
    from tests.factories import UserFactory

    article_store(
        language="zh",
        source=SourceArticle(title="长城", source_title="长城"),
        paragraphs=[CHINESE],
        wave="1.0",
        split="train",
        kind="file",
    )
    campaign = campaign_create(name="问题", language="zh", questions_min=1)
    campaign_create(name="Questions FR")  # another language's campaign: not in the release
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    lease = lease_claim_next(campaign=campaign, annotator=writer).lease
    questions_submit(
        lease=lease,
        questions=[
            {
                "text": "谁连接和修缮了战国长城？",
                "answer_start": CHINESE.index("秦始皇"),
                "answer_text": "秦始皇",
                "seconds_spent": 10,
            }
        ],
    )
    boss = UserFactory(username="boss", roles=[Role.ADMIN])
    release = release_create(
        created_by=boss,
        name="zh",
        version="1",
        formats=["squad", "mrqa"],
        splits=["train"],
        campaigns=[campaign.pk],
    )
    release_build(release=release)
    release.refresh_from_db()

    assert release.status == Release.Status.SUCCEEDED, release.error
    assert release.options["language"] == "zh"
    folder = releases_folder / "releases" / str(release.pk)
    lines = gzip.decompress((folder / "mrqa-train.jsonl.gz").read_bytes()).decode().splitlines()
    record = json.loads(lines[1])
    assert record["context_tokens"][:3] == [["长", 0], ["城", 1], ["是", 2]]
    assert record["qas"][0]["question_tokens"][0] == ["谁", 0]
    readme = (folder / "README.md").read_text()
    assert "Chinese (`zh`, 中文), written left to right." in readme
    assert "Paragraphs of at least 162 characters" in readme
    assert "## Answer lengths (characters, original answers)" in readme
    assert "| train | 1 | 3.00 | 3 | 3 |" in readme  # 秦始皇: 3 characters (1 "word")
    assert "Question types: not available for Chinese" in readme
    assert "Answer types: not available for Chinese." in readme
