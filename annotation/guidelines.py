"""The guidelines a new campaign starts with: FQuAD's protocol, in the campaign's language.

FQuAD's annotators (d'Hoffschmidt et al. 2020) read a paragraph, wrote 3 to 5 questions whose
answer is in it, selected the smallest span that answers each, and spent about a minute a
question; the v1.1 campaign asked for more "pourquoi"/"comment" questions. Additional answers
took about 30 seconds each. These texts say the same to a new team's annotators; an admin edits
them on the campaign page. A language without its own text (its registry entry names none,
core.languages) gets the English one, and the campaign page says so. Pure.
"""

from __future__ import annotations

from core.languages import find

QUESTIONS = {
    "fr": """\
## Écrire les questions

- Lisez tout le paragraphe, puis écrivez **{questions}** dont la réponse est dans le
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

- Read the whole paragraph, then write **{questions}** whose answer is in the
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


# FQuAD 2.0 (Heinrich, Viaud and Belblidia 2021) and SQuAD 2.0 (Rajpurkar, Jia and Liang
# 2018): questions the paragraph cannot answer, on its own entities, each with the span a
# careless reader would give (the plausible answer); up to 5 per paragraph.
UNANSWERABLE = {
    "fr": """\
## Écrire des questions sans réponse

- Lisez le paragraphe et ses questions existantes : elles montrent le style attendu.
- Écrivez **{questions}** auxquelles le paragraphe **ne répond pas**, mais qui
  parlent de ce dont il parle (ses personnes, ses lieux, ses dates, ses œuvres) et qui
  ressemblent aux questions existantes.
- Pour chacune, sélectionnez la **réponse plausible** : le passage qu'un lecteur pressé
  donnerait à tort (par exemple une date du paragraphe pour une question sur une autre date).
- Une question hors sujet est trop facile : reprenez les mots et les noms du paragraphe.
- Ne reprenez pas une question existante ; changez un détail qui la rend sans réponse (un
  autre nom, une négation, une autre période).
- Comptez environ {pace} par question.
""",
    "en": """\
## Writing unanswerable questions

- Read the paragraph and its existing questions: they show the style to follow.
- Write **{questions}** that the paragraph **does not answer**, but that are
  about what it is about (its people, places, dates, works) and look like the existing ones.
- For each, select the **plausible answer**: the span a hasty reader would wrongly give (for
  instance a date of the paragraph for a question about another date).
- An off-topic question is too easy: reuse the words and names of the paragraph.
- Do not repeat an existing question; change a detail that leaves it without an answer
  (another name, a negation, another period).
- Spend about {pace} on each question.
""",
}
# A questions campaign that also asks for some unanswerable questions on each paragraph.
MIXED = {
    "fr": """\
## Et {count} sans réponse

- Sur chaque paragraphe, écrivez aussi **{count} sans réponse**, en cochant « Question sans
  réponse ».
- Une question sans réponse parle des personnes, des lieux ou des dates du paragraphe, mais le
  paragraphe n'y répond pas.
- Pour chacune, sélectionnez la **réponse plausible** qu'un lecteur pressé donnerait à tort.
""",
    "en": """\
## And {count}

- On each paragraph, also write **{count}**, ticking “Unanswerable question”.
- An unanswerable question is about the paragraph's people, places or dates, but the
  paragraph does not answer it.
- For each, select the **plausible answer** a hasty reader would wrongly give.
""",
}
MIXED_COUNT = {
    "fr": ("{n} question", "{n} questions"),
    "en": ("{n} unanswerable question", "{n} unanswerable questions"),
}


def _pace(seconds: int, language: str) -> str:
    if seconds % 60 == 0:
        minutes = seconds // 60
        if language == "fr":
            return "une minute" if minutes == 1 else f"{minutes} minutes"
        return "a minute" if minutes == 1 else f"{minutes} minutes"
    return f"{seconds} secondes" if language == "fr" else f"{seconds} seconds"


def _questions(low: int, high: int, language: str) -> str:
    """ "3 to 5 questions", or the one number when the campaign asks for exactly it."""
    if low != high:
        return f"{low} à {high} questions" if language == "fr" else f"{low} to {high} questions"
    return f"{high} question" if high == 1 else f"{high} questions"


def default_guidelines(
    *, kind: str, language: str, low: int, high: int, seconds: int, unanswerable: int = 0
) -> str:
    """Return the Markdown guidelines of a new campaign of this kind, in its language
    (`unanswerable`: the unanswerable questions a questions campaign also asks for)."""
    texts = {"additional_answers": ADDITIONAL_ANSWERS, "unanswerable": UNANSWERABLE}.get(
        kind, QUESTIONS
    )
    # The guidelines the language's registry entry names (core.languages); a language with
    # none gets the English text, and the campaign page says so.
    entry = find(language)
    key = entry.guidelines if entry is not None else None
    chosen = key if key in texts else "en"
    text = texts[chosen].format(
        questions=_questions(low, high, chosen), pace=_pace(seconds, chosen)
    )
    if unanswerable and kind == "questions":
        singular, plural = MIXED_COUNT[chosen]
        count = (singular if unanswerable == 1 else plural).format(n=unanswerable)
        text += "\n" + MIXED[chosen].format(count=count)
    return text
