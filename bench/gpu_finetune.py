"""Time QA fine-tuning and inference of a BERT-base-size model on one GPU.

The model has CamemBERT-base's size (12 layers, hidden 768, 12 heads, feed-forward 3072,
vocabulary 32,000) with random weights, built from a config: no hub, no download. The inputs
are synthetic windows of 384 tokens, made once on the device, so only the model is timed.
Training runs the baselines' own step (``evaluation.baselines.training.train_step``): bf16
autocast, TF32, fused AdamW, gradient clipping, linear schedule. Inference runs the forward
pass under ``torch.inference_mode()`` and bf16 autocast, as ``predict`` does.

On a GPU the model is compiled by default (``TrainConfig(compile=True)``; ``--no-compile``
for eager). Eager BERT spends more GPU time on element-wise work (layer norms, dropout, GELU,
residuals, casts) than on matrix products, and compilation fuses it. Measured on one H100
(torch 2.11, transformers 5.17, 2026-11-22), batch 32 training / batch 128 inference:
eager 726-926 / 4,137-4,272 sequences/s over 4 runs, compiled 1,036-1,221 / 5,148-5,185
over 3 runs. Compiling costs 1-2 min the first time (about 40 s once Inductor's cache is warm),
not timed and not in the projection.

Targets, on one H100: training ≥ 800 sequences/s (batch 32), inference ≥ 3,000 sequences/s
(batch 128). The script also projects the time of 3 epochs on FQuAD 1.1's training set.
A SQuAD v2.0 release (FQuAD 2.0-style, docs/baselines-v2.md) trains on the same windows,
its unanswerable questions' pointing at CLS: a step costs the same, and the projection of
such a set is ``--questions`` with its answerable and unanswerable training questions.

Run from the project root: ``python3 bench/gpu_finetune.py`` (no Django, no database; needs
torch and transformers). On a machine without a GPU, a smoke check:
``python bench/gpu_finetune.py --steps 2 --batch 2 --eval-batch 2 --layers 2``.
"""

import argparse
import math
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import torch  # noqa: E402  (after the path set-up, like the project imports)
import transformers  # noqa: E402
from figures import beside_floor, print_machine  # noqa: E402
from transformers import AutoModelForQuestionAnswering, BertConfig  # noqa: E402

from evaluation.baselines.training import (  # noqa: E402  (needs ROOT on sys.path)
    TrainConfig,
    build_optimizer,
    build_scheduler,
    configure_backends,
    runnable,
    train_step,
)

# FQuAD 1.1 (d'Hoffschmidt et al., 2020): train 50,741 + dev 5,668 + test 5,594 = 62,003.
FQUAD_TRAIN_QUESTIONS = 50_741
TARGET_TRAIN = 800.0  # sequences/s, batch 32, one H100
TARGET_INFERENCE = 3_000.0  # sequences/s, batch 128, one H100
TARGET_DEVICE = "H100"
VOCAB_SIZE = 32_000


@dataclass(frozen=True)
class Timing:
    """One timed run: its batch, steps, seconds and what it reached."""

    batch: int
    steps: int
    seconds: float
    peak_gib: float
    loss: float = math.nan

    @property
    def sequences_per_second(self) -> float:
        return self.batch * self.steps / self.seconds


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=50, help="timed steps per measurement")
    parser.add_argument("--warmup", type=int, default=10, help="untimed steps before timing")
    parser.add_argument(
        "--batch",
        type=int,
        nargs="+",
        default=[32, 8],
        help="training batch sizes; the target applies to the first (default: 32, then the "
        "FQuAD paper's 8)",
    )
    parser.add_argument("--eval-batch", type=int, default=128, help="inference batch size")
    parser.add_argument("--seq-len", type=int, default=384, help="tokens per window")
    parser.add_argument("--layers", type=int, default=12, help="encoder layers (12: base size)")
    parser.add_argument(
        "--compile",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="torch.compile the model (default: on with a GPU, off on the CPU)",
    )
    parser.add_argument("--epochs", type=int, default=3, help="epochs in the projection")
    parser.add_argument(
        "--questions", type=int, default=FQUAD_TRAIN_QUESTIONS, help="training questions"
    )
    parser.add_argument(
        "--windows-per-question",
        type=float,
        default=1.05,
        help="windows of --seq-len tokens per question (default 1.05, see the output)",
    )
    return parser.parse_args(argv)


def build_model(layers: int, seq_len: int, device: torch.device):
    """Return a randomly initialised BERT-base-size QA model on ``device``, SDPA attention."""
    config = BertConfig(
        vocab_size=VOCAB_SIZE,
        hidden_size=768,
        num_hidden_layers=layers,
        num_attention_heads=12,
        intermediate_size=3072,
        max_position_embeddings=max(512, seq_len),
    )
    model = AutoModelForQuestionAnswering.from_config(config, attn_implementation="sdpa")
    return model.to(device)


def count_parameters(layers: int, seq_len: int) -> int:
    """Return the model's parameter count, built on the meta device (no memory, no init)."""
    with torch.device("meta"):
        model = build_model(layers, seq_len, torch.device("meta"))
    return sum(p.numel() for p in model.parameters())


def synthetic_batch(batch: int, seq_len: int, device: torch.device, labels: bool) -> dict:
    """Return one batch of full windows, made on ``device`` once so no copy is timed."""
    generator = torch.Generator(device=device).manual_seed(0)
    inputs = {
        "input_ids": torch.randint(
            5, VOCAB_SIZE, (batch, seq_len), device=device, generator=generator
        ),
        "attention_mask": torch.ones(batch, seq_len, dtype=torch.long, device=device),
        "token_type_ids": torch.zeros(batch, seq_len, dtype=torch.long, device=device),
    }
    if labels:
        for name in ("start_positions", "end_positions"):
            inputs[name] = torch.randint(0, seq_len, (batch,), device=device, generator=generator)
    return inputs


def synchronize(device: torch.device) -> None:
    """Wait for the GPU: a timer read while kernels still run would flatter the figures."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def reset_peak(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats(device)


def peak_gib(device: torch.device) -> float:
    return torch.cuda.max_memory_allocated(device) / 2**30 if device.type == "cuda" else 0.0


def timed(run_step, warmup: int, steps: int, device: torch.device) -> tuple[float, object]:
    """Run ``warmup`` untimed then ``steps`` timed calls; return the seconds and last result."""
    for _ in range(warmup):
        run_step()
    synchronize(device)
    reset_peak(device)
    started = time.perf_counter()
    for _ in range(steps):
        result = run_step()
    synchronize(device)
    return time.perf_counter() - started, result


def time_training(args, batch_size: int, device: torch.device, config: TrainConfig) -> Timing:
    """Time ``args.steps`` training steps at ``batch_size`` after ``args.warmup`` untimed ones."""
    model = build_model(args.layers, args.seq_len, device)
    model.train()
    runner = runnable(model, config)
    optimizer = build_optimizer(model, config, device)
    scheduler = build_scheduler(optimizer, config, args.warmup + args.steps)
    batch = synthetic_batch(batch_size, args.seq_len, device, labels=True)
    bf16 = config.use_bf16(device)

    def step():
        return train_step(
            runner, batch, optimizer, scheduler, bf16=bf16, max_grad_norm=config.max_grad_norm
        )

    seconds, loss = timed(step, args.warmup, args.steps, device)
    return Timing(batch_size, args.steps, seconds, peak_gib(device), float(loss))


def time_inference(args, device: torch.device, config: TrainConfig) -> Timing:
    """Time ``args.steps`` forward passes at the eval batch, as ``predict`` runs them."""
    model = build_model(args.layers, args.seq_len, device)
    model.eval()
    runner = runnable(model, config)
    batch = synthetic_batch(args.eval_batch, args.seq_len, device, labels=False)
    bf16 = config.use_bf16(device)

    def forward():
        with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=bf16):
            return runner(**batch).start_logits

    with torch.inference_mode():
        seconds, _ = timed(forward, args.warmup, args.steps, device)
    return Timing(args.eval_batch, args.steps, seconds, peak_gib(device))


def forward_gflop_per_sequence(layers: int, seq_len: int, hidden: int = 768, ffn: int = 3072):
    """Return the matrix-product GFLOP of one forward pass over one window.

    Per token: 2 FLOP per weight of the attention projections and the feed-forward layers,
    plus 4 × seq_len × hidden per layer for the attention scores and their weighted sum.
    Training costs about 3 times this (forward, then two products per weight backward).
    """
    weights = layers * (4 * hidden * hidden + 2 * hidden * ffn)
    per_token = 2 * weights + 4 * seq_len * hidden * layers
    return per_token * seq_len / 1e9


def matmul_tflops(device: torch.device, rows: int, warmup: int, steps: int) -> float:
    """The floor's rate (issue 24): TFLOP/s of one plain matrix product of the model's
    feed-forward shape ((rows × 768) by (768 × 3,072)), in the dtype training runs its products
    in (bf16 on a GPU, float32 on the CPU), on this device now."""
    dtype = torch.bfloat16 if device.type == "cuda" else torch.float32
    left = torch.randn(rows, 768, device=device, dtype=dtype)
    right = torch.randn(768, 3072, device=device, dtype=dtype)
    seconds, _ = timed(lambda: left @ right, warmup, steps, device)
    return 2 * rows * 768 * 3072 * steps / seconds / 1e12


def print_floor(name: str, kind: str, timing: Timing, gflop: float, tflops: float) -> None:
    """A step's time beside the time of its model FLOPs at the plain products' rate."""
    step = timing.seconds / timing.steps
    floor = timing.batch * gflop / 1e3 / tflops
    beside_floor(
        name,
        step,
        floor,
        "s",
        what=f"{kind} step, batch {timing.batch}",
        floor_what=f"its model FLOPs at the rate of a plain matrix product here, {tflops:.3g} "
        "TFLOP/s",
    )


def duration(seconds: float) -> str:
    """Return ``seconds`` as "1 h 02 min", "12 min 05 s" or "42 s"."""
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def verdict(value: float, target: float) -> str:
    return "met" if value >= target else "not met"


def device_line(device: torch.device) -> str:
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else platform.processor()
    return (
        f"device: {name or 'CPU'} ({device.type}); torch {torch.__version__}, transformers "
        f"{transformers.__version__}, Python {platform.python_version()}"
    )


def target_note(device: torch.device) -> str | None:
    """Say when the figures come from another machine than the one the targets are set for."""
    if device.type != "cuda":
        return "NOT the target machine: no GPU, so this run is a smoke check only"
    if TARGET_DEVICE not in torch.cuda.get_device_name(device):
        return f"NOT the target machine: the targets are set for one {TARGET_DEVICE}"
    return None


def print_header(args, device: torch.device, config: TrainConfig) -> None:
    print("QA fine-tuning benchmark: BERT-base-size model, random weights, synthetic windows")
    print(device_line(device))
    note = target_note(device)
    if note:
        print(note)
    parameters = count_parameters(args.layers, args.seq_len)
    print(
        f"model: {args.layers} layers, hidden 768, 12 heads, feed-forward 3072, vocabulary "
        f"{VOCAB_SIZE:,}: {parameters / 1e6:.1f} M parameters, SDPA attention"
    )
    on = {True: "on", False: "off"}
    print(
        f"settings: {args.seq_len} tokens per window, bf16 autocast {on[config.use_bf16(device)]}, "
        f"TF32 {on[config.tf32 and device.type == 'cuda']}, AdamW fused "
        f"{on[device.type == 'cuda']}, torch.compile {on[config.compile]}; "
        f"{args.warmup} warm-up + {args.steps} timed steps per measurement"
    )


def print_timing(kind: str, timing: Timing, gflop: float) -> None:
    rate = timing.sequences_per_second
    tflops = rate * gflop / 1e3
    loss = "" if math.isnan(timing.loss) else f", last loss {timing.loss:.2f}"
    print(
        f"{kind} batch {timing.batch}: {rate:,.1f} sequences/s "
        f"({timing.seconds / timing.steps * 1e3:.1f} ms/step, ≈ {tflops:.1f} TFLOP/s of model "
        f"FLOPs, peak memory {timing.peak_gib:.1f} GiB{loss})"
    )


def print_projection(args, trainings: list[Timing]) -> None:
    windows = args.questions * args.windows_per_question
    total = windows * args.epochs
    print(
        f"projection: FQuAD 1.1 train = {args.questions:,} questions × "
        f"{args.windows_per_question:g} windows/question = {windows:,.0f} windows per epoch; "
        f"{args.epochs} epochs = {total:,.0f} windows"
    )
    print(
        f"  assumption: at {args.seq_len} tokens with stride 128, a French Wikipedia paragraph "
        "of ~500-1,000 characters (~150-300 tokens) and its question fit in one window; "
        f"{args.windows_per_question:g} allows for the longer paragraphs "
        "(--windows-per-question)"
    )
    for timing in trainings:
        print(
            f"  at batch {timing.batch}: {duration(total / timing.sequences_per_second)} "
            "of training steps (compilation, data loading, evaluation and checkpoints not included)"
        )


def print_targets(device: torch.device, training: Timing, inference: Timing) -> None:
    note = "" if target_note(device) is None else " (for information: not the target machine)"
    print(f"targets on one {TARGET_DEVICE}{note}:")
    train_rate, eval_rate = training.sequences_per_second, inference.sequences_per_second
    print(
        f"  training ≥ {TARGET_TRAIN:,.0f} sequences/s (batch {training.batch}): "
        f"{verdict(train_rate, TARGET_TRAIN)} ({train_rate:,.1f})"
    )
    print(
        f"  inference ≥ {TARGET_INFERENCE:,.0f} sequences/s (batch {inference.batch}): "
        f"{verdict(eval_rate, TARGET_INFERENCE)} ({eval_rate:,.1f})"
    )


def main(argv=None) -> None:
    args = parse_args(argv)
    config = TrainConfig()
    device = config.resolve_device()
    # Compiling on the CPU would take longer than the whole smoke check.
    config.compile = device.type == "cuda" if args.compile is None else args.compile
    if device.type != "cuda":
        args.warmup = min(args.warmup, 1)  # a smoke check: nothing to warm up worth the time
    configure_backends(device, config.tf32)
    torch.manual_seed(config.seed)
    print_header(args, device, config)
    gflop = forward_gflop_per_sequence(args.layers, args.seq_len)
    trainings = []
    for batch_size in args.batch:
        trainings.append(time_training(args, batch_size, device, config))
        print_timing("training ", trainings[-1], 3 * gflop)
    inference = time_inference(args, device, config)
    print_timing("inference", inference, gflop)
    print_projection(args, trainings)
    print_targets(device, trainings[0], inference)
    rows = min(args.batch[0] * args.seq_len, 16_384 if device.type == "cuda" else 2_048)
    tflops = matmul_tflops(device, rows, args.warmup, max(5, args.steps))
    for timing in trainings:
        print_floor(f"finetune.train_b{timing.batch}", "training", timing, 3 * gflop, tflops)
    print_floor("finetune.inference", "inference", inference, gflop, tflops)
    print_machine()


if __name__ == "__main__":
    main()
