"""Pages with microdata as sites publish it (schema.org markup from shops, recipe sites,
news sites, event listings), each a whole document."""

from __future__ import annotations

HEAD = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>{title}</title>\n{extra}</head>\n'


def page(title: str, body: str, extra: str = "") -> str:
    return HEAD.format(title=title, extra=extra) + "<body>\n" + body + "\n</body>\n</html>\n"


PRODUCT = page(
    "Acme Anvil 3000 | Acme Store",
    """<header class="site-header"><nav><a href="/">Home</a> <a href="/shop/">Shop</a></nav></header>
<main id="main">
<div class="product" itemscope itemtype="https://schema.org/Product">
  <h1 class="product_title entry-title" itemprop="name">Acme Anvil 3000</h1>
  <div class="images"><a href="/img/anvil-large.jpg"><img itemprop="image" src="/img/anvil.jpg" alt="Anvil"></a></div>
  <meta itemprop="sku" content="AN-3000">
  <span itemprop="brand" itemscope itemtype="https://schema.org/Brand"><span itemprop="name">Acme</span></span>
  <div itemprop="description" class="woocommerce-product-details__short-description">
    <p>The <strong>heaviest</strong> anvil we sell &mdash; forged, not cast.</p>
    <ul><li>Weight: 50&nbsp;kg</li><li>Steel face</li></ul>
  </div>
  <div itemprop="offers" itemscope itemtype="https://schema.org/Offer">
    <p class="price"><span itemprop="priceCurrency" content="USD">$</span><span itemprop="price" content="149.00">149.00</span></p>
    <link itemprop="availability" href="https://schema.org/InStock">In stock
    <meta itemprop="priceValidUntil" content="2027-01-01">
    <link itemprop="url" href="/shop/anvil-3000/">
  </div>
  <div itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
    Rated <span itemprop="ratingValue">4.6</span>/5 based on <span itemprop="reviewCount">89</span> customer reviews
  </div>
  <div itemprop="review" itemscope itemtype="https://schema.org/Review">
    <span itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">Wile E.</span></span>
    <time itemprop="datePublished" datetime="2026-03-01">March 1, 2026</time>
    <div itemprop="reviewRating" itemscope itemtype="https://schema.org/Rating">
      <meta itemprop="worstRating" content="1"><span itemprop="ratingValue">5</span>/<span itemprop="bestRating">5</span>
    </div>
    <p itemprop="reviewBody">Works great (on roadrunners, not so much).</p>
  </div>
</div>
</main>""",
)

RECIPE = page(
    "Grandma's Pancakes",
    """<article itemscope itemtype="http://schema.org/Recipe">
<h2 itemprop="name">Grandma's Pancakes</h2>
<img itemprop="image" src="pancakes.jpg" alt="">
By <span itemprop="author" itemscope itemtype="http://schema.org/Person"><span itemprop="name">Carol Smith</span></span>,
published <meta itemprop="datePublished" content="2009-05-08">May 8, 2009
<span itemprop="description">This is my grandmother's recipe — crêpes, naïvely fluffy! ✓</span>
Prep Time: <meta itemprop="prepTime" content="PT15M">15 minutes
Cook time: <time itemprop="cookTime" datetime="PT10M">10 minutes</time>
Yield: <span itemprop="recipeYield">8 pancakes</span>
<div itemprop="nutrition" itemscope itemtype="http://schema.org/NutritionInformation">
  Nutrition facts: <span itemprop="calories">240 calories</span>, <span itemprop="fatContent">9 grams fat</span>
</div>
Ingredients:
<ul>
<li itemprop="recipeIngredient">1 1/2 cups all-purpose flour</li>
<li itemprop="recipeIngredient">3 1/2 teaspoons baking powder</li>
<li itemprop="recipeIngredient">1 egg</li>
</ul>
<h3>Instructions</h3>
<ol itemprop="recipeInstructions">
<li>Sift the dry ingredients.</li><li>Mix; fry.</li>
</ol>
</article>""",
)

ARTICLE = page(
    "Council approves new bridge - The Daily Example",
    """<div id="page" class="site">
<article class="post hentry" itemscope itemtype="https://schema.org/NewsArticle" itemid="https://news.example.com/2026/bridge">
  <header class="entry-header">
    <h1 class="entry-title" itemprop="headline">Council approves new bridge</h1>
    <div class="entry-meta">
      <span class="byline">By <span class="author vcard" itemprop="author" itemscope itemtype="https://schema.org/Person">
        <a class="url fn n" itemprop="url" href="/author/jdoe/"><span itemprop="name">Jane Doe</span></a></span></span>
      <time class="entry-date published" itemprop="datePublished" datetime="2026-11-30T08:00:00+00:00">November 30, 2026</time>
      <time class="updated" itemprop="dateModified" datetime="2026-12-01T10:15:00+00:00">December 1, 2026</time>
    </div>
  </header>
  <div itemprop="publisher" itemscope itemtype="https://schema.org/Organization">
    <div itemprop="logo" itemscope itemtype="https://schema.org/ImageObject"><img itemprop="url" src="/logo.png"><meta itemprop="width" content="600"></div>
    <meta itemprop="name" content="The Daily Example">
  </div>
  <div class="entry-content" itemprop="articleBody">
    <p>The city council voted 7&ndash;2 on Monday to approve the bridge.</p>
    <p>Construction starts in spring.<br>Costs: &euro;12m.</p>
    <script>var tracking = 1;</script>
    <!-- ad slot -->
    <h2>Reactions</h2><blockquote>"Finally!" said one resident.</blockquote>
  </div>
  <footer><span itemprop="keywords">bridge, council</span></footer>
</article>
</div>""",
)

BREADCRUMBS = page(
    "Shoes - Category",
    """<ol class="breadcrumb" itemscope itemtype="https://schema.org/BreadcrumbList">
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <a itemprop="item" href="https://example.com/"><span itemprop="name">Home</span></a>
    <meta itemprop="position" content="1" />
  </li>
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <a itemprop="item" href="/men/"><span itemprop="name">Men</span></a>
    <meta itemprop="position" content="2" />
  </li>
  <li itemprop="itemListElement" itemscope itemtype="https://schema.org/ListItem">
    <span itemprop="name">Shoes</span>
    <meta itemprop="position" content="3" />
  </li>
</ol>
<div class="listing">
<div itemscope itemtype="https://schema.org/Product"><a itemprop="url" href="/p/1"><span itemprop="name">Runner</span></a></div>
<div itemscope itemtype="https://schema.org/Product"><a itemprop="url" href="/p/2"><span itemprop="name">Hiker</span></a></div>
</div>""",
)

EVENT = page(
    "Jazz Night",
    """<div class="event-wrapper" itemscope itemtype="http://schema.org/Event">
  <div class="event-date" itemprop="startDate" content="2027-05-14T20:00">May 14, 8pm</div>
  <time itemprop="endDate" datetime="2027-05-14T23:00">11pm</time>
  <div class="event-title" itemprop="name">Jazz Night</div>
  <meta itemprop="eventStatus" content="https://schema.org/EventScheduled">
  <div itemprop="location" itemscope itemtype="http://schema.org/Place">
    <span itemprop="name">The Blue Room</span>
    <div itemprop="address" itemscope itemtype="http://schema.org/PostalAddress">
      <span itemprop="streetAddress">12 Main St</span>,
      <span itemprop="addressLocality">Springfield</span>
    </div>
  </div>
  <div itemprop="offers" itemscope itemtype="http://schema.org/AggregateOffer">
    Tickets from <data itemprop="lowPrice" value="15">fifteen dollars</data>
    <meter itemprop="availability" value="0.4" min="0" max="1">40%</meter>
    <a itemprop="url" href=" ../tickets?e=1 ">Buy</a>
  </div>
  <iframe itemprop="subjectOf" src="https://video.example/embed/1"></iframe>
  <object itemprop="associatedMedia" data="media/flyer.pdf"></object>
  <audio itemprop="audio" src="clip.mp3"></audio>
</div>""",
)

ITEMREF_BEFORE = page(
    "Band page",
    """<div itemscope id="amanda" itemref="a b"></div>
<p id="a">Name: <span itemprop="name">Amanda</span></p>
<div id="b" itemprop="band" itemscope itemref="c"></div>
<div id="c">
 <p>Band: <span itemprop="name">Jazz Band</span></p>
 <p>Size: <span itemprop="size">12</span> players</p>
</div>""",
)

ITEMREF_AFTER_AND_INSIDE = page(
    "Movie",
    """<div itemscope itemtype="http://schema.org/Movie" itemref="director-info rating">
  <h1 itemprop="name">Avatar</h1>
  <p id="rating">Rating: <span itemprop="contentRating">PG-13</span></p>
</div>
<div class="sidebar"><p>unrelated</p></div>
<div id="director-info"><span itemprop="director">James Cameron</span> (born August 16, 1954)</div>
<div itemscope itemtype="http://schema.org/Thing"><span itemprop="name">after</span></div>""",
)

ITEMREF_CYCLES = page(
    "Cycles",
    """<div itemscope id="x" itemref="y"><span itemprop="a">1</span></div>
<div itemscope itemprop="p" id="y" itemref="x"><span itemprop="b">2</span></div>
<div itemscope id="self" itemref="self"><span itemprop="c">3</span></div>
<div itemscope itemref="wrap" ><span itemprop="d">4</span></div>
<div id="wrap"><div itemscope itemprop="inner" itemref="wrap"><span itemprop="e">5</span></div><span itemprop="f">6</span></div>""",
)

MULTI_TYPES = page(
    "Types and ids",
    """<div itemscope itemtype="https://schema.org/LocalBusiness https://schema.org/Restaurant" itemid=" urn:isbn:0-330-34032-8 ">
  <span itemprop="name alternateName">Chez Example</span>
  <span itemprop="name">Chez Ex.</span>
  <span itemprop=" telephone ">+1 555 0100</span>
</div>
<div itemscope itemid="urn:no-type"><span itemprop="name">no type, id ignored</span></div>
<div itemscope itemtype=""><span>No properties at all</span></div>
<span itemscope>plain value</span>
<div itemscope itemtype="https://schema.org/SearchAction">
  <meta itemprop="target" content="https://example.com/?q={q}"><input itemprop="query-input" type="text" name="q" required>
</div>""",
)

MISNESTED = page(
    "Misnested",
    """<p itemscope itemtype="https://schema.org/Person"><b><span itemprop="name">Bold <i>name</p> after</b></i>
<table><tr><td itemscope itemtype="https://schema.org/Thing"><span itemprop="name">cell</span></td></tr>
<div itemscope><span itemprop="name">fostered</span></div></table>
<div itemscope itemtype="https://schema.org/Place"><span itemprop="name">un<b>closed</div> tail""",
)

NESTED_NO_PROP = page(
    "Nested without itemprop",
    """<div itemscope itemtype="https://schema.org/WebPage">
  <span itemprop="name">Page</span>
  <div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Inner person</span></div>
  <div itemprop="mainEntity" itemscope itemtype="https://schema.org/Thing"><span itemprop="name">Main</span></div>
</div>
<span itemprop="orphan" itemscope itemtype="https://schema.org/Thing"><span itemprop="name">Orphan</span></span>""",
)

TEXT = page(
    "Text",
    """<div itemscope>
<div itemprop="t1">  Hello,   <em>world</em>!  (see <a href="#">this</a>) </div>
<div itemprop="t2"><h2>Title</h2><p>Para one.</p><p>Para two<br>line</p><ul><li>a</li><li>b</li></ul>tail</div>
<div itemprop="t3">before<style>.x{}</style><script>x()</script>after<!-- c -->end</div>
<div itemprop="t4">x<span></span>y<link rel="x" href="/l">z<meta name="a" content="b">w</div>
<div itemprop="t5"><dl><dt>k</dt><dd>v</dd></dl><pre>  keep   this  </pre><table><tr><td>c1</td><td>c2</td></tr></table></div>
<span itemprop="t6">&nbsp;nb&nbsp;sp&nbsp;</span>
<span itemprop="t7"></span>
<div itemprop="t8">"quoted" (paren) [bracket], end.</div>
</div>""",
)

BASE_PAGE = page(
    "Base",
    """<div itemscope><a itemprop="u" href="x/y">y</a><img itemprop="i" src="//cdn.example.net/i.png"><a itemprop="e" href="">e</a></div>""",
    extra='<base href="http://base.example/sub/">\n',
)

PAGES: dict[str, str] = {
    "product": PRODUCT,
    "recipe": RECIPE,
    "article": ARTICLE,
    "breadcrumbs": BREADCRUMBS,
    "event": EVENT,
    "itemref-before": ITEMREF_BEFORE,
    "itemref-after-and-inside": ITEMREF_AFTER_AND_INSIDE,
    "itemref-cycles": ITEMREF_CYCLES,
    "multi-types": MULTI_TYPES,
    "misnested": MISNESTED,
    "nested-no-prop": NESTED_NO_PROP,
    "text": TEXT,
    "base": BASE_PAGE,
}

#: A Genesis-style WordPress page: the body is a WebPage item; the site header, the post and
#: the sidebar are items inside it (some its properties, some not).
PAGE_ITEM_BODY = (
    page(
        "Hello world - My Blog",
        """<meta itemscope itemtype="https://schema.org/WPHeader" itemid="#header">""",
    )
    .replace(
        "<body>",
        '<body class="home blog" itemscope itemtype="https://schema.org/WebPage">',
    )
    .replace(
        "\n</body>",
        """
<div class="site-container">
<header class="site-header" itemscope itemtype="https://schema.org/WPHeader">
  <p class="site-title" itemprop="headline"><a href="/">My Blog</a></p>
  <p class="site-description" itemprop="description">Just another blog</p>
</header>
<nav class="nav-primary" itemprop="hasPart" itemscope itemtype="https://schema.org/SiteNavigationElement">
  <a href="/about/" itemprop="url"><span itemprop="name">About</span></a>
</nav>
<main class="content" id="genesis-content">
<meta itemprop="name" content="Home">
<article class="post entry" itemprop="mainEntity" itemscope itemtype="https://schema.org/BlogPosting">
  <h2 class="entry-title" itemprop="headline"><a href="/hello-world/">Hello world!</a></h2>
  <p class="entry-meta"><time class="entry-time" itemprop="datePublished" datetime="2026-12-01T09:00:00+00:00">December 1, 2026</time>
  by <span class="entry-author" itemprop="author" itemscope itemtype="https://schema.org/Person"><span itemprop="name">admin</span></span></p>
  <div class="entry-content" itemprop="text"><p>Welcome to WordPress. This is your first post.</p></div>
</article>
</main>
<aside class="sidebar" role="complementary" itemscope itemtype="https://schema.org/WPSideBar">
  <section class="widget"><h3 class="widgettitle">Recent Posts</h3><ul><li><a href="/hello-world/">Hello world!</a></li></ul></section>
</aside>
<footer class="site-footer" itemscope itemtype="https://schema.org/WPFooter"><p>&copy; 2026 My Blog</p></footer>
<span itemprop="lastReviewed" content="2026-12-02">reviewed</span>
</div>
</body>""",
    )
)

#: Google-style: the html element is the item.
PAGE_ITEM_HTML = (
    '<!doctype html><html itemscope itemtype="http://schema.org/WebPage" lang="en"><head>'
    '<meta content="Search the world" itemprop="description"><meta content="/logo.png" itemprop="image">'
    "<title>Search</title></head><body><div id=main><a href=/about>About</a>"
    '<div itemscope itemtype="http://schema.org/WebSite"><link itemprop="url" href="https://search.example/">'
    '<form itemprop="potentialAction" itemscope itemtype="http://schema.org/SearchAction">'
    '<meta itemprop="target" content="https://search.example/?q={q}"><input itemprop="query-input" name="q" required>'
    "</form></div></div></body></html>"
)

PAGES["page-item-body"] = PAGE_ITEM_BODY
PAGES["page-item-html"] = PAGE_ITEM_HTML
