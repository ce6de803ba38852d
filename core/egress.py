"""Where the requests the server makes for admins may go: the egress policy (docs/security.md).

Admins name addresses the server then talks to: a campaign's predict server, an HTTP baseline
run's model, a release's `score_with` http entries. An admin account must not become a way
into the services beside the platform (Redis, PostgreSQL, a cloud's metadata address), so
every such request goes through this module:

- the URL is parsed once, by httpx (the parser that then sends the request): http or https,
  with a host;
- the host is resolved (`socket.getaddrinfo`, which also reads every numeric spelling of an
  IPv4 address: `0x7f000001`, `2130706433`, `017700000001`, `127.1`), and every address it
  resolves to is judged with the `ipaddress` module, never by the URL's text: loopback,
  private (RFC 1918, shared 100.64/10, unique-local fc00::/7), link-local, multicast,
  unspecified, reserved or documentation ranges, and IPv4 written inside IPv6 are refused;
- unless the operator allowed the address's network (`EGRESS_ALLOWED_NETWORKS`) or the host
  name (`EGRESS_ALLOWED_HOSTS`): a model server inside the cluster is legitimate;
- the connection goes to the address that was judged (`PinnedTransport`: no second lookup
  that a short-lived DNS answer could turn elsewhere), with the original Host header and,
  for https, the original name as SNI and for the certificate check;
- no redirect is followed, and no proxy from the environment is used.

The check runs when an admin enters the address (`core.outbound.url_problem`, a message for
the form) and again for each request (`client`), since DNS answers change. This module needs
no framework; `core.outbound` is its Django side (the settings, the translated messages).
"""

from __future__ import annotations

import ipaddress
import logging
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import httpx

logger = logging.getLogger(__name__)

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
SCHEMES = frozenset({"http", "https"})

# Why an address is refused, in English (logs, a run's error) by reason code.
REASONS = {
    "unspecified": "an unspecified address",
    "loopback": "a loopback address",
    "private": "a private address",
    "link-local": "a link-local address",
    "multicast": "a multicast address",
    "reserved": "a reserved or documentation address",
    "ipv4-in-ipv6": "an IPv4 address written as IPv6",
}

# Refused IPv4 ranges (IANA special-purpose registry), most specific reason first.
_V4 = [
    ("0.0.0.0/8", "unspecified"),
    ("127.0.0.0/8", "loopback"),
    ("10.0.0.0/8", "private"),
    ("172.16.0.0/12", "private"),
    ("192.168.0.0/16", "private"),
    ("100.64.0.0/10", "private"),  # shared address space (carrier-grade NAT)
    ("169.254.0.0/16", "link-local"),  # also the clouds' metadata address
    ("224.0.0.0/4", "multicast"),
    ("192.0.0.0/24", "reserved"),
    ("192.0.2.0/24", "reserved"),
    ("192.88.99.0/24", "reserved"),
    ("198.18.0.0/15", "reserved"),
    ("198.51.100.0/24", "reserved"),
    ("203.0.113.0/24", "reserved"),
    ("240.0.0.0/4", "reserved"),  # with the broadcast address 255.255.255.255
]
_V6 = [
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("::ffff:0:0/96", "ipv4-in-ipv6"),  # IPv4-mapped
    ("::/96", "ipv4-in-ipv6"),  # IPv4-compatible (deprecated)
    ("::ffff:0:0:0/96", "ipv4-in-ipv6"),  # IPv4-translated
    ("fe80::/10", "link-local"),
    ("fc00::/7", "private"),  # unique local
    ("fec0::/10", "private"),  # site-local (deprecated)
    ("ff00::/8", "multicast"),
    ("100::/64", "reserved"),  # discard
    ("2001::/32", "reserved"),  # Teredo: an IPv4 tunnel
    ("2001:db8::/32", "reserved"),  # documentation
    ("2001:10::/28", "reserved"),
    ("2001:20::/28", "reserved"),
]
_RANGES = [(ipaddress.ip_network(net), reason) for net, reason in _V4 + _V6]
# IPv6 prefixes that carry an IPv4 address: judged by the IPv4 address they carry.
_NAT64 = ipaddress.ip_network("64:ff9b::/96")
_GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")


class EgressRefused(Exception):
    """The policy refuses a URL: `reason` is a code of REASONS, or scheme, no-host,
    unresolvable. str(e) says why in English, without the address it resolved to."""

    def __init__(self, url: str, reason: str, detail: str = "") -> None:
        self.url, self.reason, self.detail = url, reason, detail
        super().__init__(f"refused by the egress policy: {describe(reason)}")


def describe(reason: str) -> str:
    """Return the English account of a refusal reason."""
    if reason in REASONS:
        return f"the host is {REASONS[reason]}"
    return {
        "scheme": "only http and https addresses are allowed",
        "no-host": "the address has no host",
        "unresolvable": "the host name cannot be resolved",
    }.get(reason, reason)


def address_refusal(address: IPAddress) -> str | None:
    """Return why the address is refused (a code of REASONS), or None for a public one."""
    if address.version == 6 and address.scope_id:
        address = ipaddress.IPv6Address(str(address).split("%", 1)[0])
    if address.version == 6:
        if address in _NAT64:
            return address_refusal(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if address.sixtofour is not None:
            return address_refusal(address.sixtofour)
    for network, reason in _RANGES:
        if address.version == network.version and address in network:
            return reason
    if address.version == 6 and address not in _GLOBAL_UNICAST:
        return "reserved"
    if not address.is_global:  # anything the ranges above missed
        return "reserved"
    return None


@dataclass(frozen=True)
class Policy:
    """What the operator allowed beside public addresses: networks and host names (a name
    starting with a dot allows every name under it)."""

    networks: tuple[IPNetwork, ...] = ()
    hosts: tuple[str, ...] = ()

    def allows_host(self, host: str) -> bool:
        name = normal_host(host)
        return any(name == h or (h.startswith(".") and name.endswith(h)) for h in self.hosts)

    def allows_address(self, address: IPAddress) -> bool:
        return any(address.version == n.version and address in n for n in self.networks)


def parse_networks(values: Iterable[str]) -> tuple[IPNetwork, ...]:
    """Return the networks ("10.0.0.0/8", "::1", "127.0.0.1/32"); ValueError for a bad one."""
    return tuple(ipaddress.ip_network(value.strip(), strict=False) for value in values)


def normal_host(host: str) -> str:
    """Return the host name lower-cased, without a trailing dot or IPv6 brackets."""
    return host.strip().strip("[]").rstrip(".").lower()


# Where the policy in force comes from. Django's start (core.apps, `core.outbound`) points it
# at the settings (EGRESS_ALLOWED_NETWORKS, _HOSTS), read again at each check so a changed
# setting takes effect; alone (a script, a unit test) nothing beside public addresses is allowed.
_policy_source: Callable[[], Policy] = Policy


def use_policy_source(source: Callable[[], Policy]) -> None:
    """Make `source()` the policy in force wherever none is passed."""
    global _policy_source
    _policy_source = source


def current_policy() -> Policy:
    return _policy_source()


Resolver = Callable[[str, int], list[str]]


def resolve(host: str, port: int) -> list[str]:
    """Return the addresses the host resolves to, in the system's order (no duplicates)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in infos))


@dataclass(frozen=True)
class Target:
    """A URL the policy allowed: its host and the addresses it was judged by."""

    url: httpx.URL
    host: str
    addresses: tuple[str, ...] = field(default=())


def parse(url: str | httpx.URL) -> httpx.URL:
    """Return the URL parsed by httpx, or raise EgressRefused (scheme, no-host)."""
    try:
        parsed = url if isinstance(url, httpx.URL) else httpx.URL(url)
    except (httpx.InvalidURL, TypeError, UnicodeError):
        raise EgressRefused(str(url), "no-host") from None
    if parsed.scheme not in SCHEMES:
        raise EgressRefused(str(url), "scheme")
    if not parsed.host:
        raise EgressRefused(str(url), "no-host")
    return parsed


def check(
    url: str | httpx.URL, *, policy: Policy | None = None, resolver: Resolver = resolve
) -> Target:
    """Return the URL's target if the policy allows every address its host resolves to;
    raise EgressRefused otherwise."""
    policy = current_policy() if policy is None else policy
    parsed = parse(url)
    host = normal_host(parsed.host)
    try:
        addresses = resolver(host, parsed.port or (443 if parsed.scheme == "https" else 80))
    except (OSError, UnicodeError) as error:
        raise EgressRefused(str(url), "unresolvable", str(error)) from None
    if not addresses:
        raise EgressRefused(str(url), "unresolvable")
    if not policy.allows_host(host):
        for text in addresses:
            address = ipaddress.ip_address(text)
            reason = address_refusal(address)
            if reason and not policy.allows_address(address):
                raise EgressRefused(str(url), reason, text)
    return Target(url=parsed, host=host, addresses=tuple(addresses))


class PinnedTransport(httpx.BaseTransport):
    """An httpx transport that checks each request's URL with the policy and connects to the
    address it judged, keeping the Host header and (https) the SNI and certificate name.

    A host is resolved once per transport (one client per run or per question): its
    requests all go to the address that was checked.
    """

    def __init__(
        self,
        *,
        policy: Policy | None = None,
        resolver: Resolver = resolve,
        inner: httpx.BaseTransport | None = None,
    ) -> None:
        self.policy = current_policy() if policy is None else policy
        self.resolver = resolver
        self.inner = inner if inner is not None else httpx.HTTPTransport(trust_env=False)
        self._targets: dict[tuple[str, str, int | None], Target] = {}

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        key = (url.scheme, url.host, url.port)
        target = self._targets.get(key)
        if target is None:
            target = self._targets[key] = check(url, policy=self.policy, resolver=self.resolver)
        address = target.addresses[0].split("%", 1)[0]
        extensions = dict(request.extensions)
        if url.scheme == "https" and not _is_address(target.host):
            extensions["sni_hostname"] = target.host  # also the name the certificate must hold
        pinned = httpx.Request(
            request.method,
            url.copy_with(host=address),
            headers=request.headers,  # with the original Host
            stream=request.stream,
            extensions=extensions,
        )
        return self.inner.handle_request(pinned)

    def close(self) -> None:
        self.inner.close()


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def client(*, timeout: float, policy: Policy | None = None, resolver: Resolver = resolve):
    """Return an httpx client whose every request goes through the policy (no redirects,
    no proxy from the environment)."""
    return httpx.Client(
        transport=PinnedTransport(policy=policy, resolver=resolver),
        timeout=timeout,
        follow_redirects=False,
        trust_env=False,
    )
