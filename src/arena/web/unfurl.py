"""The tags that make a shared link unfurl: Open Graph (read by most chat apps and social
sites) and Twitter's card tags (read by X and a few others), for any page that has a picture
to show, such as a match, a season or a recap."""

from __future__ import annotations

from html import escape

from arena.web.card import HEIGHT, WIDTH


def unfurl_head(title: str, description: str, image_url: str, page_url: str) -> str:
    """The ``<meta>`` tags for a page's ``<head>``. Every value is escaped here, so a caller
    hands over plain text (a player's name is a player's choice). ``image_url`` must be
    absolute: a preview service fetches it on its own, with no page around it. The image is
    a card of :data:`arena.web.card.WIDTH` by :data:`arena.web.card.HEIGHT` in PNG."""
    tags = [
        ("property", "og:type", "website"),
        ("property", "og:site_name", "Arena"),
        ("property", "og:title", title),
        ("property", "og:description", description),
        ("property", "og:url", page_url),
        ("property", "og:image", image_url),
        ("property", "og:image:type", "image/png"),
        ("property", "og:image:width", str(WIDTH)),
        ("property", "og:image:height", str(HEIGHT)),
        ("property", "og:image:alt", title),
        ("name", "twitter:card", "summary_large_image"),
        ("name", "twitter:title", title),
        ("name", "twitter:description", description),
        ("name", "twitter:image", image_url),
        ("name", "description", description),
    ]
    return "".join(f'<meta {kind}="{escape(key)}" content="{escape(value)}">'
                   for kind, key, value in tags)
