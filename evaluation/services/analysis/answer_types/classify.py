"""The precedence of the rules: one answer span of a parsed context to its type."""

from __future__ import annotations

from typing import Any

from evaluation.services.analysis.answer_types.classnouns import _geographic_name, _named_type
from evaluation.services.analysis.answer_types.clauses import (
    _is_cited_word,
    _is_clause,
    _is_gloss,
    _is_imperative,
    _is_negated,
    _is_participle,
    _is_sentence,
    _is_summer,
)
from evaluation.services.analysis.answer_types.dates import (
    is_date_text,
    is_time_phrase,
    is_year_in_context,
)
from evaluation.services.analysis.answer_types.kinds import POS_TYPES, AnswerType
from evaluation.services.analysis.answer_types.names import (
    _building_name,
    _demonym_and_name,
    _entity_type,
    _foreign_title,
    _group_name,
    _is_address,
    _located_in,
    _nickname,
    _opening_adjective,
    _proper_class,
    _titled_work,
)
from evaluation.services.analysis.answer_types.numbers import _is_quantity
from evaluation.services.analysis.answer_types.paragraph import _context_class, _team_by_its_town
from evaluation.services.analysis.answer_types.recurring import (
    _listed_nouns,
    _school_name,
    is_colour,
    is_foreign_in_brackets,
    is_race,
)
from evaluation.services.analysis.answer_types.tokens import (
    _counts_a_noun,
    _head_pos,
    _is_content,
    _past_compound_preposition,
    _syntactic_head,
)


def classify_answer(doc: Any, start_char: int, end_char: int) -> AnswerType:
    """Return the type of the answer at doc.text[start_char:end_char] (precedence above)."""
    # doc.text joins every token of the paragraph: read lengths and text from tokens instead
    length = doc[-1].idx + len(doc[-1].text_with_ws) if len(doc) else 0
    if not 0 <= start_char < end_char <= length:
        raise ValueError(f"answer span {start_char}..{end_char} is outside the context")
    span = doc.char_span(start_char, end_char, alignment_mode="expand")
    text = span.text[start_char - span.start_char : end_char - span.start_char]
    tokens = [token for token in span if not (token.is_punct or token.is_space)]
    if not tokens or _is_cited_word(span) or _is_gloss(text):
        return AnswerType.OTHER
    if is_foreign_in_brackets(span, tokens):
        return AnswerType.OTHER
    if _is_date(span, text, tokens):
        return AnswerType.DATE
    if _foreign_title(tokens) is AnswerType.OTHER_ENTITY:
        return AnswerType.OTHER_ENTITY
    content = [token for token in _past_compound_preposition(tokens) if _is_content(token)]
    content = content or tokens
    head = _syntactic_head(span, content)
    if is_colour(tokens):
        return AnswerType.ADJECTIVE
    if _is_verb_phrase(span, tokens, head):
        return AnswerType.VERB
    if _is_address(tokens):
        return AnswerType.PLACE
    if is_race(text):
        return AnswerType.OTHER_ENTITY
    if _is_quantity(tokens, content, head):
        return AnswerType.NUMBER
    return _name_or_part_of_speech(span, tokens, head)


def _name_or_part_of_speech(span: Any, tokens: list[Any], head: Any) -> AnswerType:
    """Return the type the rules on names give (class nouns in the answer or the paragraph,
    entities), else the head's part of speech."""
    return (
        _opening_adjective(span, head)
        or _school_name(tokens)
        or _proper_class(tokens, head)
        or _building_name(tokens)
        or _titled_work(span, head)
        or _geographic_name(span, head)
        or _named_type(span, head)
        or _group_name(head)
        or _demonym_and_name(span, head)
        or _team_by_its_town(span, head)
        or _context_class(span, head)
        or _nickname(span, head)
        or _located_in(span, head)
        or _entity_type(span, head)
        or _listed_nouns(span, tokens, head)
        or POS_TYPES.get(_head_pos(span, head), AnswerType.OTHER)
    )


def _is_date(span: Any, text: str, tokens: list[Any]) -> bool:
    """Return whether the answer is a date: by its text, a season, a phrase that dates by a
    reign or an event, or a bare year by its neighbours in the sentence."""
    if (is_date_text(text) or _is_summer(text, tokens)) and not _counts_a_noun(tokens):
        return True
    if is_time_phrase(text):
        return True
    doc = span.doc
    before = doc[span.start - 1].text if span.start > 0 else ""
    return is_year_in_context(text, before, doc[span.end : span.end + 8].text)


def _is_verb_phrase(span: Any, tokens: list[Any], head: Any) -> bool:
    """Return whether the answer is a clause, an imperative, a participle after "avoir", a
    negated verb or a whole sentence: a verb, the paper having no row for clauses."""
    return (
        _is_clause(span, head)
        or _is_imperative(tokens)
        or _is_participle(tokens, head)
        or _is_negated(tokens)
        or _is_sentence(span, tokens)
    )
