"""Build a tiny BERT QA model and a WordPiece tokenizer trained on the spot, for tests.

No hub download: the tokenizer is trained on the given texts with the ``tokenizers`` library
and wrapped as a transformers fast tokenizer (offsets and overflowing windows work), and the
model is a randomly initialised two-layer BERT. It trains in seconds on a CPU.
"""

from collections.abc import Iterable

import torch
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors
from tokenizers.trainers import WordPieceTrainer
from transformers import AutoModelForQuestionAnswering, BertConfig, PreTrainedTokenizerFast

SPECIAL_TOKENS = {
    "pad_token": "[PAD]",
    "unk_token": "[UNK]",
    "cls_token": "[CLS]",
    "sep_token": "[SEP]",
    "mask_token": "[MASK]",
}


def _pair_template(backend: Tokenizer) -> processors.TemplateProcessing:
    """Return BERT's framing: [CLS] question [SEP] context [SEP], context with type id 1."""
    cls, sep = SPECIAL_TOKENS["cls_token"], SPECIAL_TOKENS["sep_token"]
    return processors.TemplateProcessing(
        single=f"{cls} $A {sep}",
        pair=f"{cls} $A {sep} $B:1 {sep}:1",
        special_tokens=[(cls, backend.token_to_id(cls)), (sep, backend.token_to_id(sep))],
    )


def train_wordpiece_tokenizer(texts: Iterable[str], vocab_size: int = 2000):
    """Return a fast BERT-style tokenizer whose WordPiece vocabulary is learnt from ``texts``."""
    backend = Tokenizer(models.WordPiece(unk_token=SPECIAL_TOKENS["unk_token"]))
    # Lower-case but keep accents: "côte" and "cote" are different French words.
    backend.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=False)
    backend.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = WordPieceTrainer(
        vocab_size=vocab_size, special_tokens=list(SPECIAL_TOKENS.values()), show_progress=False
    )
    backend.train_from_iterator(texts, trainer=trainer)
    backend.post_processor = _pair_template(backend)
    backend.decoder = decoders.WordPiece()
    return PreTrainedTokenizerFast(
        tokenizer_object=backend,
        model_input_names=["input_ids", "token_type_ids", "attention_mask"],
        **SPECIAL_TOKENS,
    )


def tiny_model_and_tokenizer(
    texts: Iterable[str],
    vocab_size: int = 2000,
    hidden: int = 64,
    layers: int = 2,
    heads: int = 2,
    intermediate: int = 128,
    seed: int = 0,
):
    """Return ``(model, tokenizer)``: a small random BERT for QA and a tokenizer for ``texts``."""
    tokenizer = train_wordpiece_tokenizer(texts, vocab_size)
    config = BertConfig(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        num_hidden_layers=layers,
        num_attention_heads=heads,
        intermediate_size=intermediate,
        max_position_embeddings=512,
        pad_token_id=tokenizer.pad_token_id,
    )
    torch.manual_seed(seed)  # the same texts and seed give the same weights
    model = AutoModelForQuestionAnswering.from_config(config)
    return model, tokenizer
