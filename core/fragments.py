"""Fragments: how a page of a lower app shows a part that a higher app owns.

An app may not import a higher one, and its templates may not name a higher app's URLs or
templates either (docs/architecture.md, "The floors"). Where a page must show a part of a
higher app (the admin's home lists every app's pages; a campaign's dashboard links to its
model in the loop and shows the learning curve's estimate), it names a *place*, and the
higher app registers the templates to render there, in its `AppConfig.ready`, as the code
does with signals and `core.figures.figure_register`:

    fragment_register("annotation.campaign-dashboard.links",
                      "evaluation/fragments.html#campaign-dashboard-link", order=10)

The page renders a place with `{% fragments "annotation.campaign-dashboard.links" %}` (after
`{% load fragments %}`; `core/templatetags/fragments.py`): each registered template in turn,
lowest `order` first, with the page's own context, as `{% include %}` would. A place nobody
filled renders nothing. A place is named "<app>.<page>.<part>" after the page that shows it;
an app registers its own templates only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Fragment:
    template: str  # a template name, "page.html#partial" included
    order: int


REGISTRY: dict[str, list[Fragment]] = {}


def fragment_register(place: str, template: str, *, order: int = 0) -> None:
    """Render `template` at `place`; registering the same template again changes nothing."""
    fragments = [item for item in REGISTRY.get(place, []) if item.template != template]
    fragments.append(Fragment(template=template, order=order))
    REGISTRY[place] = sorted(fragments, key=lambda item: item.order)


def fragments_of(place: str) -> list[str]:
    """Return the template names registered at `place`, in their order."""
    return [item.template for item in REGISTRY.get(place, [])]
