"""Which local models a run may load: only those in the models folder (settings.MODELS_DIR).

An admin names the model of a `finetune`, `evaluate` or learning-curve run. Loaded as given,
a name reached any path the worker can read (`/etc`, `../../..`), and the loader's error told
whether it existed and quoted what it held. So a name is read one way only:

- a folder of the models folder, named relative to it (`camembert-base`, `team/qa-v2`): the
  name is letters, digits, `.`, `_` and `-` in parts separated by `/`; no absolute path, no
  `..`; the folder, once every link is followed, must still be inside the models folder, and
  so must every file in it;
- otherwise a model hub name (`camembert-base`, `almanach/camembert-base`), loaded by the
  hub client as before.

Refusals never say whether something outside the folder exists: a name is refused for its
shape, or for pointing outside, before anything outside is looked at.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.utils.translation import gettext as _

NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]*(?:/[A-Za-z0-9_][A-Za-z0-9._-]*)*")
HUB_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*(?:/[A-Za-z0-9][A-Za-z0-9._-]*)?")
MAX_FILES = 10_000  # a model folder holds a few files; more is not a model


class ModelNameError(ValueError):
    """A model name the models-folder rules refuse; str(e) says why, in English."""


class ModelLoadError(RuntimeError):
    """The library could not load the model named; str(e) keeps the library's error, and the
    type tells a failed run's page what failed (`evaluation.run_failures`)."""


@contextmanager
def model_loading(name: str) -> Iterator[None]:
    """Turn whatever the library raises while it loads the model `name` into a
    ModelLoadError naming the model and keeping the library's error."""
    try:
        yield
    except Exception as error:
        raise ModelLoadError(f"model {name!r}: {type(error).__name__}: {error}") from error


def model_name_problem(name: str) -> str | None:
    """Return why a model name is refused at input (translated), or None."""
    if NAME.fullmatch(name) and ".." not in name.split("/"):
        return None
    if name.startswith(("/", "\\", "~")) or re.match(r"[A-Za-z]:", name):
        return _(
            "Name the model relative to the models folder, or by its model hub name: "
            "not by an absolute path."
        )
    return _(
        "A model name is letters, digits, “.”, “_” and “-”, in parts separated by “/”, "
        "with no “..”: a folder of the models folder or a model hub name."
    )


def models_root() -> Path:
    return Path(settings.MODELS_DIR).resolve()


def model_location(name: str) -> str:
    """Return what to load for a model name: the absolute path of its folder in the models
    folder, or the name itself when it is a model hub name. Raise ModelNameError otherwise."""
    if not NAME.fullmatch(name) or ".." in name.split("/"):
        raise ModelNameError(f"model {name!r}: not a name the models folder accepts")
    root = models_root()
    real = (root / name).resolve()  # links followed before anything is checked
    if not real.is_relative_to(root):
        raise ModelNameError(f"model {name!r}: not inside the models folder")
    if real.exists():
        _check_inside(real, root, name)
        return str(real)
    if not HUB_NAME.fullmatch(name) or os.path.lexists(name):
        # (a path that exists from the worker's own folder would be read by the hub client)
        raise ModelNameError(
            f"model {name!r}: no such folder in the models folder, and not a model hub name"
        )
    return name


def checkpoint_location(location: str) -> str:
    """Return the folder of a checkpoint to serve: a fine-tuned run's own checkpoint (an
    absolute path the platform wrote, under VAR_DIR/models or MODELS_DIR), or a model name
    read by `model_location`. Raise ModelNameError for any other absolute path."""
    if not os.path.isabs(location):
        return model_location(location)
    real = Path(location).resolve()
    for root in (models_root(), (Path(settings.VAR_DIR) / "models").resolve()):
        if real.is_relative_to(root):
            _check_inside(real, root, location)
            return str(real)
    raise ModelNameError("the checkpoint is not inside the models folder")


def _check_inside(folder: Path, root: Path, name: str) -> None:
    """Raise ModelNameError if a file of the folder links outside the models folder."""
    for count, path in enumerate(folder.rglob("*") if folder.is_dir() else [folder]):
        if count >= MAX_FILES:
            raise ModelNameError(f"model {name!r}: too many files for a model")
        if path.is_symlink() and not path.resolve().is_relative_to(root):
            raise ModelNameError(f"model {name!r}: a file links outside the models folder")
