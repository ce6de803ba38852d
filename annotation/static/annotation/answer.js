/* The additional-answer page: select the span that answers the question, or say there is none.
 *
 * The selection is kept as a draft on the server (debounced), so a reload or a closed tab
 * finds it again; the form posts to the server, which checks the span again. Offsets are code
 * points (window.SpanSelect). All text goes into the page through textContent.
 */
(function () {
  "use strict";

  const root = document.getElementById("answer");
  if (!root || !window.SpanSelect) return;
  const S = window.SpanSelect;
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($("answer-messages").textContent);
  const paragraph = JSON.parse($("paragraph-source").textContent);
  const paragraphEl = $("paragraph");
  const csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  const length = S.codePointLength(paragraph);
  paragraphEl.textContent = paragraph;

  let draft = {};
  try { draft = JSON.parse($("answer-draft").textContent || "{}") || {}; } catch (e) { draft = {}; }
  const valid = (d) => d && Number.isInteger(d.start) && Number.isInteger(d.end) &&
    d.start >= 0 && d.start < d.end && d.end <= length;
  const state = valid(draft) ? { start: draft.start, end: draft.end } : { start: null, end: null };
  const earlier = Number.isInteger(draft.seconds) ? draft.seconds : 0;
  const openedAt = Date.now();
  let saveTimer = null;
  const seconds = () => earlier + Math.round((Date.now() - openedAt) / 1000);

  function render() {
    const has = state.start !== null;
    const text = has ? S.slice(paragraph, state.start, state.end) : "";
    S.highlight(paragraphEl, paragraph,
      has ? [{ start: state.start, end: state.end, className: "answer-candidate", label: T.selected }] : []);
    $("answer-preview").textContent = text;
    $("answer-start").value = has ? String(state.start) : "";
    $("answer-text").value = text;
    $("send-answer").disabled = !has;
  }

  function saveDraft() {
    clearTimeout(saveTimer);
    saveTimer = null;
    fetch(root.dataset.draftUrl, {
      method: "PUT", credentials: "same-origin", keepalive: true,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ draft: { start: state.start, end: state.end, seconds: seconds() } }),
    }).then((response) => {
      if (!response.ok) throw new Error(String(response.status));
      return response.json().then((lease) => {
        const time = T.saved.replace("%(time)s", new Date().toLocaleTimeString());
        $("draft-status").textContent = lease.status === "active" ? time : `${time} — ${T.taken}`;
      });
    }).catch(() => {
      $("draft-status").textContent = T.saveFailed;
      saveTimer = setTimeout(saveDraft, 5000);
    });
  }

  S.attach(paragraphEl, {
    onSelect: ({ start, end }) => {
      if (start === end) return;
      state.start = start;
      state.end = end;
      render();
      clearTimeout(saveTimer);
      saveTimer = setTimeout(saveDraft, 800);
    },
  });
  $("answer-form").addEventListener("submit", () => {
    clearTimeout(saveTimer);
    saveTimer = null;
    $("seconds-spent").value = String(seconds());
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && state.start !== null) {
      event.preventDefault();
      $("answer-form").requestSubmit($("send-answer"));
    }
  });
  window.addEventListener("beforeunload", () => { if (saveTimer) saveDraft(); });
  render();
}());
