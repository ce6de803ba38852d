"""Fine-tune and run an extractive QA model with a plain PyTorch loop.

Not the Hugging Face Trainer: the loop is short enough to read whole, reports progress through
one callback (step, total steps, loss, sequences/s), and its single training step is what the
GPU benchmark (``bench/gpu_finetune.py``) times. Defaults are the FQuAD paper's: 3 epochs,
learning rate 3e-5 with a linear warm-up over 6 % of the steps then a linear decay, AdamW,
batch 8, windows of 384 tokens with a stride of 128.

Imports torch, transformers and numpy only (no Django), so it runs on a bare GPU machine.
"""

import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import torch
from transformers import get_linear_schedule_with_warmup

from .features import (
    Features,
    postprocess_with_spans,
    prepare_eval_features,
    prepare_train_features,
)

PAD_TO_MULTIPLE_OF = 8  # tensor cores want dimensions in multiples of 8
LABELS = ("start_positions", "end_positions")


@dataclass
class TrainConfig:
    """Hyper-parameters and run settings; the defaults reproduce the FQuAD paper's setup."""

    epochs: int = 3
    learning_rate: float = 3e-5
    warmup_ratio: float = 0.06
    weight_decay: float = 0.01
    batch_size: int = 8
    eval_batch_size: int = 64
    max_length: int = 384
    stride: int = 128
    seed: int = 42
    max_grad_norm: float = 1.0
    bf16: bool | None = None  # None: on where the device supports it (CUDA with bf16)
    tf32: bool = True
    max_steps: int | None = None  # when set, the number of steps, whatever the epochs
    compile: bool = False  # torch.compile: faster steps on a GPU, after a long first one
    device: str | None = None  # None: CUDA when there is one, else the CPU
    log_every: int = 10
    n_best: int = 20
    max_answer_tokens: int = 30

    def resolve_device(self) -> torch.device:
        """Return the device to run on."""
        if self.device is not None:
            return torch.device(self.device)
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")

    def use_bf16(self, device: torch.device) -> bool:
        """Tell whether to autocast to bfloat16 on ``device``."""
        if self.bf16 is not None:
            return self.bf16
        return device.type == "cuda" and torch.cuda.is_bf16_supported()


@dataclass(frozen=True)
class TrainProgress:
    """What the progress callback receives every ``log_every`` steps and at the last one."""

    step: int
    total_steps: int
    loss: float  # mean loss over the steps since the previous report
    sequences_per_second: float
    seconds: float


def configure_backends(device: torch.device, tf32: bool) -> None:
    """Let float32 matrix products use TF32 tensor cores on CUDA (a 10-bit mantissa is enough)."""
    if device.type == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = tf32
        torch.backends.cudnn.allow_tf32 = tf32


def runnable(model: torch.nn.Module, config: TrainConfig):
    """Return the module to call: ``model`` itself, or compiled when the config asks.

    Compilation fuses the element-wise work (layer norms, dropout, GELU, residuals) that
    takes more GPU time than the matrix products in eager BERT fine-tuning.
    """
    return torch.compile(model) if config.compile else model


def build_optimizer(model: torch.nn.Module, config: TrainConfig, device: torch.device):
    """Return AdamW with weight decay on the weight matrices only.

    Biases and LayerNorm parameters (the 1-D ones) are not decayed, as in BERT's recipe.
    The fused kernel does the update in one launch on CUDA.
    """
    params = [p for p in model.parameters() if p.requires_grad]
    groups = [
        {"params": [p for p in params if p.ndim >= 2], "weight_decay": config.weight_decay},
        {"params": [p for p in params if p.ndim < 2], "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups, lr=config.learning_rate, fused=device.type == "cuda")


def build_scheduler(optimizer, config: TrainConfig, total_steps: int):
    """Return the linear warm-up then linear decay schedule over ``total_steps``."""
    warmup = math.ceil(config.warmup_ratio * total_steps)
    return get_linear_schedule_with_warmup(optimizer, warmup, total_steps)


def train_step(model, batch, optimizer, scheduler, *, bf16: bool, max_grad_norm: float):
    """Run one optimisation step on ``batch`` and return the loss, still on the device.

    The loss is not read back here: a ``.item()`` would make the CPU wait for the GPU at
    every step.
    """
    device_type = batch["input_ids"].device.type
    with torch.autocast(device_type=device_type, dtype=torch.bfloat16, enabled=bf16):
        loss = model(**batch).loss
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_grad_norm)
    optimizer.step()
    scheduler.step()
    optimizer.zero_grad(set_to_none=True)
    return loss.detach()


def collate(
    features: Features, indices: Sequence[int], pad_id: int, device: torch.device
) -> dict[str, torch.Tensor]:
    """Return the model inputs (and labels) of ``indices``, padded to the longest window."""
    longest = max(len(features["input_ids"][i]) for i in indices)
    width = -(-longest // PAD_TO_MULTIPLE_OF) * PAD_TO_MULTIPLE_OF
    batch = {}
    for name in ("input_ids", "attention_mask", "token_type_ids"):
        if name not in features:
            continue
        fill = pad_id if name == "input_ids" else 0
        rows = [features[name][i] + [fill] * (width - len(features[name][i])) for i in indices]
        batch[name] = torch.tensor(rows, dtype=torch.long)
    for name in LABELS:
        if name in features:
            batch[name] = torch.tensor([features[name][i] for i in indices], dtype=torch.long)
    pin = device.type == "cuda"
    return {
        k: (v.pin_memory() if pin else v).to(device, non_blocking=pin) for k, v in batch.items()
    }


def _shuffled_batches(count: int, batch_size: int, generator) -> Iterator[list[int]]:
    """Yield the indices of one epoch's batches, in a seeded random order."""
    order = torch.randperm(count, generator=generator).tolist()
    for begin in range(0, count, batch_size):
        yield order[begin : begin + batch_size]


def _total_steps(config: TrainConfig, batches_per_epoch: int) -> int:
    """Return the number of optimisation steps the run will take."""
    # As in the Hugging Face Trainer, max_steps replaces the epochs (it may cycle the data).
    return config.max_steps if config.max_steps else config.epochs * batches_per_epoch


def _pad_id(tokenizer) -> int:
    return tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0


def train(
    model,
    tokenizer,
    train_examples: Sequence[Mapping],
    config: TrainConfig | None = None,
    progress: Callable[[TrainProgress], None] | None = None,
) -> dict:
    """Fine-tune ``model`` in place on ``train_examples`` and return a summary of the run.

    The summary holds the steps taken, the loss of the first step, the mean loss of the last
    reporting window (``final_loss``), the sequences (windows) seen, the sequences per second
    and the seconds spent in the loop.
    """
    config = config or TrainConfig()
    device = config.resolve_device()
    configure_backends(device, config.tf32)
    torch.manual_seed(config.seed)
    features = prepare_train_features(tokenizer, train_examples, config.max_length, config.stride)
    count = len(features["input_ids"])
    total = _total_steps(config, math.ceil(count / config.batch_size))
    model.to(device).train()
    optimizer = build_optimizer(model, config, device)
    scheduler = build_scheduler(optimizer, config, total)
    runner = runnable(model, config)
    loop = _Loop(config, device, total, progress)
    generator = torch.Generator().manual_seed(config.seed)
    while loop.step < total:
        for indices in _shuffled_batches(count, config.batch_size, generator):
            loss = train_step(
                runner,
                collate(features, indices, _pad_id(tokenizer), device),
                optimizer,
                scheduler,
                bf16=config.use_bf16(device),
                max_grad_norm=config.max_grad_norm,
            )
            loop.record(loss, len(indices))
            if loop.step == total:
                break
    return loop.summary()


class _Loop:
    """Count steps, sequences and losses, and call the progress callback now and then."""

    def __init__(self, config: TrainConfig, device, total: int, progress) -> None:
        self.config, self.total, self.progress = config, total, progress
        self.step = self.sequences = self.window_steps = 0
        self.window_loss = torch.zeros((), device=device)
        self.first_loss = self.final_loss = math.nan
        self.started = time.perf_counter()

    def record(self, loss: torch.Tensor, sequences: int) -> None:
        """Account for one finished step; read the loss back only when reporting."""
        self.step += 1
        self.sequences += sequences
        self.window_loss += loss.float()
        self.window_steps += 1
        if self.step == 1:
            self.first_loss = float(loss)
        if self.step % self.config.log_every == 0 or self.step == self.total:
            self._report()

    def _report(self) -> None:
        self.final_loss = float(self.window_loss) / self.window_steps  # waits for the device
        self.window_loss.zero_()
        self.window_steps = 0
        if self.progress is not None:
            seconds = self.seconds()
            self.progress(
                TrainProgress(
                    self.step, self.total, self.final_loss, self.sequences / seconds, seconds
                )
            )

    def seconds(self) -> float:
        return max(time.perf_counter() - self.started, 1e-9)

    def summary(self) -> dict:
        seconds = self.seconds()
        return {
            "steps": self.step,
            "first_loss": self.first_loss,
            "final_loss": self.final_loss,
            "sequences": self.sequences,
            "sequences_per_second": self.sequences / seconds,
            "seconds": seconds,
        }


def _logits(model, features: Features, config: TrainConfig, device, pad_id: int):
    """Return per-window start and end logits as float32 arrays, trimmed to each window."""
    starts: list[np.ndarray] = []
    ends: list[np.ndarray] = []
    count = len(features["input_ids"])
    bf16 = config.use_bf16(device)
    model.to(device).eval()
    runner = runnable(model, config)
    with torch.inference_mode():
        for begin in range(0, count, config.eval_batch_size):
            indices = list(range(begin, min(begin + config.eval_batch_size, count)))
            batch = collate(features, indices, pad_id, device)
            with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=bf16):
                output = runner(**batch)
            start = output.start_logits.float().cpu().numpy()
            end = output.end_logits.float().cpu().numpy()
            for row, index in enumerate(indices):
                length = len(features["input_ids"][index])
                starts.append(start[row, :length])
                ends.append(end[row, :length])
    return starts, ends


def predict(
    model, tokenizer, examples: Sequence[Mapping], config: TrainConfig | None = None
) -> dict[str, str]:
    """Return {example id: predicted answer text} for ``examples`` ("" when no span fits)."""
    scored = predict_with_null(model, tokenizer, examples, config)
    return {example_id: text for example_id, (text, _diff) in scored.items()}


def predict_with_null(
    model, tokenizer, examples: Sequence[Mapping], config: TrainConfig | None = None
) -> dict[str, tuple[str, float]]:
    """Return {example id: (best span, null score minus its score)} for ``examples``.

    The second value is the SQuAD 2.0 no-answer score (``features.postprocess_with_null``):
    above the threshold learnt on dev, the answer is "".
    """
    spans = predict_with_spans(model, tokenizer, examples, config)
    return {example_id: (text, diff) for example_id, (text, _start, diff) in spans.items()}


def predict_with_spans(
    model, tokenizer, examples: Sequence[Mapping], config: TrainConfig | None = None
) -> dict[str, tuple[str, int | None, float]]:
    """Return {example id: (best span, its start in the context, no-answer score)}.

    ``predict_with_null`` with the span's character offset (``features.postprocess_with_spans``;
    None when no span fits). All the examples' windows go through the model together, in
    batches of ``config.eval_batch_size``: the model-in-the-loop server answers the questions
    that arrived together in one forward pass.
    """
    config = config or TrainConfig()
    device = config.resolve_device()
    configure_backends(device, config.tf32)
    features = prepare_eval_features(tokenizer, examples, config.max_length, config.stride)
    starts, ends = _logits(model, features, config, device, _pad_id(tokenizer))
    return postprocess_with_spans(
        examples, features, starts, ends, config.n_best, config.max_answer_tokens
    )
