"""The languages written in the Cyrillic, Greek and Arabic alphabets: Russian, Greek and
Arabic."""

from __future__ import annotations

from core.languages.entry import Language, Splitting, Wiki
from core.languages.scripts import CHARS, LATIN_SENTENCE_ENDS, blank, xquad

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
    paragraphs=xquad(769.5),
    splitting=Splitting(LATIN_SENTENCE_ENDS),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=blank("ru"),
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
    paragraphs=xquad(798),
    # The Greek question mark is ";" (U+037E is its canonical equivalent; NFC makes it ";").
    splitting=Splitting(".!;…"),
    metric=CHARS,
    question_types=None,
    answer_types=None,
    mrqa_tokens=blank("el"),
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
    paragraphs=xquad(614.5),
    splitting=Splitting(".!؟…"),
    metric="mlqa-ar",
    question_types=None,
    answer_types=None,
    mrqa_tokens=blank("ar"),
    question_marks=("؟", "?"),
    direction="rtl",
)
