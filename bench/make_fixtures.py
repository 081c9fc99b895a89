"""Generate the benchmark pages in ``fixtures/bench/``, deterministically.

Every page comes from its own ``random.Random`` seeded with a fixed string, so
running the generator again reproduces the checked-in files byte for byte
(``tests/architecture/test_bench_smoke.py`` checks that). Only operations whose output is
stable across Python versions are used: ``randrange``, ``choice``,
``shuffle`` and ``randbytes``; no set iteration, no clocks, no hashing of
``str``.

The pages imitate what a crawler meets: a personal blog home page with mf2
h-entries, a long h-feed, an h-card profile, an mf1 WordPress theme, an event
listing, a product page with reviews, a page over 1 MB of inline SVG and
``data:`` URIs, a news page without any microformats, and an old CMS page in
windows-1252 with misnested markup.

Usage::

    python -m bench.make_fixtures            # (re)write fixtures/bench/
    python -m bench.make_fixtures --out DIR  # write elsewhere (the test does this)
"""

from __future__ import annotations

import argparse
import base64
import random
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO / "fixtures" / "bench"
SEED = "stream-mf2-bench-v1"

# Vocabulary. Non-ASCII on purpose: accented Latin, German, Polish, Greek,
# Cyrillic, Japanese, and typographic punctuation all end up in the pages.
_WORDS_TEXT = (
    "stream parser token element attribute feed entry card event review product browser markup "
    "crawler archive index sitemap mention reply like repost bookmark photo audio video note article "
    "garden kitchen bicycle mountain river coffee library morning evening winter summer journey "
    "café naïve résumé über straße Zürich Kraków Ωmega λόγος данные Москва 東京 日本語 コーヒー "
    "the of and to in is for on with as by at from that this it an be are was were"
)
WORDS = tuple(_WORDS_TEXT.split())
_LATIN1_TEXT = (
    "café naïve résumé façade déjà vu Zürich Göteborg señor jalapeño crème brûlée piñata "
    "garçon smörgåsbord Ærø Øresund Ångström"
)
LATIN1_WORDS = tuple(_LATIN1_TEXT.split())
FIRST_NAMES = ("Jane", "Ana", "Björn", "Chloé", "Dmitri", "Eilidh", "Françoise", "Gülsen", "Hiro", "Ines",
               "José", "Kasia", "Lars", "Maëlle", "Nnamdi", "Oskar", "Pilar", "Rūta", "Søren", "Zoë")
LAST_NAMES = ("Doe", "García", "Müller", "Nowak", "O'Brien", "Papadopoulos", "Rossi", "Smirnov", "Tanaka",
              "Ullmann", "van der Berg", "Wójcik", "Øvergaard", "Ó Súilleabháin")
CITIES = (("Zürich", "ZH", "8001", "Switzerland", 47.3769, 8.5417),
          ("Kraków", "Lesser Poland", "31-001", "Poland", 50.0647, 19.945),
          ("Montréal", "QC", "H2X 1Y4", "Canada", 45.5017, -73.5673),
          ("Portland", "OR", "97205", "USA", 45.5152, -122.6784),
          ("São Paulo", "SP", "01310-000", "Brazil", -23.5505, -46.6333),
          ("Tōkyō", "Tokyo", "100-0001", "Japan", 35.6762, 139.6503))
TAGS = ("indieweb", "microformats", "python", "streaming", "html", "cycling", "photography", "travel",
        "food", "music", "reading", "open-source", "privacy", "webmention", "café-culture")
CODE_SNIPPETS = (
    'for item in stream_mf2.iter_items(response.iter_bytes()):\n    print(item["type"], item["properties"].get("name"))',
    "def feed(self, chunk: bytes) -> None:\n    if self._closed:\n        raise ParserStateError(\"closed\")\n    self._decoder.feed(chunk)",
    "curl -s https://example.com/ | stream-mf2 --url https://example.com/ > items.jsonl",
    "<article class=\"h-entry\">\n  <h1 class=\"p-name\">Hello</h1>\n</article>",
)
SVG_ICONS = (
    '<path d="M12 2C6.48 2 2 6.48 2 12s4.48 10 10 10 10-4.48 10-10S17.52 2 12 2zm0 18c-4.41 0-8-3.59-8-8s3.59-8 8-8 8 3.59 8 8-3.59 8-8 8z"/>',
    '<path d="M3 13h8V3H3v10zm0 8h8v-6H3v6zm10 0h8V11h-8v10zm0-18v6h8V3h-8z"/>',
    '<path d="M10 20v-6h4v6h5v-8h3L12 3 2 12h3v8z"/>',
    '<circle cx="12" cy="12" r="3.2"/><path d="M9 2 7.17 4H4c-1.1 0-2 .9-2 2v12c0 1.1.9 2 2 2h16c1.1 0 2-.9 2-2V6c0-1.1-.9-2-2-2h-3.17L15 2H9z"/>',
    '<path d="M12 21.35l-1.45-1.32C5.4 15.36 2 12.28 2 8.5 2 5.42 4.42 3 7.5 3c1.74 0 3.41.81 4.5 2.09C13.09 3.81 14.76 3 16.5 3 19.58 3 22 5.42 22 8.5c0 3.78-3.4 6.86-8.55 11.54L12 21.35z"/>',
)


def esc(text: str) -> str:
    """Escape text for element content and double-quoted attribute values."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _encodable(text: str, charset: str) -> bool:
    try:
        text.encode(charset)
    except UnicodeEncodeError:
        return False
    return True


class Writer:
    """Random text helpers bound to one page's seeded generator."""

    def __init__(self, name: str, charset: str = "utf-8") -> None:
        self.rng = random.Random(f"{SEED}:{name}")
        # Only words the page's encoding can represent.
        self.vocab = [word for word in WORDS if _encodable(word, charset)]
        self.charset = charset

    def words(self, lo: int, hi: int, vocab: Sequence[str] | None = None) -> str:
        n = self.rng.randrange(lo, hi + 1)
        choices = self.vocab if vocab is None else vocab
        return " ".join(self.rng.choice(choices) for _ in range(n))

    def sentence(self, vocab: Sequence[str] | None = None) -> str:
        s = self.words(6, 18, vocab)
        return s[0].upper() + s[1:] + self.rng.choice((".", ".", ".", "!", "?", "…"))

    def title(self) -> str:
        return self.words(3, 8).title()

    def person(self) -> str:
        firsts = [n for n in FIRST_NAMES if _encodable(n, self.charset)]
        lasts = [n for n in LAST_NAMES if _encodable(n, self.charset)]
        return f"{self.rng.choice(firsts)} {self.rng.choice(lasts)}"

    def slug(self, text: str) -> str:
        out = []
        for ch in text.lower():
            out.append(ch if ch.isascii() and ch.isalnum() else "-")
        return "-".join(p for p in "".join(out).split("-") if p)[:60] or "post"

    def date(self, year: int = 2025) -> tuple[str, str]:
        """An ISO datetime with offset, and a human form for the element text."""
        month = self.rng.randrange(1, 13)
        day = self.rng.randrange(1, 29)
        hour = self.rng.randrange(0, 24)
        minute = self.rng.randrange(0, 60)
        offset = self.rng.choice(("+00:00", "+01:00", "+02:00", "-05:00", "-08:00", "+09:00"))
        months = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
        return (f"{year}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:00{offset}",
                f"{day} {months[month - 1]} {year}")

    def paragraph_html(self, site: str) -> str:
        """A paragraph with inline markup: links, emphasis, code, abbreviations."""
        parts: list[str] = []
        for _ in range(self.rng.randrange(2, 6)):
            s = esc(self.sentence())
            roll = self.rng.randrange(10)
            if roll == 0:
                s += f' <a href="{site}/{self.slug(self.words(2, 4))}/">{esc(self.words(1, 3))}</a>.'
            elif roll == 1:
                s += f" <em>{esc(self.words(1, 3))}</em>"
            elif roll == 2:
                s += f" <code>{esc(self.rng.choice(('feed()', 'close()', '<p>', 'h-entry', 'rel=me')))}</code>"
            elif roll == 3:
                s += f' <a href="https://{self.slug(self.words(1, 2))}.example.org/">external &rarr;</a>'
            elif roll == 4:
                s += ' <abbr title="HyperText Markup Language">HTML</abbr> &amp; <strong>more</strong>'
            parts.append(s)
        return "<p>" + " ".join(parts) + "</p>"

    def rich_content(self, site: str, blocks: int) -> str:
        """Article body: paragraphs, lists, images, code, quotes."""
        out: list[str] = []
        for _ in range(blocks):
            roll = self.rng.randrange(12)
            if roll < 6:
                out.append(self.paragraph_html(site))
            elif roll < 8:
                tag = self.rng.choice(("ul", "ol"))
                items = "".join(f"<li>{esc(self.sentence())}</li>" for _ in range(self.rng.randrange(2, 6)))
                out.append(f"<{tag}>{items}</{tag}>")
            elif roll < 10:
                w = self.rng.choice((640, 800, 1200))
                h = w * self.rng.choice((9, 10, 12)) // 16
                n = self.rng.randrange(1000, 9999)
                out.append(
                    f'<figure><img src="{site}/media/{n}.jpg" srcset="{site}/media/{n}-{w // 2}.jpg {w // 2}w, '
                    f'{site}/media/{n}.jpg {w}w" sizes="(max-width: 700px) 100vw, 700px" width="{w}" height="{h}" '
                    f'alt="{esc(self.words(3, 7))}" loading="lazy"><figcaption>{esc(self.sentence())}</figcaption></figure>'
                )
            elif roll < 11:
                out.append(f'<pre><code class="language-python">{esc(self.rng.choice(CODE_SNIPPETS))}</code></pre>')
            else:
                out.append(f"<blockquote><p>{esc(self.sentence())}</p><cite>{esc(self.person())}</cite></blockquote>")
        return "\n".join(out)


def head(w: Writer, title: str, site: str, *, charset: str = "utf-8", extra: str = "", css_rules: int = 40) -> str:
    """A realistic <head>: meta tags, link rels, preloads, inline CSS, scripts, JSON-LD."""
    css: list[str] = [":root{--fg:#1d1d1f;--bg:#fffdf8;--accent:#b3261e}",
                      "body{font:16px/1.6 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg)}"]
    for i in range(css_rules):
        sel = w.rng.choice((".site-header", ".nav a", ".entry", ".card", "article > p", ".footer li", ".btn"))
        css.append(f"{sel}:nth-child({i + 1}){{margin:{w.rng.randrange(0, 24)}px {w.rng.randrange(0, 24)}px;"
                   f"color:#{w.rng.randrange(0x1000000):06x}}}")
    css.append("@media (max-width:700px){.nav{display:none}.entry img{max-width:100%;height:auto}}")
    css_text = "\n".join(css)
    return f"""<head>
<meta charset="{charset}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<meta name="description" content="{esc(w.sentence())}">
<meta name="generator" content="{w.rng.choice(('Hugo 0.121.1', 'WordPress 6.4.2', 'Eleventy v2.0.1', 'Jekyll v4.3.2'))}">
<meta property="og:title" content="{esc(title)}">
<meta property="og:type" content="website">
<meta property="og:url" content="{site}/">
<meta property="og:image" content="{site}/images/og-card.png">
<meta name="twitter:card" content="summary_large_image">
<link rel="canonical" href="{site}/">
<link rel="icon" href="/favicon.ico" sizes="any">
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/apple-touch-icon.png">
<link rel="manifest" href="/site.webmanifest">
<link rel="alternate" type="application/rss+xml" title="RSS" href="{site}/feed.xml">
<link rel="preconnect" href="https://fonts.example.net" crossorigin>
<link rel="preload" href="/fonts/inter-var.woff2" as="font" type="font/woff2" crossorigin>
<link rel="stylesheet" href="/css/main.{w.rng.randrange(16**8):08x}.css">
{extra}<style>
{css_text}
</style>
<script>
  (function(){{var t=localStorage.getItem('theme');if(t&&t!=='light'){{document.documentElement.dataset.theme=t}}
  if (window.innerWidth < 700 && document.cookie.indexOf('nav=1') < 0) {{ /* <p> in a script is just text */ }}}})();
</script>
<script async src="https://stats.example.net/js/script.js" data-domain="{site[8:]}"></script>
<script type="application/ld+json">{{"@context":"https://schema.org","@type":"WebSite","url":"{site}/","name":"{esc(title)}"}}</script>
</head>"""


def nav(w: Writer, site: str, n: int = 7) -> str:
    links = "".join(f'<li><a href="{site}/{w.slug(t)}/">{esc(t)}</a></li>'
                    for t in (w.words(1, 2).title() for _ in range(n)))
    return f'<nav class="nav" aria-label="Main"><ul>{links}</ul></nav>'


def page(doc_head: str, body: str, *, lang: str = "en", body_class: str = "") -> str:
    cls = f' class="{body_class}"' if body_class else ""
    return f'<!DOCTYPE html>\n<html lang="{lang}">\n{doc_head}\n<body{cls}>\n{body}\n</body>\n</html>\n'


def author_hcard(w: Writer, name: str, site: str, *, cls: str = "p-author h-card") -> str:
    return (f'<a class="{cls}" href="{site}/"><img class="u-photo" src="{site}/me.jpg" alt="" width="40" height="40">'
            f'<span class="p-name">{esc(name)}</span></a>')


def h_entry(w: Writer, site: str, author: str, idx: int, blocks: int) -> str:
    title = w.title()
    iso, human = w.date()
    url = f"{site}/{iso[:4]}/{iso[5:7]}/{w.slug(title)}-{idx}/"
    tags = "".join(f'<a class="p-category" rel="tag" href="{site}/tags/{t}/">#{esc(t)}</a> '
                   for t in sorted({w.rng.choice(TAGS) for _ in range(w.rng.randrange(1, 4))}))
    reply = ""
    if w.rng.randrange(6) == 0:
        reply = (f'<p class="in-reply-to">In reply to <a class="u-in-reply-to" '
                 f'href="https://{w.slug(w.words(1, 2))}.example.com/post/{w.rng.randrange(10**6)}">a post</a></p>')
    kind = w.rng.randrange(3)
    if kind == 0:  # a note: no name, content is the text
        body = f'<div class="p-name e-content">{w.paragraph_html(site)}</div>'
        heading = ""
    else:
        heading = f'<h2 class="p-name"><a class="u-url" href="{url}">{esc(title)}</a></h2>'
        body = (f'<p class="p-summary">{esc(w.sentence())}</p>\n'
                f'<div class="e-content">\n{w.rich_content(site, blocks)}\n</div>')
    return f"""<article class="h-entry" id="post-{idx}">
{heading}
<div class="meta">{author_hcard(w, author, site)} &middot;
<a class="u-url" href="{url}"><time class="dt-published" datetime="{iso}">{human}</time></a>
{f'<time class="dt-updated" datetime="{w.date(2026)[0]}">updated</time>' if w.rng.randrange(4) == 0 else ''}</div>
{reply}
{body}
<footer class="tags">{tags}<a class="u-syndication" href="https://social.example/@x/{w.rng.randrange(10**9)}">also on social</a></footer>
</article>"""


# ---------------------------------------------------------------------------
# Pages


def blog_home() -> bytes:
    w = Writer("blog-home")
    site = "https://jane.example"
    author = "Jane Doe"
    entries = "\n".join(h_entry(w, site, author, i, w.rng.randrange(3, 9)) for i in range(20))
    body = f"""<a class="skip" href="#main">Skip to content</a>
<header class="site-header h-card">
<img class="u-photo" src="{site}/me.jpg" alt="{author}"><a class="p-name u-url" href="{site}/" rel="me">{author}</a>
<p class="p-note">{esc(w.sentence())}</p>
</header>
{nav(w, site)}
<main id="main" class="h-feed">
<h1 class="p-name">Recent posts</h1>
{entries}
<nav class="pagination"><a rel="next" href="{site}/page/2/">Older posts</a></nav>
</main>
<footer class="site-footer"><p>&copy; 2026 {author}. Text under <a rel="license" href="https://creativecommons.org/licenses/by/4.0/">CC BY 4.0</a>.</p>
<a rel="me" href="https://github.com/janedoe">GitHub</a> <a rel="me" href="https://social.example/@jane">Mastodon</a></footer>
<script src="/js/main.js" defer></script>"""
    extra = (f'<link rel="webmention" href="{site}/webmention">\n<link rel="micropub" href="{site}/micropub">\n'
             f'<link rel="authorization_endpoint" href="https://indieauth.example/auth">\n')
    return page(head(w, f"{author} — notes", site, extra=extra), body).encode("utf-8")


def feed_large() -> bytes:
    w = Writer("feed-large")
    site = "https://planet.example.net"
    entries = "\n".join(h_entry(w, site, w.person(), i, w.rng.randrange(1, 5)) for i in range(800))
    body = f"""{nav(w, site, 12)}
<div class="h-feed" id="feed">
<h1 class="p-name">Planet IndieWeb — aggregated feed</h1>
<a class="u-url" href="{site}/"></a>
{entries}
</div>"""
    return page(head(w, "Planet IndieWeb", site), body).encode("utf-8")


def profile() -> bytes:
    w = Writer("profile")
    site = "https://ana.example.org"
    city, region, code, country, lat, lon = CITIES[0]
    rel_me = "\n".join(f'<li><a rel="me" class="u-url" href="https://{svc}/ana">{svc}</a></li>'
                       for svc in ("github.com", "social.example", "codeberg.org", "keyoxide.org", "pixelfed.example"))
    org_cards = "\n".join(
        f'<li class="p-org h-card"><a class="p-name u-url" href="https://{w.slug(w.words(1, 2))}.example/">'
        f'{esc(w.title())}</a> <span class="p-job-title">{esc(w.words(2, 3).title())}</span></li>' for _ in range(6))
    contacts = []
    for _ in range(40):
        c = w.rng.choice(CITIES)
        name = w.person()
        contacts.append(f"""<li class="h-card">
<img class="u-photo" src="https://avatars.example/{w.slug(name)}.png" alt="">
<a class="p-name u-url" href="https://{w.slug(name)}.example/">{esc(name)}</a>
<span class="p-nickname">{esc(w.slug(name)[:8])}</span>
<span class="p-adr h-adr"><span class="p-locality">{esc(c[0])}</span>, <span class="p-country-name">{esc(c[3])}</span></span>
<span class="h-geo p-geo"><data class="p-latitude" value="{c[4]}"></data><data class="p-longitude" value="{c[5]}"></data></span>
<p class="p-note">{esc(w.sentence())}</p>
</li>""")
    body = f"""{nav(w, site)}
<main>
<article class="h-card vcard" id="me">
<img class="u-photo photo" src="{site}/ana.jpg" alt="Ana García" width="240" height="240">
<h1><span class="p-name fn">Ana García</span> <small class="p-nickname">anag</small></h1>
<p class="p-honorific-prefix">Dr.</p><p class="p-pronouns">she/her</p>
<p class="p-note note">{esc(w.sentence())} {esc(w.sentence())}</p>
<a class="u-email email" href="mailto:ana@ana.example.org">ana@ana.example.org</a>
<a class="p-tel tel" href="tel:+41441234567">+41 44 123 45 67</a>
<a class="u-key" href="{site}/key.asc">PGP key</a>
<time class="dt-bday" datetime="1987-04-23">23 April</time>
<div class="p-adr h-adr adr">
<span class="p-street-address street-address">Bahnhofstrasse 1</span>,
<span class="p-postal-code postal-code">{code}</span> <span class="p-locality locality">{city}</span>,
<span class="p-region region">{region}</span>, <span class="p-country-name country-name">{country}</span>
<span class="p-geo h-geo geo"><abbr class="p-latitude latitude" title="{lat}">N</abbr> <abbr class="p-longitude longitude" title="{lon}">E</abbr></span>
</div>
<ul class="orgs">{org_cards}</ul>
<ul class="elsewhere">{rel_me}</ul>
<p class="p-category">{" ".join(esc(t) for t in TAGS[:6])}</p>
</article>
<section class="contacts"><h2>People I follow</h2><ul>
{chr(10).join(contacts)}
</ul></section>
</main>
<footer><a rel="me authn" href="https://github.com/ana">GitHub</a> <a rel="pgpkey" href="{site}/key.asc">key</a></footer>"""
    extra = f'<link rel="me" href="https://social.example/@ana">\n<link rel="openid.delegate" href="{site}/">\n'
    return page(head(w, "Ana García", site, extra=extra), body, lang="es").encode("utf-8")


def wordpress_mf1() -> bytes:
    w = Writer("wordpress-mf1")
    site = "https://blog.example.com"
    posts: list[str] = []
    for i in range(24):
        title = w.title()
        iso, human = w.date(2014)
        upd = w.date(2015)[0]
        url = f"{site}/{iso[:4]}/{iso[5:7]}/{w.slug(title)}/"
        cats = ", ".join(f'<a href="{site}/category/{t}/" rel="category tag">{t}</a>' for t in sorted({w.rng.choice(TAGS) for _ in range(2)}))
        comments = "".join(f"""<li class="comment even thread-even depth-1" id="comment-{i * 100 + c}">
<div class="comment-author vcard"><img alt="" src="https://gravatar.example/avatar/{w.rng.randrange(16**12):012x}?s=48" class="avatar photo" height="48" width="48"><cite class="fn"><a href="https://{w.slug(w.words(1, 2))}.example/" rel="external nofollow" class="url">{esc(w.person())}</a></cite> <span class="says">says:</span></div>
<div class="comment-meta commentmetadata"><a href="{url}#comment-{i * 100 + c}">{human} at 9:{c:02d} am</a></div>
<p>{esc(w.sentence())}</p>
<div class="reply"><a rel="nofollow" class="comment-reply-link" href="{url}?replytocom={i * 100 + c}#respond">Reply</a></div>
</li>""" for c in range(w.rng.randrange(0, 6)))
        posts.append(f"""<div id="post-{1000 + i}" class="post-{1000 + i} post type-post status-publish format-standard hentry category-uncategorized">
<h2 class="entry-title"><a href="{url}" rel="bookmark" title="Permanent Link to {esc(title)}">{esc(title)}</a></h2>
<div class="entry-meta"><span class="meta-prep meta-prep-author">Posted on</span> <a href="{url}" title="9:00 am" rel="bookmark"><abbr class="published" title="{iso}">{human}</abbr></a> <abbr class="updated" title="{upd}">updated</abbr> <span class="meta-sep">by</span> <span class="author vcard"><a class="url fn n" href="{site}/author/admin/" title="View all posts by admin">admin</a></span></div>
<div class="entry-content">
{w.rich_content(site, w.rng.randrange(2, 7))}
<p><a href="{url}#more-{1000 + i}" class="more-link">Continue reading <span class="meta-nav">&rarr;</span></a></p>
</div>
<div class="entry-utility"><span class="cat-links">Posted in {cats}</span> <span class="meta-sep">|</span> <span class="tag-links">Tagged <a href="{site}/tag/{w.rng.choice(TAGS)}/" rel="tag">{w.rng.choice(TAGS)}</a></span></div>
<ol class="commentlist">{comments}</ol>
</div>""")
    widgets = "".join(f'<li id="recent-posts-{k}" class="widget-container widget_recent_entries"><h3 class="widget-title">{esc(w.words(1, 3).title())}</h3><ul>'
                      + "".join(f'<li><a href="{site}/?p={w.rng.randrange(10000)}">{esc(w.title())}</a></li>' for _ in range(8))
                      + "</ul></li>" for k in range(5))
    body = f"""<div id="wrapper" class="hfeed">
<div id="header"><div id="masthead"><div id="branding" role="banner"><h1 id="site-title"><span><a href="{site}/" title="My Blog" rel="home">My Blog</a></span></h1>
<div id="site-description">{esc(w.sentence())}</div></div>
<div id="access" role="navigation"><div class="skip-link screen-reader-text"><a href="#content" title="Skip to content">Skip to content</a></div>{nav(w, site, 9)}</div></div></div>
<div id="main"><div id="container"><div id="content" role="main">
{chr(10).join(posts)}
<div id="nav-below" class="navigation"><div class="nav-previous"><a href="{site}/page/2/"><span class="meta-nav">&larr;</span> Older posts</a></div></div>
</div></div>
<div id="primary" class="widget-area" role="complementary"><ul class="xoxo">{widgets}</ul></div>
</div>
<div id="footer" role="contentinfo"><div id="site-info"><a href="{site}/" rel="home">My Blog</a></div><div id="site-generator"><a href="https://wordpress.example/" rel="generator">Proudly powered by WordPress.</a></div></div>
</div>
<script type='text/javascript' src='{site}/wp-includes/js/comment-reply.min.js?ver=6.4.2' id='comment-reply-js' async data-wp-strategy='async'></script>
<script type="text/javascript">/* <![CDATA[ */ var wpEmojiSettings = {{"baseUrl":"https:\\/\\/s.w.org\\/images\\/core\\/emoji\\/14.0.0\\/72x72\\/","ext":".png"}}; /* ]]> */</script>"""
    extra = (f'<link rel="profile" href="http://gmpg.org/xfn/11">\n<link rel="pingback" href="{site}/xmlrpc.php">\n'
             f"<link rel='stylesheet' id='wp-block-library-css' href='{site}/wp-includes/css/dist/block-library/style.min.css?ver=6.4.2' type='text/css' media='all' />\n")
    return page(head(w, "My Blog | Just another WordPress site", site, extra=extra), body,
                body_class="home blog logged-out").encode("utf-8")


def events() -> bytes:
    w = Writer("events")
    site = "https://events.example.de"
    items: list[str] = []
    for i in range(60):
        name = f"{w.words(2, 4).title()} Meetup #{i + 1}"
        c = w.rng.choice(CITIES)
        month, day = w.rng.randrange(1, 13), w.rng.randrange(1, 29)
        h1, h2 = w.rng.randrange(9, 19), w.rng.randrange(19, 23)
        vcp = w.rng.randrange(3)
        if vcp == 0:  # value-class pattern: date and times in separate parts
            times = (f'<span class="dt-start"><time class="value" datetime="2026-{month:02d}-{day:02d}">{day}.{month}.2026</time>, '
                     f'<span class="value">{h1}:00</span></span> – <span class="dt-end"><span class="value">{h2}:30</span></span>')
        elif vcp == 1:  # VCP with value-title and a timezone part
            times = (f'<span class="dt-start"><span class="value-title" title="2026-{month:02d}-{day:02d}"></span>'
                     f'<span class="value">{h1}:00</span><span class="value">+01:00</span></span> bis '
                     f'<span class="dt-end"><span class="value">{h2 - 12}:30pm</span></span>')
        else:
            times = (f'<time class="dt-start" datetime="2026-{month:02d}-{day:02d}T{h1:02d}:00:00+01:00">{day}. {month}. {h1} Uhr</time> – '
                     f'<time class="dt-end" datetime="2026-{month:02d}-{day:02d}T{h2:02d}:00:00+01:00">{h2} Uhr</time>')
        items.append(f"""<li class="h-event" id="event-{i}">
<h3><a class="p-name u-url" href="{site}/events/{w.slug(name)}">{esc(name)}</a></h3>
<p>{times}</p>
<div class="p-location h-card"><span class="p-name">{esc(w.title())}</span>, <span class="p-street-address">{esc(w.words(1, 2).title())}straße {w.rng.randrange(1, 200)}</span>, <span class="p-locality">{esc(c[0])}</span>
<data class="p-latitude" value="{c[4]}"></data><data class="p-longitude" value="{c[5]}"></data></div>
<p class="p-summary">{esc(w.sentence())}</p>
<div class="e-description">{w.paragraph_html(site)}</div>
<p>Organised by {author_hcard(w, w.person(), site, cls="p-organizer h-card")}; <a class="u-url" href="{site}/events/{i}.ics">iCal</a>
<span class="p-category">{esc(w.rng.choice(TAGS))}</span> · <data class="p-attendee-count" value="{w.rng.randrange(5, 300)}">Teilnehmer</data></p>
</li>""")
    table_rows = "".join(f"<tr><td>{d}</td><td>{esc(w.title())}</td><td>{esc(w.rng.choice(CITIES)[0])}</td></tr>" for d in range(1, 31))
    body = f"""{nav(w, site)}
<main><h1>Veranstaltungen in Europa — Übersicht</h1>
<table class="calendar"><thead><tr><th>Tag</th><th>Titel</th><th>Ort</th></tr></thead><tbody>{table_rows}</tbody></table>
<ul class="events">
{chr(10).join(items)}
</ul></main>"""
    return page(head(w, "Veranstaltungskalender", site), body, lang="de").encode("utf-8")


def product() -> bytes:
    w = Writer("product")
    site = "https://shop.example.fr"
    reviews = "\n".join(f"""<article class="h-review" id="review-{i}">
<h3 class="p-name">{esc(w.title())}</h3>
<p>Note : <data class="p-rating" value="{w.rng.randrange(1, 6)}">{w.rng.randrange(1, 6)}/5</data> <data class="p-best" value="5"></data> <data class="p-worst" value="1"></data></p>
<p>par {author_hcard(w, w.person(), site, cls="p-author h-card")} le <time class="dt-published" datetime="{w.date()[0]}">{w.date()[1]}</time></p>
<div class="e-content">{w.paragraph_html(site)}</div>
<span class="p-item h-product"><span class="p-name">Cafetière « Élégance » 1,5 L</span></span>
</article>""" for i in range(45))
    specs = "".join(f"<tr><th>{esc(w.words(1, 2).title())}</th><td>{esc(w.words(1, 4))}</td></tr>" for _ in range(25))
    related = "".join(f'<li class="h-product"><a class="u-url" href="{site}/p/{k}"><img class="u-photo" src="{site}/img/{k}.webp" alt=""><span class="p-name">{esc(w.title())}</span></a> <data class="p-price" value="{w.rng.randrange(10, 400)}.{w.rng.randrange(100):02d}">{w.rng.randrange(10, 400)},99 €</data></li>' for k in range(16))
    body = f"""{nav(w, site, 10)}
<nav class="breadcrumbs"><ol><li><a href="{site}/">Accueil</a></li><li><a href="{site}/cuisine/">Cuisine</a></li><li>Cafetières</li></ol></nav>
<main class="h-product" id="product">
<h1 class="p-name">Cafetière « Élégance » 1,5 L</h1>
<div class="gallery">{"".join(f'<img class="u-photo" src="{site}/img/cafetiere-{k}.jpg" alt="Vue {k}">' for k in range(6))}</div>
<p class="p-brand h-card"><a class="p-name u-url" href="{site}/marques/maison">Maison Dupré</a></p>
<p class="price"><data class="p-price" value="89.90">89,90 €</data> <span class="p-category">cuisine</span> <span class="p-category">café</span></p>
<p>Réf. <data class="u-identifier" value="urn:ean:3760123456789">3760123456789</data></p>
<div class="e-description">{w.rich_content(site, 5)}</div>
<table class="specs">{specs}</table>
<section class="p-review h-review-aggregate"><data class="p-rating" value="4.3">4,3</data>/5 — <data class="p-count" value="45">45 avis</data></section>
<form action="{site}/panier" method="post"><input type="hidden" name="sku" value="CAF-15"><label>Quantité <input type="number" name="qty" value="1" min="1"></label><button type="submit">Ajouter au panier</button></form>
</main>
<section class="reviews"><h2>Avis clients</h2>
{reviews}
</section>
<aside><h2>Produits similaires</h2><ul>{related}</ul></aside>"""
    return page(head(w, "Cafetière Élégance — Boutique", site), body, lang="fr").encode("utf-8")


def _data_uri(w: Writer, size: int) -> str:
    # A real PNG signature and IHDR start, then pseudo-random payload bytes.
    payload = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + w.rng.randbytes(size)
    return "data:image/png;base64," + base64.b64encode(payload).decode("ascii")


def large_svg() -> bytes:
    w = Writer("large-svg")
    site = "https://design.example.io"
    symbols = "".join(f'<symbol id="i{k}" viewBox="0 0 24 24">{SVG_ICONS[k % len(SVG_ICONS)]}</symbol>' for k in range(40))
    cards: list[str] = []
    for i in range(420):
        icon = SVG_ICONS[w.rng.randrange(len(SVG_ICONS))]
        # A wide inline chart: many points, as dashboards and design systems produce.
        pts = " ".join(f"{x * 4},{w.rng.randrange(0, 120)}" for x in range(w.rng.randrange(60, 160)))
        thumb = _data_uri(w, w.rng.randrange(600, 3000))
        cards.append(f"""<div class="card h-entry">
<svg class="icon" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">{icon}</svg>
<svg class="icon"><use xlink:href="#i{i % 40}" href="#i{i % 40}"></use></svg>
<h3 class="p-name">{esc(w.title())}</h3>
<img class="u-photo" src="{thumb}" alt="{esc(w.words(2, 4))}" width="64" height="64">
<svg class="chart" viewBox="0 0 640 120" preserveAspectRatio="none"><defs><linearGradient id="g{i}" x1="0" x2="0" y1="0" y2="1"><stop offset="0%" stop-color="#b3261e" stop-opacity=".4"/><stop offset="100%" stop-color="#b3261e" stop-opacity="0"/></linearGradient></defs>
<polyline fill="none" stroke="#b3261e" stroke-width="1.5" points="{pts}"/><text x="4" y="14" font-size="11">{esc(w.words(1, 3))}</text><foreignObject x="0" y="0" width="100" height="20"><div xmlns="http://www.w3.org/1999/xhtml">{esc(w.words(1, 2))}</div></foreignObject></svg>
<div class="e-content">{w.paragraph_html(site)}</div>
</div>""")
    bg = _data_uri(w, 40000)
    extra = f'<style>.hero{{background-image:url("{bg}")}}</style>\n'
    body = f"""<svg xmlns="http://www.w3.org/2000/svg" style="display:none">{symbols}</svg>
{nav(w, site)}
<main class="h-feed"><h1 class="p-name">Component gallery</h1>
<math><mi>x</mi><mo>=</mo><mfrac><mrow><mo>-</mo><mi>b</mi></mrow><mn>2</mn></mfrac></math>
<div class="hero"></div>
{chr(10).join(cards)}
</main>"""
    return page(head(w, "Design system — components", site, extra=extra), body).encode("utf-8")


def news_no_mf() -> bytes:
    w = Writer("news-no-mf")
    site = "https://news.example.co.uk"
    menus = "".join(f'<li class="menu-item"><a href="{site}/{w.slug(s)}/">{esc(s)}</a><ul class="sub-menu">'
                    + "".join(f'<li><a href="{site}/{w.slug(s)}/{k}/">{esc(w.words(1, 2).title())}</a></li>' for k in range(8))
                    + "</ul></li>" for s in (w.words(1, 1).title() for _ in range(10)))
    stories: list[str] = []
    for i in range(560):
        rows = "".join(f"<tr><td>{esc(w.words(1, 2))}</td><td>{w.rng.randrange(10**5)}</td><td>{w.rng.randrange(-999, 999) / 10}%</td></tr>"
                       for _ in range(w.rng.randrange(0, 6)))
        table = f'<table class="data"><caption>{esc(w.words(2, 4))}</caption><tr><th>Item</th><th>Value</th><th>Δ</th></tr>{rows}</table>' if rows else ""
        stories.append(f"""<!-- story {i}: {esc(w.words(2, 4))} -->
<div class="story" data-id="{w.rng.randrange(10**8)}" data-track='{{"pos":{i},"slot":"feed"}}'>
<a class="story-link" href="{site}/news/{w.slug(w.title())}-{i}"><img src="{site}/img/{i}.jpg" alt="" width="320" height="180"><span class="headline">{esc(w.title())}</span></a>
<span class="byline">By {esc(w.person())} · {w.rng.randrange(1, 59)} minutes ago</span>
{w.paragraph_html(site)}
{table}
<script>window.ads=window.ads||[];ads.push({{slot:"s{i}",sizes:[[300,250],[728,90]],t:"{w.rng.randrange(16**10):010x}"}});if(ads.length>3&&a<b){{}}</script>
</div>""")
    big_script = "\n".join(f'  var cfg_{k} = {{"id": {k}, "name": "{w.slug(w.words(1, 3))}", "html": "<div class=\\"x\\"></div>"}};'
                           for k in range(400))
    body = f"""<!--[if lt IE 9]><p class="browserupgrade">You are using an outdated browser.</p><![endif]-->
<div id="cookie-banner" hidden>We use cookies. <button>Accept</button></div>
<header><a class="logo" href="{site}/"><img src="{site}/logo.svg" alt="The Daily Example"></a>
<form role="search" action="{site}/search"><input type="search" name="q" placeholder="Search"></form>
<nav><ul class="menu">{menus}</ul></nav></header>
<main><div class="grid">
{chr(10).join(stories)}
</div></main>
<aside><iframe src="https://ads.example.net/frame?slot=side" width="300" height="600" title="ad"></iframe>
<noscript><img src="https://ads.example.net/pixel.gif" alt=""></noscript></aside>
<footer><ul>{"".join(f'<li><a href="{site}/about/{k}">{esc(w.words(1, 2).title())}</a></li>' for k in range(30))}</ul><p>&copy; 2026 The Daily Example Ltd.</p></footer>
<script>
{big_script}
  document.querySelectorAll('.story').forEach(function(el){{ if (el.dataset.id < 5) {{ el.insertAdjacentHTML('beforeend', '</div><p>'); }} }});
</script>"""
    return page(head(w, "The Daily Example — News", site, css_rules=400), body, lang="en-GB").encode("utf-8")


def legacy_cms() -> bytes:
    """Old CMS output in windows-1252: layout tables, <font>, unclosed <p> and <li>, misnesting."""
    w = Writer("legacy-cms", "windows-1252")
    rows: list[str] = []
    for _ in range(180):
        text = " ".join(w.sentence([*LATIN1_WORDS, *w.vocab]) for _ in range(w.rng.randrange(2, 5)))
        style = w.rng.randrange(5)
        if style == 0:  # unclosed <p>, <font> closed out of order
            cell = f'<font face="Verdana, Arial" size="2"><p>{esc(text)}<p><b>{esc(w.title())}</font></b>'
        elif style == 1:  # <b><i> misnested: the adoption agency algorithm
            cell = f"<b>{esc(w.title())}<i> “{esc(w.words(2, 5, LATIN1_WORDS))}”</b> – {esc(text)}</i>"
        elif style == 2:  # unclosed list items inside an unclosed <ul>
            cell = "<ul>" + "".join(f"<li>{esc(w.words(2, 6, LATIN1_WORDS))}" for _ in range(w.rng.randrange(2, 6))) + f'</ul><font color="#cc0000">€ {w.rng.randrange(5, 500)},– </font>'
        elif style == 3:  # an mf1 vcard hidden in the mess, with a <p> closing around a <div>
            cell = (f'<p class="vcard"><span class="fn">{esc(w.person())}</span><div class="adr"><span class="locality">'
                    f'{esc(w.rng.choice(LATIN1_WORDS))}</span></div> Tel. 0{w.rng.randrange(10**9)}</p>')
        else:  # stray text inside a table row: foster parenting
            cell = f'<table width="100%"><tr>{esc(w.words(1, 3))}<td bgcolor="#eeeeee"><font size="1">{esc(text)}</td></tr></table>'
        rows.append(f'<tr><td width="20" valign="top"><img src="/img/spacer.gif" width="20" height="1"></td>'
                    f'<td valign="top" class="text">{cell}</td></tr>')
    menu = "".join(f'<tr><td><a href="/index.php?id={k}&amp;L=0"><font face="Arial" size="2" color="#003366">'
                   f"» {esc(w.words(1, 2, LATIN1_WORDS).title())}</font></a></td></tr>" for k in range(25))
    # Declared in a meta http-equiv, as old CMSes did; no BOM, no HTTP header.
    return f"""<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<HTML>
<HEAD>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1252">
<TITLE>Verein für Heimatkunde e.V. – Aktuelles</TITLE>
<META NAME="keywords" CONTENT="Verein, Heimat, Geschichte, Café, Museum">
<LINK REL="stylesheet" TYPE="text/css" HREF="/fileadmin/style.css">
<SCRIPT LANGUAGE="JavaScript">
<!--
function MM_swapImage() {{ var i,j=0,x,a=MM_swapImage.arguments; document.MM_sr=new Array; for(i=0;i<(a.length-2);i+=3) if ((x=MM_findObj(a[i]))!=null){{document.MM_sr[j++]=x; x.src=a[i+2];}} }}
//-->
</SCRIPT>
</HEAD>
<BODY BGCOLOR="#FFFFFF" LEFTMARGIN=0 TOPMARGIN=0 onLoad="MM_preloadImages('/img/nav_on.gif')">
<center>
<table width=780 border=0 cellpadding=0 cellspacing=0>
<tr><td colspan=2><img src="/img/header.jpg" width=780 height=120 alt="Verein für Heimatkunde"></td></tr>
<tr><td width=180 valign=top bgcolor="#e0e8f0"><table width=180 border=0>{menu}</table>
<p><font size=1>Zähler: 0{w.rng.randrange(10**6)}<br>Letzte Änderung: 12.03.2009</td>
<td width=600 valign=top>
<h1><font face="Georgia">Aktuelles aus dem Verein</font></h1>
<table border=0 cellpadding=4>
{chr(10).join(rows)}
</table>
<p align=center><font size=1>© 2003–2009 Verein für Heimatkunde e.V. · Impressum · <a href="mailto:info@example-verein.de">E-Mail</a>
</td></tr></table>
</center>
</BODY>
</HTML>
""".encode("windows-1252")


# Output file name -> generator. Order is the order pages appear in reports.
PAGES: dict[str, Callable[[], bytes]] = {
    "blog-home.html": blog_home,
    "profile.html": profile,
    "wordpress-mf1.html": wordpress_mf1,
    "events.html": events,
    "product.html": product,
    "legacy-cms-windows-1252.html": legacy_cms,
    "news-no-microformats.html": news_no_mf,
    "feed-large.html": feed_large,
    "large-inline-svg.html": large_svg,
}


def generate(out: Path) -> dict[str, int]:
    """Write every page into ``out``; return file name -> size in bytes."""
    out.mkdir(parents=True, exist_ok=True)
    sizes: dict[str, int] = {}
    for name, make in PAGES.items():
        data = make()
        (out / name).write_bytes(data)
        sizes[name] = len(data)
    return sizes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"output folder (default {DEFAULT_OUT})")
    args = ap.parse_args(argv)
    sizes = generate(args.out)
    for name, size in sizes.items():
        print(f"{size:>10,}  {args.out / name}")
    print(f"{sum(sizes.values()):>10,}  total")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
