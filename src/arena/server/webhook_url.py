"""Where a webhook may be (G-14): the allowlist of schemes, hosts and ports, and the check
every webhook URL passes before it is stored.

A URL is accepted only on a scheme, host and port of the allowlist: Discord's webhook hosts
over https on 443 unless ``ARENA_WEBHOOK_HOSTS`` names others (``host``, ``host:port`` or
``scheme://host:port``; plain http only to a loopback host, for tests), with no user part and a
``/api/webhooks/`` path. So a host cannot make the server call anything else: its own
database, a cloud's metadata address, or another port of an allowed host (Arena's own, ssh).
Kept apart from :mod:`arena.server.announce`, which sends, so each stays one concern.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from urllib.parse import urlsplit

import httpx

from arena.core.errors import RuleError

RULE = "G-14"
MAX_URL = 512
"""The longest webhook URL accepted (Discord's are about 120 characters)."""

HOSTS_ENV = "ARENA_WEBHOOK_HOSTS"
DISCORD_HOSTS = ("discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com")
LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})
DEFAULT_PORTS = {"https": 443, "http": 80}
"""The port a URL or an allowlist entry without one means, by scheme."""
PATH = "/api/webhooks/"


# --------------------------------------------------------------------------- the allowlist
@dataclass(frozen=True)
class Allowed:
    """One entry of the allowlist: a host, the schemes a webhook on it may use, and its port
    (None: the scheme's own, 443 for https and 80 for http); ``shown`` is the entry as
    written, for messages."""

    host: str
    schemes: tuple[str, ...]
    port: int | None = None
    shown: str = ""

    def admits(self, scheme: str, port: int) -> bool:
        return scheme in self.schemes and port == self.port_for(scheme)

    def port_for(self, scheme: str) -> int:
        return self.port if self.port is not None else DEFAULT_PORTS[scheme]


def parse_entry(raw: str) -> Allowed:
    """An entry of ``ARENA_WEBHOOK_HOSTS``: ``host``, ``host:port``, ``scheme://host`` or
    ``scheme://host:port`` (an IPv6 address in brackets, or bare without a port). Without a
    scheme an entry means https, and http too for a loopback host (a test's receiver)."""
    text = raw.strip().lower()
    scheme = None
    if "://" in text:
        scheme, text = text.split("://", 1)
        if scheme not in DEFAULT_PORTS:
            raise ValueError(f"{raw!r}: the scheme is http or https")
    if text.count(":") > 1 and not text.startswith("["):
        host, port = text, None  # a bare IPv6 address: its colons are not a port
    else:
        parts = urlsplit("//" + text)
        host, port = parts.hostname or "", parts.port  # port: ValueError when malformed
        if parts.path not in ("", "/") or parts.query or parts.fragment or "@" in text:
            raise ValueError(f"{raw!r}: an entry is a host, with a port and a scheme if need be")
    if not host or port == 0:
        raise ValueError(f"{raw!r}: an entry names a host (and a port from 1 to 65535)")
    if scheme == "http" and host not in LOOPBACK:
        raise ValueError(f"{raw!r}: plain http only to a loopback host")
    schemes = (scheme,) if scheme else ("https", "http") if host in LOOPBACK else ("https",)
    return Allowed(host, schemes, port, raw.strip().lower())


def allowlist() -> tuple[Allowed, ...]:
    """Where a webhook may be: the entries of ``ARENA_WEBHOOK_HOSTS`` (comma-separated), else
    Discord's webhook hosts over https on 443. An entry that cannot be read is refused, with
    the variable named, at the first webhook checked (never silently widened or dropped)."""
    raw = [e for e in os.environ.get(HOSTS_ENV, "").split(",") if e.strip()]
    if not raw:
        return tuple(Allowed(h, ("https",), None, h) for h in DISCORD_HOSTS)
    try:
        return tuple(parse_entry(e) for e in raw)
    except ValueError as exc:
        raise RuleError(RULE, f"the server's {HOSTS_ENV} cannot be read ({exc}); "
                              "no webhook is taken until it is fixed") from None


def check_url(url: object) -> str:
    """The webhook URL if the server may call it, else a :class:`RuleError` naming the rule
    it breaks (G-14). Read before anything is stored."""
    entries = allowlist()
    if not isinstance(url, str) or not url.strip():
        raise RuleError(RULE, "the webhook must be a URL (text), or null for none")
    url = url.strip()
    if len(url) > MAX_URL:
        raise RuleError(RULE, f"the webhook URL is longer than {MAX_URL} characters")
    if any(c.isspace() or ord(c) < 32 or c == "\\" for c in url):
        raise RuleError(RULE, "the webhook URL may not hold spaces, control characters or '\\'")
    try:
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        raise RuleError(RULE, "the webhook URL cannot be read") from None
    if parts.username is not None or parts.password is not None:
        raise RuleError(RULE, "the webhook URL may not hold a user name or password")
    mine = [e for e in entries if e.host == host]
    if not mine:
        listed = ", ".join(e.shown for e in entries)
        raise RuleError(RULE, f"webhooks may only go to {listed} ({HOSTS_ENV}), "
                              f"not {host or 'an empty host'!r}")
    scheme = parts.scheme
    if scheme not in DEFAULT_PORTS or (scheme == "http" and host not in LOOPBACK) \
            or not any(scheme in e.schemes for e in mine):
        schemes = sorted({s for e in mine for s in e.schemes if s == "https" or
                          host in LOOPBACK})
        raise RuleError(RULE, f"a webhook URL on {host} must start with "
                              f"{' or '.join(s + '://' for s in schemes) or 'https://'}")
    effective = DEFAULT_PORTS[scheme] if port is None else port
    if not any(e.admits(scheme, effective) for e in mine):
        ports = sorted({e.port_for(scheme) for e in mine if scheme in e.schemes})
        raise RuleError(RULE, f"a webhook URL on {scheme}://{host} may only use port "
                              f"{' or '.join(map(str, ports))} ({HOSTS_ENV}), not {effective}")
    if not parts.path.startswith(PATH) or len(parts.path) <= len(PATH) or "/../" in parts.path \
            or parts.fragment:
        raise RuleError(RULE, f"a webhook URL's path starts with {PATH} (a Discord channel's "
                              "webhook: Edit Channel > Integrations > Webhooks)")
    # The client must call exactly what was checked: read the URL as the sender will, and
    # refuse any reading that differs (a parser gap would otherwise widen the allowlist).
    try:
        sent = httpx.URL(url)
    except (httpx.InvalidURL, ValueError):
        raise RuleError(RULE, "the webhook URL cannot be read") from None
    if (sent.scheme, sent.raw_host.decode("ascii", "replace"),
            sent.port or DEFAULT_PORTS.get(sent.scheme)) != (scheme, host, effective):
        raise RuleError(RULE, "the webhook URL cannot be read")
    return url
