"""Pages with RDFa as sites publish it, for the oracle and chunking tests.

Each is written after a real source of markup: WordPress themes and plugins (Yoast's
old breadcrumbs, schema.org RDFa Lite), Drupal 8+ core's RDF module, OpenGraph heads,
FOAF profiles, the schema.org and RDFa Primer examples, plus the Core rules pages
use less often (lists, datatypes, XML literals, chaining, safe CURIEs, blank nodes).
"""

from __future__ import annotations

OPENGRAPH_HEAD = """<!DOCTYPE html>
<html lang="en-US" prefix="og: http://ogp.me/ns# fb: http://ogp.me/ns/fb# article: http://ogp.me/ns/article#">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>How to brew coffee &#8211; The Coffee Blog</title>
<link rel="canonical" href="https://coffee.example/how-to-brew/">
<meta property="og:locale" content="en_US">
<meta property="og:type" content="article">
<meta property="og:title" content="How to brew coffee">
<meta property="og:description" content="Ten steps to a better cup.">
<meta property="og:url" content="https://coffee.example/how-to-brew/">
<meta property="og:site_name" content="The Coffee Blog">
<meta property="article:published_time" content="2021-03-04T08:00:00+00:00">
<meta property="article:tag" content="coffee">
<meta property="article:tag" content="brewing">
<meta property="og:image" content="https://coffee.example/wp-content/uploads/cup.jpg">
<meta property="og:image:width" content="1200">
<meta property="fb:app_id" content="1234567890">
<meta name="twitter:card" content="summary_large_image">
<link rel="stylesheet" id="theme-css" href="https://coffee.example/wp-content/themes/t/style.css" type="text/css" media="all">
<link rel="alternate" type="application/rss+xml" title="Feed" href="https://coffee.example/feed/">
<link rel="license" href="https://creativecommons.org/licenses/by-sa/4.0/">
</head>
<body class="post-template-default single single-post">
<header id="masthead" class="site-header" role="banner"><a href="https://coffee.example/" rel="home">The Coffee Blog</a></header>
<nav id="site-navigation" class="main-navigation" role="navigation" aria-label="Menu">
<ul><li><a href="/">Home</a></li><li><a href="/about/">About</a></li></ul></nav>
<main id="main" role="main"><article><h1>How to brew coffee</h1><p>Grind the beans.</p>
<a href="https://elsewhere.example/" rel="nofollow noopener">a link</a></article></main>
<footer role="contentinfo">&copy; 2021</footer>
</body></html>
"""

WORDPRESS_SCHEMA_RDFA = """<!DOCTYPE html>
<html lang="en-GB">
<head><meta charset="utf-8"><title>Lemon tart recipe</title></head>
<body vocab="http://schema.org/" typeof="WebPage">
<div id="page" class="site">
<div class="breadcrumbs">
<ol typeof="BreadcrumbList">
  <li property="itemListElement" typeof="ListItem">
    <a property="item" typeof="WebPage" href="https://bakery.example/"><span property="name">Home</span></a>
    <meta property="position" content="1">
  </li>
  <li property="itemListElement" typeof="ListItem">
    <a property="item" typeof="WebPage" href="https://bakery.example/recipes/"><span property="name">Recipes</span></a>
    <meta property="position" content="2">
  </li>
</ol></div>
<article id="post-42" class="post-42 post type-post" typeof="Recipe" resource="https://bakery.example/lemon-tart/#recipe">
  <h1 class="entry-title" property="name">Lemon tart</h1>
  <img property="image" src="/wp-content/uploads/tart.jpg" alt="A lemon tart">
  <div class="entry-meta">By <span property="author" typeof="Person"><a property="url" href="/author/jo/"><span property="name">Jo Baker</span></a></span>
   on <time property="datePublished" datetime="2019-06-01T09:30:00+01:00">1 June 2019</time>
   <time property="dateModified" datetime="2019-06-02">2 June</time></div>
  <div property="description"><p>A sharp, <strong>bright</strong> tart.</p></div>
  <p>Prep: <time property="prepTime" datetime="PT30M">30 minutes</time>,
     cook: <time property="cookTime" datetime="PT1H">1 hour</time>,
     serves <span property="recipeYield">8</span></p>
  <ul><li property="recipeIngredient">3 lemons</li><li property="recipeIngredient">200 g sugar</li>
      <li property="recipeIngredient">4 eggs</li></ul>
  <div property="aggregateRating" typeof="AggregateRating">
    Rated <span property="ratingValue">4.8</span>/5 by <span property="ratingCount">120</span> readers</div>
  <div property="nutrition" typeof="NutritionInformation"><span property="calories">320 calories</span></div>
</article>
<aside role="complementary" id="secondary"><section id="search-2" class="widget widget_search">
<form role="search" method="get" action="/"><input type="search" name="s"></form></section></aside>
</div>
</body></html>
"""

YOAST_BREADCRUMBS_V = """<!DOCTYPE html>
<html xmlns:v="http://rdf.data-vocabulary.org/#" lang="en">
<head><title>Shoes</title></head>
<body>
<div id="breadcrumbs"><span xmlns:v="http://rdf.data-vocabulary.org/#"><span typeof="v:Breadcrumb">
<a href="https://shop.example/" rel="v:url" property="v:title">Home</a></span> &raquo;
<span typeof="v:Breadcrumb"><a href="https://shop.example/shoes/" rel="v:url" property="v:title">Shoes</a></span> &raquo;
<span class="breadcrumb_last">Red shoes</span></span></div>
</body></html>
"""

DRUPAL8_ARTICLE = """<!DOCTYPE html>
<html lang="en" dir="ltr" prefix="content: http://purl.org/rss/1.0/modules/content/  dc: http://purl.org/dc/terms/  foaf: http://xmlns.com/foaf/0.1/  og: http://ogp.me/ns#  rdfs: http://www.w3.org/2000/01/rdf-schema#  schema: http://schema.org/  sioc: http://rdfs.org/sioc/ns#  sioct: http://rdfs.org/sioc/types#  skos: http://www.w3.org/2004/02/skos/core#  xsd: http://www.w3.org/2001/XMLSchema# ">
<head>
<meta charset="utf-8" />
<link rel="canonical" href="https://drupal.example/node/7" />
<link rel="shortlink" href="https://drupal.example/node/7" />
<title>Spring meeting | Club</title>
</head>
<body class="path-node page-node-type-article">
<a href="#main-content" class="visually-hidden focusable">Skip to main content</a>
<div class="dialog-off-canvas-main-canvas" data-off-canvas-main-canvas>
<article role="article" about="/node/7" typeof="schema:Article" class="node node--type-article">
  <h2><a href="/node/7" rel="bookmark"><span property="schema:name">Spring meeting</span></a></h2>
  <span property="schema:name" content="Spring meeting" class="rdf-meta hidden"></span>
  <span property="schema:interactionCount" content="UserComments:3" class="rdf-meta hidden"></span>
  <footer class="node__meta">
    <span rel="schema:author"><span lang="" about="/user/1" typeof="schema:Person" property="schema:name" datatype="">admin</span></span>
    <span property="schema:dateCreated" content="2022-04-01T10:00:00+00:00" class="rdf-meta hidden"></span>
  </footer>
  <div property="schema:text" class="field field--name-body"><p>We meet on <em>Tuesday</em>.</p></div>
  <div class="field field--name-field-tags"><div class="field__items">
    <div class="field__item"><a href="/taxonomy/term/2" property="schema:about" hreflang="en">club</a></div>
    <div class="field__item"><a href="/taxonomy/term/3" property="schema:about" hreflang="en">spring</a></div>
  </div></div>
  <div class="field--name-field-image"><img property="schema:image" src="/sites/default/files/meeting.jpg" width="220" height="145" alt="" typeof="foaf:Image" /></div>
</article>
</div>
</body></html>
"""

FOAF_PROFILE = """<!DOCTYPE html>
<html prefix="foaf: http://xmlns.com/foaf/0.1/ rel: http://purl.org/vocab/relationship/">
<head><title>Alice's home page</title><base href="https://alice.example/people/"></head>
<body>
<div about="#me" typeof="foaf:Person">
  <h1 property="foaf:name">Alice Example</h1>
  <img rel="foaf:img" src="alice.jpg" alt="">
  <a rel="foaf:homepage" href="/">home</a>
  <a rel="foaf:weblog" href="https://blog.alice.example/">blog</a>
  <span property="foaf:nick">al</span>, <span property="foaf:nick" xml:lang="fr">alice-fr</span>
  <p>Friends:</p>
  <ul rel="foaf:knows">
    <li typeof="foaf:Person"><a property="foaf:name" rel="foaf:homepage" href="http://bob.example/">Bob</a></li>
    <li about="http://carol.example/#me" property="foaf:name">Carol</li>
    <li><a href="http://dave.example/#me">Dave</a></li>
  </ul>
  <div rel="rel:friendOf"><div about="[_:erin]" property="foaf:name">Erin</div></div>
  <span rev="foaf:member" resource="https://club.example/#club"></span>
  <p rel="foaf:interest" resource="[foaf:Document]"></p>
</div>
<p about="[_:erin]" property="foaf:mbox_sha1sum" content="abc"></p>
</body></html>
"""

LISTS = """<!DOCTYPE html>
<html><head><title>Paper</title></head>
<body prefix="bibo: http://purl.org/ontology/bibo/ dc: http://purl.org/dc/terms/" vocab="http://schema.org/">
<div typeof="bibo:Document" about="#paper">
  <p>Authors:
   <span property="bibo:authorList" inlist resource="#a1">A One</span>,
   <span property="bibo:authorList" inlist resource="#a2">A Two</span> and
   <span property="bibo:authorList" inlist>A Three (a literal)</span></p>
  <ol rel="bibo:chapters" inlist>
    <li><a href="#c1">One</a></li>
    <li><a href="#c2">Two</a></li>
    <li about="#c3">Three</li>
  </ol>
  <span rel="bibo:editorList" inlist></span>
  <div rel="dc:hasPart" inlist><span typeof="Chapter" property="name">Nested typed member</span></div>
</div>
<ul typeof="ItemList"><li property="itemListElement" inlist>first</li><li property="itemListElement" inlist>second</li></ul>
</body></html>
"""

DATATYPES = """<!DOCTYPE html>
<html lang="en" prefix="ex: http://example.org/ns#">
<head><title>Types</title></head>
<body about="#thing">
<span property="ex:count" datatype="xsd:integer">42</span>
<span property="ex:price" content="9.99" datatype="xsd:decimal">$9.99</span>
<span property="ex:plain" datatype="">no type <b>but text</b></span>
<span property="ex:label" lang="de">Bezeichnung</span>
<span property="ex:label2" xml:lang="es-MX">Etiqueta</span>
<div lang=""><span property="ex:nolang">none</span></div>
<span property="ex:xml" datatype="rdf:XMLLiteral">An <em class="x">XML</em> &amp; literal</span>
<time property="ex:date" datetime="2020-02-29">29 Feb</time>
<time property="ex:datetime" datetime="2020-02-29T12:30:00Z">noon</time>
<time property="ex:datetimezone" datetime="2020-02-29T12:30:00+05:30">noon</time>
<time property="ex:time" datetime="12:30">half past</time>
<time property="ex:year" datetime="2020">2020</time>
<time property="ex:yearmonth" datetime="2020-02">Feb</time>
<time property="ex:duration" datetime="P3D">three days</time>
<time property="ex:timetext">2021-12-25</time>
<time property="ex:plaintext">next week</time>
<time property="ex:typedtext" datatype="xsd:string">2021-12-25</time>
<time property="ex:given" datetime="2020-01-01" datatype="xsd:string">given</time>
<del property="ex:deleted" datetime="2019-01-01">old</del>
<span property="ex:unresolved" datatype="nope:type">x</span>
<meta property="ex:meta" content="from meta">
</body></html>
"""

CHAINING = """<!DOCTYPE html>
<html prefix="ex: http://example.org/ns#">
<head><title>Chaining</title></head>
<body>
<div about="#a" rel="ex:p">
  <div rel="ex:q">
    <span about="#c" property="ex:name">C</span>
  </div>
  <div rev="ex:r"><span about="#d"></span></div>
</div>
<div about="#x" rel="ex:knows" rev="ex:knownBy">
  <div typeof="ex:Person"><span property="ex:name">Anon</span>
    <div rel="ex:child"><div typeof="ex:Person" property="ex:name" content="Kid"></div></div>
  </div>
</div>
<div about="#e" typeof="ex:T" rel="ex:link" resource="#f" property="ex:title">E title</div>
<div typeof="ex:Typed" property="ex:prop">typed literal value</div>
<div about="#g"><div property="ex:has" typeof="ex:Inner"><span property="ex:v">in</span></div></div>
<div about="#h"><div property="ex:link" typeof="ex:Inner" resource="#i"><span property="ex:v">i</span></div></div>
<div about="#j"><a property="ex:page" href="/page">page</a><span property="ex:res" resource="ex:thing">t</span></div>
</body></html>
"""

CURIES = """<!DOCTYPE html>
<html xmlns:foaf="http://xmlns.com/foaf/0.1/" xmlns:Ex="http://example.org/upper#" prefix="dc: http://purl.org/dc/elements/1.1/ my: http://my.example/ns#">
<head><title>CURIEs</title></head>
<body>
<div about="[my:subject]" property="dc:title" content="safe CURIE about"></div>
<div about="my:subject2" property="DC:title MY:other" content="case-insensitive prefixes"></div>
<div about="[]" property="my:p" content="empty safe CURIE about"></div>
<div about="[undefined:x]" property="my:p" content="bad safe CURIE"></div>
<div about="http://absolute.example/x" property="http://absolute.example/prop" content="absolute"></div>
<div about="relative/path" property="my:p" content="relative about"></div>
<div about="_:b1" property="my:p" content="bnode 1"></div>
<div about="_:b1" property="my:q" content="bnode 1 again"></div>
<div about="_:" property="my:p" content="empty bnode"></div>
<div about="#s" property=":xhvterm" content="default prefix"></div>
<div about="#s" property="ex:p" content="Ex via xmlns, lower-cased"></div>
<div about="#s" property="undefined:p" content="undefined prefix: dropped"></div>
<div about="#s" property="my://not-a-curie" content="netloc reference"></div>
<div about="#s" rel="license describedby role LICENSE" href="http://license.example/"></div>
<div about="#s" property="foaf:name" rel="stylesheet foaf:page" href="http://page.example/">mixed</div>
<div about="#s" property="my:p" rel="nofollow" href="http://nofollow.example/">rel terms only</div>
<div prefix="my: http://redefined.example/#"><span about="#t" property="my:p">redefined</span></div>
<div vocab="http://vocab.example/"><span about="#u" property="term another" typeof="Kind">vocab terms</span>
  <div vocab=""><span about="#v" property="term" content="vocab reset: dropped"></span></div></div>
<div role="note doc-example my:role" id="r1">roles</div>
<div role="navigation">role without id</div>
</body></html>
"""

HEAD_BODY = """<!DOCTYPE html>
<html prefix="ex: http://example.org/ns#">
<head typeof="ex:Head"><title property="ex:title">Title</title>
<meta property="ex:m" content="head meta"></head>
<body typeof="ex:Body" rel="ex:top">
<div about="#x"></div>
<span property="ex:p">body text</span>
</body></html>
"""

TABLE_FOSTER = """<!DOCTYPE html>
<html><head><title>Table</title></head>
<body vocab="http://schema.org/">
<table typeof="Table"><tr><td property="about">cell</td></tr>
<span property="name">fostered</span>
<tr><td><span property="description">second</span></td></tr></table>
<div typeof="Product"><table><tr><td property="name">In table</td>
<td property="offers" typeof="Offer"><span property="price">3</span></td></tr></table></div>
</body></html>
"""


PRODUCT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Trail shoe X2 | Shop</title>
<link rel="canonical" href="https://shop.example/p/trail-shoe-x2"></head>
<body>
<div class="product" vocab="https://schema.org/" typeof="Product" resource="https://shop.example/p/trail-shoe-x2#product">
  <img property="image" src="https://cdn.shop.example/x2.jpg" alt="Trail shoe X2">
  <h1 property="name">Trail shoe X2</h1>
  <div property="brand" typeof="Brand"><span property="name">Peak</span></div>
  <meta property="sku" content="X2-42"><meta property="gtin13" content="4006381333931">
  <div property="description">Light, <em>grippy</em>, waterproof.</div>
  <div property="aggregateRating" typeof="AggregateRating">
    <span property="ratingValue">4.4</span> stars from <span property="reviewCount">89</span> reviews</div>
  <div property="offers" typeof="Offer">
    <meta property="priceCurrency" content="EUR">&euro;<span property="price" content="119.00">119,00</span>
    <link property="availability" href="https://schema.org/InStock">In stock
    <meta property="priceValidUntil" content="2027-01-01">
    <div property="seller" typeof="Organization"><span property="name">Shop</span></div>
  </div>
  <div property="review" typeof="Review">
    <span property="reviewRating" typeof="Rating"><meta property="worstRating" content="1">
      <span property="ratingValue">5</span>/<span property="bestRating">5</span></span>
    by <span property="author" typeof="Person"><span property="name">Kim</span></span>,
    <time property="datePublished" datetime="2026-03-01">March 1</time>
    <p property="reviewBody">Great on wet rock.</p>
  </div>
</div>
</body></html>
"""

LITERALS = """<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:ex="http://example.org/ns#"><head><title>Literals</title></head>
<body about="#doc">
<div property="ex:xml" datatype="rdf:XMLLiteral">Text <b class="c">bold</b> <br> &amp; <!-- a comment -->more</div>
<div property="ex:html" datatype="rdf:HTML"><p>Para <a href="/x">link</a></p></div>
<div property="ex:empty" datatype="rdf:XMLLiteral"></div>
<span property="ex:entities">&lt;tag&gt; &amp; &quot;quoted&quot;</span>
<pre property="ex:space">  keeps
   spaces  </pre>
</body></html>
"""

#: An XHTML-era blog: xmlns: prefixes (the old OpenGraph namespace, fbml), the Creative Commons
#: license chooser's RDFa snippet (``rel="license"``, ``cc:attributionName``), XFN/pingback links.
LEGACY_XHTML_CC = """<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:og="http://opengraphprotocol.org/schema/" xmlns:fb="http://www.facebook.com/2008/fbml" xml:lang="en" lang="en">
<head profile="http://gmpg.org/xfn/11">
<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<title>Old blog</title>
<meta property="og:title" content="Old blog post" />
<meta property="og:type" content="blog" />
<meta property="fb:admins" content="12345" />
<meta name="description" content="plain meta" />
<link rel="alternate" type="application/rss+xml" title="RSS" href="http://old.example/feed/" />
<link rel="pingback" href="http://old.example/xmlrpc.php" />
<link rel='shortlink' href='http://old.example/?p=5' />
</head>
<body class="single">
<div id="wrapper"><div class="post" id="post-5">
<h2><a href="http://old.example/post/" rel="bookmark" title="Permanent Link">Post</a></h2>
<small>March 3rd, 2009 <!-- by admin --></small>
<div class="entry"><p>Text with <a href="http://other.example/" rel="external nofollow">a link</a>.</p>
<p><a rel="license" href="http://creativecommons.org/licenses/by/3.0/"><img alt="CC" src="http://i.creativecommons.org/l/by/3.0/88x31.png" /></a></p>
<span xmlns:dc="http://purl.org/dc/elements/1.1/" property="dc:title">Post</span> by
<a xmlns:cc="http://creativecommons.org/ns#" href="http://old.example/" property="cc:attributionName" rel="cc:attributionURL">Admin</a>
</div></div></div>
<div about="http://old.example/post/" typeof="sioc:Post" xmlns:sioc="http://rdfs.org/sioc/ns#">
<span property="sioc:num_replies" datatype="xsd:integer" content="3"></span></div>
</body></html>
"""

ALL: dict[str, str] = {
    "opengraph-head": OPENGRAPH_HEAD,
    "wordpress-schema-rdfa": WORDPRESS_SCHEMA_RDFA,
    "yoast-breadcrumbs-v": YOAST_BREADCRUMBS_V,
    "drupal8-article": DRUPAL8_ARTICLE,
    "foaf-profile": FOAF_PROFILE,
    "lists": LISTS,
    "datatypes": DATATYPES,
    "chaining": CHAINING,
    "curies": CURIES,
    "head-body": HEAD_BODY,
    "table-foster": TABLE_FOSTER,
    "product": PRODUCT,
    "literals": LITERALS,
    "legacy-xhtml-cc": LEGACY_XHTML_CC,
}

#: RDFa and microformats2 on the same elements (themes that emit both): the mf2 roots are kept
#: subtrees too, so the RDFa content values inside them are read when the mf2 item is handed over.
MF2_AND_RDFA = """<!DOCTYPE html>
<html lang="en"><head><title>Post</title>
<meta property="og:title" content="A post"></head>
<body vocab="http://schema.org/">
<article class="h-entry post" typeof="BlogPosting" resource="https://blog.example/post/">
  <h1 class="p-name entry-title" property="headline">A <em>post</em></h1>
  <a class="u-url" property="url" href="https://blog.example/post/">link</a>
  <time class="dt-published" property="datePublished" datetime="2022-05-06T07:08:09+02:00">May 6</time>
  <div class="p-author h-card" property="author" typeof="Person">
    <img class="u-photo" property="image" src="/me.jpg" alt=""><span class="p-name" property="name">Sam</span></div>
  <div class="e-content" property="articleBody"><p>Body <b>text</b>.</p>
    <ul><li property="keywords">one</li><li property="keywords">two</li></ul></div>
  <div class="h-cite" property="citation" typeof="CreativeWork"><span class="p-name" property="name">Cited</span></div>
</article>
<div class="h-card" typeof="Organization"><span class="p-org p-name" property="name">Org</span>
  <a class="u-url" property="url" href="/">home</a></div>
</body></html>
"""
