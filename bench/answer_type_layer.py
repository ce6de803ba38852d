"""A learned layer over the answer-type rules, judged by grouped cross-validation (issue 25,
item 19). An experiment: it did not beat the rules, so
`evaluation/services/analysis/answer_types/` does not use it (docs/answer-types.md, "A
learned layer: tried, not shipped").

The layer is a multinomial logistic regression (numpy, L2, zero start, full-batch gradient
descent, fixed steps: deterministic) from the rules' type and features of the answer in the
rules' own parse to the final type. `answer_features` reads only what that parse holds: the
rules' type; the head's part of speech, dependency and morphology; the first and last
tokens' parts of speech and the token before the answer; determiners, length, digits, a
finite verb, proper nouns, capitals; the entities where the recogniser ran on the answer's
sentence (it runs only where the rules read entities, so "unread" is a value of its own); and
what each rule says on its own (`rule_votes`). The question is not read: `answer_types` is
given (paragraph, offset, text) only.

Reads the four hand-labelled samples of tests/data/answer_types/ (600 rows, 594 answers: 6 are
in two samples with the same label, counted once), types each answer in its paragraph with the
rules' own batching (`_pieces`, `_typed`), then

1. 10-fold cross-validation grouped by paragraph (every answer of a paragraph in one fold;
   the paragraphs sorted, shuffled with seed 25 and dealt in turn): the rules alone against
   the layer trained on the nine other folds, on each sample, per category;
2. `--round1 REV` (36cd4f0: issue 25's first round of rules, which never saw
   piaf_holdout_150): the same features over that revision's rules, the layer trained on the
   three samples those rules were written on, measured on the hold-out's answers, against
   those rules alone (a stacked layer trained where the rules were tuned, judged where they
   were not).

Run from the project root: `.venv/bin/python bench/answer_type_layer.py [--l2 1.0]
[--round1 36cd4f0]` (no Django, no database; reads ../shared/data/piaf/piaf-v1.0.json).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import pkgutil
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from evaluation.agreement import cohen_kappa  # noqa: E402
from evaluation.services.analysis import answer_types as rules_package  # noqa: E402

DATA = ROOT / "tests" / "data" / "answer_types"
RULES_PATHS = ("evaluation/services/analysis/answer_types.py", "evaluation/answer_types.py")
SAMPLES = ("piaf_200", "piaf_tune_150", "piaf_check_100", "piaf_holdout_150")
PIAF = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
FOLDS = 10
FOLD_SEED = 25


def flat_rules(package: ModuleType) -> ModuleType:
    """Return the rules package's modules as one namespace, as the rules were one module before
    issue 26 split them; `_pipeline` is the module whose `classify_answer` the batches call."""
    flat = ModuleType(package.__name__)
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        flat.__dict__.update({k: v for k, v in vars(module).items() if not k.startswith("__")})
    flat._pipeline = importlib.import_module(f"{package.__name__}.pipeline")
    return flat


current_rules = flat_rules(rules_package)
CLASSES = tuple(kind.value for kind in current_rules.AnswerType)
L2 = 1.0
STEPS = 3000
RATE = 0.5
MIN_COUNT = 3  # a feature seen on fewer training answers is dropped
RULE_FEATURES = ("rule=", "vote_")  # left out for the regression alone, without the rules
DETERMINERS = frozenset(
    "le la les l' l’ un une des du au aux ce cet cette ces son sa ses leur leurs".split()  # noqa: SIM905
)


def _bucket(n: int) -> str:
    return "1" if n <= 1 else "2" if n == 2 else "3" if n == 3 else "4-5" if n <= 5 else "6+"


def _capitals(tokens: list[Any]) -> str:
    words = [token.text for token in tokens if token.text[:1].isalpha()]
    if not words:
        return "none"
    capital = [word[:1].isupper() for word in words]
    if all(word.isupper() and len(word) > 1 for word in words):
        return "acronym"
    return "all" if all(capital) else "first" if capital[0] else "some" if any(capital) else "none"


VOTES = (  # (name, rule function, its arguments): each rule's own answer, read apart
    ("clause", "_is_clause", "span head"),
    ("address", "_is_address", "tokens"),
    ("quantity", "_is_quantity", "tokens content head"),
    ("named", "_named_type", "span head"),
    ("group", "_group_name", "head"),
    ("entity", "_entity_type", "span head"),
    ("proper_class", "_proper_class", "tokens head"),
    ("titled", "_titled_work", "span head"),
)


def rule_votes(rules: Any, span: Any, head: Any) -> list[str]:
    """Return what each rule of the module `rules` says of the answer on its own ("vote_x=…";
    "unread" where it needs entities the parse does not hold, nothing where it says none)."""
    tokens = [token for token in span if not (token.is_punct or token.is_space)] or list(span)
    content = [token for token in tokens if rules._is_content(token)] or tokens
    values = {"span": span, "head": head, "tokens": tokens, "content": content}
    votes = []
    for name, function, arguments in VOTES:
        rule = getattr(rules, function, None)
        if rule is None:
            continue
        try:
            said = rule(*(values[argument] for argument in arguments.split()))
        except rules.EntitiesNeeded:
            said = "unread"
        if said:
            votes.append(f"vote_{name}={getattr(said, 'value', said)}")
    return votes


def answer_features(span: Any, head: Any, rule: str, entities_read: bool) -> list[str]:
    """Return the answer's features as names (each present feature is worth 1)."""
    tokens = [token for token in span if not (token.is_punct or token.is_space)] or list(span)
    doc = span.doc
    morph = head.morph
    features = [
        "bias",
        f"rule={rule}",
        f"head_pos={head.pos_}",
        f"head_dep={head.dep_.split(':')[0]}",
        f"rule={rule}|head_pos={head.pos_}",
        f"first_pos={tokens[0].pos_}",
        f"last_pos={tokens[-1].pos_}",
        f"length={_bucket(len(tokens))}",
        f"capitals={_capitals(tokens)}",
        f"rule={rule}|capitals={_capitals(tokens)}",
        f"head_capital={head.text[:1].isupper()}",
    ]
    for key in ("VerbForm", "Number", "Gender", "NumType"):
        for value in morph.get(key):
            features.append(f"head_{key}={value}")
    if tokens[0].lower_ in DETERMINERS:
        features.append("opens_with_determiner")
    if any(token.pos_ == "DET" for token in tokens):
        features.append("has_determiner")
    if any("Fin" in token.morph.get("VerbForm") for token in tokens):
        features.append("finite_verb")
    if any(char.isdigit() for char in span.text):
        features.append("digits")
    if any(token.pos_ == "PROPN" for token in tokens):
        features.append("has_propn")
    before = doc[span.start - 1] if span.start > 0 else None
    if before is not None:
        features.append(f"before_pos={before.pos_}")
    if not entities_read:
        features.append("entities=unread")
        return features
    labels = [token.ent_type_ for token in tokens]
    covered = sum(1 for label in labels if label) / len(tokens)
    features.append(f"head_ent={head.ent_type_ or 'O'}")
    features.append(f"rule={rule}|head_ent={head.ent_type_ or 'O'}")
    features.append(
        "ent_share="
        + (
            "0"
            if covered == 0
            else "all"
            if covered == 1
            else "half+"
            if covered >= 0.5
            else "some"
        )
    )
    for label in sorted({label for label in labels if label}):
        features.append(f"ent={label}")
    return features


def vocabulary(rows: list[list[str]], min_count: int = MIN_COUNT) -> list[str]:
    """Return the features seen on at least min_count rows, sorted (rule=… ones always kept)."""
    counts: dict[str, int] = {}
    for row in rows:
        for name in set(row):
            counts[name] = counts.get(name, 0) + 1
    return sorted(
        name
        for name, n in counts.items()
        if n >= min_count or name.startswith("rule=") and "|" not in name
    )


def matrix(rows: list[list[str]], names: list[str]) -> np.ndarray:
    index = {name: i for i, name in enumerate(names)}
    x = np.zeros((len(rows), len(names)))
    for r, row in enumerate(rows):
        for name in row:
            if name in index:
                x[r, index[name]] = 1.0
    return x


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def train(
    rows: list[list[str]],
    labels: list[str],
    l2: float = L2,
    steps: int = STEPS,
    rate: float = RATE,
    min_count: int = MIN_COUNT,
    dense: np.ndarray | None = None,
) -> dict:
    """Fit the regression; return {"classes", "features", "dense", "weights"} (weights per
    feature, one per class; the `dense` columns, if any, are the last rows, named "dense[i]").
    Deterministic: zero start, full-batch gradient descent, fixed steps; the L2 penalty
    (l2 / n, the bias included) keeps rare features small."""
    names = vocabulary(rows, min_count)
    x = matrix(rows, names)
    width = 0 if dense is None else dense.shape[1]
    if width:
        x = np.hstack([x, dense])
    y = np.zeros((len(rows), len(CLASSES)))
    for r, label in enumerate(labels):
        y[r, CLASSES.index(label)] = 1.0
    w = np.zeros((x.shape[1], len(CLASSES)))
    n = len(rows)
    for _ in range(steps):
        p = _softmax(x @ w)
        gradient = x.T @ (p - y) / n + l2 * w / n
        w -= rate * gradient
    return {
        "classes": list(CLASSES),
        "features": names + [f"dense[{i}]" for i in range(width)],
        "dense": width,
        "weights": w.round(6).tolist(),
    }


class Model:
    """A trained layer: predict(features, dense) → class name."""

    def __init__(self, data: dict) -> None:
        self.classes = list(data["classes"])
        self.dense = data.get("dense", 0)
        names = data["features"][: len(data["features"]) - self.dense]
        self.index = {name: i for i, name in enumerate(names)}
        self.weights = np.asarray(data["weights"], dtype=float)

    def scores(self, features: list[str], dense: np.ndarray | None = None) -> np.ndarray:
        rows = [self.index[name] for name in features if name in self.index]
        score = self.weights[rows].sum(axis=0)
        if self.dense:
            score = score + dense @ self.weights[len(self.index) :]
        return score

    def predict(self, features: list[str], dense: np.ndarray | None = None) -> str:
        return self.classes[int(np.argmax(self.scores(features, dense)))]


# ---------------------------------------------------------------------------------------------
# The labelled answers, their signals, the folds


def labelled() -> list[dict]:
    """Return the labelled answers once each, with their paragraph and samples."""
    data = json.loads(PIAF.read_text(encoding="utf-8"))["data"]
    contexts = {
        question["id"]: paragraph["context"]
        for article in data
        for paragraph in article["paragraphs"]
        for question in paragraph["qas"]
    }
    rows: dict[str, dict] = {}
    for sample in SAMPLES:
        for line in (DATA / f"{sample}.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            kept = rows.setdefault(
                row["id"], {**row, "context": contexts[row["id"]], "samples": []}
            )
            if kept["label"] != row["label"]:
                sys.exit(f"{row['id']} is labelled {kept['label']} and {row['label']}")
            kept["samples"].append(sample)
    return list(rows.values())


def signals(rules: ModuleType, items: list[tuple[str, int, str]]) -> list[tuple]:
    """Return (the rules' type, features, vectors) of each item, parsed and typed exactly as
    the rules module's `answer_types` does (its `_pieces` and `_typed`, whose
    `classify_answer` is wrapped for the run to read the features of the same parse). The
    vectors: the pipeline's word vectors of the head and the mean of the content tokens',
    each of length 1 (600 numbers; used with --vectors)."""
    classify = rules.classify_answer

    def typed_with_features(doc: Any, start: int, end: int) -> tuple:
        rule = classify(doc, start, end).value
        span = doc.char_span(start, end, alignment_mode="expand")
        tokens = [token for token in span if not (token.is_punct or token.is_space)] or list(span)
        content = [token for token in tokens if rules._is_content(token)] or tokens
        head = rules._syntactic_head(span, content)
        entities_read = rules.NO_ENTITIES not in doc.user_data
        names = answer_features(span, head, rule, entities_read) + rule_votes(rules, span, head)
        mean = np.mean([token.vector for token in content], axis=0)
        return rule, names, np.concatenate([_unit(head.vector), _unit(mean)])

    found: list[Any] = [None] * len(items)
    batches = getattr(rules, "_pipeline", rules)  # the module whose `_typed` calls the rules
    batches.classify_answer = typed_with_features
    try:
        for index, pair in rules._typed(rules.load_french(), rules._pieces(items), 64):
            found[index] = pair
    finally:
        batches.classify_answer = classify
    return found


def _unit(vector: np.ndarray) -> np.ndarray:
    norm = float(np.linalg.norm(vector))
    return vector / norm if norm else vector


def rules_at(revision: str) -> ModuleType:
    """Return the answer-type rules as they were at a git revision, loaded as a module (the
    module lived at evaluation/answer_types.py before issue 26 moved it into its room; a
    revision where the rules are the package of item 6 is not read: compare with the working
    tree's rules instead)."""
    for where in RULES_PATHS:
        shown = subprocess.run(
            ["git", "show", f"{revision}:{where}"], cwd=ROOT, capture_output=True, text=True
        )
        if shown.returncode == 0:
            source = shown.stdout
            break
    else:
        raise SystemExit(f"no answer-type rules at {revision}: {', '.join(RULES_PATHS)}")
    folder = Path(tempfile.mkdtemp())
    path = folder / f"answer_types_{revision}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def folds(contexts: list[str], k: int = FOLDS, seed: int = FOLD_SEED) -> list[int]:
    """Return each row's fold: its paragraph's place, paragraphs sorted, shuffled, dealt in turn."""
    paragraphs = sorted(set(contexts))
    random.Random(seed).shuffle(paragraphs)  # noqa: S311 (a split, not a secret)
    fold_of = {context: i % k for i, context in enumerate(paragraphs)}
    return [fold_of[context] for context in contexts]


def fitted(
    features: list[list[str]],
    labels: list[str],
    vectors: list[np.ndarray] | None,
    train_rows: list[int],
    l2: float,
) -> list[str]:
    """Return every row's prediction by the layer trained on train_rows (vectors: dense
    features beside the named ones, or None)."""
    dense = None if vectors is None else np.asarray([vectors[i] for i in train_rows])
    model = Model(
        train(
            [features[i] for i in train_rows], [labels[i] for i in train_rows], l2=l2, dense=dense
        )
    )
    return [
        model.predict(names, None if vectors is None else vectors[i])
        for i, names in enumerate(features)
    ]


def cross_validated(
    features: list[list[str]],
    labels: list[str],
    fold: list[int],
    l2: float,
    vectors: list[np.ndarray] | None = None,
) -> list[str]:
    """Return each row's prediction by the layer trained on the other folds."""
    predicted = [""] * len(labels)
    for k in sorted(set(fold)):
        train_rows = [i for i in range(len(labels)) if fold[i] != k]
        every = fitted(features, labels, vectors, train_rows, l2)
        for i in range(len(labels)):
            if fold[i] == k:
                predicted[i] = every[i]
    return predicted


# ---------------------------------------------------------------------------------------------
# Reporting


def report(name: str, labels: list[str], predicted: list[str]) -> None:
    agree = sum(a == b for a, b in zip(labels, predicted, strict=True))
    kappa = cohen_kappa(labels, predicted)
    print(f"  {name:<34} {agree}/{len(labels)} ({100 * agree / len(labels):.1f} %), κ {kappa:.3f}")


def per_category(labels: list[str], rules: list[str], learned: list[str]) -> None:
    print(f"    {'label':<13} rules agree/labelled (predicted)   layer agree/labelled (predicted)")
    count = Counter(labels)
    for kind in CLASSES:
        cells = []
        for predicted in (rules, learned):
            agree = sum(a == b == kind for a, b in zip(labels, predicted, strict=True))
            cells.append(f"{agree:>3}/{count[kind]:<3} ({predicted.count(kind):>3})")
        print(f"    {kind:<13} {cells[0]:<34} {cells[1]}")


def changes(rows: list[dict], chosen: list[int], rules: list[str], learned: list[str]) -> None:
    changed = [i for i in chosen if rules[i] != learned[i]]
    print(f"  changed by the layer: {len(changed)}")
    for i in changed:
        label, text = rows[i]["label"], rows[i]["answer"][:50]
        print(f"    label {label:<13} rules {rules[i]:<13} layer {learned[i]:<13} {text!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument(
        "--round1", metavar="REV", help="also judge the layer over the rules at REV"
    )
    parser.add_argument(
        "--vectors", action="store_true", help="add the word vectors of the head and content"
    )
    args = parser.parse_args()

    rows = labelled()
    items = [(row["context"], row["answer_start"], row["answer"]) for row in rows]
    labels = [row["label"] for row in rows]
    found = signals(current_rules, items)
    rules = [rule for rule, _names, _vector in found]
    features = [names for _rule, names, _vector in found]
    vectors = [vector for *_, vector in found] if args.vectors else None
    fold = folds([row["context"] for row in rows])
    learned = cross_validated(features, labels, fold, args.l2, vectors)
    alone = [[name for name in names if not name.startswith(RULE_FEATURES)] for names in features]
    without_rules = cross_validated(alone, labels, fold, args.l2, vectors)

    print(
        f"{len(rows)} answers, {FOLDS} folds grouped by paragraph (seed {FOLD_SEED}), "
        f"l2 {args.l2}, word vectors {'in' if args.vectors else 'out'}"
    )
    for sample in (None, *SAMPLES):
        chosen = [i for i, row in enumerate(rows) if sample is None or sample in row["samples"]]
        print(f"{sample or 'all'}:")
        report(
            "rules (written on all 600)", [labels[i] for i in chosen], [rules[i] for i in chosen]
        )
        report("layer (cross-validated)", [labels[i] for i in chosen], [learned[i] for i in chosen])
        report(
            "no rules (cross-validated)",
            [labels[i] for i in chosen],
            [without_rules[i] for i in chosen],
        )
        if sample in (None, "piaf_holdout_150"):
            per_category(*([values[i] for i in chosen] for values in (labels, rules, learned)))
    changes(rows, list(range(len(rows))), rules, learned)

    if args.round1:
        old = rules_at(args.round1)
        found = signals(old, items)
        rules = [rule for rule, _names, _vector in found]
        features = [names for _rule, names, _vector in found]
        vectors = [vector for *_, vector in found] if args.vectors else None
        seen = [i for i, row in enumerate(rows) if "piaf_holdout_150" not in row["samples"]]
        held = [i for i, row in enumerate(rows) if row["samples"] == ["piaf_holdout_150"]]
        learned = fitted(features, labels, vectors, seen, args.l2)
        print(f"rules at {args.round1}, layer trained on the {len(seen)} answers they saw:")
        print(f"  the hold-out's {len(held)} answers in no other sample:")
        report(f"rules at {args.round1}", [labels[i] for i in held], [rules[i] for i in held])
        report("layer over them", [labels[i] for i in held], [learned[i] for i in held])
        per_category(*([values[i] for i in held] for values in (labels, rules, learned)))
        changes(rows, held, rules, learned)
        alone = [
            [name for name in names if not name.startswith(RULE_FEATURES)] for names in features
        ]
        without_rules = fitted(alone, labels, vectors, seen, args.l2)
        report("no rules", [labels[i] for i in held], [without_rules[i] for i in held])
        either = sum(labels[i] in (rules[i], without_rules[i]) for i in held)
        same = sum(labels[i] != rules[i] == without_rules[i] for i in held)
        print(f"  right by the rules or by the regression without them: {either}/{len(held)}")
        print(f"  wrong alike by both: {same}")


if __name__ == "__main__":
    main()
