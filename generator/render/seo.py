"""What a published site tells search engines and link previews: canonical
links, Open Graph and Twitter card tags, JSON-LD, sitemap.xml and robots.txt.

Every one of these needs absolute addresses, so they exist only when site.toml
sets base_url. Without it a build still works anywhere (its links are
relative) but says nothing about where it lives: no canonical link is better
than a wrong one. robots.txt is left out then too, since all it would add is
the sitemap's address.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from markupsafe import Markup

from ..site import Site
from .extensions import plain_text_of
from .payload import script_json
from .urls import ROBOTS, SITEMAP

SITEMAP_IMAGES = "http://www.google.com/schemas/sitemap-image/1.1"
_SCHEMA = "https://schema.org"


@dataclass
class Head:
    """Extra <head> content of one page; empty without base_url."""

    canonical: str = ""
    meta: list[tuple[str, str, str]] = field(default_factory=list)  # (attribute, key, content)
    json_ld: list[str] = field(default_factory=list)               # script-safe JSON documents
    robots: str = ""


def page_url(site: Site, path: str) -> str:
    """Absolute address of a built page, in its directory form ('slug/', not 'slug/index.html'):
    the form people share, and the one every host serves."""
    if path == "index.html":
        path = ""
    elif path.endswith("/index.html"):
        path = path[: -len("index.html")]
    return site.config.base_url + path


def description_of(explainer) -> str:
    return explainer.description or explainer.subtitle


def index_head(site: Site) -> Head:
    config = site.config
    if not config.base_url:
        return Head()
    url = page_url(site, "index.html")
    website = {"@context": _SCHEMA, "@type": "WebSite", "name": config.title, "url": url,
               "inLanguage": config.language}
    if config.description:
        website["description"] = config.description
    return Head(canonical=url, meta=_previews(site, url, config.title, config.description, "website"),
                json_ld=[script_json(website, keep_order=True)])


def article_head(site: Site, explainer, questions: list[tuple[str, str]], references=()) -> Head:
    """questions: (question HTML, answer HTML) pairs, exactly as the page shows them;
    references: the page's reference list (render/citations.py's ReferenceView)."""
    config = site.config
    if not config.base_url:
        return Head()
    url = page_url(site, f"{explainer.slug}/index.html")
    description = description_of(explainer)
    modified = explainer.updated.isoformat()
    article = {
        "@context": _SCHEMA, "@type": "Article", "headline": explainer.title, "url": url,
        "mainEntityOfPage": url, "dateModified": modified, "inLanguage": config.language,
        "isPartOf": {"@type": "WebSite", "name": config.title, "url": config.base_url},
        "publisher": {"@type": "Organization", "name": config.title, "url": config.base_url},
    }
    if description:
        article["description"] = description
    if references:
        article["citation"] = [_citation(ref) for ref in references]
    documents = [article]
    if questions:
        documents.append({
            "@context": _SCHEMA, "@type": "FAQPage", "url": url,
            "mainEntity": [{"@type": "Question", "name": plain_text(question),
                            "acceptedAnswer": {"@type": "Answer", "text": plain_text(answer)}}
                           for question, answer in questions],
        })
    meta = _previews(site, url, explainer.title, description, "article")
    meta.append(("property", "article:modified_time", modified))
    return Head(canonical=url, meta=meta, json_ld=[script_json(d, keep_order=True) for d in documents])


def figures_head(site: Site, path: str, title: str, description: str) -> Head:
    """A page of figures (kinds/explainer/figures.py): indexed, so a search for a
    figure finds the page that cites it."""
    if not site.config.base_url:
        return Head()
    url = page_url(site, path)
    return Head(canonical=url, meta=_previews(site, url, title, description, "website"))


def not_found_head(site: Site) -> Head:
    # Served at every missing address: it must never be indexed under any of them.
    return Head(robots="noindex")


def site_files(site: Site, pages) -> dict[str, bytes]:
    """sitemap.xml and robots.txt for the pages that belong in search results."""
    if not site.config.base_url:
        return {}
    listed = [page for page in pages if page.indexed]
    newest = max((page.updated for page in listed if page.updated), default=None)
    rows = []
    for page in listed:
        lastmod = page.updated or newest
        # The figures a page shows, by Google's image extension of the sitemap protocol.
        images = "".join(f"<image:image><image:loc>{escape(site.config.base_url + image)}</image:loc></image:image>"
                         for image in page.images)
        rows.append(f"  <url><loc>{escape(page_url(site, page.path))}</loc>"
                    + (f"<lastmod>{lastmod.isoformat()}</lastmod>" if lastmod else "") + images + "</url>")
    namespaces = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    if any(page.images for page in listed):
        namespaces += f' xmlns:image="{SITEMAP_IMAGES}"'
    sitemap = ('<?xml version="1.0" encoding="UTF-8"?>\n'
               f'<urlset {namespaces}>\n'
               + "\n".join(rows) + "\n</urlset>\n")
    # Crawlers read robots.txt only at a domain's root; under a subpath it is
    # harmless, and the sitemap can be submitted to search consoles directly.
    robots = f"User-agent: *\nDisallow:\n\nSitemap: {site.config.base_url}{SITEMAP}\n"
    return {SITEMAP: sitemap.encode("utf-8"), ROBOTS: robots.encode("utf-8")}


def plain_text(html: str) -> str:
    """Visible text of an HTML fragment, entities decoded and whitespace collapsed; math in
    its plain form, citations as they read (without their cards)."""
    return Markup(plain_text_of(html)).striptags()


def _previews(site: Site, url: str, title: str, description: str, kind: str) -> list[tuple[str, str, str]]:
    """Open Graph and Twitter card tags: the title, text and address a shared link shows."""
    meta = [("property", "og:type", kind), ("property", "og:site_name", site.config.title),
            ("property", "og:url", url), ("property", "og:title", title)]
    if description:
        meta.append(("property", "og:description", description))
    meta += [("name", "twitter:card", "summary"), ("name", "twitter:title", title)]
    if description:
        meta.append(("name", "twitter:description", description))
    return meta


def _citation(ref) -> dict:
    work = {"@type": "CreativeWork", "name": ref.title, "author": ref.names, "datePublished": ref.year}
    if ref.url:
        work["url"] = ref.url
    return work

