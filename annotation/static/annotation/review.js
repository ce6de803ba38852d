/* The review page: show the author's answer, let the reviewer pick a verdict with the keyboard,
 * and re-select the span for a correction with the same tool as the annotation page.
 *
 * An unanswerable question shows its plausible span (striped, labelled "not the answer"); the
 * verdict "Actually answerable" asks the reviewer to select the answer with the same tool.
 *
 * A question written with a model in the loop also shows the model's answer in the paragraph
 * (`review-model-mark`: violet, underlined), layered over the other marks where they overlap, so that
 * both stay visible; M opens or closes the list of the attempts.
 *
 * The form posts to the server, which checks everything again; this script only fills the
 * corrected span's (or the answer's) hidden fields (code-point offsets) and the time spent. All
 * text goes into the page through textContent.
 */
(function () {
  "use strict";

  const root = document.getElementById("review");
  if (!root || !window.SpanSelect) return;
  const S = window.SpanSelect;
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($("review-messages").textContent);
  const original = JSON.parse($("review-span").textContent);
  const modelSource = JSON.parse($("review-model-span").textContent);
  const paragraph = JSON.parse($("paragraph-source").textContent);
  // Chinese and Thai: the server tokenizer's word bounds, where whole-word selection stops.
  const language = JSON.parse(($("paragraph-language") || {}).textContent || "null");
  const bounds = language && language.words ? language.words.bounds : [];
  const paragraphEl = $("paragraph");
  const form = $("review-form");
  const exactButton = $("select-inside-words");
  const startedAt = Date.now();
  const unanswerable = root.dataset.unanswerable === "true";
  if (paragraphEl.textContent !== paragraph) paragraphEl.textContent = paragraph;

  const hasOriginal = Number.isInteger(original.start) && Boolean(original.text);
  const originalEnd = hasOriginal ? original.start + S.codePointLength(original.text) : -1;
  const corrected = {
    start: Number.parseInt($("corrected-start").value, 10),
    text: $("corrected-text").value,
  };
  // "Actually answerable": the answer the reviewer selects (unanswerable questions only).
  const answerable = unanswerable ? {
    start: Number.parseInt($("answerable-start").value, 10),
    text: $("answerable-text").value,
  } : null;

  const modelSpan = modelSource && Number.isInteger(modelSource.start) && modelSource.text
    ? { start: modelSource.start, end: modelSource.start + S.codePointLength(modelSource.text), label: T.model }
    : null;
  const attemptsBox = $("review-attempts");

  const verdict = () => (form.querySelector("input[name=verdict]:checked") || {}).value;

  const isSpan = (span) => Boolean(span) && Number.isInteger(span.start) && Boolean(span.text);
  const endOf = (span) => span.start + S.codePointLength(span.text);

  function render() {
    const spans = [];
    if (hasOriginal) {
      spans.push(unanswerable
        ? { start: original.start, end: originalEnd, className: "plausible-mark", label: T.plausible }
        : { start: original.start, end: originalEnd, className: "answer-mark", label: T.answer });
    }
    if (verdict() === "correct" && isSpan(corrected)) {
      const end = endOf(corrected);
      if (corrected.start !== original.start || end !== originalEnd) {
        const label = unanswerable ? T.correctedPlausible : T.corrected;
        spans.push({ start: corrected.start, end, className: "answer-candidate", label });
      }
    }
    if (verdict() === "answerable" && isSpan(answerable)) {
      spans.push({ start: answerable.start, end: endOf(answerable), className: "answer-candidate", label: T.selected });
    }
    S.highlight(paragraphEl, paragraph, layered(spans, modelSpan));
    for (const part of form.querySelectorAll(".verdict-part")) {
      part.hidden = part.dataset.verdict !== verdict();
    }
    $("corrected-preview").textContent = corrected.text;
    if (hasOriginal) showCuts($("answer-hints"), original.start, originalEnd);
    if (isSpan(corrected)) showCuts($("correction-hints"), corrected.start, endOf(corrected));
    if (answerable) {
      $("answerable-preview").textContent = answerable.text;
      if (isSpan(answerable)) showCuts($("answerable-hints"), answerable.start, endOf(answerable));
    }
  }

  /**
   * Return `spans` with the model's span laid over them: where it overlaps one, that part
   * carries both classes and both labels (of overlapping spans, the later wins, as in
   * SpanSelect.highlight); pieces of one span that nothing else cuts stay one mark.
   */
  function layered(spans, model) {
    if (!model) return spans;
    const points = [...new Set([model.start, model.end, ...spans.flatMap((s) => [s.start, s.end])])]
      .sort((a, b) => a - b);
    const out = [];
    let last = null;
    for (let i = 0; i + 1 < points.length; i += 1) {
      const [start, end] = [points[i], points[i + 1]];
      const base = spans.reduce((found, s) => (s.start <= start && end <= s.end ? s : found), null);
      const inModel = model.start <= start && end <= model.end;
      if (!base && !inModel) { last = null; continue; }
      if (last && last.base === base && last.inModel === inModel && last.piece.end === start) {
        last.piece.end = end;
        continue;
      }
      const piece = !inModel ? { ...base, start, end } : {
        start,
        end,
        className: base ? `${base.className} review-model-mark` : "review-model-mark",
        label: base ? `${base.label} · ${model.label}` : model.label,
      };
      out.push(piece);
      last = { base, inModel, piece };
    }
    return out;
  }

  /** List, in `list`, the words the span [start, end) starts or ends inside. */
  function showCuts(list, start, end) {
    const cut = S.cutWords(paragraph, start, end, bounds);
    list.replaceChildren(...[
      cut.start && T.cutStart.replace("%(word)s", cut.start),
      cut.end && T.cutEnd.replace("%(word)s", cut.end),
    ].filter(Boolean).map((hint) => Object.assign(document.createElement("li"), { textContent: hint })));
  }

  /**
   * Bring the answer into view (issue 25 §8). On a phone the paragraph's box has a capped
   * height and scrolls inside: an answer at the end of a long paragraph was hidden below its
   * fold. The answer (or plausible span; the model's answer when there is no other) goes to
   * the middle of that box, its start at the top if it is taller. Where the box does not cap
   * the paragraph (a wide screen) and the answer is below the window, the least scroll that
   * shows it (the paragraph's column, else the page).
   */
  function reveal() {
    const mark = paragraphEl.querySelector(".answer-mark, .plausible-mark") ||
      paragraphEl.querySelector(".review-model-mark");
    if (!mark) return;
    const box = paragraphEl;
    if (box.scrollHeight > box.clientHeight && /^(auto|scroll)$/.test(getComputedStyle(box).overflowY)) {
      const markBox = mark.getBoundingClientRect();
      const top = markBox.top - box.getBoundingClientRect().top - box.clientTop + box.scrollTop;
      box.scrollTop = Math.max(0, top - Math.max(0, (box.clientHeight - markBox.height) / 2));
    }
    const seen = mark.getBoundingClientRect();
    if (seen.top < 0 || seen.bottom > window.innerHeight) mark.scrollIntoView({ block: "nearest" });
  }

  function choose(value) {
    const input = form.querySelector(`input[name=verdict][value=${value}]`);
    if (!input) return;
    input.checked = true;
    render();
    if (value === "reject") $("reject-reason").focus();
    if (value === "correct") $("corrected-question").focus();
    if (value === "answerable") paragraphEl.focus();
  }

  S.attach(paragraphEl, {
    bounds,
    exact: () => exactButton.getAttribute("aria-pressed") === "true",
    onSelect: ({ start, end }) => {
      if (start === end) return;
      // A selection on an unanswerable question is, unless correcting, the answer it has.
      if (!["correct", "answerable"].includes(verdict())) choose(unanswerable ? "answerable" : "correct");
      const [span, prefix] = verdict() === "answerable" ? [answerable, "answerable"] : [corrected, "corrected"];
      span.start = start;
      span.text = S.slice(paragraph, start, end);
      $(`${prefix}-start`).value = String(start);
      $(`${prefix}-text`).value = span.text;
      render();
    },
  });
  exactButton.addEventListener("click", () => {
    exactButton.setAttribute("aria-pressed", String(exactButton.getAttribute("aria-pressed") !== "true"));
  });
  form.addEventListener("change", render);
  form.addEventListener("submit", () => {
    $("seconds-spent").value = String(Math.round((Date.now() - startedAt) / 1000));
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      form.requestSubmit();
      return;
    }
    const typing = /^(TEXTAREA|INPUT|SELECT)$/.test(document.activeElement.tagName) &&
      document.activeElement.type !== "radio";
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (attemptsBox && event.key.toLowerCase() === "m") {
      event.preventDefault();
      attemptsBox.open = !attemptsBox.open;
      return;
    }
    const keys = { a: "approve", r: "reject", c: "correct", y: "answerable" };
    const value = keys[event.key.toLowerCase()];
    // Also from the paragraph: a reviewer who clicked in it to read, then pressed R, got no
    // change and saved the default verdict (approve).
    if (value) {
      event.preventDefault();
      choose(value);
    }
  });
  render();
  reveal();  // each question is its own page: moving to the next one reveals its answer
}());
