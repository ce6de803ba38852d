"""Sample articles for a corpus wave and put each one in train, dev or test.

FQuAD drew a seeded random sample of Wikipedia's quality articles (145 for v1.0, then 181 more
for v1.1, drawn only among the articles not yet in the corpus) and split them by article
(v1.1: 271/30/25 articles, about 83/9/8 %). Splitting by article, never by paragraph or question,
keeps a text's answers out of the split that scores a model trained on its other paragraphs.

A later wave only adds: an article already in the corpus keeps its split for good (questions were
written and released under it), whether a wave put it there or an admin fixed it by hand. The new
articles are placed to bring every split as close to its target share as that allows.

Pure and fast (no Django, no I/O), so the rules are tested alone and the same inputs always
give the same corpus: titles are sorted before any random draw, and every draw uses its own
``random.Random(seed)``, never the global generator.
"""

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

SPLITS = ("train", "dev", "test")
DEFAULT_RATIOS = {"train": 83, "dev": 9, "test": 8}  # weights, not necessarily summing to 100


class SamplingError(ValueError):
    """A sample that cannot be drawn from the articles available."""


def sample_titles(
    candidates: Iterable[str], *, n: int, seed: int, exclude: Iterable[str] = ()
) -> list[str]:
    """Pick n titles among candidates not in exclude, the same ones for the same inputs.

    The result is in the order drawn; the candidates' order and duplicates do not matter.
    """
    pool = sorted(set(candidates) - set(exclude))
    if n < 0:
        raise SamplingError(f"sample {n} is negative; ask for 0 articles or more")
    if n > len(pool):
        raise SamplingError(
            f"sample {n} is larger than the {len(pool)} articles it can be drawn from"
        )
    return _rng(seed).sample(pool, n)


def target_counts(total: int, ratios: Mapping[str, int]) -> dict[str, int]:
    """Split `total` articles by the weights: largest remainder method, ties in SPLITS order."""
    if total < 0:
        raise ValueError(f"cannot split {total} articles; the total must be 0 or more")
    return _apportion(total, _checked_ratios(ratios))


def assign_splits(
    new_titles: Sequence[str],
    *,
    existing: Mapping[str, str],
    seed: int,
    ratios: Mapping[str, int] = DEFAULT_RATIOS,
) -> dict[str, str]:
    """Return {title: split} for the new titles only; existing titles never move.

    existing maps every title already in the corpus to its split, hand fixes included. The
    targets are target_counts of the whole corpus after the wave; each split gets new titles in
    proportion to what it lacks, so none is pushed past its target, and which title goes where
    is a seeded shuffle of the sorted titles.
    """
    titles = sorted(set(new_titles))
    current = _current_counts(existing, titles)
    targets = target_counts(len(existing) + len(titles), ratios)
    deficits = {split: max(0, targets[split] - current[split]) for split in SPLITS}
    # Deficits add up to at least len(titles), more only when a split is already past its target
    # (a hand fix, or a target that shrank as the corpus grew); sharing by deficit then never
    # takes a split past its target.
    quotas = _apportion(len(titles), deficits)
    _rng(seed).shuffle(titles)
    return _deal(titles, quotas)


def _checked_ratios(ratios: Mapping[str, int]) -> dict[str, int]:
    """Return the weights in SPLITS order, or raise ValueError saying what is wrong."""
    if set(ratios) != set(SPLITS):
        raise ValueError(f"ratios must give exactly {', '.join(SPLITS)}; got {sorted(ratios)}")
    for split in SPLITS:
        weight = ratios[split]
        if isinstance(weight, bool) or not isinstance(weight, int):
            raise ValueError(f"the {split} weight must be a whole number, not {weight!r}")
        if weight < 0:
            raise ValueError(f"the {split} weight must be 0 or more, not {weight}")
    if not any(ratios.values()):
        raise ValueError("at least one split needs a weight above 0")
    return {split: ratios[split] for split in SPLITS}


def _apportion(total: int, weights: Mapping[str, int]) -> dict[str, int]:
    """Share total by the weights: floors first, then one more to the largest remainders."""
    weight_sum = sum(weights.values())
    if weight_sum == 0:  # nothing to share, and nowhere to put it
        return dict.fromkeys(SPLITS, 0)
    shares = {split: divmod(total * weights[split], weight_sum) for split in SPLITS}
    counts = {split: shares[split][0] for split in SPLITS}
    left = total - sum(counts.values())
    # Integer remainders keep the comparison exact; sorted() is stable, so ties follow SPLITS.
    for split in sorted(SPLITS, key=lambda split: -shares[split][1])[:left]:
        counts[split] += 1
    return counts


def _current_counts(existing: Mapping[str, str], new_titles: Iterable[str]) -> Counter:
    """Count the corpus's articles per split, refusing unknown splits and re-assigned titles."""
    unknown = {title: split for title, split in existing.items() if split not in SPLITS}
    if unknown:
        title, split = min(unknown.items())
        raise ValueError(f"{title!r} is in split {split!r}; splits are {', '.join(SPLITS)}")
    again = sorted(set(new_titles) & set(existing))
    if again:
        title = again[0]
        raise ValueError(f"{title!r} is already in the corpus ({existing[title]}); it never moves")
    return Counter(existing.values())


def _deal(shuffled: Sequence[str], quotas: Mapping[str, int]) -> dict[str, str]:
    """Give the first quotas["train"] titles to train, the next ones to dev, and so on."""
    splits = [split for split in SPLITS for _ in range(quotas[split])]
    return dict(zip(shuffled, splits, strict=True))


def _rng(seed: int) -> random.Random:
    """Return a generator of its own: reproducible from the seed, deaf to other draws."""
    return random.Random(seed)  # noqa: S311 (reproducible sampling, not security)
