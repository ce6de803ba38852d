"""The ``evaluate DATASET PREDICTIONS`` command: the official script's figures, and clean errors.

Expected values are worked out by hand in the comments: p and t are the numbers of predicted
and true tokens, c the tokens they share, P = c/p, R = c/t and F1 = 2PR / (P + R); each
question takes its best ground truth; EM and F1 are 100 × the mean over the dataset's questions
(a question without a prediction scores 0). On the files of ../shared/data/official-scores/
the command prints what the official scripts printed, to every digit.
"""

import json
import re
import sys
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.evaluation import official_scores
from tests.needs import PIAF, require_file

PIAF_PATH = PIAF


def exactly(value):
    """Compare a float with a hand-computed fraction, allowing only rounding error."""
    return pytest.approx(value, rel=1e-12, abs=0)


def squad(*questions, version="1.1"):
    """A SQuAD document with one paragraph holding `questions`: (id, [answer texts])."""
    qas = [
        {
            "id": question_id,
            "question": f"Question {question_id}?",
            "answers": [{"text": text, "answer_start": 0} for text in texts],
        }
        for question_id, texts in questions
    ]
    paragraph = {"context": "Context.", "qas": qas}
    return {"version": version, "data": [{"title": "Test", "paragraphs": [paragraph]}]}


def write(tmp_path, name, content) -> str:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), "utf-8")
    return str(path)


def evaluate(*args) -> dict:
    out = StringIO()
    call_command("evaluate", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def evaluate_text(*args) -> str:
    out = StringIO()
    call_command("evaluate", *args, stdout=out)
    return out.getvalue()


ENGLISH = squad(
    ("q1", ["the Eiffel Tower"]),
    ("q2", ["in 1889", "1889"]),
    ("q3", ["Gustave Eiffel"]),
    ("q4", ["Paris"]),
)
ENGLISH_PREDICTIONS = {"q1": "Eiffel tower.", "q2": "1889 in Paris", "q3": "an engineer", "zz": "x"}


@pytest.fixture
def english_files(tmp_path):
    return write(tmp_path, "dev.json", ENGLISH), write(tmp_path, "pred.json", ENGLISH_PREDICTIONS)


def test_json_output_on_a_small_english_file(english_files):
    # q1: "eiffel tower" = "eiffel tower" → EM 1, F1 1
    # q2: [1889, in, paris] vs [in, 1889]: c=2, p=3, t=2 → P=2/3, R=1, F1 = (4/3)/(5/3) = 0.8;
    #     vs [1889]: c=1, p=3, t=1 → P=1/3, R=1, F1 = (2/3)/(4/3) = 0.5; best 0.8, EM 0
    # q3: "engineer" vs "gustave eiffel": nothing shared → 0, 0
    # q4: no prediction → 0 (counted); "zz" is not in the dataset → ignored
    # EM = 100·1/4 = 25; F1 = 100·(1 + 0.8)/4 = 45
    result = evaluate(*english_files)
    assert result == {
        "exact_match": 25.0,
        "f1": exactly(45.0),
        "total": 4,
        "missing": 1,
        "normalization": {"name": "squad-en", "version": "1"},
    }


def test_summary_starts_with_the_official_scripts_output_line(english_files):
    # evaluate-v1.1.py prints json.dumps of {"exact_match", "f1"}: the same line, same digits
    result = evaluate(*english_files)
    lines = evaluate_text(*english_files).splitlines()
    assert lines[0] == json.dumps({"exact_match": result["exact_match"], "f1": result["f1"]})
    assert lines[0].startswith('{"exact_match": 25.0, "f1": 45.0')
    assert lines[1] == (
        "Normalization: squad-en v1; 4 questions, 1 without a prediction (scored 0)"
    )


# French

FRENCH = squad(
    ("1", ["l'Empereur"]),
    ("2", ["le 14 juillet 1789"]),
    ("3", ["aux Pays-Bas"]),
)
FRENCH_PREDICTIONS = {"1": "L’empereur", "2": "14 juillet", "3": "les Pays-Bas"}


def test_lang_fr_gives_fquads_figures(tmp_path):
    files = write(tmp_path, "fr.json", FRENCH), write(tmp_path, "pred.json", FRENCH_PREDICTIONS)
    # fr: 1 → ’ folded, "l'" dropped: "empereur" = "empereur" → EM 1, F1 1
    #     2 → [14, juillet] vs [14, juillet, 1789] ("le" dropped): c=2, p=2, t=3 → P=1,
    #         R=2/3, F1 = (4/3)/(5/3) = 0.8, EM 0
    #     3 → "les" and "aux" dropped, hyphen removed: "paysbas" = "paysbas" → EM 1, F1 1
    #     EM = 100·2/3, F1 = 100·2.8/3 = 280/3
    result = evaluate(*files, "--lang", "fr")
    assert result["exact_match"] == exactly(200 / 3)
    assert result["f1"] == exactly(280 / 3)
    assert result["normalization"] == {"name": "fquad-fr", "version": "1"}
    # en (the default): 1 → "l’empereur" vs "lempereur" (’ is not ASCII punctuation): 0
    #     2 → [14, juillet] vs [le, 14, juillet, 1789]: c=2, p=2, t=4 → P=1, R=1/2, F1 2/3
    #     3 → [les, paysbas] vs [aux, paysbas]: c=1, p=t=2 → P=R=1/2, F1 1/2
    #     EM 0, F1 = 100·(2/3 + 1/2)/3 = 100·(7/6)/3 = 350/9
    english = evaluate(*files)
    assert english["exact_match"] == 0.0
    assert english["f1"] == exactly(350 / 9)
    assert english == evaluate(*files, "--lang", "en")
    assert english["normalization"] == {"name": "squad-en", "version": "1"}


# Word tokenizer

CJK = squad(
    ("zh1", ["北京大学"]),
    ("ja1", ["富士山"]),
    ("zh2", ["万里长城"]),
    ("zh3", ["上海"]),
)
CJK_PREDICTIONS = {"zh1": "北京大学。", "ja1": "富士山の頂上", "zh2": "长城的历史"}


def test_tokenizer_chars_on_chinese_and_japanese(tmp_path):
    files = write(tmp_path, "cjk.json", CJK), write(tmp_path, "pred.json", CJK_PREDICTIONS)
    # chars: each ideograph or kana is a token, Unicode punctuation (。) removed
    #   zh1: [北, 京, 大, 学] = [北, 京, 大, 学] → EM 1, F1 1
    #   ja1: [富, 士, 山, の, 頂, 上] vs [富, 士, 山]: c=3, p=6, t=3 → P=1/2, R=1,
    #        F1 = 1/(3/2) = 2/3, EM 0
    #   zh2: [长, 城, 的, 历, 史] vs [万, 里, 长, 城]: c=2, p=5, t=4 → P=2/5, R=1/2,
    #        F1 = (2/5)/(9/10) = 4/9, EM 0
    #   zh3: no prediction → 0
    #   EM = 100·1/4 = 25; F1 = 100·(1 + 2/3 + 4/9)/4 = 100·(19/9)/4 = 475/9
    result = evaluate(*files, "--tokenizer", "chars")
    assert result == {
        "exact_match": 25.0,
        "f1": exactly(475 / 9),
        "total": 4,
        "missing": 1,
        "normalization": {"name": "chars", "version": "1"},
    }
    # its old name, as option and as mode, still works and gives the mode's name now
    assert evaluate(*files, "--tokenizer", "word") == result
    assert evaluate(*files, "--normalization", "word") == result
    # whitespace (the default): each answer is one token and 。 is not ASCII punctuation,
    # so nothing matches at all
    default = evaluate(*files)
    assert (default["exact_match"], default["f1"]) == (0.0, 0.0)
    assert evaluate(*files, "--tokenizer", "whitespace") == default


def test_tokenizer_word_refuses_a_language(english_files):
    with pytest.raises(CommandError, match="--tokenizer word .* leave out --lang"):
        call_command("evaluate", *english_files, "--tokenizer", "word", "--lang", "en")


def test_normalization_refuses_lang_and_tokenizer(english_files):
    for extra in (["--lang", "en"], ["--tokenizer", "chars"]):
        with pytest.raises(CommandError, match="leave out --lang and --tokenizer"):
            call_command("evaluate", *english_files, "--normalization", "mlqa-en", *extra)


def test_lang_picks_the_communitys_mode(tmp_path):
    files = write(tmp_path, "cjk.json", CJK), write(tmp_path, "pred.json", CJK_PREDICTIONS)
    # zh: MLQA's mixed segmentation: each U+4E00–U+9FA5 character a token; の is kana, a run
    # of its own between two ideographs: the same tokens as chars here, so the same figures
    result = evaluate(*files, "--lang", "zh")
    assert result["normalization"] == {"name": "mlqa-zh", "version": "1"}
    assert (result["exact_match"], result["f1"]) == (25.0, exactly(475 / 9))
    assert evaluate(*files, "--normalization", "mlqa-zh") == result
    # ko: KorQuAD's characters: ja1 富士山の頂上 vs 富士山: c=3, p=6, t=3 → 2/3, as chars
    korean = evaluate(*files, "--lang", "ko")
    assert korean["normalization"] == {"name": "korquad-chars", "version": "1"}
    # zh1: "北京大学。" keeps 。 (not ASCII): 5 characters vs 4: c=4 → P=4/5, R=1, F1 8/9, EM 0
    # zh2: [长城的历史] vs [万里长城]: c=2, p=5, t=4 → 4/9
    #   EM 0; F1 = 100·(8/9 + 2/3 + 4/9)/4 = 100·2/4 = 50
    assert (korean["exact_match"], korean["f1"]) == (0.0, exactly(50.0))


def test_a_mode_whose_package_is_missing_is_refused_by_name(english_files, monkeypatch):
    from evaluation.metrics import community

    # the package absent: importing it fails, as in an install without the languages extra
    monkeypatch.setitem(sys.modules, "jieba", None)
    community._jieba_cut.cache_clear()
    try:
        with pytest.raises(CommandError, match=r"'m2qa-zh' needs jieba==0\.42\.1.*not installed"):
            call_command("evaluate", *english_files, "--normalization", "m2qa-zh")
    finally:
        community._jieba_cut.cache_clear()


# The whole PIAF file: the official script's figures on ../shared/data/official-scores/


def test_piaf_gives_the_official_figures(tmp_path):
    require_file(PIAF_PATH)
    require_file(official_scores.OFFICIAL_SCORES / "piaf-v1.1.json", "the official figures")
    official = official_scores.load("piaf-v1.1.json")
    predictions_path = write(tmp_path, "piaf-pred.json", official.predictions)

    # PIAF's file says "version": "1.0"; it is read all the same
    result = evaluate(str(PIAF_PATH), predictions_path)
    expected = official.outputs["SQuAD evaluate-v1.1.py"]
    assert {key: result[key] for key in expected} == expected  # every digit
    assert (result["total"], result["missing"]) == (3835, 0)

    french = evaluate(str(PIAF_PATH), predictions_path, "--lang", "fr")
    assert french["normalization"]["name"] == "fquad-fr"
    assert french["exact_match"] > result["exact_match"]  # « », "l'" and "le" no longer count


def test_integer_ids_are_read_as_strings(tmp_path):
    # the earlier PIAF export has integer ids; the predictions' keys are strings in JSON
    document = squad(("7", ["Lyon"]))
    document["data"][0]["paragraphs"][0]["qas"][0]["id"] = 7
    result = evaluate(write(tmp_path, "d.json", document), write(tmp_path, "p.json", {"7": "Lyon"}))
    assert (result["exact_match"], result["f1"], result["missing"]) == (100.0, 100.0, 0)


# Errors: a CommandError naming the file and the problem


def test_missing_files(tmp_path, english_files):
    dataset, predictions = english_files
    absent = str(tmp_path / "absent.json")
    with pytest.raises(CommandError) as error:
        call_command("evaluate", absent, predictions)
    assert str(error.value) == f"dataset {absent}: cannot read the file: No such file or directory"
    with pytest.raises(CommandError) as error:
        call_command("evaluate", dataset, absent)
    assert str(error.value) == (
        f"predictions {absent}: cannot read the file: No such file or directory"
    )


def test_invalid_json(tmp_path, english_files):
    dataset, predictions = english_files
    broken = write(tmp_path, "broken.json", '{"q1": "Paris",')
    with pytest.raises(CommandError, match=rf"^dataset {re.escape(broken)}: not valid JSON: "):
        call_command("evaluate", broken, predictions)
    with pytest.raises(CommandError, match=rf"^predictions {re.escape(broken)}: not valid JSON: "):
        call_command("evaluate", dataset, broken)


def test_predictions_must_be_an_object_of_strings(tmp_path, english_files):
    dataset, _ = english_files
    listed = write(tmp_path, "list.json", [{"id": "q1", "answer": "Paris"}])
    with pytest.raises(CommandError) as error:
        call_command("evaluate", dataset, listed)
    assert str(error.value) == (
        f"predictions {listed}: expected an object {{question id: answer}}, found a list"
    )
    numeric = write(tmp_path, "numeric.json", {"q1": "Paris", "q2": 1889})
    with pytest.raises(CommandError) as error:
        call_command("evaluate", dataset, numeric)
    assert str(error.value) == (
        f"predictions {numeric}: the answer for 'q2' must be a string, found a number"
    )
    nested = write(tmp_path, "nested.json", {"q1": ["Paris", "France"]})
    with pytest.raises(CommandError, match=r"the answer for 'q1' must be a string, found a list"):
        call_command("evaluate", dataset, nested)


def test_dataset_must_be_a_squad_document(tmp_path, english_files):
    _, predictions = english_files
    bare = write(tmp_path, "bare.json", [{"id": "q1"}])
    with pytest.raises(CommandError) as error:
        call_command("evaluate", bare, predictions)
    assert str(error.value) == f'dataset {bare}: expected an object with a "data" list'


def test_a_malformed_entry_is_an_error_not_skipped(tmp_path, english_files):
    # skipping it, as the tolerant reader would, would change the total
    _, predictions = english_files
    document = squad(("q1", ["Paris"]), ("q1", ["Lyon"]), ("q2", ["Lille"]))
    document["data"][0]["paragraphs"][0]["qas"][2]["answers"][0]["text"] = 12
    path = write(tmp_path, "dup.json", document)
    with pytest.raises(CommandError) as error:
        call_command("evaluate", path, predictions)
    message = str(error.value)
    assert message.startswith(f"dataset {path}: malformed SQuAD entries: ")
    assert "paragraph 0, qa 1 (id 'q1'): duplicate id" in message
    assert "qa 2 (id 'q2'), answer 0: \"text\" must be a non-empty string, found 12" in message


def test_a_question_without_answers_cannot_be_scored(tmp_path, english_files):
    _, predictions = english_files
    path = write(tmp_path, "test.json", squad(("q1", ["Paris"]), ("q2", []), ("q3", [])))
    with pytest.raises(CommandError) as error:
        call_command("evaluate", path, predictions)
    assert str(error.value) == (
        f"dataset {path}: 2 question(s) without any answer to compare with, e.g. 'q2' "
        "(a held-back test split cannot be scored)"
    )


def test_an_empty_dataset_cannot_be_scored(tmp_path, english_files):
    _, predictions = english_files
    path = write(tmp_path, "empty.json", {"version": "1.1", "data": []})
    with pytest.raises(CommandError, match=rf"^dataset {re.escape(path)}: no question to score$"):
        call_command("evaluate", path, predictions)


# SQuAD v2.0: unanswerable questions ("answers": []), "" = no answer, --na-prob


def squad_v2(*questions, version="v2.0", impossible_keys=True):
    """A SQuAD 2.0 document: (id, [answer texts]); no answer = is_impossible."""
    document = squad(*questions, version=version)
    for qa in document["data"][0]["paragraphs"][0]["qas"]:
        if impossible_keys:
            qa["is_impossible"] = not qa["answers"]
    return document


# q1 answerable [paris] → "Paris": EM 1, F1 1; na_prob 0.1
# q2 answerable "the big cat" → [big, cat], "big cat dog": c=2, p=3, t=2 → P=2/3, R=1, F1 0.8;
#    na_prob 0.6
# q3 unanswerable, "London": 0; na_prob 0.7
# q4 unanswerable, "": EM 1, F1 1; na_prob 0.8
V2 = squad_v2(("q1", ["Paris"]), ("q2", ["the big cat"]), ("q3", []), ("q4", []))
V2_PREDICTIONS = {"q1": "Paris", "q2": "big cat dog", "q3": "London", "q4": ""}
V2_NA_PROBS = {"q1": 0.1, "q2": 0.6, "q3": 0.7, "q4": 0.8}


@pytest.fixture
def v2_files(tmp_path):
    return (
        write(tmp_path, "dev-v2.0.json", V2),
        write(tmp_path, "pred.json", V2_PREDICTIONS),
        write(tmp_path, "na_prob.json", V2_NA_PROBS),
    )


def test_a_v2_file_is_scored_the_v2_way(v2_files):
    dataset, predictions, _ = v2_files
    # exact (1+0+0+1)/4 = 50; f1 (1+0.8+0+1)/4 = 70; HasAns EM 50, F1 1.8/2 = 90; NoAns 50, 50
    # no answer: q4 true positive, q3 false negative, q1 and q2 true negatives:
    #   precision 1/1 = 100, recall 1/2 = 50, F1 2/(2+0+1) = 66.67
    result = evaluate(dataset, predictions)
    assert result == {
        "exact": 50.0,
        "f1": exactly(70.0),
        "total": 4,
        "HasAns_exact": 50.0,
        "HasAns_f1": exactly(90.0),
        "HasAns_total": 2,
        "NoAns_exact": 50.0,
        "NoAns_f1": 50.0,
        "NoAns_total": 2,
        "missing": 0,
        "no_answer": {
            "precision": 100.0,
            "recall": 50.0,
            "f1": exactly(200 / 3),
            "true_positives": 1,
            "false_positives": 0,
            "false_negatives": 1,
            "true_negatives": 2,
            "missing": 0,
        },
        "normalization": {"name": "squad-en", "version": "1"},
        "squad_version": "2.0",
    }


def test_na_prob_adds_the_best_thresholds(v2_files):
    # sweep from 2 (both unanswerable right when everything is ""): EM q1 +1 → 3 at 0.1, q2 +0,
    # q3 −1, q4 +0 → best 75 at 0.1; F1 q1 → 3, q2 +0.8 → 3.8 at 0.6, then lower → 95 at 0.6
    dataset, predictions, na_prob = v2_files
    result = evaluate(dataset, predictions, "--na-prob", na_prob)
    assert (result["best_exact"], result["best_exact_thresh"]) == (75.0, 0.1)
    assert (result["best_f1"], result["best_f1_thresh"]) == (exactly(95.0), 0.6)
    # --na-prob-thresh 0.5: q2, q3, q4 taken as "": q2 0, q3 1, q4 1, q1 1 → 75 and 75
    result = evaluate(dataset, predictions, "--na-prob", na_prob, "--na-prob-thresh", "0.5")
    assert (result["exact"], result["f1"], result["NoAns_exact"]) == (75.0, 75.0, 100.0)


def piaf_v2_document() -> dict:
    """PIAF made into a SQuAD v2.0 file by official-scores' rule: questions 3, 7, 11… lose
    their answers (kept as plausible_answers) and are impossible."""
    document = json.loads(PIAF_PATH.read_text(encoding="utf-8"))
    qas = [qa for a in document["data"] for paragraph in a["paragraphs"] for qa in paragraph["qas"]]
    for number, qa in enumerate(qas):
        qa["is_impossible"] = number % 4 == 3
        if qa["is_impossible"]:
            qa["plausible_answers"], qa["answers"] = qa["answers"], []
    document["version"] = "v2.0"
    return document


def test_v2_figures_equal_the_official_v2_figures(tmp_path):
    require_file(PIAF_PATH)
    require_file(official_scores.OFFICIAL_SCORES / "piaf-v2.0.json", "the official figures")
    official = official_scores.load("piaf-v2.0.json")
    dataset = write(tmp_path, "piaf-v2.0.json", piaf_v2_document())
    predictions = write(tmp_path, "pred.json", official.predictions)
    na_prob = write(tmp_path, "na_prob.json", official.na_probs)

    result = evaluate(dataset, predictions)
    expected = official.outputs["SQuAD evaluate-v2.0.py"]
    assert {key: result[key] for key in expected} == expected  # every key, every digit
    result = evaluate(dataset, predictions, "--na-prob", na_prob)
    expected = official.outputs["SQuAD evaluate-v2.0.py --na-prob-file na_probs"]
    assert {key: result[key] for key in expected} == expected
    assert (result["squad_version"], result["missing"]) == ("2.0", 0)


def test_v2_summary_starts_with_the_official_figures(v2_files):
    dataset, predictions, _ = v2_files
    lines = evaluate_text(dataset, predictions).splitlines()
    assert json.loads(lines[0]) == {
        "exact": 50.0,
        "f1": exactly(70.0),
        "total": 4,
        "HasAns_exact": 50.0,
        "HasAns_f1": exactly(90.0),
        "HasAns_total": 2,
        "NoAns_exact": 50.0,
        "NoAns_f1": 50.0,
        "NoAns_total": 2,
    }
    assert lines[1:] == [
        "SQuAD v2.0; normalization: squad-en v1; 4 questions (2 answerable, 2 unanswerable), "
        "0 without a prediction (scored 0)",
        "No answer (unanswerable = positive): precision 100.00, recall 50.00, F1 66.67",
    ]


def test_is_impossible_alone_makes_a_v2_file(tmp_path):
    # version "1.1" but is_impossible keys: v2.0. u unanswerable, "" → 1; a [cat] "cat" → 1
    dataset = write(tmp_path, "d.json", squad_v2(("a", ["cat"]), ("u", []), version="1.1"))
    result = evaluate(dataset, write(tmp_path, "p.json", {"a": "cat", "u": ""}))
    assert (result["squad_version"], result["exact"], result["NoAns_total"]) == ("2.0", 100.0, 1)


def test_squad_version_forces_either_way(tmp_path, v2_files):
    # a v1.1 file without is_impossible: --squad-version 2.0 reads "answers": [] as unanswerable
    plain = write(tmp_path, "plain.json", squad(("a", ["cat"]), ("u", [])))
    predictions = write(tmp_path, "p.json", {"a": "the cat", "u": ""})
    result = evaluate(plain, predictions, "--squad-version", "2.0")
    assert (result["exact"], result["HasAns_total"], result["NoAns_total"]) == (100.0, 1, 1)
    # without it, v1.1: a question without answers is a held-back one, an error
    with pytest.raises(CommandError, match="1 question.s. without any answer"):
        evaluate(plain, predictions)
    # a v2.0 file forced to 1.1 is refused the same way (its unanswerable questions)
    dataset, v2_predictions, _ = v2_files
    with pytest.raises(CommandError, match="2 question.s. without any answer"):
        evaluate(dataset, v2_predictions, "--squad-version", "1.1")


def test_v2_with_french_rules(tmp_path):
    # fquad-fr: "L’empereur" → [empereur] = gold "l'empereur" → 1; u unanswerable, "la" has no
    # token once normalized → says no answer → 1. In English "la" is a word: u scores 0
    document = squad_v2(("q", ["l'empereur"]), ("u", []))
    dataset = write(tmp_path, "fr.json", document)
    predictions = write(tmp_path, "p.json", {"q": "L’empereur", "u": "la"})
    assert evaluate(dataset, predictions, "--lang", "fr")["exact"] == 100.0
    assert evaluate(dataset, predictions)["exact"] == 0.0


def test_a_held_back_v2_question_is_an_error(tmp_path):
    # "answers": [] with "is_impossible": false is a hidden answer, not "no answer"
    document = squad_v2(("a", ["cat"]), ("h", []))
    document["data"][0]["paragraphs"][0]["qas"][1]["is_impossible"] = False
    path = write(tmp_path, "d.json", document)
    with pytest.raises(CommandError, match=r"1 question\(s\) without any answer .*'h'"):
        evaluate(path, write(tmp_path, "p.json", {"a": "cat", "h": ""}))


def test_a_held_back_v2_release_test_file_is_an_error(tmp_path):
    # What a v2.0 release writes for a test split without its answers: version "v2.0", no
    # is_impossible, "answers": [] everywhere. Scoring it would read every question as
    # unanswerable; it is refused as the v1.1 held-back file is.
    document = squad_v2(("a", []), ("b", []), impossible_keys=False)
    path = write(tmp_path, "squad-test.json", document)
    with pytest.raises(CommandError, match=r"2 question\(s\) without any answer .*'a'"):
        evaluate(path, write(tmp_path, "p.json", {"a": "", "b": "cat"}))
    # Forced to v2.0, a v1.1 file (which never says is_impossible) still means it by [].
    plain = write(tmp_path, "plain.json", squad(("a", []), ("b", ["cat"])))
    result = evaluate(
        plain, write(tmp_path, "q.json", {"a": "", "b": "cat"}), "--squad-version", "2.0"
    )
    assert (result["exact"], result["NoAns_total"]) == (100.0, 1)


def test_v2_missing_predictions_score_zero_and_count(tmp_path, v2_files):
    dataset, _, _ = v2_files
    # q1 right, q4 right, q2 and q3 missing: exact 2/4 = 50; missing 2
    result = evaluate(dataset, write(tmp_path, "p.json", {"q1": "Paris", "q4": ""}))
    assert (result["exact"], result["missing"], result["no_answer"]["missing"]) == (50.0, 2, 2)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"q1": 0.1, "q2": 0.6, "q3": 0.7, "q4": 1.5}', "the probability for 'q4' must be between 0 and 1, found 1.5"),
        ('{"q1": -0.1, "q2": 0.6, "q3": 0.7, "q4": 1}', "the probability for 'q1' must be between 0 and 1, found -0.1"),
        ('{"q1": "0.1", "q2": 0.6, "q3": 0.7, "q4": 1}', "the probability for 'q1' must be a number, found a string"),
        ('{"q1": true, "q2": 0.6, "q3": 0.7, "q4": 1}', "the probability for 'q1' must be a number, found a boolean"),
        ('{"q1": NaN, "q2": 0.6, "q3": 0.7, "q4": 1}', "the probability for 'q1' must be between 0 and 1, found nan"),
        ('{"q1": 0.1, "q3": 0.7}', "2 question(s) with a prediction have no probability, e.g. 'q2'"),
        ("[0.1]", "expected an object {question id: probability}, found a list"),
        ("{", "not valid JSON: "),
    ],
)  # fmt: skip
def test_bad_na_prob_files_are_named(tmp_path, v2_files, content, message):
    dataset, predictions, _ = v2_files
    path = write(tmp_path, "bad_na.json", content)
    with pytest.raises(CommandError) as error:
        evaluate(dataset, predictions, "--na-prob", path)
    assert str(error.value).startswith(f"na-prob {path}: {message}")


def test_na_prob_needs_v2(english_files, tmp_path):
    dataset, predictions = english_files
    with pytest.raises(CommandError, match="--na-prob .* add --squad-version 2.0"):
        evaluate(dataset, predictions, "--na-prob", write(tmp_path, "n.json", {}))


def test_v2_predictions_must_be_strings(tmp_path, v2_files):
    dataset, _, _ = v2_files
    path = write(tmp_path, "p.json", {"q1": "Paris", "q3": None})
    with pytest.raises(CommandError) as error:
        evaluate(dataset, path)
    assert (
        str(error.value) == f"predictions {path}: the answer for 'q3' must be a string, found null"
    )
