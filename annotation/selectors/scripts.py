"""What the pages with the span tool need to know about a paragraph's language and script
(core.languages): its code and reading direction, its question marks, and, where words are
not separated by spaces (Chinese, Thai), the word bounds of the server's tokenizer
(`corpus.selectors.paragraph_words`, cut once per paragraph and cached)."""

from __future__ import annotations

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from annotation.validation import question_marks
from core.languages import find
from corpus.selectors import paragraph_words


def paragraph_script(*, text: str, language: str) -> dict:
    """Return {"lang", "dir", "marks", "words"} for the page's script (json_script): `words`
    is None where spaces separate words, else {"tokenizer", "bounds"} (and "missing", the
    package to install, when the tokenizer is not installed)."""
    entry = find(language)
    return {
        "lang": language,
        "dir": entry.direction if entry else "ltr",
        "marks": list(question_marks(language)),
        "words": paragraph_words(text, language),
    }


def script_messages(script: dict) -> dict:
    """The page's messages that depend on the language: the question-mark hint with its
    first mark (none when its questions need none), and what the page says when the word
    tokenizer is missing."""
    messages = {"noQuestionMark": ""}
    if script["marks"]:
        messages["noQuestionMark"] = _("A question ends with “%(mark)s”.") % {
            "mark": script["marks"][0]
        }
    return messages


def words_missing(script: dict) -> str:
    """The notice shown above the paragraph when its language's words cannot be found, or ""."""
    words = script["words"]
    if not words or not words.get("missing"):
        return ""
    entry = find(script["lang"])
    name = entry.name(get_language() or "en") if entry else script["lang"]
    return _(
        "Whole words: not available for %(language)s (%(package)s is not installed). A "
        "selection keeps the characters selected."
    ) % {"language": name, "package": words["missing"]}
