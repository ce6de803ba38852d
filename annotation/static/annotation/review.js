/* The review page: show the author's answer, let the reviewer pick a verdict with the keyboard,
 * and re-select the span for a correction with the same tool as the annotation page.
 *
 * An unanswerable question shows its plausible span (striped, labelled "not the answer"); the
 * verdict "Actually answerable" asks the reviewer to select the answer with the same tool.
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
  const paragraph = JSON.parse($("paragraph-source").textContent);
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
    S.highlight(paragraphEl, paragraph, spans);
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

  /** List, in `list`, the words the span [start, end) starts or ends inside. */
  function showCuts(list, start, end) {
    const cut = S.cutWords(paragraph, start, end);
    list.replaceChildren(...[
      cut.start && T.cutStart.replace("%(word)s", cut.start),
      cut.end && T.cutEnd.replace("%(word)s", cut.end),
    ].filter(Boolean).map((hint) => Object.assign(document.createElement("li"), { textContent: hint })));
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
    const keys = { a: "approve", r: "reject", c: "correct", y: "answerable" };
    const value = keys[event.key.toLowerCase()];
    if (value && document.activeElement !== paragraphEl) {
      event.preventDefault();
      choose(value);
    }
  });
  render();
}());
