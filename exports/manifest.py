"""A release's manifest (manifest.json): its name, version and options, each file's digest
and counts, and where they apply the model-in-the-loop figures and the campaigns.
"""

from __future__ import annotations

from annotation.models import Campaign
from exports.options import ReleaseOptions


def manifest_of(
    *,
    name: str,
    version: str,
    options: ReleaseOptions,
    files,
    model_in_the_loop: dict | None = None,
    empty_splits: list[str] | tuple[str, ...] = (),
) -> dict:
    """Return the manifest: what the release holds, with each file's digest and counts, and
    (only in a release with questions written with a model in the loop) the datasheet's
    model-in-the-loop figures; `splits_without_questions` names the splits of the options
    that got no data file, holding no question (only when there are some)."""
    manifest = {
        "name": name,
        "version": version,
        "options": options.as_dict(),
        "files": [
            {"name": f.name, "bytes": f.bytes, "sha256": f.sha256, "counts": f.counts}
            for f in files
        ],
    }
    if empty_splits:
        manifest["splits_without_questions"] = list(empty_splits)
    if model_in_the_loop:
        manifest["model_in_the_loop"] = model_in_the_loop
    if options.campaigns:  # a release of some campaigns names them
        manifest["campaigns"] = campaign_names(options.campaigns)
    return manifest


def campaign_names(ids) -> list[dict]:
    """Return [{"id", "name"}] of these campaigns, by id (the manifest's and datasheet's)."""
    return [
        {"id": pk, "name": name}
        for pk, name in Campaign.objects.filter(pk__in=ids).order_by("pk").values_list("pk", "name")
    ]
