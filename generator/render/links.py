"""Links from an author's prose to another page of the site.

In Markdown an author writes `[the BERT page](page:bert-masked-language-modeling)`,
or `page:<slug>#step-3` for one of its steps. The prose of a state is rendered
once and shared by a page and its embeds, which sit at different depths of the
build, so the link names the page rather than a path; each output file then
resolves it to a path relative to itself, in its markup and in its page data
alike. An embed's links open in a new tab, as its other links do, rather than
inside the host's frame. (The single-file copy makes them absolute, or drops
them, as it does every link to the site: outputs/offline.py.)"""
from __future__ import annotations

import re

from ..errors import ContentError, did_you_mean
from .urls import EMBED_DIR, Urls

# href="page:slug#fragment" in markup, href=\"page:slug\" in a page's JSON data.
_PAGE_LINK = re.compile(r'href=(\\?)"page:([^"\\#]*)(#[^"\\]*)?\\?"')


def resolve_page_links(html: str, at: str, slugs: set[str], source_dir=None) -> str:
    """The output at build path `at` with its page: links made relative to it.
    Raises ContentError, naming the content folder, for a link to no page of the site."""
    if "page:" not in html:
        return html
    urls = Urls(at)
    in_embed = at.startswith(f"{EMBED_DIR}/")

    def link(match: re.Match) -> str:
        quote = match.group(1) + '"'
        slug, fragment = match.group(2), match.group(3) or ""
        if slug not in slugs:  # (loading checks the links an author wrote, at their lines: this is a printed one)
            raise ContentError.one(source_dir or at, f"a prose link to 'page:{slug}' names no page of the site"
                                                     f"{did_you_mean(slug, slugs)} (its pages: "
                                                     f"{', '.join(sorted(slugs))})")
        href = f"href={quote}{urls.page(slug)}{fragment}{quote}"
        return f"target={quote}_blank{quote} rel={quote}noopener{quote} {href}" if in_embed else href

    return _PAGE_LINK.sub(link, html)
