"""A plain transcription of the official SQuAD v2.0 evaluation algorithm (``evaluate-v2.0.py``).

REFERENCE ONLY: the platform never scores with this module. It exists so that the tests can
check ``evaluation.metrics.score_v2`` (SQUAD_EN) against the official algorithm, case by case,
and so that ``bench/metrics_speed.py`` has the official algorithm's speed as its baseline. Use
``evaluation.metrics`` (``score_v2``, ``no_answer_classification``) everywhere else.

Written for this project from the published algorithm of the script distributed with SQuAD
v2.0 (https://rajpurkar.github.io/SQuAD-explorer/), step for step and deliberately
unoptimized, without its precision-recall curves and plots (matplotlib, numpy):

- ``make_qid_to_has_ans``: a question has an answer when its ``answers`` list is not empty;
- ``normalize_answer``: v1.1's (lower-case, ASCII punctuation removed, a/an/the replaced by a
  space, whitespace collapsed); ``get_tokens``: [] for an empty text, else its split;
- ``compute_exact``: 1 when the normalized texts are equal, else 0 (ints);
- ``compute_f1``: when either side has no token, int(both token lists equal); else 0 without
  a shared token (Counter intersection), else precision, recall and 2PR / (P + R);
- ``get_raw_scores``: the gold answers are those whose normalized text is not empty, else
  [""]; the best EM and F1 over them; a question without a prediction is reported on stdout
  ("Missing prediction for …") and left out;
- ``apply_no_ans_threshold``: a question whose no-answer probability is above the threshold
  scores float(it has no answer);
- ``make_eval_dict``: {"exact", "f1", "total"}, 100 × sum / total, over the scored questions
  or a list of ids; ``merge_eval`` prefixes a group's keys (HasAns_, NoAns_);
- ``find_best_thresh``: start at the number of unanswerable questions (everything answered
  ""), walk the questions by increasing probability (a stable sort of the probability file's
  keys), add an answerable question's score, subtract 1 for an unanswerable one answered with
  a non-empty string, and keep the first strictly best running score and its probability;
  ``find_all_best_thresh`` does it for EM and F1 (best_exact, best_exact_thresh, best_f1,
  best_f1_thresh).

``evaluate(dataset, predictions, na_probs=None, na_prob_thresh=1.0)`` is the script's main
without files: ``dataset`` is the ``"data"`` list of a SQuAD file, the result the dict the
script prints. Without ``na_probs`` every question has the probability 0.0 and no best_* key
is computed, as the script does without an ``--na-prob-file``. Run as a script,
``python evaluation/official_squad_v20.py DATA PRED [--na-prob-file F] [--na-prob-thresh T]``
prints that JSON. Pure Python, no Django.
"""

import argparse
import collections
import json
import re
import string


def make_qid_to_has_ans(dataset):
    qid_to_has_ans = {}
    for article in dataset:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                qid_to_has_ans[qa["id"]] = bool(qa["answers"])
    return qid_to_has_ans


def normalize_answer(s):
    """Lower text and remove punctuation, articles and extra whitespace."""

    def remove_articles(text):
        return re.sub(re.compile(r"\b(a|an|the)\b", re.UNICODE), " ", text)

    def white_space_fix(text):
        return " ".join(text.split())

    def remove_punc(text):
        exclude = set(string.punctuation)
        return "".join(ch for ch in text if ch not in exclude)

    def lower(text):
        return text.lower()

    return white_space_fix(remove_articles(remove_punc(lower(s))))


def get_tokens(s):
    if not s:
        return []
    return normalize_answer(s).split()


def compute_exact(a_gold, a_pred):
    return int(normalize_answer(a_gold) == normalize_answer(a_pred))


def compute_f1(a_gold, a_pred):
    gold_toks = get_tokens(a_gold)
    pred_toks = get_tokens(a_pred)
    common = collections.Counter(gold_toks) & collections.Counter(pred_toks)
    num_same = sum(common.values())
    if len(gold_toks) == 0 or len(pred_toks) == 0:
        # no answer on either side: right only when both say no answer
        return int(gold_toks == pred_toks)
    if num_same == 0:
        return 0
    precision = 1.0 * num_same / len(pred_toks)
    recall = 1.0 * num_same / len(gold_toks)
    return (2 * precision * recall) / (precision + recall)


def get_raw_scores(dataset, preds):
    exact_scores = {}
    f1_scores = {}
    for article in dataset:
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                qid = qa["id"]
                gold_answers = [a["text"] for a in qa["answers"] if normalize_answer(a["text"])]
                if not gold_answers:
                    gold_answers = [""]  # an unanswerable question: only "" is right
                if qid not in preds:
                    print(f"Missing prediction for {qid}")
                    continue
                a_pred = preds[qid]
                exact_scores[qid] = max(compute_exact(a, a_pred) for a in gold_answers)
                f1_scores[qid] = max(compute_f1(a, a_pred) for a in gold_answers)
    return exact_scores, f1_scores


def apply_no_ans_threshold(scores, na_probs, qid_to_has_ans, na_prob_thresh):
    new_scores = {}
    for qid, s in scores.items():
        pred_na = na_probs[qid] > na_prob_thresh
        if pred_na:
            new_scores[qid] = float(not qid_to_has_ans[qid])
        else:
            new_scores[qid] = s
    return new_scores


def make_eval_dict(exact_scores, f1_scores, qid_list=None):
    if not qid_list:
        total = len(exact_scores)
        return collections.OrderedDict(
            [
                ("exact", 100.0 * sum(exact_scores.values()) / total),
                ("f1", 100.0 * sum(f1_scores.values()) / total),
                ("total", total),
            ]
        )
    total = len(qid_list)
    return collections.OrderedDict(
        [
            ("exact", 100.0 * sum(exact_scores[k] for k in qid_list) / total),
            ("f1", 100.0 * sum(f1_scores[k] for k in qid_list) / total),
            ("total", total),
        ]
    )


def merge_eval(main_eval, new_eval, prefix):
    for k in new_eval:
        main_eval[f"{prefix}_{k}"] = new_eval[k]


def find_best_thresh(preds, scores, na_probs, qid_to_has_ans):
    num_no_ans = sum(1 for k in qid_to_has_ans if not qid_to_has_ans[k])
    cur_score = num_no_ans
    best_score = cur_score
    best_thresh = 0.0
    qid_list = sorted(na_probs, key=lambda k: na_probs[k])
    for qid in qid_list:
        if qid not in scores:
            continue
        if qid_to_has_ans[qid]:
            diff = scores[qid]
        elif preds[qid]:
            diff = -1
        else:
            diff = 0
        cur_score += diff
        if cur_score > best_score:
            best_score = cur_score
            best_thresh = na_probs[qid]
    return 100.0 * best_score / len(scores), best_thresh


def find_all_best_thresh(main_eval, preds, exact_raw, f1_raw, na_probs, qid_to_has_ans):
    best_exact, exact_thresh = find_best_thresh(preds, exact_raw, na_probs, qid_to_has_ans)
    best_f1, f1_thresh = find_best_thresh(preds, f1_raw, na_probs, qid_to_has_ans)
    main_eval["best_exact"] = best_exact
    main_eval["best_exact_thresh"] = exact_thresh
    main_eval["best_f1"] = best_f1
    main_eval["best_f1_thresh"] = f1_thresh


def evaluate(dataset, preds, na_probs=None, na_prob_thresh=1.0):
    """The script's main on a "data" list and predictions: the dict it prints."""
    has_na_prob_file = na_probs is not None
    if not has_na_prob_file:
        na_probs = {k: 0.0 for k in preds}
    qid_to_has_ans = make_qid_to_has_ans(dataset)
    has_ans_qids = [k for k, v in qid_to_has_ans.items() if v]
    no_ans_qids = [k for k, v in qid_to_has_ans.items() if not v]
    exact_raw, f1_raw = get_raw_scores(dataset, preds)
    exact_thresh = apply_no_ans_threshold(exact_raw, na_probs, qid_to_has_ans, na_prob_thresh)
    f1_thresh = apply_no_ans_threshold(f1_raw, na_probs, qid_to_has_ans, na_prob_thresh)
    out_eval = make_eval_dict(exact_thresh, f1_thresh)
    if has_ans_qids:
        merge_eval(out_eval, make_eval_dict(exact_thresh, f1_thresh, has_ans_qids), "HasAns")
    if no_ans_qids:
        merge_eval(out_eval, make_eval_dict(exact_thresh, f1_thresh, no_ans_qids), "NoAns")
    if has_na_prob_file:
        find_all_best_thresh(out_eval, preds, exact_raw, f1_raw, na_probs, qid_to_has_ans)
    return dict(out_eval)


def main(argv=None):
    parser = argparse.ArgumentParser("Official evaluation script for SQuAD version 2.0.")
    parser.add_argument("data_file", help="Input data JSON file.")
    parser.add_argument("pred_file", help="Model predictions.")
    parser.add_argument("--na-prob-file", "-n", help="Model estimates of probability of no answer.")
    parser.add_argument(
        "--na-prob-thresh",
        "-t",
        type=float,
        default=1.0,
        help='Predict "" if no-answer probability exceeds this (default = 1.0).',
    )
    args = parser.parse_args(argv)
    with open(args.data_file) as f:
        dataset = json.load(f)["data"]
    with open(args.pred_file) as f:
        preds = json.load(f)
    na_probs = None
    if args.na_prob_file:
        with open(args.na_prob_file) as f:
            na_probs = json.load(f)
    print(json.dumps(evaluate(dataset, preds, na_probs, args.na_prob_thresh), indent=2))


if __name__ == "__main__":
    main()
