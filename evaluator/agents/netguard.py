"""SSRF guard for calls to submitted endpoints.

The URL comes from a submitter, the call from our worker, so the worker must never be made to
reach its own network: loopback, private, link-local (cloud metadata at 169.254.169.254 and
fd00:ec2::254), carrier-grade NAT, multicast, reserved or unspecified addresses are refused —
also when they hide inside IPv6 (IPv4-mapped, 6to4, Teredo). The host name is resolved here
once; every address it resolves to must pass, and the connection goes to the checked address
(the TLS handshake still names the host), so a DNS answer that changes between the check and the
connect (rebinding) cannot slip through. Redirects are not followed (the client refuses them).

``allow_loopback`` admits 127.0.0.0/8 and ::1 — for local development and the tests' own
servers only.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import Callable
from urllib.parse import urlsplit

MAX_URL_CHARS = 500
METADATA = (ipaddress.ip_network("169.254.169.254/32"), ipaddress.ip_network("fd00:ec2::254/128"))

Resolver = Callable[[str, int], list[str]]


class AddressRefused(ValueError):
    """The URL or the address it resolves to is not allowed; the message says why."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # as written (the Host header and the TLS server name)
    port: int
    path: str  # path and query
    addresses: tuple[str, ...]  # every resolved address, all checked


def system_resolver(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(info[4][0] for info in infos))


def _embedded(ip: ipaddress.IPv4Address | ipaddress.IPv6Address):
    """IPv4 addresses carried inside an IPv6 one (mapped, 6to4, Teredo)."""
    if ip.version != 6:
        return []
    out = []
    if ip.ipv4_mapped:
        out.append(ip.ipv4_mapped)
    if ip.sixtofour:
        out.append(ip.sixtofour)
    if ip.teredo:
        out += list(ip.teredo)
    return out


def why_refused(address: str, allow_loopback: bool = False) -> str | None:
    """None when ``address`` may be called, else why not ("is a private address")."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # drop an IPv6 zone id
    for inner in _embedded(ip):
        reason = why_refused(str(inner), allow_loopback)
        if reason:
            return f"{reason} (inside {ip})"
    if ip.is_loopback:
        return None if allow_loopback else "is a loopback address"
    if any(ip in net for net in METADATA):
        return "is a cloud metadata address"
    if ip.is_link_local:
        return "is a link-local address"
    if ip.is_unspecified:
        return "is the unspecified address"
    if ip.is_multicast:
        return "is a multicast address"
    if ip.is_private:
        return "is a private address"
    if ip.is_reserved or not ip.is_global:
        return "is not a public address"
    return None


def parse_url(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an endpoint URL, or :class:`AddressRefused`."""
    if not isinstance(url, str) or not url:
        raise AddressRefused("the endpoint URL is empty")
    if len(url) > MAX_URL_CHARS:
        raise AddressRefused(f"the endpoint URL has {len(url)} characters; the limit is {MAX_URL_CHARS}")
    if any(c.isspace() or ord(c) < 32 for c in url):
        raise AddressRefused("the endpoint URL contains whitespace or control characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise AddressRefused("the endpoint URL must start with http:// or https://")
    if parts.username is not None or parts.password is not None:
        raise AddressRefused("the endpoint URL must not carry credentials (user:password@); "
                             "give the API key in its own field")
    if parts.fragment:
        raise AddressRefused("the endpoint URL must not have a #fragment")
    host = parts.hostname
    if not host:
        raise AddressRefused("the endpoint URL has no host")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise AddressRefused("the endpoint URL has an invalid port") from None
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, host, port, path


def check_url(url: str, allow_loopback: bool = False, resolve: Resolver = system_resolver) -> Target:
    """Resolve the URL's host and check every address; the :class:`Target` to connect to."""
    scheme, host, port, path = parse_url(url)
    try:
        addresses = resolve(host, port)
    except (OSError, UnicodeError) as e:
        raise AddressRefused(f"cannot resolve {host!r}: {getattr(e, 'strerror', None) or e}") from None
    if not addresses:
        raise AddressRefused(f"{host!r} resolves to no address")
    for a in addresses:
        reason = why_refused(a, allow_loopback)
        if reason:
            if host.strip("[]") == a:
                raise AddressRefused(f"refused: {a} {reason}")
            raise AddressRefused(f"refused: {host!r} resolves to {a}, which {reason}")
    return Target(scheme, host, port, path, tuple(addresses))
