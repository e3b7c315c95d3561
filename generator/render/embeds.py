"""Render the embeds: each explainer whole (embed/<slug>/index.html) and each
step alone (embed/<slug>/step-<n>.html), for iframes in course pages.

An embed has no site navigation, only a small link to the full explainer,
and runs with no script on the host page, because LMS editors such as Canvas
and Moodle strip scripts but keep iframes. A step embed carries only its own
step's data, so it stays small."""
from __future__ import annotations

from ..cache.build import BuildCache
from ..load.content import Explainer, Site
from .seo import Head, description_of
from .pages import Page, explainer_href, page_charts, step_view
from .payload import explainer_payload, step_payload
from .prose import MarkdownRenderer, StepProse
from .sharing import embed_path
from ..compute.states import StepStates
from .theme import Theme

ROOT = "../../"  # embed/<slug>/ is two levels below the build root


def render_embeds(site: Site, computed: dict[str, list[StepStates]], prose: dict[str, list[StepProse]],
                  theme: Theme, assets: dict[str, str], cache: BuildCache | None = None) -> list[Page]:
    """Every embed; with a cache, an unchanged explainer's embeds are reused, and the
    whole-explainer embed reuses the data its page already carries."""
    cache = cache or BuildCache()
    to_html = MarkdownRenderer()
    pages = []
    for explainer in site.explainers:
        pages += cache.page(explainer, site, theme, assets, kind="embeds", make=lambda explainer=explainer: (
            _explainer_embeds(site, explainer, computed[explainer.slug], prose[explainer.slug], theme, assets,
                              to_html, cache)))
    return pages


def _explainer_embeds(site: Site, explainer: Explainer, step_states: list[StepStates], step_prose: list[StepProse],
                      theme: Theme, assets: dict[str, str], to_html: MarkdownRenderer,
                      cache: BuildCache) -> list[Page]:
    steps = list(zip(step_states, step_prose))
    # Figures and tables are made once per step and shared with the explainer page.
    tables = [states.tables(site.config.labels) for states, _ in steps]
    views = [step_view(states, texts, len(steps), table[states.default_key])
             for (states, texts), table in zip(steps, tables)]
    charts = page_charts(site, explainer, step_states, cache)
    payload = cache.page(explainer, site, theme, assets, kind="payload",
                         make=lambda: explainer_payload(charts, step_states, step_prose))
    html = theme.render(
        "embed.html", **_context(site, explainer, assets, None), steps=views, payload=payload,
        intro=to_html(explainer.intro), key_ideas=to_html(explainer.key_ideas),
    )
    pages = [Page(embed_path(explainer.slug), html, indexed=False)]
    for index, ((states, texts), view) in enumerate(zip(steps, views)):
        html = theme.render(
            "embed.html", **_context(site, explainer, assets, view.number), steps=[view],
            payload=step_payload(charts, index, states, texts), intro="", key_ideas="", show_pager=False,
            show_deeper=False, step_index=0,
        )
        pages.append(Page(embed_path(explainer.slug, view.number), html, indexed=False))
    return pages


def _context(site: Site, explainer: Explainer, assets: dict[str, str], step_number: int | None) -> dict:
    full = f"{site.config.base_url}{explainer.slug}/index.html" if site.config.base_url \
        else explainer_href(explainer.slug, ROOT)
    if step_number is not None:
        full += f"#step-{step_number}"
    return {
        "site": site.config, "labels": site.config.labels, "root": ROOT, "home": f"{ROOT}index.html",
        "explainer": explainer, "description": description_of(explainer), "embed_step": step_number,
        "full_href": full, "asset": lambda name: f"{ROOT}assets/{assets[name]}",
        # The full explainer is the page for search results, not its embeds.
        "head": Head(robots="noindex"),
    }
