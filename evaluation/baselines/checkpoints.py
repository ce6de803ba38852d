"""Save and load a fine-tuned QA model with its tokenizer, as safetensors only.

Pickled weights (``pytorch_model.bin``) can run code when loaded, so none is ever written or
read here; ``torch.load``, where it is ever needed, must be called with ``weights_only=True``.
Loading a checkpoint never reaches a model hub: the directory must exist locally;
``load_pretrained`` reads a model to start from by hub name or by a folder of the models folder
(MODELS_DIR, ``evaluation.model_names``), safetensors only too.
"""

import inspect
import os
from pathlib import Path

from transformers import AutoModelForQuestionAnswering, AutoTokenizer

PICKLED_SUFFIXES = (".bin", ".pt", ".pth", ".pkl")


def _safetensors_option(model) -> dict:
    """Ask for safetensors where ``save_pretrained`` still has the switch.

    transformers 4.x takes ``safe_serialization``; 5.x writes safetensors only and has dropped
    the argument.
    """
    parameters = inspect.signature(model.save_pretrained).parameters
    return {"safe_serialization": True} if "safe_serialization" in parameters else {}


def _pickled_files(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.rglob("*") if p.suffix in PICKLED_SUFFIXES)


def save_checkpoint(model, tokenizer, directory: str | Path) -> Path:
    """Write ``model`` (safetensors) and ``tokenizer`` to ``directory`` and return its path."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(directory, **_safetensors_option(model))
    tokenizer.save_pretrained(directory)
    pickled = _pickled_files(directory)
    if pickled:
        raise RuntimeError(f"pickled weights were written to {directory}: {', '.join(pickled)}")
    if not any(directory.glob("*.safetensors")):
        raise RuntimeError(f"no .safetensors weights were written to {directory}")
    return directory


def load_checkpoint(directory: str | Path):
    """Return ``(model, tokenizer)`` read from a directory written by ``save_checkpoint``."""
    directory = Path(directory)
    # A missing directory would otherwise be taken for a hub model name.
    if not (directory / "config.json").is_file():
        raise FileNotFoundError(f"no checkpoint in {directory} (config.json is missing)")
    model = AutoModelForQuestionAnswering.from_pretrained(
        directory, use_safetensors=True, local_files_only=True
    )
    tokenizer = AutoTokenizer.from_pretrained(directory, local_files_only=True)
    return model, tokenizer


def load_pretrained(location: str):
    """Return ``(model, tokenizer)`` of a model to start from or to evaluate, at `location`:
    what ``evaluation.model_names.model_location`` made of its name (the absolute path of a
    folder of the models folder, read from there only, or a hub name), its weights read from
    safetensors only (a pickled checkpoint could run code when loaded)."""
    local = {"local_files_only": True} if os.path.isabs(location) else {}
    tokenizer = AutoTokenizer.from_pretrained(location, **local)
    model = AutoModelForQuestionAnswering.from_pretrained(location, use_safetensors=True, **local)
    return model, tokenizer
