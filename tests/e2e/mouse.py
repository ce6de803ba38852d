"""Real mouse drags over a phrase of the paragraph, for the pages that select answers.

The platform stores offsets in Python code points; the browser counts UTF-16 units, so an
emoji before the phrase shifts them. `phrase_box` converts, finds the phrase's first and last
character on screen and returns where a drag starts and ends; `drag_phrase` drags over it.
"""

from __future__ import annotations

# [start, end, scroll] -> [x1, y1, x2, y2]: just inside the first character's left edge and
# the last character's right edge, at half their line's height.
_BOX = """([start, end, scroll]) => {
    const p = document.getElementById('paragraph');
    const text = p.textContent;
    const u = (cp) => { let i = 0, n = 0; while (n < cp) { const c = text.codePointAt(i);
                         i += c > 0xffff ? 2 : 1; n++; } return i; };
    const walker = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
    const locate = (offset) => { let node, seen = 0;
        while ((node = walker.nextNode())) { if (seen + node.length >= offset)
            return [node, offset - seen]; seen += node.length; } };
    const [a, ao] = locate(u(start)); walker.currentNode = p;
    const [b, bo] = locate(u(end));
    const range = document.createRange();
    range.setStart(a, ao); range.setEnd(b, bo);
    if (scroll) range.startContainer.parentElement.scrollIntoView({block: 'nearest'});
    const rects = range.getClientRects();
    const first = rects[0], last = rects[rects.length - 1];
    return [first.left + 1, (first.top + first.bottom) / 2,
            last.right - 1, (last.top + last.bottom) / 2];
}"""


def phrase_box(page, text: str, phrase: str, *, scroll: bool = False) -> list[float]:
    """Return [x1, y1, x2, y2] of `phrase` (its first occurrence in `text`) in #paragraph.

    With `scroll`, its first line is scrolled into view first (a phone's long page).
    """
    start = text.index(phrase)
    return page.evaluate(_BOX, [start, start + len(phrase), scroll])


def drag(page, box: list[float], *, steps: int = 8) -> None:
    """Press at the box's start, move in `steps` to its end, release."""
    page.mouse.move(box[0], box[1])
    page.mouse.down()
    page.mouse.move(box[2], box[3], steps=steps)
    page.mouse.up()


def drag_phrase(page, text: str, phrase: str, *, scroll: bool = False) -> None:
    """Select `phrase` of `text` in #paragraph with a real mouse drag."""
    drag(page, phrase_box(page, text, phrase, scroll=scroll))
