"""Time a learning curve (issue 17): fine-tune one model on nested fractions of a training set
and score each on dev, as a `learning_curve` baseline run does, then fit the curve.

The data are PIAF's French questions (`../shared/data/piaf/piaf-v1.0.json`), split by article
into train and dev and repeated (with new ids) up to the size asked: FQuAD 1.1's by default,
50,741 train and 5,668 dev questions. Each point starts from the same initial weights, trains
on its prefix of one seeded shuffle (`evaluation.services.curves.fit.nested_subsets`), predicts dev
and scores it with the FQuAD normalization; the fit and its bootstrap are
`evaluation.services.curves.fit.curve_summary`, as in the job. No Django, no database.

Modes:
- GPU (default when CUDA is there): a base-size model. `--model PATH` is a local checkpoint
  (e.g. camembert-base saved with safetensors); without it, a BERT of CamemBERT-base's size
  (12 layers, hidden 768) with random weights and a WordPiece vocabulary of 32,000 learnt on
  the data: the timings are a real base model's, the scores are not. 3 epochs, batch 32.
- CPU (`--tiny`): the tests' tiny model (2 layers, hidden 64) on 400 train and 100 dev
  questions, a few steps per point: checks that the whole path runs.

Prints, per point, the training questions, the seconds (training, prediction) and dev EM/F1;
then the total, the device and the estimate at 2× and 4×.

Run from the project root: `python3 bench/learning_curve.py` on a GPU machine,
`.venv/bin/python bench/learning_curve.py --tiny` here.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import torch  # noqa: E402  (after the path set-up, like the project imports)
import transformers  # noqa: E402
from figures import beside_floor, print_machine  # noqa: E402
from transformers import AutoModelForQuestionAnswering, AutoTokenizer, BertConfig  # noqa: E402

from evaluation.baselines.tiny import (  # noqa: E402
    tiny_model_and_tokenizer,
    train_wordpiece_tokenizer,
)
from evaluation.baselines.training import TrainConfig, predict, train  # noqa: E402
from evaluation.metrics import FQUAD_FR, best_over, f1, score  # noqa: E402
from evaluation.services.curves.fit import (  # noqa: E402
    DEFAULT_FRACTIONS,
    curve_summary,
    nested_subsets,
)

PIAF = ROOT.parent / "shared" / "data" / "piaf" / "piaf-v1.0.json"
FQUAD_TRAIN, FQUAD_DEV = 50_741, 5_668  # FQuAD 1.1 (d'Hoffschmidt et al., 2020)
DEV_SHARE = 0.1  # PIAF articles kept for dev


def load_piaf(path: Path) -> tuple[list[dict], list[dict]]:
    """Return (train, dev) examples, HF style, split by article (every tenth title to dev)."""
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    train, dev = [], []
    for i, article in enumerate(data):
        target = dev if i % round(1 / DEV_SHARE) == 0 else train
        for paragraph in article["paragraphs"]:
            for qa in paragraph["qas"]:
                answers = qa["answers"]
                if not answers:
                    continue
                target.append(
                    {
                        "id": str(qa["id"]),
                        "title": article["title"],
                        "context": paragraph["context"],
                        "question": qa["question"],
                        "answers": {
                            "text": [a["text"] for a in answers],
                            "answer_start": [a["answer_start"] for a in answers],
                        },
                    }
                )
    return train, dev


def sized(examples: list[dict], size: int) -> list[dict]:
    """Return `size` examples: the given ones repeated, each copy with new ids."""
    out = []
    while len(out) < size:
        copy = len(out) // len(examples)
        for example in examples[: size - len(out)]:
            out.append(example | {"id": f"{example['id']}-{copy}"})
    return out


def base_model(texts: list[str], seed: int):
    tokenizer = train_wordpiece_tokenizer(texts, vocab_size=32_000)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=768,
        num_hidden_layers=12,
        num_attention_heads=12,
        intermediate_size=3072,
        max_position_embeddings=512,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(seed)
    return AutoModelForQuestionAnswering.from_config(config), tokenizer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiny", action="store_true", help="CPU check with the tiny model")
    parser.add_argument("--model", help="a local checkpoint folder (safetensors)")
    parser.add_argument("--train", type=int, help="train questions (FQuAD 1.1: 50,741)")
    parser.add_argument("--dev", type=int, help="dev questions (FQuAD 1.1: 5,668)")
    parser.add_argument("--fractions", default=",".join(map(str, DEFAULT_FRACTIONS)))
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch", type=int, help="training batch (32 on a GPU, 8 on a CPU)")
    parser.add_argument("--max-steps", type=int, help="steps per point (default: the epochs)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--data", type=Path, default=PIAF)
    args = parser.parse_args()

    fractions = [float(f) for f in args.fractions.split(",")]
    fractions = [int(f) if f.is_integer() else f for f in fractions]
    train_pool, dev_pool = load_piaf(args.data)
    n_train = args.train or (400 if args.tiny else FQUAD_TRAIN)
    n_dev = args.dev or (100 if args.tiny else FQUAD_DEV)
    train_set, dev_set = sized(train_pool, n_train), sized(dev_pool, n_dev)
    texts = sorted({e["context"] for e in train_set + dev_set})
    texts += [e["question"] for e in train_set[:5000]]
    cuda = torch.cuda.is_available()
    device = torch.cuda.get_device_name(0) if cuda else f"cpu ({platform.processor() or 'x86'})"
    config = TrainConfig(
        epochs=args.epochs,
        batch_size=args.batch or (32 if cuda else 8),
        eval_batch_size=128 if cuda else 32,
        max_steps=args.max_steps or (3 if args.tiny else None),
        seed=args.seed,
        compile=cuda,
    )
    print(f"device {device} · torch {torch.__version__} · transformers {transformers.__version__}")
    print(f"train {len(train_set)} questions, dev {len(dev_set)}; fractions {fractions}")

    if args.model:

        def fresh():
            tokenizer = AutoTokenizer.from_pretrained(args.model)
            model = AutoModelForQuestionAnswering.from_pretrained(args.model, use_safetensors=True)
            return model, tokenizer
    else:
        made = time.perf_counter()
        if args.tiny:
            model0, tokenizer = tiny_model_and_tokenizer(texts, vocab_size=2000, seed=args.seed)
        else:
            model0, tokenizer = base_model(texts, args.seed)
        print(f"model and tokenizer built in {time.perf_counter() - made:.1f} s (not timed)")
        initial = {k: v.detach().clone() for k, v in model0.state_dict().items()}

        def fresh():
            model0.load_state_dict(initial)
            return model0, tokenizer

    by_id = {e["id"]: e for e in train_set}
    subsets = nested_subsets(list(by_id), fractions, args.seed)
    gold = {e["id"]: e["answers"]["text"] for e in dev_set}
    dev_ids = sorted(gold)
    points = []
    started = time.perf_counter()
    for fraction, ids in zip(fractions, subsets, strict=True):
        t0 = time.perf_counter()
        model, tokenizer = fresh()
        summary = train(model, tokenizer, [by_id[q] for q in ids], config)
        t1 = time.perf_counter()
        predictions = predict(model, tokenizer, dev_set, config)
        t2 = time.perf_counter()
        figures = score(gold, predictions, FQUAD_FR)
        points.append(
            {
                "fraction": fraction,
                "questions": len(ids),
                "f1": figures["f1"],
                "exact_match": figures["exact_match"],
                "seconds": t2 - t0,
                "per_question_f1": [
                    100 * best_over(f1, predictions.get(q, ""), gold[q], FQUAD_FR) for q in dev_ids
                ],
            }
        )
        print(
            f"  {fraction:>5} % · {len(ids):>6} questions · {summary['steps']:>6} steps · "
            f"train {t1 - t0:8.1f} s · predict {t2 - t1:6.1f} s · point {t2 - t0:8.1f} s · "
            f"dev EM {figures['exact_match']:5.1f} F1 {figures['f1']:5.1f}"
        )
    total = time.perf_counter() - started
    fitted = time.perf_counter()
    summary = curve_summary(points, len(by_id))
    fit_seconds = time.perf_counter() - fitted
    print(f"total {total:.1f} s for {len(points)} points on {device}")
    whole = max(points, key=lambda point: point["questions"])
    beside_floor(
        "learning_curve.total",
        total,
        whole["seconds"],
        "s",
        what=f"the curve's {len(points)} points",
        floor_what=f"its largest point alone ({whole['questions']:,} questions: one fine-tune "
        "and one prediction of dev, what a plain baseline run costs)",
    )
    print(f"fit and 200 bootstrap resamples: {fit_seconds:.2f} s · fit {summary['fit']}")
    for row in summary["estimates"][1:]:
        if row["f1"] is not None:
            interval = "" if row["low"] is None else f" (90 %: {row['low']:.1f}-{row['high']:.1f})"
            print(f"  at {row['times']}x ({row['n']} questions): F1 ~ {row['f1']:.1f}{interval}")
    print_machine()


if __name__ == "__main__":
    main()
