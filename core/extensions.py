"""Extension points: where a lower app lets a higher one add its part without importing it.

An app may not import the floors above it (docs/architecture.md). Where one of its use cases
or pages needs a part that a higher app owns (the release form's "Score with" fieldset and
its check, which belong to evaluation), the lower app names an extension point and says, in
a dataclass of its own, what an extension of it holds; the higher app registers one in its
`AppConfig.ready` (`extension_register`), as figures are registered (`core.figures`); the
lower app asks for it (`extension`) and does without when none is registered.

A signal says what happened (`annotation.events`, `exports.events`); an extension point is
asked. The answer never comes back through a signal's receivers.
"""

from __future__ import annotations

REGISTRY: dict[str, object] = {}


def extension_register(point: str, extension: object) -> None:
    """Register the extension of `point` (registering again replaces it)."""
    REGISTRY[point] = extension


def extension(point: str) -> object | None:
    """Return the extension registered at `point`, or None when no app registered one."""
    return REGISTRY.get(point)
