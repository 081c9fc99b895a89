"""Static tables of the WHATWG tree construction stage (HTML 13.2.4, 13.2.6).

Element categories, scope boundaries, the SVG/MathML name and attribute case
adjustments, and the DOCTYPE public/system identifier lists that select quirks
mode. Names are the spec's; every set holds local names of HTML elements unless
its name says otherwise.
"""

from __future__ import annotations

from typing import Final

from stream_mf2.html.dom import HTML_NS, MATHML_NS, SVG_NS, XLINK_NS, XML_NS, XMLNS_NS

#: ASCII whitespace as the tree builder sees it (CR never reaches it).
WS: Final = "\t\n\f\r "

#: 13.2.4.2 "special" category, HTML namespace part.
SPECIAL_HTML: Final = frozenset(
    [
        "address",
        "applet",
        "area",
        "article",
        "aside",
        "base",
        "basefont",
        "bgsound",
        "blockquote",
        "body",
        "br",
        "button",
        "caption",
        "center",
        "col",
        "colgroup",
        "dd",
        "details",
        "dir",
        "div",
        "dl",
        "dt",
        "embed",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "frame",
        "frameset",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hgroup",
        "hr",
        "html",
        "iframe",
        "img",
        "input",
        "keygen",
        "li",
        "link",
        "listing",
        "main",
        "marquee",
        "menu",
        "meta",
        "nav",
        "noembed",
        "noframes",
        "noscript",
        "object",
        "ol",
        "p",
        "param",
        "plaintext",
        "pre",
        "script",
        "search",
        "section",
        "select",
        "source",
        "style",
        "summary",
        "table",
        "tbody",
        "td",
        "template",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "title",
        "tr",
        "track",
        "ul",
        "wbr",
        "xmp",
    ]
)
#: The "special" category: (namespace, local name) pairs of foreign elements.
SPECIAL_FOREIGN: Final = frozenset(
    [(MATHML_NS, n) for n in ("mi", "mo", "mn", "ms", "mtext", "annotation-xml")]
    + [(SVG_NS, n) for n in ("foreignObject", "desc", "title")]
)

#: 13.2.4.2 formatting elements.
FORMATTING: Final = frozenset(
    ["a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u"]
)

#: Boundaries of "has an element in scope" (HTML part); foreign part below.
#: ``select`` is a boundary since the 2025 relaxed ``<select>`` parser.
SCOPE_HTML: Final = frozenset(["applet", "caption", "html", "table", "td", "th", "marquee", "object", "select", "template"])
SCOPE_FOREIGN: Final = SPECIAL_FOREIGN
LIST_ITEM_SCOPE_HTML: Final = SCOPE_HTML | {"ol", "ul"}
BUTTON_SCOPE_HTML: Final = SCOPE_HTML | {"button"}
TABLE_SCOPE_HTML: Final = frozenset(("html", "table", "template"))

#: 13.2.6.3 generate implied end tags / ... thoroughly.
IMPLIED_END: Final = frozenset(["dd", "dt", "li", "optgroup", "option", "p", "rb", "rp", "rt", "rtc"])
IMPLIED_END_THOROUGH: Final = IMPLIED_END | frozenset(["caption", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr"])

HEADINGS: Final = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))

#: Start tags that close a "p" in button scope before inserting (in body).
CLOSE_P_BLOCKS: Final = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "center",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "header",
        "hgroup",
        "main",
        "menu",
        "nav",
        "ol",
        "p",
        "search",
        "section",
        "summary",
        "ul",
    ]
)
#: End tags handled by "generate implied end tags, pop until" (in body).
END_BLOCKS: Final = frozenset(
    [
        "address",
        "article",
        "aside",
        "blockquote",
        "button",
        "center",
        "details",
        "dialog",
        "dir",
        "div",
        "dl",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "header",
        "hgroup",
        "listing",
        "main",
        "menu",
        "nav",
        "ol",
        "pre",
        "search",
        "section",
        "select",
        "summary",
        "ul",
    ]
)

#: Targets of foster parenting (13.2.6.1, appropriate place for inserting a node).
FOSTER_TARGETS: Final = frozenset(("table", "tbody", "tfoot", "thead", "tr"))

#: Start tags that break out of foreign content (13.2.6.5).
BREAKOUT: Final = frozenset(
    [
        "b",
        "big",
        "blockquote",
        "body",
        "br",
        "center",
        "code",
        "dd",
        "div",
        "dl",
        "dt",
        "em",
        "embed",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "hr",
        "i",
        "img",
        "li",
        "listing",
        "menu",
        "meta",
        "nobr",
        "ol",
        "p",
        "pre",
        "ruby",
        "s",
        "small",
        "span",
        "strong",
        "strike",
        "sub",
        "sup",
        "table",
        "tt",
        "u",
        "ul",
        "var",
    ]
)

MATHML_TEXT_INTEGRATION: Final = frozenset(("mi", "mo", "mn", "ms", "mtext"))
SVG_HTML_INTEGRATION: Final = frozenset(("foreignObject", "desc", "title"))

SVG_TAG_ADJUST: Final = {
    n.lower(): n
    for n in [
        "altGlyph",
        "altGlyphDef",
        "altGlyphItem",
        "animateColor",
        "animateMotion",
        "animateTransform",
        "clipPath",
        "feBlend",
        "feColorMatrix",
        "feComponentTransfer",
        "feComposite",
        "feConvolveMatrix",
        "feDiffuseLighting",
        "feDisplacementMap",
        "feDistantLight",
        "feDropShadow",
        "feFlood",
        "feFuncA",
        "feFuncB",
        "feFuncG",
        "feFuncR",
        "feGaussianBlur",
        "feImage",
        "feMerge",
        "feMergeNode",
        "feMorphology",
        "feOffset",
        "fePointLight",
        "feSpecularLighting",
        "feSpotLight",
        "feTile",
        "feTurbulence",
        "foreignObject",
        "glyphRef",
        "linearGradient",
        "radialGradient",
        "textPath",
    ]
}

SVG_ATTR_ADJUST: Final = {
    n.lower(): n
    for n in [
        "attributeName",
        "attributeType",
        "baseFrequency",
        "baseProfile",
        "calcMode",
        "clipPathUnits",
        "diffuseConstant",
        "edgeMode",
        "filterUnits",
        "glyphRef",
        "gradientTransform",
        "gradientUnits",
        "kernelMatrix",
        "kernelUnitLength",
        "keyPoints",
        "keySplines",
        "keyTimes",
        "lengthAdjust",
        "limitingConeAngle",
        "markerHeight",
        "markerUnits",
        "markerWidth",
        "maskContentUnits",
        "maskUnits",
        "numOctaves",
        "pathLength",
        "patternContentUnits",
        "patternTransform",
        "patternUnits",
        "pointsAtX",
        "pointsAtY",
        "pointsAtZ",
        "preserveAlpha",
        "preserveAspectRatio",
        "primitiveUnits",
        "refX",
        "refY",
        "repeatCount",
        "repeatDur",
        "requiredExtensions",
        "requiredFeatures",
        "specularConstant",
        "specularExponent",
        "spreadMethod",
        "startOffset",
        "stdDeviation",
        "stitchTiles",
        "surfaceScale",
        "systemLanguage",
        "tableValues",
        "targetX",
        "targetY",
        "textLength",
        "viewBox",
        "viewTarget",
        "xChannelSelector",
        "yChannelSelector",
        "zoomAndPan",
    ]
}

#: "adjust foreign attributes": qualified name -> (prefix, local name, namespace).
#: The DOM keeps the qualified name as the attribute key; this table tells a
#: serialiser which keys of a foreign element are namespaced.
FOREIGN_ATTR_ADJUST: Final[dict[str, tuple[str | None, str, str]]] = {
    "xlink:actuate": ("xlink", "actuate", XLINK_NS),
    "xlink:arcrole": ("xlink", "arcrole", XLINK_NS),
    "xlink:href": ("xlink", "href", XLINK_NS),
    "xlink:role": ("xlink", "role", XLINK_NS),
    "xlink:show": ("xlink", "show", XLINK_NS),
    "xlink:title": ("xlink", "title", XLINK_NS),
    "xlink:type": ("xlink", "type", XLINK_NS),
    "xml:lang": ("xml", "lang", XML_NS),
    "xml:space": ("xml", "space", XML_NS),
    "xmlns": (None, "xmlns", XMLNS_NS),
    "xmlns:xlink": ("xmlns", "xlink", XMLNS_NS),
}

#: Namespaces as the html5lib-tests dumps prefix them.
NS_PREFIX: Final = {HTML_NS: "", SVG_NS: "svg ", MATHML_NS: "math "}

# 13.2.6.4.1 quirks mode from the DOCTYPE token (compared ASCII case-insensitively).
QUIRKS_PUBLIC_EXACT: Final = frozenset(("-//w3o//dtd w3 html strict 3.0//en//", "-/w3c/dtd html 4.0 transitional/en", "html"))
QUIRKS_SYSTEM_EXACT: Final = "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd"
QUIRKS_PUBLIC_PREFIXES: Final = tuple(
    p.lower()
    for p in (
        "+//Silmaril//dtd html Pro v0r11 19970101//",
        "-//AS//DTD HTML 3.0 asWedit + extensions//",
        "-//AdvaSoft Ltd//DTD HTML 3.0 asWedit + extensions//",
        "-//IETF//DTD HTML 2.0 Level 1//",
        "-//IETF//DTD HTML 2.0 Level 2//",
        "-//IETF//DTD HTML 2.0 Strict Level 1//",
        "-//IETF//DTD HTML 2.0 Strict Level 2//",
        "-//IETF//DTD HTML 2.0 Strict//",
        "-//IETF//DTD HTML 2.0//",
        "-//IETF//DTD HTML 2.1E//",
        "-//IETF//DTD HTML 3.0//",
        "-//IETF//DTD HTML 3.2 Final//",
        "-//IETF//DTD HTML 3.2//",
        "-//IETF//DTD HTML 3//",
        "-//IETF//DTD HTML Level 0//",
        "-//IETF//DTD HTML Level 1//",
        "-//IETF//DTD HTML Level 2//",
        "-//IETF//DTD HTML Level 3//",
        "-//IETF//DTD HTML Strict Level 0//",
        "-//IETF//DTD HTML Strict Level 1//",
        "-//IETF//DTD HTML Strict Level 2//",
        "-//IETF//DTD HTML Strict Level 3//",
        "-//IETF//DTD HTML Strict//",
        "-//IETF//DTD HTML//",
        "-//Metrius//DTD Metrius Presentational//",
        "-//Microsoft//DTD Internet Explorer 2.0 HTML Strict//",
        "-//Microsoft//DTD Internet Explorer 2.0 HTML//",
        "-//Microsoft//DTD Internet Explorer 2.0 Tables//",
        "-//Microsoft//DTD Internet Explorer 3.0 HTML Strict//",
        "-//Microsoft//DTD Internet Explorer 3.0 HTML//",
        "-//Microsoft//DTD Internet Explorer 3.0 Tables//",
        "-//Netscape Comm. Corp.//DTD HTML//",
        "-//Netscape Comm. Corp.//DTD Strict HTML//",
        "-//O'Reilly and Associates//DTD HTML 2.0//",
        "-//O'Reilly and Associates//DTD HTML Extended 1.0//",
        "-//O'Reilly and Associates//DTD HTML Extended Relaxed 1.0//",
        "-//SQ//DTD HTML 2.0 HoTMetaL + extensions//",
        "-//SoftQuad Software//DTD HoTMetaL PRO 6.0::19990601::extensions to HTML 4.0//",
        "-//SoftQuad//DTD HoTMetaL PRO 4.0::19971010::extensions to HTML 4.0//",
        "-//Spyglass//DTD HTML 2.0 Extended//",
        "-//Sun Microsystems Corp.//DTD HotJava HTML//",
        "-//Sun Microsystems Corp.//DTD HotJava Strict HTML//",
        "-//W3C//DTD HTML 3 1995-03-24//",
        "-//W3C//DTD HTML 3.2 Draft//",
        "-//W3C//DTD HTML 3.2 Final//",
        "-//W3C//DTD HTML 3.2//",
        "-//W3C//DTD HTML 3.2S Draft//",
        "-//W3C//DTD HTML 4.0 Frameset//",
        "-//W3C//DTD HTML 4.0 Transitional//",
        "-//W3C//DTD HTML Experimental 19960712//",
        "-//W3C//DTD HTML Experimental 970421//",
        "-//W3C//DTD W3 HTML//",
        "-//W3O//DTD W3 HTML 3.0//",
        "-//WebTechs//DTD Mozilla HTML 2.0//",
        "-//WebTechs//DTD Mozilla HTML//",
    )
)
#: Quirks if the system identifier is missing, limited quirks if present.
HTML401_PREFIXES: Final = ("-//w3c//dtd html 4.01 frameset//", "-//w3c//dtd html 4.01 transitional//")
LIMITED_QUIRKS_PREFIXES: Final = ("-//w3c//dtd xhtml 1.0 frameset//", "-//w3c//dtd xhtml 1.0 transitional//")


def quirks_mode_for(name: str | None, public_id: str | None, system_id: str | None, force_quirks: bool) -> str:
    """The document mode a DOCTYPE token selects (13.2.6.4.1, "initial" mode)."""
    if force_quirks or name != "html":
        return "quirks"
    pub = public_id.lower() if public_id is not None else None
    sys_ = system_id.lower() if system_id is not None else None
    if pub is not None:
        if pub in QUIRKS_PUBLIC_EXACT or pub.startswith(QUIRKS_PUBLIC_PREFIXES):
            return "quirks"
        if sys_ is None and pub.startswith(HTML401_PREFIXES):
            return "quirks"
        if pub.startswith(LIMITED_QUIRKS_PREFIXES):
            return "limited-quirks"
        if sys_ is not None and pub.startswith(HTML401_PREFIXES):
            return "limited-quirks"
    if sys_ == QUIRKS_SYSTEM_EXACT:
        return "quirks"
    return "no-quirks"
