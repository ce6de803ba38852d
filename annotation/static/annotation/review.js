/* The review page: show the author's answer, let the reviewer pick a verdict with the keyboard,
 * and re-select the span for a correction with the same tool as the annotation page.
 *
 * The form posts to the server, which checks everything again; this script only fills the
 * corrected span's hidden fields (code-point offsets) and the time spent. All text goes into
 * the page through textContent.
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
  if (paragraphEl.textContent !== paragraph) paragraphEl.textContent = paragraph;

  const originalEnd = original.start + S.codePointLength(original.text);
  const corrected = {
    start: Number.parseInt($("corrected-start").value, 10),
    text: $("corrected-text").value,
  };

  const verdict = () => (form.querySelector("input[name=verdict]:checked") || {}).value;

  function render() {
    const spans = [{ start: original.start, end: originalEnd, className: "answer-mark", label: T.answer }];
    if (verdict() === "correct" && Number.isInteger(corrected.start) && corrected.text) {
      const end = corrected.start + S.codePointLength(corrected.text);
      if (corrected.start !== original.start || end !== originalEnd) {
        spans.push({ start: corrected.start, end, className: "answer-candidate", label: T.corrected });
      }
    }
    S.highlight(paragraphEl, paragraph, spans);
    for (const part of form.querySelectorAll(".verdict-part")) {
      part.hidden = part.dataset.verdict !== verdict();
    }
    $("corrected-preview").textContent = corrected.text;
    showCuts($("answer-hints"), original.start, originalEnd);
    if (Number.isInteger(corrected.start) && corrected.text) {
      showCuts($("correction-hints"), corrected.start, corrected.start + S.codePointLength(corrected.text));
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
  }

  S.attach(paragraphEl, {
    exact: () => exactButton.getAttribute("aria-pressed") === "true",
    onSelect: ({ start, end }) => {
      if (start === end) return;
      if (verdict() !== "correct") choose("correct");
      corrected.start = start;
      corrected.text = S.slice(paragraph, start, end);
      $("corrected-start").value = String(start);
      $("corrected-text").value = corrected.text;
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
    const keys = { a: "approve", r: "reject", c: "correct" };
    const value = keys[event.key.toLowerCase()];
    if (value && document.activeElement !== paragraphEl) {
      event.preventDefault();
      choose(value);
    }
  });
  render();
}());
