/**
 * Span selection for the annotation page: turn what the user selects in a paragraph into
 * Python code-point offsets, and draw highlighted spans from text nodes only (strict CSP).
 *
 * Offsets in the platform count code points, like Python's str: "😀" counts 1, while the DOM
 * counts UTF-16 units (2 for it). Every offset this module takes or returns is a code point.
 *
 * Keyboard (caret browsing is off by default in browsers, so the module does it itself; the
 * container needs tabindex="0"): ←/→ move a caret by one character, Ctrl/Alt+←/→ by one
 * word (in a right-to-left container, → goes towards the text's start), Home/End to the ends;
 * with Shift they extend the selection, which is a real DOM selection, and onSelect is called
 * after each step. While the selection is collapsed, an empty <span class="span-select-caret"
 * aria-hidden="true"> shows the caret (style it in CSS).
 *
 * Mouse and touch selections snap to whole words ("novembre 162" → "novembre 1624"): a finger
 * or a pointer cannot hit a character's edge reliably. Holding Alt during a drag, or the page's
 * `exact()` answering true, keeps the characters as selected; the keyboard is exact already.
 * Chinese, Thai: snapping and Ctrl+←/→ also stop at `bounds`, the words of corpus/words.py.
 */
(() => {
  'use strict';

  const SPACE = /[\p{White_Space}\u200B-\u200D\u2060\uFEFF\u00AD]/u;
  const PUNCT = /\p{P}/u;
  // Punctuation that belongs to a value ("50 %", "§ 3", "48° 51′", "AT&T"): never trimmed.
  const KEPT = /[%‰‱#@§¶′″‴&]/u;
  // Apostrophes and hyphens between two letters belong to the word ("d’Arc", "Saint-Denis").
  const JOINERS = new Set(["'", '’', 'ʼ', '-', '‐', '‑', '·']);
  const WORD = /[\p{L}\p{N}\p{M}]/u;
  const CLOSE_OF = { '(': ')', '[': ']', '{': '}', '«': '»', '“': '”', '‹': '›', '‘': '’', '"': '"' };
  const OPEN_OF = Object.fromEntries(Object.entries(CLOSE_OF).map(([o, c]) => [c, o]));
  const CARET_CLASS = 'span-select-caret';
  const DEBOUNCE_MS = 300;

  /** Return 2 when a surrogate pair starts at UTF-16 index i, else 1. */
  const unitsAt = (text, i) => (text.codePointAt(i) > 0xffff ? 2 : 1);
  const clamp = (value, low, high) => Math.min(Math.max(value, low), high);
  const boundSet = (bounds) => (bounds instanceof Set ? bounds : new Set(bounds || []));

  /** Return the code-point index of a UTF-16 index (one inside a surrogate pair rounds down). */
  function toCodePoint(text, utf16Index) {
    let stop = clamp(utf16Index, 0, text.length);
    if (stop > 0 && unitsAt(text, stop - 1) === 2) stop -= 1; // between the two halves
    let points = 0;
    for (let i = 0; i < stop; i += unitsAt(text, i)) points += 1;
    return points;
  }

  /** Return the UTF-16 index of a code-point index (clamped to the text). */
  function toUtf16(text, codePointIndex) {
    let units = 0;
    for (let n = 0; n < codePointIndex && units < text.length; n += 1) units += unitsAt(text, units);
    return units;
  }

  /** Return the length of text in code points. */
  const codePointLength = (text) => toCodePoint(text, text.length);

  /** Return text[start:end] as Python would, with code-point offsets. */
  const slice = (text, start, end) => text.slice(toUtf16(text, start), toUtf16(text, end));

  /** Say whether chars[i] is a letter, or a joiner between two letters of the paragraph. */
  function isWordChar(chars, i) {
    if (WORD.test(chars[i])) return true;
    return JOINERS.has(chars[i]) && i > 0 && WORD.test(chars[i - 1] || '') && WORD.test(chars[i + 1] || '');
  }

  /** Say whether chars[i] is punctuation that trimming may remove. */
  function isTrimmable(chars, i) {
    return PUNCT.test(chars[i]) && !KEPT.test(chars[i]) && !isWordChar(chars, i);
  }

  /** Return the index of the bracket or quote pairing with chars[from], or -1: direction 1
   * looks for a closing one before `limit`, -1 for an opening one after it. */
  function pairIndex(chars, from, limit, direction) {
    const mate = (direction > 0 ? CLOSE_OF : OPEN_OF)[chars[from]];
    let depth = 0;
    for (let j = from + direction; mate && j !== limit; j += direction) {
      if (chars[j] === mate && depth === 0) return j;
      if (chars[j] === mate) depth -= 1;
      else if (chars[j] === chars[from]) depth += 1;
    }
    return -1;
  }

  /**
   * Return {start, end} without the whitespace and punctuation around the span. A bracket or
   * quote pair enclosing the whole span goes; a closing one whose opening one stays inside is
   * kept ("Louis XVI (roi)"). An empty result is collapsed at the (clamped) start.
   */
  function trimSpan(text, start, end) {
    const chars = Array.from(text);
    const low = clamp(Math.min(start, end), 0, chars.length);
    let [s, e] = [low, clamp(Math.max(start, end), 0, chars.length)];
    while (s < e) {
      if (SPACE.test(chars[s])) { s += 1; continue; }
      if (SPACE.test(chars[e - 1])) { e -= 1; continue; }
      if (isTrimmable(chars, s)) {
        const close = pairIndex(chars, s, e, 1);
        if (close === e - 1) { s += 1; e -= 1; continue; }
        if (close === -1) { s += 1; continue; }
      }
      if (isTrimmable(chars, e - 1) && pairIndex(chars, e - 1, s - 1, -1) === -1) { e -= 1; continue; }
      return { start: s, end: e };
    }
    return { start: low, end: low };
  }

  /** Say whether a boundary before chars[i] cuts a word or number ("16|24", "3,|5"; bounds: no). */
  function cutsAt(chars, i, bounds) {
    const number = (a, b, c) => /\p{N}/u.test(a || '') && /[.,]/.test(b || '') && /\p{N}/u.test(c || '');
    if (i <= 0 || i >= chars.length || bounds.has(i)) return false;
    return (WORD.test(chars[i - 1]) && WORD.test(chars[i]))
      || number(chars[i - 1], chars[i], chars[i + 1]) || number(chars[i - 2], chars[i - 1], chars[i]);
  }

  /** Return {start, end} (code points) grown to whole words (`bounds`: see the top). */
  function snapToWords(text, start, end, bounds) {
    const [chars, stops] = [Array.from(text), boundSet(bounds)];
    let [s, e] = [start, end];
    while (s < e && cutsAt(chars, s, stops)) s -= 1;
    while (s < e && cutsAt(chars, e, stops)) e += 1;
    return { start: s, end: e };
  }

  /** Return the words a span cuts: {start: the word it starts inside, or '', end: likewise}. */
  function cutWords(text, start, end, bounds) {
    const [chars, stops] = [Array.from(text), boundSet(bounds)];
    const word = (i) => { const w = snapToWords(text, i, i + 1, stops); return chars.slice(w.start, w.end).join(''); };
    return { start: start < end && cutsAt(chars, start, stops) ? word(start) : '',
             end: start < end && cutsAt(chars, end, stops) ? word(end - 1) : '' };

  }

  /** Return the UTF-16 offset in container's text of a DOM point, clipped to the container. */
  function domToUtf16(container, node, offset) {
    const whole = document.createRange();
    whole.selectNodeContents(container);
    const where = whole.comparePoint(node, offset);
    if (where !== 0) return where < 0 ? 0 : container.textContent.length;
    const point = document.createRange();
    point.setStart(node, offset);
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    let total = 0;
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (t === node) return total + offset;
      if (point.comparePoint(t, 0) > 0) return total; // this text starts after the point
      total += t.data.length;
    }
    return total;
  }

  /** Return the DOM point {node, offset} at a UTF-16 offset of container's text. */
  function utf16ToDom(container, utf16Index) {
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    let total = 0;
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (utf16Index <= total + t.data.length) return { node: t, offset: utf16Index - total };
      total += t.data.length;
    }
    return { node: container, offset: container.childNodes.length };
  }

  /** Return the document selection as code points {anchor, focus, inside}, or null. */
  function readSelection(container, text) {
    const selection = document.getSelection();
    if (!container.isConnected || !selection || !selection.anchorNode || !selection.focusNode) return null;
    const toPoint = (node, offset) => toCodePoint(text, domToUtf16(container, node, offset));
    return {
      anchor: toPoint(selection.anchorNode, selection.anchorOffset),
      focus: toPoint(selection.focusNode, selection.focusOffset),
      inside: container.contains(selection.anchorNode) && container.contains(selection.focusNode),
      touches: container.contains(selection.anchorNode) || container.contains(selection.focusNode),
    };
  }

  /** Make the document selection run from anchor to focus (code points of container's text). */
  function showSelection(container, anchor, focus) {
    const text = container.textContent;
    const a = utf16ToDom(container, toUtf16(text, anchor));
    const f = utf16ToDom(container, toUtf16(text, focus));
    document.getSelection().setBaseAndExtent(a.node, a.offset, f.node, f.offset);
  }

  /** Remove the caret marker, merging the text it split. */
  function hideCaret(container) {
    const marker = container.querySelector(`.${CARET_CLASS}`);
    const parent = marker && marker.parentNode;
    if (marker) marker.remove();
    if (parent) parent.normalize();
  }

  /** Show the caret marker at a code-point position and collapse the selection there. */
  function showCaret(container, position) {
    hideCaret(container);
    const point = utf16ToDom(container, toUtf16(container.textContent, position));
    const marker = Object.assign(document.createElement('span'), { className: CARET_CLASS });
    marker.setAttribute('aria-hidden', 'true');
    const range = document.createRange();
    range.setStart(point.node, point.offset);
    range.insertNode(marker);
    showSelection(container, position, position);
  }

  /** Return the caret position after one step of `key` from `from` over the chars. */
  function step(chars, from, key, byWord, bounds) {
    if (key === 'Home') return 0;
    if (key === 'End') return chars.length;
    if (!byWord) return clamp(from + (key === 'ArrowRight' ? 1 : -1), 0, chars.length);
    let i = from;
    if (key === 'ArrowRight') {
      while (i < chars.length && !isWordChar(chars, i)) i += 1;
      do i += 1; while (i < chars.length && isWordChar(chars, i) && !bounds.has(i));
    } else {
      while (i > 0 && !isWordChar(chars, i - 1)) i -= 1;
      do i -= 1; while (i > 0 && isWordChar(chars, i - 1) && !bounds.has(i));
    }
    return clamp(i, 0, chars.length);
  }

  /**
   * Call onSelect({start, end, text}, {by}) (trimmed code points; by: "mouse", "touch" or
   * "keyboard") whenever the user finishes a non-empty selection inside container. Pointer
   * selections snap to whole words (`bounds`: see the top) unless Alt or exact(). Return detach().
   */
  function attach(container, { onSelect, exact = () => false, bounds = [] }) {
    const stops = boundSet(bounds);
    let caret = { anchor: 0, focus: 0 }; // keyboard position, in code points
    let last = null; // "start:end" of the last span reported
    let [downInside, mouseIsDown, alt, by, timer] = [false, false, false, 'mouse', null];

    const report = (anchor, focus, force) => {
      const text = container.textContent;
      let span = trimSpan(text, anchor, focus);
      const whole = by === 'keyboard' || alt || exact() ? span : snapToWords(text, span.start, span.end, stops);
      if (by === 'mouse' && (whole.start < span.start || whole.end > span.end)) {
        const [low, high] = [Math.min(anchor, focus, whole.start), Math.max(anchor, focus, whole.end)];
        if (anchor <= focus) showSelection(container, low, high); else showSelection(container, high, low);
      }
      span = whole;
      const key = span.start === span.end ? null : `${span.start}:${span.end}`;
      if (!force && key === last) return;
      last = key;
      if (key) onSelect({ start: span.start, end: span.end, text: slice(text, span.start, span.end) }, { by });
    };
    const check = (force) => {
      clearTimeout(timer);
      const now = readSelection(container, container.textContent);
      if (!now || !now.touches) { last = null; return; }
      if (now.inside) caret = { anchor: now.anchor, focus: now.focus };
      report(now.anchor, now.focus, force);
    };
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(() => !mouseIsDown && check(false), DEBOUNCE_MS);
    };

    const onMouseDown = (event) => {
      [mouseIsDown, downInside, alt, by] = [true, container.contains(event.target), event.altKey, 'mouse'];
      if (downInside) hideCaret(container);
    };
    const onMouseUp = (event) => {
      [mouseIsDown, alt] = [false, alt || event.altKey];
      check(downInside || container.contains(event.target));
    };
    const onTouch = () => { [by, alt] = ['touch', false]; later(); };
    const onKeyDown = (event) => {
      const keys = ['ArrowLeft', 'ArrowRight', 'Home', 'End'];
      if (!keys.includes(event.key) || event.metaKey) return;
      event.preventDefault();
      by = 'keyboard';
      const text = container.textContent;
      const now = readSelection(container, text);
      if (now && now.inside) caret = { anchor: now.anchor, focus: now.focus };
      const byWord = event.ctrlKey || event.altKey;
      const rtl = getComputedStyle(container).direction === 'rtl'; // → goes to the start in Arabic
      const key = (rtl && { ArrowLeft: 'ArrowRight', ArrowRight: 'ArrowLeft' }[event.key]) || event.key;
      // Like a text field: ←/→ without Shift collapse a selection to its start/end.
      const collapse = !event.shiftKey && !byWord && caret.anchor !== caret.focus && key.startsWith('Arrow');
      const ends = [Math.min(caret.anchor, caret.focus), Math.max(caret.anchor, caret.focus)];
      const target = collapse ? ends[key === 'ArrowLeft' ? 0 : 1]
        : step(Array.from(text), caret.focus, key, byWord, stops);
      caret = { anchor: event.shiftKey ? caret.anchor : target, focus: target };
      if (caret.anchor === caret.focus) showCaret(container, target);
      else { hideCaret(container); showSelection(container, caret.anchor, caret.focus); }
      if (event.shiftKey) report(caret.anchor, caret.focus, true);
    };
    const onKeyUp = (event) => { if (event.shiftKey || event.key === 'Shift') check(false); };
    const onBlur = () => hideCaret(container);

    const listeners = [
      [document, 'mousedown', onMouseDown], [document, 'mouseup', onMouseUp],
      [document, 'touchstart', onTouch], [document, 'touchend', onTouch], [document, 'selectionchange', later],
      [container, 'keydown', onKeyDown], [container, 'keyup', onKeyUp], [container, 'blur', onBlur],
    ];
    listeners.forEach(([target, type, handler]) => target.addEventListener(type, handler));
    return function detach() {
      clearTimeout(timer);
      listeners.forEach(([target, type, handler]) => target.removeEventListener(type, handler));
      hideCaret(container);
    };
  }

  /**
   * Re-render container from text with spans [{start, end, className, label}] (code points)
   * as <mark> elements. Where spans overlap, the one later in the array wins: an earlier span
   * is cut around it, so it may render as several <mark>s with the same class and label. A
   * document selection inside the container is kept.
   */
  function highlight(container, text, spans) {
    const plain = container.childNodes.length === 1 && container.firstChild.nodeType === Node.TEXT_NODE;
    if (!(spans && spans.length) && plain && container.textContent === text) return; // nothing to redo
    const kept = readSelection(container, container.textContent);
    const chars = Array.from(text);
    const owner = new Array(chars.length).fill(-1);
    (spans || []).forEach((span, index) => {
      for (let i = Math.max(span.start, 0); i < Math.min(span.end, chars.length); i += 1) owner[i] = index;
    });
    const nodes = [];
    for (let runStart = 0, i = 1; i <= chars.length; i += 1) {
      if (i < chars.length && owner[i] === owner[runStart]) continue;
      const piece = document.createTextNode(chars.slice(runStart, i).join(''));
      const span = spans && spans[owner[runStart]];
      nodes.push(span ? markOf(piece, span, owner[runStart]) : piece);
      runStart = i;
    }
    container.replaceChildren(...nodes);
    if (!kept || !kept.inside) return;
    const [anchor, focus] = [Math.min(kept.anchor, chars.length), Math.min(kept.focus, chars.length)];
    if (anchor === focus && document.activeElement === container) showCaret(container, focus);
    else showSelection(container, anchor, focus);
  }

  /** Return a <mark> holding piece, with the span's class, label and index. */
  function markOf(piece, span, index) {
    const mark = document.createElement('mark');
    if (span.className) mark.className = span.className;
    // Role "mark" prohibits aria-label (ARIA 1.3): the label is a title and a description.
    if (span.label) mark.title = span.label;
    if (span.label) mark.setAttribute('aria-description', span.label);
    mark.dataset.spanIndex = String(index);
    mark.append(piece);
    return mark;
  }

  window.SpanSelect = Object.freeze({
    toCodePoint, toUtf16, codePointLength, slice, trimSpan, snapToWords, cutWords, attach, highlight,
  });
})();
