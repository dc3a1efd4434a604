"""The brief's paragraph markup read into reportlab fragments without an HTML parser.

reportlab reads a Paragraph's markup with ``html.parser`` (``ParaParser.feed``): a regex scan
per character class, a start-tag parse per tag, and for every ``<font color="#…">`` a colour
conversion that tries named colours, a literal and an expression before the hex form. With
about 2,000 paragraphs that is a good part of a brief's layout. The brief writes a small,
fixed markup (:mod:`casefile.export.brief_layout`, :mod:`casefile.export.textruns`): ``<b>``,
``<i>``, ``<br/>``, ``<font color="#rrggbb">``, ``<font name="FONT">`` and the entities
``&amp;`` ``&lt;`` ``&gt;`` ``&quot;``. :func:`parse` reads exactly that with one regex and
calls reportlab's own parser's handlers in the order ``html.parser`` would (text split at each
tag and entity, a self-closing tag as its start then its end), so the fragments are the ones
reportlab makes; any other markup gives None, and the caller lets reportlab parse it.

The attribute conversions (a colour string into a ``Color``) are kept per value: fragments
then share one ``Color`` per colour, which reportlab only reads.
"""

from __future__ import annotations

import re
from typing import Any

from reportlab.lib.fonts import tt2ps
from reportlab.platypus.paragraph import cleanBlockQuotedText, textTransformFrags
from reportlab.platypus.paraparser import ParaParser, _applyAttributes, _spanAttrMap

__all__ = ["parse"]

# A token of the brief's markup; a "<" or "&" that starts none of them is the "stray" group.
_TOKEN = re.compile(
    r"([^<&]+)"                                     # text
    r"|<(b|i|/b|/i|/font)>"                         # simple tags
    r"|(<br/>)"                                     # a line break
    r'|<font (color|name)="([#\w.\-]+)">'           # one attribute, a constant of the brief
    r"|&(amp|lt|gt|quot);"                          # the entities escape() writes
    r"|([<&])"                                      # anything else: reportlab parses it
)
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"'}
_PARA_START = re.compile(r"^\s*<\s*para(?:\s+|>|/>)")

#: ``(attribute, value) -> converted attributes`` of ``<font>`` tags, for every brief.
_FONT_ATTRIBUTES: dict[tuple[str, str], dict[str, Any]] = {}


def _copy(frag: Any) -> Any:
    """``copy.copy(frag)`` of a reportlab fragment (an attribute bag) without its generic
    machinery: a new bag holding the same attributes."""
    new = frag.__class__.__new__(frag.__class__)
    new.__dict__.update(frag.__dict__)
    return new


class _Parser(ParaParser):
    """reportlab's parser, driven by :func:`parse`; a ``<font>`` tag's attributes are
    converted once per value, and fragments are copied directly (``_push``, ``handle_data``:
    what reportlab's do, for the brief's markup)."""

    def _push(self, tag: str, **attr: Any) -> None:
        frag = _copy(self._stack[-1])
        frag.__tag__ = tag
        _applyAttributes(frag, attr)
        self._stack.append(frag)

    def handle_data(self, data: str) -> None:
        top = self._stack[-1]
        held = top.__dict__
        if top.greek or "cbDefn" in held or "_selfClosingTag" in held or "isBullet" in held:
            super().handle_data(data)  # markup the brief does not write: reportlab's way
            return
        frag = _copy(top)
        frag.fontName = tt2ps(frag.fontName, frag.bold, frag.italic)
        frag.text = data
        self.fragList.append(frag)

    def getAttributes(self, attr: dict[str, str], attrMap: Any) -> dict[str, Any]:  # noqa: N802, N803
        if attrMap is not _spanAttrMap or len(attr) != 1:
            return dict(super().getAttributes(attr, attrMap))
        ((key, value),) = attr.items()
        known = _FONT_ATTRIBUTES.get((key, value))
        if known is None:  # an unknown attribute raises ValueError (crashOnError)
            known = _FONT_ATTRIBUTES[(key, value)] = super().getAttributes(attr, attrMap)
        return dict(known)  # start_font changes the dict it is given


def parse(markup: str, style: Any) -> tuple[str, list[Any]] | None:
    """``(text, frags)`` as ``Paragraph(markup, style)`` would set them (its text with
    whitespace runs folded, the fragments of its markup), or None when ``markup`` holds
    anything but the brief's own tags and entities (then reportlab reads it)."""
    text = cleanBlockQuotedText(markup)
    if text.startswith("<para") or _PARA_START.match(text):
        return None
    parser = _Parser()
    parser._setup_for_parse(style)
    parser.start_para({})
    data = parser.handle_data
    try:
        for m in _TOKEN.finditer(text):
            chunk, tag, br, attribute, value, entity, _stray = m.groups()
            if chunk is not None:
                data(chunk)
            elif tag is not None:
                if tag[0] == "/":
                    getattr(parser, "end_" + tag[1:])()
                else:
                    getattr(parser, "start_" + tag)({})
            elif br is not None:
                parser.start_br({})
                parser.end_br()
            elif attribute is not None:
                parser.start_font({attribute: value})
            elif entity is not None:
                data(_ENTITIES[entity])
            else:  # a stray "<" or "&"
                return None
        parser.end_para()
    except ValueError:  # unbalanced tags: reportlab's own parse says what is wrong
        return None
    _style, frags, bullet = parser._complete_parse()
    if frags is None or bullet:
        return None
    textTransformFrags(frags, style)
    return text, frags
