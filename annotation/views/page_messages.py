"""What the annotators' pages say from their scripts, translated on the server.

The scripts (`annotate.js`, `answer.js`, `review.js`) hold no text of their own: each page
hands its script these messages, keyed by the names the script uses.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from annotation.models import Campaign
from annotation.selectors.scripts import script_messages


def lease_page_messages(campaign: Campaign, script: dict) -> dict:
    """The page script's messages, translated here (the script holds no text of its own).

    A message about a count is chosen here for the campaign's number (the script fills in
    the same number): the script has no plural rules of its own."""
    return {
        **_question_messages(campaign),
        **script_messages(script),
        **_sending_messages(),
        **_model_messages(),
        **span_messages(),
    }


def _question_messages(campaign: Campaign) -> dict:
    """What the page says about the questions being written, their answers and their count."""
    return {**_writing_messages(campaign), **_unanswerable_messages(campaign)}


def _writing_messages(campaign: Campaign) -> dict:
    """What the page says about writing a question, selecting its answer, and their count."""
    return {
        "copied": _("This copies a long run of the paragraph: rephrase it."),
        "duplicate": _("You already asked this question on this paragraph."),
        "longAnswer": _("Over 20 words: is this the smallest answer?"),
        "needText": _("Write the question."),
        "needAnswer": _("Select the answer in the paragraph."),
        "needTextAndAnswer": _("Write the question, then select its answer in the paragraph."),
        "needTextAndPlausible": _(
            "Write the question, then select its plausible answer in the paragraph."
        ),
        "tooLong": _(
            "This question has %(count)s characters: shorten it to %(max)s at most. Nothing "
            "was cut."
        ),
        "charCounter": _("%(count)s / %(max)s characters"),
        "edit": _("Edit"),
        "delete": _("Delete"),
        "answer": _("Answer"),
        "answerLabel": _("Answer:"),
        "selected": _("Selected answer"),
        "unfinished": _(
            "Finish the question you are writing (it needs its answer) or clear it, then send."
        ),
        "tooMany": ngettext(
            "You have reached the maximum of %(max)s question.",
            "You have reached the maximum of %(max)s questions.",
            campaign.questions_max,
        ),
    }


def _unanswerable_messages(campaign: Campaign) -> dict:
    """What the page says about unanswerable questions and their plausible answers."""
    return {
        "tooManyUnanswerable": ngettext(
            "You have written the %(max)s unanswerable question asked.",
            "You have written the %(max)s unanswerable questions asked.",
            campaign.unanswerable_per_paragraph,
        ),
        "plausible": _("Plausible answer"),
        "plausibleLabel": _("Plausible answer:"),
        "needPlausible": _("Select the plausible answer in the paragraph."),
        "unanswerableBadge": _("unanswerable"),
        "offTopic": _(
            "Few of its words are in the paragraph: an off-topic question is too easy to "
            "tell unanswerable. Ask about the paragraph's people, places or dates."
        ),
        "existingDuplicate": _("This question is already asked on this paragraph."),
        "counterAnswerable": _("answerable"),
        "counterUnanswerable": _("unanswerable"),
    }


def _sending_messages() -> dict:
    """What the page says about saving the draft and sending the paragraph."""
    return {
        "wasSent": _("This paragraph was sent."),
        "saved": _("Draft saved at %(time)s"),
        "saveFailed": _("Not saved yet; kept here. Retrying…"),
        "draftTroubleTitle": _("Your questions are not reaching the server."),
        "draftTroubleKept": _(
            "They are kept in this browser and will be sent as soon as the server answers: "
            "keep working, and do not clear this browser's data."
        ),
        "draftTroubleNotKept": _(
            "This browser cannot keep them either (private browsing or storage full): keep "
            "this page open until they are saved."
        ),
        "draftRefusedTitle": _("The server refuses to save this draft."),
        "draftRefusedKept": _(
            "Your questions are kept in this browser: copy them before leaving this page."
        ),
        "draftRestored": _("Restored from this browser: not yet saved on the server."),
        "takenTitle": _("Another annotator took this paragraph."),
        "submitted": _("Sent. Thank you!"),
        "refused": _("The server refused the paragraph: see the messages below."),
        "offline": _("The server cannot be reached; nothing is lost, try again."),
        "taken": _(
            "Your lease expired and another annotator took this paragraph: copy your "
            "questions before leaving."
        ),
    }


def _model_messages() -> dict:
    """What the page says about the model in the loop's verdicts."""
    return {
        "modelAsking": _("Asking the model…"),
        "modelUnavailable": _("Model unavailable: go on, your question is kept."),
        "modelSays": _("Model (%(model)s):"),
        "modelNoAnswer": _("no answer"),
        "modelF1": _("F1 %(f1)s"),
        "fooled": _("fooled"),
        "notFooled": _("not fooled"),
        "attempt": _("attempt %(number)s"),
        "showModel": _("Show in the text"),
        "modelMark": _("Model's answer to question %(number)s"),
        "rephrase": _("Edit it and rephrase to fool the model."),
        "foolingCounter": _("%(count)s / %(target)s fooling the model"),
    }


def span_messages() -> dict:
    """What the pages with the span tool say about word cuts and the pace."""
    return {
        "cutStart": _("The answer starts inside the word “%(word)s”."),
        "cutEnd": _("The answer ends inside the word “%(word)s”."),
        "pace": _("%(spent)s / about %(guide)s"),
    }


def answer_page_messages() -> dict:
    """What the answer page's script says: the draft, the sending, the span tool."""
    return {
        "saved": _("Draft saved at %(time)s"),
        "saveFailed": _("Not saved yet; kept here. Retrying…"),
        "troubleTitle": _("Your answer is not reaching the server."),
        "troubleKept": _(
            "It is kept in this browser and will be sent as soon as the server answers: keep "
            "working, and do not clear this browser's data."
        ),
        "troubleNotKept": _(
            "This browser cannot keep it either (private browsing or storage full): keep this "
            "page open until it is saved."
        ),
        "refusedTitle": _("The server refuses to save this draft."),
        "refusedKept": _(
            "Your selection is kept in this browser: note it before leaving this page."
        ),
        "restored": _("Restored from this browser: not yet saved on the server."),
        "selected": _("Selected answer"),
        "takenTitle": _("Another annotator took this question."),
        "taken": _("Your lease expired and someone else took this question."),
        **span_messages(),
    }
