"""How a reader takes an explainer elsewhere: where the embeds and the
single-file copies live in build/, and the iframe code a step's Embed button
offers to course authors."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape

from ..load.content import Explainer, Site, Step

EMBED_DIR = "embed"
OFFLINE_DIR = "offline"

# The iframe attributes LMS editors keep: Canvas's sanitiser drops the rest
# (style, loading, sandbox, data-*), so the code offers nothing that would vanish.
IFRAME_ATTRIBUTES = ("src", "title", "width", "height", "frameborder", "allowfullscreen")

# Room an embedded step needs besides its chart, in CSS pixels at a typical course-page
# width (about 800px): the link back, the step heading, the readouts and the prose.
# The embed reports its real height once it has loaded; this only sets the first guess.
_STEP_CHROME = 720
_CONTROL_ROW = 60
_HEADER = 400  # the whole explainer's title, subtitle and introduction


def embed_path(slug: str, step_number: int | None = None) -> str:
    """The whole explainer at embed/<slug>/index.html, one step at embed/<slug>/step-<n>.html."""
    name = "index.html" if step_number is None else f"step-{step_number}.html"
    return f"{EMBED_DIR}/{slug}/{name}"


def offline_path(slug: str) -> str:
    return f"{OFFLINE_DIR}/{slug}.html"


@dataclass(frozen=True)
class EmbedCode:
    src: str      # absolute when the site has a base_url, else relative to the page offering it
    href: str     # always relative, for a link that opens the embed from disk too
    title: str
    height: int
    html: str     # the <iframe> element, attributes escaped, ready to paste

    @property
    def absolute(self) -> bool:
        return self.src.startswith(("https://", "http://"))


def embed_code(site: Site, explainer: Explainer, step: Step | None, root: str) -> EmbedCode:
    """The iframe code for one step, or for the whole explainer when step is None,
    offered on a page `root` levels below the build root."""
    path = embed_path(explainer.slug, step.number if step else None)
    src = f"{site.config.base_url}{path}" if site.config.base_url else f"{root}{path}"
    if step:
        title, height = f"{explainer.title}: {step.title}", _step_height(step)
    else:
        title, height = explainer.title, _HEADER + sum(_step_height(s) for s in explainer.steps)
    return EmbedCode(src, f"{root}{path}", title, height, iframe_html(src, title, height))


def _step_height(step: Step) -> int:
    return step.chart.height + _STEP_CHROME + _CONTROL_ROW * len(step.controls)


def iframe_html(src: str, title: str, height: int) -> str:
    attributes = {"src": src, "title": title, "width": "100%", "height": str(height), "frameborder": "0"}
    text = " ".join(f'{name}="{escape(value, quote=True)}"' for name, value in attributes.items())
    return f"<iframe {text}></iframe>"
