"""The guidelines a new campaign starts with: FQuAD's protocol, in the campaign's language.

FQuAD's annotators (d'Hoffschmidt et al. 2020) read a paragraph, wrote 3 to 5 questions whose
answer is in it, selected the smallest span that answers each, and spent about a minute a
question; the v1.1 campaign asked for more "pourquoi"/"comment" questions. Additional answers
took about 30 seconds each. These texts say the same to a new team's annotators; an admin edits
them on the campaign page. A language without its own text gets the English one. Pure.
"""

from __future__ import annotations

QUESTIONS = {
    "fr": """\
## Écrire les questions

- Lisez tout le paragraphe, puis écrivez **{low} à {high} questions** dont la réponse est dans le
  texte.
- Pour chaque question, sélectionnez le **plus petit passage** qui y répond : quelques mots, pas
  une phrase entière quand un nom ou une date suffit.
- Variez les mots interrogatifs : *qui*, *quand*, *où*, *combien*, mais aussi *pourquoi* et
  *comment*.
- Reformulez : ne recopiez pas une phrase du paragraphe en la terminant par un point
  d'interrogation.
- Comptez environ {pace} par question.
""",
    "en": """\
## Writing the questions

- Read the whole paragraph, then write **{low} to {high} questions** whose answer is in the
  text.
- For each question, select the **smallest span** that answers it: a few words, not a whole
  sentence when a name or a date is enough.
- Vary the question words: *who*, *when*, *where*, *how many*, but also *why* and *how*.
- Rephrase: do not copy a sentence of the paragraph and end it with a question mark.
- Spend about {pace} on each question.
""",
}
ADDITIONAL_ANSWERS = {
    "fr": """\
## Répondre aux questions des autres

- Lisez la question, puis sélectionnez dans le paragraphe le **plus petit passage** qui y
  répond.
- Si le paragraphe ne répond pas à la question, dites-le (« Le paragraphe n'y répond pas »).
- Comptez environ {pace} par question.
""",
    "en": """\
## Answering the questions of others

- Read the question, then select the **smallest span** of the paragraph that answers it.
- If the paragraph does not answer the question, say so ("The paragraph does not answer it").
- Spend about {pace} on each question.
""",
}


def _pace(seconds: int, language: str) -> str:
    if seconds % 60 == 0:
        minutes = seconds // 60
        if language == "fr":
            return "une minute" if minutes == 1 else f"{minutes} minutes"
        return "a minute" if minutes == 1 else f"{minutes} minutes"
    return f"{seconds} secondes" if language == "fr" else f"{seconds} seconds"


def default_guidelines(*, kind: str, language: str, low: int, high: int, seconds: int) -> str:
    """Return the Markdown guidelines of a new campaign of this kind, in its language."""
    texts = ADDITIONAL_ANSWERS if kind == "additional_answers" else QUESTIONS
    base = language.split("-")[0]
    chosen = base if base in texts else "en"
    return texts[chosen].format(low=low, high=high, pace=_pace(seconds, chosen))
