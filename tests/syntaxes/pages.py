"""Pages for the syntax tests, written as sites publish them (WordPress with Yoast, a shop, a
recipe blog, a news site with Dublin Core, a repository landing page)."""

from __future__ import annotations

WORDPRESS_POST = """<!DOCTYPE html>
<html lang="en-US" prefix="og: https://ogp.me/ns#">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>How we moved to static hosting - Example Blog</title>
<meta name="description" content="The steps we took, and what broke.">
<meta name="robots" content="index, follow, max-snippet:-1">
<link rel="canonical" href="https://blog.example.com/2024/05/static-hosting/">
<meta property="og:locale" content="en_US">
<meta property="og:type" content="article">
<meta property="og:title" content="How we moved to static hosting">
<meta property="og:description" content="The steps we took, and what broke.">
<meta property="og:url" content="https://blog.example.com/2024/05/static-hosting/">
<meta property="og:site_name" content="Example Blog">
<meta property="article:publisher" content="https://www.facebook.com/exampleblog">
<meta property="article:tag" content="hosting">
<meta property="article:tag" content="static sites">
<meta property="article:published_time" content="2024-05-02T09:00:00+00:00">
<meta property="og:image" content="https://blog.example.com/wp-content/uploads/hero.jpg">
<meta property="og:image:width" content="1200">
<meta property="og:image:height" content="630">
<meta property="og:image" content="https://blog.example.com/wp-content/uploads/diagram.png">
<meta property="og:image" content="">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:site" content="@exampleblog">
<meta name="twitter:label1" content="Written by">
<meta name="twitter:data1" content="Ada">
<script type="application/ld+json" class="yoast-schema-graph">{"@context":"https://schema.org","@graph":[
{"@type":"Article","@id":"https://blog.example.com/2024/05/static-hosting/#article",
 "headline":"How we moved to static hosting","datePublished":"2024-05-02T09:00:00+00:00",
 "author":{"name":"Ada","@id":"https://blog.example.com/#/schema/person/1"},"wordCount":1234,
 "keywords":["hosting","static sites"],"inLanguage":"en-US"},
{"@type":"BreadcrumbList","@id":"https://blog.example.com/2024/05/static-hosting/#breadcrumb",
 "itemListElement":[{"@type":"ListItem","position":1,"name":"Home","item":"https://blog.example.com/"},
 {"@type":"ListItem","position":2,"name":"How we moved to static hosting"}]},
{"@type":"WebSite","@id":"https://blog.example.com/#website","url":"https://blog.example.com/",
 "potentialAction":[{"@type":"SearchAction","target":{"@type":"EntryPoint",
 "urlTemplate":"https://blog.example.com/?s={search_term_string}"},"query-input":"required name=search_term_string"}]}
]}</script>
<link rel="stylesheet" href="/wp-content/themes/example/style.css">
<style>body{font-family:sans-serif}</style>
</head>
<body class="post-template-default single single-post">
<div id="page" class="site">
<header class="site-header"><a href="/" rel="home">Example Blog</a>
<nav><ul><li><a href="/about/">About</a></li><li><a href="/feed/">RSS</a></li></ul></nav></header>
<main id="main">
<article id="post-42" class="post-42 post type-post status-publish h-entry hentry">
<h1 class="entry-title p-name">How we moved to static hosting</h1>
<div class="entry-meta">by <span class="p-author h-card"><a class="u-url p-name" href="/author/ada/">Ada</a></span>
<time class="dt-published" datetime="2024-05-02T09:00:00+00:00">May 2, 2024</time></div>
<div class="entry-content e-content"><p>We moved <strong>everything</strong>.</p>
<script type="text/javascript">var x = "<script type='application/ld+json'>";</script>
<p>It took a week.</p></div>
</article>
<section class="comments"><h2>Comments</h2>
<div class="comment h-cite"><span class="p-author">Bob</span>: <p class="p-content">Nice!</p></div></section>
</main>
<footer><p>&copy; 2024 <a rel="license" href="https://creativecommons.org/licenses/by/4.0/">CC BY</a></p></footer>
<script type="application/ld+json">
{
  "@context": "https://schema.org",
  "@type": "Organization",
  "name": "Example Blog",
  "logo": "https://blog.example.com/logo.png"
}
</script>
</div>
</body>
</html>
"""

SHOP_PRODUCT = """<!doctype html>
<html lang="de">
<head prefix="og: http://ogp.me/ns# fb: http://ogp.me/ns/fb# product: http://ogp.me/ns/product#">
<meta charset="utf-8">
<title>Wanderschuh Alpin | Schuhladen</title>
<meta property="og:type" content="product">
<meta property="og:title" content="Wanderschuh Alpin">
<meta property="og:image" content="https://shop.example.de/img/alpin-1.jpg">
<meta property="og:image" content="https://shop.example.de/img/alpin-2.jpg">
<meta property="product:price:amount" content="129.95">
<meta property="product:price:currency" content="EUR">
<meta property="fb:app_id" content="1234567890">
<meta property="twitter:card" content="product">
<meta name="twitter:title" value="Wanderschuh Alpin">
<script type="application/ld+json">
<!--
{"@context": "http://schema.org/", "@type": "Product", "name": "Wanderschuh Alpin",
 "image": ["https://shop.example.de/img/alpin-1.jpg", "https://shop.example.de/img/alpin-2.jpg"],
 "description": "Leichter Wanderschuh mit Gore-Tex.",
 "sku": "ALP-42", "brand": {"@type": "Brand", "name": "Bergwerk"},
 "offers": {"@type": "Offer", "price": "129.95", "priceCurrency": "EUR",
   "availability": "http://schema.org/InStock", "url": "https://shop.example.de/alpin"},
 "aggregateRating": {"@type": "AggregateRating", "ratingValue": "4.6", "reviewCount": "89"},
}
-->
</script>
</head>
<body>
<div class="product"><h1>Wanderschuh Alpin</h1><span class="price">129,95 &euro;</span></div>
<script type="application/ld+json">//<![CDATA[
{"@context":"https://schema.org","@type":"BreadcrumbList","itemListElement":[
 {"@type":"ListItem","position":1,"name":"Schuhe","item":"https://shop.example.de/schuhe"},
 {"@type":"ListItem","position":2,"name":"Wanderschuhe","item":"https://shop.example.de/schuhe/wandern"},]}
//]]></script>
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Organization", "name": "Schuhladen"</script>
</body>
</html>
"""

RECIPE = """<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>Lemon cake</title>
<meta property="og:title" content="Lemon cake">
<meta property="og:type" content="website">
<meta property="og:title" content="Lemon cake (again)">
<meta property="og:description" content="">
<meta property="og:description" content="Moist and sharp.">
<meta property="unknown:thing" content="not declared">
<script type="application/ld+json">[
  {"@context": "https://schema.org/", "@type": "Recipe", "name": "Lemon cake",
   "recipeIngredient": ["200 g flour", "2 lemons", "150 g sugar"],
   "description": "A cake\twith\ttabs and a raw
newline in a string",
   "recipeInstructions": [{"@type": "HowToStep", "text": "Mix."}, {"@type": "HowToStep", "text": "Bake."}],
   "nutrition": {"@type": "NutritionInformation", "calories": "320 calories"}},
  {},
  {"@context": "https://schema.org/", "@type": "VideoObject", "name": "Making lemon cake"}
]</script>
<script type="application/json">{"not": "json-ld"}</script>
<script type="application/ld+json"></script>
</head>
<body><h1>Lemon cake</h1>
<script type="application/ld+json">{"@context": "https://schema.org", "@type": "Person", "name": "Cook", "big": 123456789012345678901234567890}</script>
</body>
</html>
"""

NEWS_DUBLIN_CORE = """<!DOCTYPE html>
<html lang="fr">
<head>
<meta charset="utf-8">
<title>Un article</title>
<link rel="schema.DC" href="http://purl.org/dc/elements/1.1/">
<link rel="schema.DCTERMS" href=" http://purl.org/dc/terms/ ">
<link rel="schema.foaf" href="http://xmlns.com/foaf/0.1/">
<meta name="DC.title" lang="fr" content="Un article">
<meta name="DC.creator" content="Jeanne Dupont">
<meta name="DC.subject" content="politique">
<meta name="DC.Type" content="Text">
<meta name="DC.format" scheme="DCTERMS.IMT" content="text/html">
<meta name="DCTERMS.modified" scheme="DCTERMS.W3CDTF" content="2024-03-01">
<meta name="dcterms.isPartOf" content="Le Journal">
<meta name="DC.date.created" content="2024-02-28">
<meta name="description" content="Un résumé.">
<meta name="keywords" content="a, b">
<link rel="DCTERMS.license" href="https://creativecommons.org/licenses/by/4.0/">
<link rel="license" href="https://example.org/licence">
<link rel="alternate" type="application/rss+xml" href="/rss">
<meta property="og:title" content="Un article">
</head>
<body>
<article><h1>Un article</h1><p>Texte.</p>
<meta name="DC.publisher" content="Le Journal SA">
<link rel="DCTERMS.rightsHolder" href="https://journal.example.fr/">
</article>
</body>
</html>
"""

NO_METADATA = """<!doctype html><html><head><title>plain</title></head>
<body><p>Nothing structured here.</p></body></html>
"""

PAGES = {
    "wordpress-post": WORDPRESS_POST,
    "shop-product": SHOP_PRODUCT,
    "recipe": RECIPE,
    "news-dublin-core": NEWS_DUBLIN_CORE,
    "no-metadata": NO_METADATA,
}
