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
  const exactButton = $("select-inside-words");
  const csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  const length = S.codePointLength(paragraph);
  const pace = Number(root.dataset.paceSeconds) || 0;
  if (paragraphEl.textContent !== paragraph) paragraphEl.textContent = paragraph;

  let draft = {};
  try { draft = JSON.parse($("answer-draft").textContent || "{}") || {}; } catch (e) { draft = {}; }
  const valid = (d) => d && Number.isInteger(d.start) && Number.isInteger(d.end) &&
    d.start >= 0 && d.start < d.end && d.end <= length;
  const state = valid(draft) ? { start: draft.start, end: draft.end } : { start: null, end: null };
  const earlier = Number.isInteger(draft.seconds) ? draft.seconds : 0;
  const openedAt = Date.now();
  let saveTimer = null;
  const seconds = () => earlier + Math.round((Date.now() - openedAt) / 1000);
  /** The time of day as the server's pages write it ("07:19" in French and English, 24-hour
   * clock, config/formats): their language, the server's zone. */
  let clock = null;
  function timeNow() {
    if (!clock) {
      const hhmm = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
      try {
        clock = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
          { ...hhmm, timeZone: root.dataset.timeZone });
      } catch (e) { clock = new Intl.DateTimeFormat(undefined, hhmm); }
    }
    return clock.format(new Date());
  }

  function render() {
    const has = state.start !== null;
    const text = has ? S.slice(paragraph, state.start, state.end) : "";
    S.highlight(paragraphEl, paragraph,
      has ? [{ start: state.start, end: state.end, className: "answer-candidate", label: T.selected }] : []);
    $("answer-preview").textContent = text;
    $("answer-start").value = has ? String(state.start) : "";
    $("answer-text").value = text;
    $("send-answer").disabled = !has;
    const cut = has ? S.cutWords(paragraph, state.start, state.end) : {};
    $("answer-hints").replaceChildren(...[
      cut.start && T.cutStart.replace("%(word)s", cut.start),
      cut.end && T.cutEnd.replace("%(word)s", cut.end),
    ].filter(Boolean).map((hint) => Object.assign(document.createElement("li"), { textContent: hint })));
  }

  const minutes = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  const showPace = () => {
    $("pace").textContent = T.pace.replace("%(spent)s", minutes(seconds())).replace("%(guide)s", minutes(pace));
  };

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
        const time = T.saved.replace("%(time)s", timeNow());
        $("draft-status").textContent = lease.status === "active" ? time : `${time} — ${T.taken}`;
      });
    }).catch(() => {
      $("draft-status").textContent = T.saveFailed;
      saveTimer = setTimeout(saveDraft, 5000);
    });
  }

  S.attach(paragraphEl, {
    exact: () => exactButton.getAttribute("aria-pressed") === "true",
    onSelect: ({ start, end }) => {
      if (start === end) return;
      state.start = start;
      state.end = end;
      render();
      clearTimeout(saveTimer);
      saveTimer = setTimeout(saveDraft, 800);
    },
  });
  exactButton.addEventListener("click", () => {
    exactButton.setAttribute("aria-pressed", String(exactButton.getAttribute("aria-pressed") !== "true"));
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
  // A pending draft goes out when the page is left or hidden (pagehide, not beforeunload:
  // a beforeunload listener slows every navigation away and keeps the page out of the cache).
  const flush = () => { if (saveTimer) saveDraft(); };
  window.addEventListener("pagehide", flush);
  document.addEventListener("visibilitychange", () => { if (document.hidden) flush(); });
  render();
  if (pace) { $("pace-line").hidden = false; showPace(); setInterval(showPace, 1000); }
}());
