"""A release file as an HTTP download: the page and the API serve files the same way."""

from django.http import FileResponse

from core.errors import ServiceError
from exports.models import Release
from exports.services.releases import pruned_message, release_file_get, release_file_open


def release_file_response(release: Release, name: str) -> FileResponse:
    """Stream a release file to an admin as an attachment (names come from the release's rows);
    a snapshot whose files its schedule's retention removed answers 410."""
    if release.files_pruned_at is not None:
        raise ServiceError({"name": [pruned_message()]}, status=410)
    item = release_file_get(release=release, name=name)
    response = FileResponse(
        release_file_open(item),
        as_attachment=True,
        filename=f"{release.name}-{item.name}",
        content_type=item.media_type,
    )
    response["Content-Length"] = str(item.bytes)
    response["X-Content-Type-Options"] = "nosniff"
    return response
