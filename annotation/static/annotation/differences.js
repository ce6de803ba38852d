/* The question–answer difference labelling page: the answer highlighted in the paragraph
 * (SpanSelect.highlight, text nodes only), keys 1–4 tick or untick the labels, Enter saves
 * (the form posts to the server, which checks everything again and opens the next question).
 */
(function () {
  "use strict";

  const root = document.getElementById("difference-label");
  if (!root || !window.SpanSelect) return;
  const S = window.SpanSelect;
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($("differences-messages").textContent);
  const span = JSON.parse($("differences-span").textContent);
  const paragraph = JSON.parse($("paragraph-source").textContent);
  const paragraphEl = $("paragraph");
  const form = $("difference-form");
  if (paragraphEl.textContent !== paragraph) paragraphEl.textContent = paragraph;

  if (span && Number.isInteger(span.start) && span.text) {
    const end = span.start + S.codePointLength(span.text);
    S.highlight(paragraphEl, paragraph, [{ start: span.start, end, className: "answer-mark", label: T.answer }]);
  }

  let sending = false;
  form.addEventListener("submit", () => { sending = true; });

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.isComposing) return;
    const target = event.target;
    if (target && (target.tagName === "TEXTAREA" || (target.tagName === "INPUT" && target.type === "text"))) return;
    if (event.key === "Enter") {
      if (target && (target.tagName === "A" || target.tagName === "SUMMARY" || target.tagName === "BUTTON")) return;
      event.preventDefault();
      if (!sending) form.requestSubmit();
      return;
    }
    const box = form.querySelector(`input[name=labels][data-key="${event.key}"]`);
    if (box) {
      event.preventDefault();
      box.checked = !box.checked;
    }
  });
})();
