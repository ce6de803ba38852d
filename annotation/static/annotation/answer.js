/* The additional-answer page: select the span that answers the question, or say there is none.
 *
 * The selection is kept in this browser and as a draft on the server (window.DraftKeeper,
 * draft-keeper.js), so a reload, a closed tab or a server that fails or cannot be reached for a
 * while loses nothing: after 5 seconds without an answer the notice beside the answer says so,
 * and the selection goes to the server when it answers again. The form posts to the server,
 * which checks the span again. Offsets are code points (window.SpanSelect). All text goes into
 * the page through textContent.
 */
(function () {
  "use strict";

  const root = document.getElementById("answer");
  if (!root || !window.SpanSelect || !window.DraftKeeper) return;
  const S = window.SpanSelect;
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($("answer-messages").textContent);
  const paragraph = JSON.parse($("paragraph-source").textContent);
  // Chinese and Thai: the server tokenizer's word bounds, where whole-word selection stops.
  const language = JSON.parse(($("paragraph-language") || {}).textContent || "null");
  const bounds = language && language.words ? language.words.bounds : [];
  const paragraphEl = $("paragraph");
  const exactButton = $("select-inside-words");
  const csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  const length = S.codePointLength(paragraph);
  const pace = Number(root.dataset.paceSeconds) || 0;
  if (paragraphEl.textContent !== paragraph) paragraphEl.textContent = paragraph;

  let saved = {};
  try { saved = JSON.parse($("answer-draft").textContent || "{}") || {}; } catch (e) { saved = {}; }
  const valid = (d) => d && Number.isInteger(d.start) && Number.isInteger(d.end) &&
    d.start >= 0 && d.start < d.end && d.end <= length;
  const state = { start: null, end: null };
  const openedAt = Date.now();
  let earlier = 0;
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
    const cut = has ? S.cutWords(paragraph, state.start, state.end, bounds) : {};
    $("answer-hints").replaceChildren(...[
      cut.start && T.cutStart.replace("%(word)s", cut.start),
      cut.end && T.cutEnd.replace("%(word)s", cut.end),
    ].filter(Boolean).map((hint) => Object.assign(document.createElement("li"), { textContent: hint })));
  }

  const minutes = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  const showPace = () => {
    $("pace").textContent = T.pace.replace("%(spent)s", minutes(seconds())).replace("%(guide)s", minutes(pace));
  };

  // This browser's copy (when newer than the server's) or the server's draft.
  const keeper = window.DraftKeeper.create({
    prefix: "answer-draft:",
    id: root.dataset.leaseId,
    url: root.dataset.draftUrl,
    csrf,
    server: saved,
    body: () => ({ start: state.start, end: state.end, seconds: seconds() }),
    elements: {
      status: $("draft-status"), notice: $("draft-notice"), title: $("draft-notice-title"),
      text: $("draft-notice-text"), retry: $("draft-retry"),
    },
    messages: T,
    timeNow,
  });
  const draft = keeper.draft;
  if (valid(draft)) { state.start = draft.start; state.end = draft.end; }
  earlier = Number.isInteger(draft.seconds) ? draft.seconds : 0;

  S.attach(paragraphEl, {
    bounds,
    exact: () => exactButton.getAttribute("aria-pressed") === "true",
    onSelect: ({ start, end }) => {
      if (start === end) return;
      state.start = start;
      state.end = end;
      render();
      keeper.changed();
    },
  });
  exactButton.addEventListener("click", () => {
    exactButton.setAttribute("aria-pressed", String(exactButton.getAttribute("aria-pressed") !== "true"));
  });
  $("answer-form").addEventListener("submit", () => {
    keeper.stop();
    // The form carries the answer; this browser's copy goes once the server has it too.
    if (keeper.upToDate()) keeper.forget();
    $("seconds-spent").value = String(seconds());
  });
  // Giving the question back drops its work: the copy in this browser goes too.
  const releaseForm = document.querySelector("details.release form");
  if (releaseForm) releaseForm.addEventListener("submit", () => { keeper.stop(); keeper.forget(); });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && state.start !== null) {
      event.preventDefault();
      $("answer-form").requestSubmit($("send-answer"));
    }
  });
  render();
  keeper.start();
  if (pace) { $("pace-line").hidden = false; showPace(); setInterval(showPace, 1000); }
}());
