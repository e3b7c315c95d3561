"""A game's outputs: its page (every round, one shown at a time), the game as
an embed (embed/<slug>/index.html) and the single-file copy of its page.

Links in the game's text (a lesson's deep link into an explainer step) are
written relative to the game's page; each output gets them relative to
itself, and a link to a page the site does not have is an error."""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from ...compute.formats import percent
from ...errors import ContentError, Problem
from ...render import seo
from ...render.sharing import embed_code
from ...render.urls import Urls, embed_path, offline_path, page_path
from ...site import Page, RenderContext
from .compute import RoundStates, answer_name
from .drawing import Drawing, attention_drawing, own_drawing, stroke
from .content import Game
from .payload import game_payload, shares
from .text import word_names
from .text import GameText

_HREF = re.compile(r'href="([^"]*)"')
_ROUND_HEIGHT = 1100   # CSS pixels an embedded round needs at a course page's width: a first guess


@dataclass
class RoundView:
    number: int
    total: int
    anchor: str
    title: str
    goal: str
    lesson: str
    target: str
    sentence: list[dict]          # {"text", "blank"}
    groups: list[dict]            # one per head: {"label", "buttons": [{"control", "word", "suffix"}]}
    readouts: list[tuple[str, str, str]]   # (label, value, what the runtime updates: "" for none)
    says: str
    table: dict                   # {"columns", "rows": [[row header, cell, ...]]}: the default spotlight
    reveal: dict                  # {"columns", "rows": [[word, [(text, width)]...]]}: the model's own attention
    own_answer: str
    more: str                     # HTML: the rest of the lesson, behind a disclosure
    drawing: Drawing              # where the blank's attention goes, every arc; the default's shown
    own_drawing: Drawing          # where the trained model's own attention goes, for Reveal
    shown: set                    # (head index, word position or None) of the default state's arcs
    widths: dict                  # the same, -> stroke width
    top: list[tuple[str, str, float]]   # the default state's likeliest answers: (name, percent, bar width)


def render_game(game: Game, computed, text: GameText, context: RenderContext) -> list[Page]:
    rounds = computed.rounds
    _check_links(game, text, context)
    payload = context.cache.page(game, context.site, context.theme, context.assets, kind="payload",
                                 make=lambda: game_payload(game, rounds, text))
    path, embed = page_path(game.slug), embed_path(game.slug)
    urls = context.urls(path)
    views = [_round_view(game, states, texts, len(rounds)) for states, texts in zip(rounds, text.rounds)]
    score = game.labels["score_of"].replace("{score}", "0").replace("{total}", str(game.stars * len(rounds)))
    references = context.references(game)
    common = {"game": game, "payload": payload, "game_labels": game.labels, "score": score,
              "description": seo.description_of(game), "references": references}
    html = context.theme.render(
        "game.html", **context.common(urls), **common, rounds=views, intro=text.intro,
        model_note=text.model_note, updated=context.date(game.updated),
        head=seo.article_head(context.site, game, [], references),
        offline_href=urls.offline(game.slug), related=context.related(game, urls),
        embed=embed_code(urls, embed, game.title, _ROUND_HEIGHT),
    )
    page = Page(path, html, updated=game.updated, offline_copy=offline_path(game.slug), source=game.slug)
    embed_urls = context.urls(embed)
    embed_views = [_round_view(game, states, texts, len(rounds), lambda html: _rebase(html, game, embed_urls))
                   for states, texts in zip(rounds, text.rounds)]
    embed_html = context.theme.render(
        "game_embed.html", **context.common(embed_urls), **common, rounds=embed_views,
        intro=_rebase(text.intro, game, embed_urls), model_note=_rebase(text.model_note, game, embed_urls),
        head=seo.Head(robots="noindex"),  # the full page is the one for search results
        full_href=embed_urls.published(path) or embed_urls.page(game.slug),
    )
    return [page, Page(embed, embed_html, indexed=False, source=game.slug)]


def _round_view(game: Game, states: RoundStates, texts, total: int, links=lambda html: html) -> RoundView:
    labels = game.labels
    names = word_names(states, labels)
    default = states.by_key(states.default_key)
    groups = []
    for h, head in enumerate(states.heads):
        label = labels["spotlight"] if len(states.heads) == 1 else labels["head_spotlight"].replace("{head}", head)
        # A button puts its word in: with one word per head, as its head's value j + 1
        # (0 is no word); otherwise as value 1 (in) of its own control.
        buttons = [{"control": h if states.one_word_per_head else h * len(states.candidates) + j,
                    "value": j + 1 if states.one_word_per_head else 1, "word": states.words[p],
                    "suffix": names[p][len(states.words[p]):]} for j, p in enumerate(states.candidates)]
        groups.append({"label": label, "head": head, "buttons": buttons})
    rows = [labels["blank_word"] if i == states.blank else names[i] for i in range(len(states.words))]
    columns = shares(states, default.choice)
    own = states.own_attention
    answer, confidence, words = default.readouts
    arcs = {(h, p): stroke(len(default.choice[head])) for h, head in enumerate(states.heads)
            for p in (default.choice[head] or [None])}
    return RoundView(
        number=states.number, total=total, anchor=f"round-{states.number}", title=states.round.title,
        goal=links(texts.goal), lesson=links(texts.lesson), target=states.target,
        sentence=[{"text": labels["blank"] if i == states.blank else w, "blank": i == states.blank}
                  for i, w in enumerate(states.words)],
        groups=groups,
        readouts=[(labels["round"], labels["round_of"].replace("{n}", str(states.number)).replace(
                      "{total}", str(total)), ""),
                  (labels["target"], states.target, ""), (labels["answer"], answer, "answer"),
                  (labels["confidence"], confidence, "confidence"), (labels["words"], words, "words")],
        says=texts.says[states.default_key],
        table={"columns": [labels["word"], *states.heads],
               "rows": [[row, *(column[i] for column in columns)] for i, row in enumerate(rows)]},
        reveal={"columns": [labels["word"], *states.own_heads],
                "rows": [[row, *((percent(own[h][i]), round(100 * own[h][i], 1)) for h in range(len(own)))]
                         for i, row in enumerate(rows)]},
        own_answer=texts.own_answer, more=links(texts.more),
        drawing=attention_drawing(states, labels["blank"]), shown=set(arcs), widths=arcs,
        own_drawing=own_drawing(states, labels["blank"]),
        top=[(answer_name(a, game.answer_names), percent(p), round(100 * p, 1)) for a, p in default.values["top"]],
    )


def _check_links(game: Game, text: GameText, context: RenderContext) -> None:
    """Every link of the game's text to a page of the site names a page the site has."""
    pages = {page_path(page.slug) for page in context.site.pages}
    problems = []
    parts = [("intro", text.intro, game.part_lines.get("intro")), ("model", text.model_note,
                                                                   game.part_lines.get("model"))]
    parts += [(f"rounds[{i}].{part}", getattr(t, part), game.line(i, part))
              for i, t in enumerate(text.rounds) for part in ("goal", "lesson")]
    for where, html, line in parts:
        for href in _HREF.findall(html):
            target = _target(game, href)
            if target is not None and target not in pages:
                problems.append(Problem(game.main_path, f"links to {href!r}, which is not a page of the site "
                                        f"(links are relative to {page_path(game.slug)})", line, where))
    if problems:
        raise ContentError(problems)


def _target(game: Game, href: str) -> str | None:
    """The build path a link of the game's text points at, or None for an anchor or another site."""
    if not href or href.startswith(("#", "/")) or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", href):
        return None
    path = href.split("#", 1)[0].split("?", 1)[0]
    return posixpath.normpath(posixpath.join(posixpath.dirname(page_path(game.slug)), path))


def _rebase(html: str, game: Game, urls: Urls) -> str:
    """The links of HTML written for the game's page, relative to the page `urls` belongs to."""
    def move(match) -> str:
        href = match.group(1)
        target = _target(game, href)
        if target is None:
            return match.group(0)
        rest = href[len(href.split("#", 1)[0]):]
        return f'href="{urls.to(target)}{rest}"'
    return _HREF.sub(move, html)
