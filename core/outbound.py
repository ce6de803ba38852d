"""The egress policy's Django side (`core.egress` is the policy itself, framework-free): the
policy the settings describe, and the message a form shows for a refused address."""

from __future__ import annotations

import logging

from django.conf import settings
from django.utils.translation import gettext as _

from core import egress

logger = logging.getLogger("core.egress")


def policy_from_settings() -> egress.Policy:
    """Return the policy the settings describe (EGRESS_ALLOWED_NETWORKS, _HOSTS)."""
    hosts = tuple(
        egress.normal_host(h) if not h.startswith(".") else h.lower()
        for h in settings.EGRESS_ALLOWED_HOSTS
    )
    return egress.Policy(
        networks=egress.parse_networks(settings.EGRESS_ALLOWED_NETWORKS), hosts=hosts
    )


def url_problem(url: str) -> str | None:
    """Return why an admin's address is refused, translated for the form, or None."""
    try:
        egress.check(url)
    except egress.EgressRefused as refusal:
        logger.info("egress: %s refused at input (%s %s)", url, refusal.reason, refusal.detail)
        if refusal.reason in ("scheme", "no-host"):
            return _("An http:// or https:// address with a host.")
        if refusal.reason == "unresolvable":
            return _("The host name cannot be resolved.")
        return _(
            "The platform does not send requests to this address: its host is %(kind)s. An "
            "operator may allow it (EGRESS_ALLOWED_NETWORKS or EGRESS_ALLOWED_HOSTS)."
        ) % {"kind": _kinds()[refusal.reason]}
    return None


def _kinds() -> dict[str, str]:
    return {
        "unspecified": _("an unspecified address"),
        "loopback": _("a loopback address"),
        "private": _("a private address"),
        "link-local": _("a link-local address"),
        "multicast": _("a multicast address"),
        "reserved": _("a reserved or documentation address"),
        "ipv4-in-ipv6": _("an IPv4 address written as IPv6"),
    }
