"""Baseline runs on a SQuAD v2.0 release (unanswerable questions): the lexical baseline's
no-answer threshold learnt on dev and applied to test, by hand; a model served over HTTP that
says "no answer"; a server that answers outside the protocol; a tiny transformer learning the
null answer; the results and analysis pages' answerable / unanswerable breakdown.

The release is built by the real release job from questions written through the work loop
(a mixed campaign: answerable questions and two unanswerable ones per paragraph, each with
its plausible span). C(w) is a word's count in the context; each word used below occurs once
in its context, so weighs log 2. A lexical run's model is the SQuAD paper's sliding window
(`evaluation.baselines.sliding_window`, test_sliding_window.py): the sentence with the most
question unigrams and bigrams, then the span whose window of |Q ∪ A| tokens weighs most; its
no-answer score is minus the weight of the question's words in that window.
"""

from __future__ import annotations

import json
import math
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from annotation.services.campaigns import campaign_create
from annotation.services.work import lease_claim_next, questions_submit
from core.roles import Role
from corpus.readers import SourceArticle
from corpus.services.articles import article_store
from evaluation.models import BaselineRun, DatasetAnalysis
from evaluation.release_data import release_examples
from evaluation.services.analysis.dataset_analysis import analysis_execute, analysis_start
from evaluation.services.baselines.execute import baseline_run_execute
from evaluation.services.baselines.runs import baseline_run_record
from exports.models import Release
from exports.services.releases import release_build, release_create
from tests.factories import UserFactory

pytestmark = pytest.mark.usefixtures("loopback_allowed")

LOG2 = round(math.log(2), 9)
TWO_LOG2 = round(2 * math.log(2), 9)
FOUR_LOG2 = round(4 * math.log(2), 9)

# (title, split, context, [(question, answer or None, plausible span or None)])
ARTICLES = [
    (
        "Gutenberg",
        "train",
        "Gutenberg mit au point à Mayence, vers 1450, une presse à caractères "
        "mobiles qui permit d'imprimer la Bible à environ 180 exemplaires.",
        [
            ("Qui mit au point la presse ?", "Gutenberg", None),
            ("Combien de Bibles furent imprimées ?", "180", None),
            ("Qui finança la presse de Gutenberg ?", None, "Gutenberg"),
            ("Combien de presses furent vendues ?", None, "180"),
        ],
    ),
    (
        "Chambord",
        "dev",
        "Le château de Chambord fut construit au XVIe siècle. "
        "Il compte 426 pièces et 282 cheminées.",
        [
            # The first sentence holds le, de, château and "le château" (4), the second
            # compte and pièces (2): "construit au XVIe siècle", the longest span of rare
            # words there; le, château, de in its window: 3 log 2
            ("Combien de pièces compte le château ?", "426", None),
            # The second sentence holds compte, 426, pièces, cheminées and "426 pièces": "282"
            # is its only span without a question word; its window: 4 log 2
            ("Combien de cheminées compte le château en plus de ses 426 pièces ?", "282", None),
            # as the first question: "construit au XVIe siècle", 3 log 2
            ("Combien de fenêtres compte le château ?", None, "426"),
            # nom and peintre are not in the context; "le" is, in the first sentence only:
            # "construit au XVIe siècle", le in its window: log 2
            ("Quel est le nom du peintre ?", None, "Chambord"),
        ],
    ),
    (
        "Loire",
        "test",
        "La Loire est le plus long fleuve de France. Elle prend sa source au mont "
        "Gerbier-de-Jonc, en Ardèche, et se jette dans l'océan Atlantique.",
        [
            # the second sentence (se, jette, dans, océan, "se jette"): "mont Gerbier-de-Jonc",
            # the longest span of rare words there; the four in its window: 4 log 2
            ("Dans quel océan se jette le fleuve Loire ?", "Atlantique", None),
            # the second sentence (elle, prend, sa, source, "sa source"): "mont
            # Gerbier-de-Jonc", the four in its window: 4 log 2
            ("Où la Loire prend-elle sa source ?", "mont Gerbier-de-Jonc", None),
            # the first sentence (la, loire, "la loire"): "long fleuve de France", 2 log 2
            ("Qui a nommé la Loire ?", None, "Loire"),
            # the first sentence (est, le, plus, long, fleuve and their four bigrams):
            # "France", the five in its window: 5 log 2
            ("Quel est le plus long fleuve d'Italie ?", None, "Loire"),
        ],
    ),
]


@pytest.fixture(autouse=True)
def var_folder(settings, releases_folder, tmp_path):
    settings.VAR_DIR = tmp_path / "var"
    return settings.VAR_DIR


def make_v2_release(**options) -> Release:
    writer = UserFactory(username="writer", roles=[Role.ANNOTATOR])
    for title, split, text, _questions in ARTICLES:
        article_store(
            language="fr",
            source=SourceArticle(title=title, source_title=title),
            paragraphs=[text],
            wave="2.0",
            split=split,
            kind="file",
        )
    campaign = campaign_create(
        name="Q",
        splits=["train", "dev", "test"],
        review_rate="0",
        questions_min=2,
        questions_max=5,
        unanswerable_per_paragraph=2,
    )
    by_title = {title: questions for title, _s, _t, questions in ARTICLES}
    for _ in ARTICLES:
        lease = lease_claim_next(campaign=campaign, annotator=writer).lease
        text = lease.paragraph.text
        items = []
        for question, answer, plausible in by_title[lease.paragraph.article.title]:
            item = {"text": question, "seconds_spent": 10, "is_impossible": answer is None}
            if answer is None:
                item |= {"plausible_answer_start": text.index(plausible)}
                item |= {"plausible_answer_text": plausible}
            else:
                item |= {"answer_start": text.index(answer), "answer_text": answer}
            items.append(item)
        questions_submit(lease=lease, questions=items)
    boss = UserFactory(username="boss", roles=[Role.ADMIN])
    release = release_create(
        created_by=boss,
        name="r2",
        version="2",
        formats=["squad", "hf"],
        squad_version="2.0",
        **options,
    )
    release_build(release=release)
    release.refresh_from_db()
    assert release.status == Release.Status.SUCCEEDED, release.error
    assert release.squad_version == "2.0"
    return release


def run_here(release, kind, model="", **hyperparameters) -> BaselineRun:
    run = baseline_run_record(
        release=release, kind=kind, model=model, hyperparameters=hyperparameters
    )
    baseline_run_execute(run=run)
    run.refresh_from_db()
    return run


@pytest.mark.django_db
def test_release_examples_flag_unanswerable_questions_with_no_answers():
    release = make_v2_release(include_test_answers=True)
    dev = release_examples(release, "dev")
    assert [(e["question"][:20], e["answers"]["text"], e["is_impossible"]) for e in dev] == [
        ("Combien de pièces co", ["426"], False),
        ("Combien de cheminées", ["282"], False),
        ("Combien de fenêtres ", [], True),
        ("Quel est le nom du p", [], True),
    ]
    squad = release.files.get(name="squad-dev.json")
    release.files.filter(name="hf-dev.jsonl").delete()  # the SQuAD file says the same
    assert release_examples(release, "dev") == [{**e, "title": "Chambord"} for e in dev]
    assert squad.counts["unanswerable"] == 2


@pytest.mark.django_db
def test_the_lexical_baseline_learns_its_no_answer_threshold_on_dev_and_applies_it_to_test():
    release = make_v2_release(include_test_answers=False)
    # The public test files hold no answers: they cannot tell which questions are unanswerable.
    assert [e["is_impossible"] for e in release_examples(release, "test")] == [None] * 4
    run = run_here(release, "lexical")
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error
    dev, test = run.metrics["dev"], run.metrics["test"]
    # Dev, by no-answer score (minus the question's weight in the window), lowest first:
    # abstaining everywhere scores 2 of 4 (the unanswerable ones); answering "282" (-4 log 2)
    # gains 1: 3 of 4; the tie at -3 log 2, the "pièces" question's wrong span (+0) and the
    # "fenêtres" question's (-1), loses 1; the "peintre" question's (-log 2) another. The
    # bar: -4 log 2, F1 75 %.
    assert dev["no_answer_threshold"] == -FOUR_LOG2
    assert dev["no_answer_threshold_from"] == "dev"
    assert (dev["exact_match"], dev["f1"], dev["total"]) == (75.0, 75.0, 4)
    assert (dev["HasAns_total"], dev["HasAns_exact"], dev["HasAns_f1"]) == (2, 50.0, 50.0)
    assert (dev["NoAns_total"], dev["NoAns_exact"], dev["NoAns_f1"]) == (2, 100.0, 100.0)
    # "No answer" said on 282, fenêtres and peintre: 2 right of 3, both unanswerable found.
    no_answer = dev["no_answer"]
    assert (no_answer["true_positives"], no_answer["false_positives"]) == (2, 1)
    assert (no_answer["false_negatives"], no_answer["true_negatives"]) == (0, 1)
    assert no_answer["precision"] == pytest.approx(200 / 3)
    assert (no_answer["recall"], no_answer["f1"]) == (100.0, 80.0)
    # Test (answers held back: read from the gold file), answered where the question's
    # weight is at least 4 log 2: the source question's "mont Gerbier-de-Jonc" (right), the
    # océan question's (wrong) and the Italie question's "France" (5 log 2, wrong); the
    # nommé question (2 log 2) gets "" (right). "No answer" said once, rightly: precision
    # 100, recall 1 of 2.
    assert test["no_answer_threshold"] == -FOUR_LOG2
    assert (test["exact_match"], test["f1"]) == (50.0, 50.0)
    assert (test["HasAns_total"], test["HasAns_exact"]) == (2, 50.0)
    assert (test["NoAns_total"], test["NoAns_exact"]) == (2, 50.0)
    assert (test["no_answer"]["precision"], test["no_answer"]["recall"]) == (100.0, 50.0)
    assert test["no_answer"]["f1"] == pytest.approx(200 / 3)
    # Breakdowns: every question by type; answer types of the answerable ones only.
    assert sum(row["total"] for row in run.breakdown["dev"]["question_type"].values()) == 4
    assert sum(row["total"] for row in run.breakdown["dev"]["answer_type"].values()) == 2
    assert f"dev: no-answer threshold {-FOUR_LOG2:.6g}, dev F1 75.00 with it" in run.log
    assert "dev: EM 75.00, F1 75.00; answerable 2: EM 50.00, F1 50.00; " in run.log
    assert "unanswerable 2: EM 100.00; no-answer F1 80.00" in run.log


@pytest.mark.django_db
def test_without_dev_questions_nothing_is_learnt_and_every_span_is_kept():
    release = make_v2_release(include_test_answers=True, splits=["train", "test"])
    run = run_here(release, "lexical")
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error
    test = run.metrics["test"]
    assert (test["no_answer_threshold"], test["no_answer_threshold_from"]) == (None, None)
    # Every question answered: "mont Gerbier-de-Jonc" for the source question alone is right;
    # the océan question's span, the nommé question's "long fleuve de France" and the Italie
    # question's "France" are wrong. No "no answer" said: precision 0/0.
    assert (test["exact_match"], test["HasAns_exact"], test["NoAns_exact"]) == (25.0, 50.0, 0.0)
    assert (test["no_answer"]["precision"], test["no_answer"]["recall"]) == (None, 0.0)
    assert "test: no dev question to learn a threshold on: spans kept" in run.log


class Answers(BaseHTTPRequestHandler):
    """An MRQA predict server: "" (no answer) to questions with "Qui", else a given value."""

    other: object = "France"

    def do_POST(self):  # noqa: N802 (http.server's name)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        answers = {
            qa["qid"]: "" if qa["question"].startswith("Qui") else self.other for qa in body["qas"]
        }
        answer = json.dumps(answers).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


def serve(handler):
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


@pytest.mark.django_db
def test_a_model_served_over_http_says_no_answer_with_an_empty_string():
    release = make_v2_release(include_test_answers=True)
    server, url = serve(Answers)
    try:
        run = run_here(release, "http", url)
    finally:
        server.shutdown()
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error
    # Test: "" to the nommé question (right), "France" to the three others (all wrong: two
    # answerable questions, and the Italie question, unanswerable). EM 1 of 4; "no answer"
    # said once, rightly, on one unanswerable question of two.
    test = run.metrics["test"]
    assert (test["exact_match"], test["HasAns_exact"], test["NoAns_exact"]) == (25.0, 0.0, 50.0)
    assert (test["no_answer"]["precision"], test["no_answer"]["recall"]) == (100.0, 50.0)
    assert "no_answer_threshold" not in test  # the server decides, no threshold is learnt


@pytest.mark.django_db
@pytest.mark.parametrize(("value", "kind"), [(None, "NoneType"), (3, "int"), (["a"], "list")])
def test_a_server_answering_something_else_than_strings_fails_the_run_clearly(value, kind):
    release = make_v2_release(include_test_answers=True)

    class Bad(Answers):
        other = value

    server, url = serve(Bad)
    try:
        run = run_here(release, "http", url)
    finally:
        server.shutdown()
    assert run.status == BaselineRun.Status.FAILED
    assert run.error.startswith(f"PredictServerError: predict server {url}: context 1: ")
    assert "the reply is not an object of strings (qid " in run.error
    assert run.log.endswith(run.error.split(": ", 1)[1] + "\n")
    assert run.error.endswith(f": {kind})")
    assert run.metrics == {}


@pytest.mark.django_db
def test_the_results_page_shows_the_answerable_and_unanswerable_breakdown(client):
    release = make_v2_release(include_test_answers=True)
    run = run_here(release, "lexical")
    client.force_login(release.created_by)
    client.cookies["django_language"] = "en"
    html = client.get(f"/manage/results/unanswerable/?release={release.pk}").content.decode()
    assert 'id="no-answer-table"' in html
    dev_row = html.split(f'data-run="{run.pk}" data-split="dev">')[1].split("</tr>")[0]
    cells = [cell.split(">", 1)[1].split("<")[0] for cell in dev_row.split("<td")[1:]]
    assert cells == [
        "dev",
        "2",
        "2",
        "75.0 / 75.0",
        "50.0 / 50.0",
        "100.0",
        "66.7 / 100.0 / 80.0",
    ] + [f"{-FOUR_LOG2:.3f}"]
    assert "82.3% F1 on it and 83% F1 overall" in html
    # The hint says what `_predict_lexical_scored` does (the SQuAD paper's sliding window).
    assert (
        "(for the sliding window, minus the weight of the question’s words in the best window of "
        "the span it chose, the span’s own words left out; for a transformer, the null score "
        "minus the best span’s)" in html
    )
    del client.cookies["django_language"]  # the site's default: French numbers
    html = client.get(f"/manage/results/unanswerable/?release={release.pk}").content.decode()
    assert "66,7 / 100,0 / 80,0" in html and "-2,773" in html
    assert (
        "(pour la fenêtre glissante, moins le poids des mots de la question dans la meilleure "
        "fenêtre du passage qu’elle a choisi, sans compter les mots de ce passage\u202f; pour "
        "un transformer, le score nul moins celui du meilleur passage)" in html
    )


@pytest.mark.django_db
def test_a_v1_release_page_has_no_unanswerable_table(client):
    from tests.evaluation.test_baseline_runs import make_release

    release = make_release(include_test_answers=True)
    run = run_here(release, "lexical")
    assert set(run.metrics["dev"]) == {"exact_match", "f1", "total", "missing"}  # as before
    assert "threshold" not in run.log
    client.force_login(release.created_by)
    html = client.get(f"/manage/results/scores/?release={release.pk}").content.decode()
    assert 'id="results-table"' in html
    html = client.get(f"/manage/results/unanswerable/?release={release.pk}").content.decode()
    assert 'id="no-answer-table"' not in html


@pytest.mark.django_db
def test_the_analysis_counts_answerable_and_unanswerable_questions_per_split(client):
    make_v2_release()
    analysis = analysis_start()
    analysis_execute(analysis=analysis)
    analysis.refresh_from_db()
    assert analysis.status == DatasetAnalysis.Status.SUCCEEDED, analysis.error
    splits = analysis.results["splits"]
    assert {s: (f["answerable"], f["unanswerable"]) for s, f in splits.items()} == {
        "train": (2, 2),
        "dev": (2, 2),
        "test": (2, 2),
    }
    dev = splits["dev"]
    assert dev["questions"] == 2  # the other figures stay the answerable questions'
    assert dev["unanswerable_share"] == 50.0
    # "Combien de fenêtres compte le château" (6 words: de, compte, le, château in the
    # paragraph) and "Quel est le nom du peintre" (6 words: le alone in it): 4/6 and 1/6,
    # mean 5/12
    assert dev["unanswerable_question_length"]["mean"] == 6
    assert dev["unanswerable_overlap"]["mean"] == pytest.approx(500 / 12)
    client.force_login(UserFactory(username="adm", roles=[Role.ADMIN]))
    client.cookies["django_language"] = "en"
    html = client.get("/manage/analysis/").content.decode()
    assert 'id="analysis-unanswerable"' in html


@pytest.mark.django_db
def test_a_tiny_transformer_learns_the_null_answer_and_its_threshold_on_dev(
    tmp_path, models_folder
):
    pytest.importorskip("torch", reason="the gpu extra fine-tunes a tiny model")
    from evaluation.baselines.qa import save_checkpoint, tiny_model_and_tokenizer

    release = make_v2_release(include_test_answers=False)
    texts = [text for _t, _s, text, _q in ARTICLES] + [
        q for *_rest, questions in ARTICLES for q, _a, _p in questions
    ]
    model, tokenizer = tiny_model_and_tokenizer(texts, vocab_size=300)
    save_checkpoint(model, tokenizer, models_folder / "tiny")  # named relative to MODELS_DIR
    run = run_here(release, "finetune", "tiny", max_steps=3, batch_size=2, eval_batch_size=4)
    assert run.status == BaselineRun.Status.SUCCEEDED, run.error + run.log
    dev, test = run.metrics["dev"], run.metrics["test"]
    assert (dev["HasAns_total"], dev["NoAns_total"]) == (2, 2)
    assert (test["HasAns_total"], test["NoAns_total"]) == (2, 2)
    assert dev["no_answer_threshold_from"] == "dev"
    assert test["no_answer_threshold"] == dev["no_answer_threshold"]
    # The threshold is the one with the best dev F1, at least abstaining everywhere (50 %),
    # and the dev F1 reported is the one the threshold gives.
    assert dev["f1"] >= 50.0
    assert f"dev F1 {dev['f1']:.2f} with it" in run.log
    assert "step 3/3" in run.log
    # The same again by hand from the saved checkpoint: its null scores on dev give the
    # threshold stored, and that threshold the dev figures stored.
    from evaluation.baselines.no_answer import apply_threshold, best_threshold
    from evaluation.baselines.qa import TrainConfig, load_checkpoint, predict_with_null
    from evaluation.metrics import FQUAD_FR, score_v2
    from exports.services.releases import release_gold

    trained, trained_tokenizer = load_checkpoint(run.checkpoint)
    examples = release_examples(release, "dev")
    scored = predict_with_null(
        trained, trained_tokenizer, examples, TrainConfig(device="cpu", eval_batch_size=4)
    )
    gold = release_gold(release=release, split="dev")
    answers = {qid: text for qid, (text, _na) in scored.items()}
    no_answer = {qid: na for qid, (_text, na) in scored.items()}
    threshold, best = best_threshold(gold, answers, no_answer, FQUAD_FR)
    assert threshold == dev["no_answer_threshold"]
    again = score_v2(gold, apply_threshold(answers, no_answer, threshold), norm=FQUAD_FR)
    assert (
        (again["f1"], again["exact"]) == (dev["f1"], dev["exact_match"]) == (best, again["exact"])
    )


@pytest.mark.django_db
def test_the_api_shows_a_v2_run_with_its_breakdown():
    from rest_framework.test import APIClient

    release = make_v2_release(include_test_answers=True)
    run = run_here(release, "lexical")
    api = APIClient()
    api.force_authenticate(release.created_by)
    body = api.get(f"/api/v1/baseline-runs/{run.pk}/").json()
    dev = body["metrics"]["dev"]
    assert (dev["HasAns_total"], dev["NoAns_total"], dev["no_answer"]["f1"]) == (2, 2, 80.0)
    assert dev["no_answer_threshold"] == -FOUR_LOG2


def test_run_baseline_prints_the_answerable_and_unanswerable_figures_of_a_v2_run():
    from evaluation.management.commands.run_baseline import Command

    figures = {"f1": 75.0, "exact_match": 75.0, "total": 4, "HasAns_f1": 50.0}
    figures |= {"HasAns_total": 2, "NoAns_exact": 100.0, "NoAns_total": 2}
    only_answerable = {"f1": 50.0, "exact_match": 50.0, "total": 2, "HasAns_f1": 50.0}
    only_answerable |= {"HasAns_total": 2, "no_answer": {"f1": None}}
    result = {"id": 7, "kind": "lexical", "status": "succeeded", "error": "", "device": ""}
    result["metrics"] = {
        "dev": figures | {"no_answer": {"f1": 80.0}},
        "test": only_answerable,
    }
    assert Command().summary(result).splitlines() == [
        "Baseline run 7 (lexical): succeeded",
        "  dev: F1 75.00, EM 75.00 over 4 questions",
        "    answerable: F1 50.00 over 2; unanswerable: EM 100.00 over 2; no-answer F1 80.00",
        "  test: F1 50.00, EM 50.00 over 2 questions",
        "    answerable: F1 50.00 over 2; unanswerable: EM — over 0; no-answer F1 —",
    ]
