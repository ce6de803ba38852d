/* The annotation page: write 3–5 questions on a paragraph, each with its answer span.
 *
 * Unanswerable questions (FQuAD 2.0): in a campaign of that kind (mode "unanswerable") every
 * question is one, and its span is the plausible answer a hasty reader would give; in a mixed
 * campaign (mode "mixed") a box marks the question being written as unanswerable, and the page
 * asks for the campaign's number of them beside the answerable ones. The paragraph's existing
 * questions are listed: a new one may not repeat them, and an unanswerable one that shares few
 * words with the paragraph gets a hint (an off-topic question is trivially unanswerable).
 *
 * Model in the loop (issue 15): when the campaign names a model, each answerable question is
 * sent to it after "Add the question" (POST attempts). Its answer comes back asynchronously and
 * is shown under the question and marked in the paragraph, with "fooled" or "not fooled"; the
 * annotator may edit the question and add it again (a new attempt: the server keeps them all,
 * numbered per question by the question's `key`). Nothing waits for the model: typing, adding
 * and sending go on, and a model that is down or slow says "model unavailable".
 *
 * The paragraph's language (core/languages, sent by the server in #paragraph-language): its
 * reading direction and `lang` on the paragraph, the question field, the answers and the
 * questions; its question marks in the hint (none for Thai); and, where words are not
 * separated by spaces (Chinese, Thai), the word bounds of the server's tokenizer: selections
 * snap to them, and the copy hint counts those words. A question being typed has no server
 * words yet: it is cut into the paragraph's words by longest match (a character that is no
 * paragraph word counts as one), which is what a copied run needs (docs/languages.md).
 *
 * Offsets are code points (window.SpanSelect). Work in progress is saved to the server as a
 * draft (debounced) so a closed tab, a crash or an expired lease loses nothing; the server
 * validates everything again on submit, and a refusal keeps the text on screen.
 *
 * The draft is also kept in this browser, and a server that fails, hangs or refuses is said in
 * the notice beside the questions: window.DraftKeeper (draft-keeper.js, shared with the
 * additional-answer page) does both; this page gives it the draft and its messages. Sending the
 * paragraph or giving it back forgets this browser's copy.
 * All text goes into the page through textContent: nothing here builds HTML from strings.
 *
 * Few actions per question: the question field has the focus when the page opens; Enter adds
 * the question from the field or from the paragraph; a mouse selection made before the question
 * is written hands the focus back to the field; "Send" (or Ctrl+Enter) takes the question being
 * written along when it is complete. Three questions: type, select, Enter, twice, then type,
 * select, Ctrl+Enter: nine actions.
 */
(function () {
  "use strict";

  const root = document.getElementById("annotate");
  if (!root || !window.SpanSelect || !window.DraftKeeper) return;
  const S = window.SpanSelect;
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($("annotate-messages").textContent);
  const number = new Intl.NumberFormat(document.documentElement.lang || undefined).format;
  const paragraphEl = $("paragraph");
  const paragraph = JSON.parse($("paragraph-source").textContent);
  const script = JSON.parse(($("paragraph-language") || {}).textContent || "null") ||
    { lang: "", dir: "ltr", marks: ["?"], words: null };
  const bounds = script.words ? script.words.bounds : [];
  /** Give an element the paragraph's language and direction (a question, an answer). */
  const inScript = (node) => {
    if (script.lang) node.lang = script.lang;
    node.dir = script.dir;
    return node;
  };
  /** A quoted answer: the quotes are the page's (« » in French, on the right sides), the text
   * inside isolated in the paragraph's direction. */
  const quoted = (text) => {
    const q = document.createElement("q");
    q.append(inScript(element("bdi", text)));
    return q;
  };
  if (paragraphEl.textContent !== paragraph) paragraphEl.textContent = paragraph;  // e.g. a CR
  const min = Number(root.dataset.min);
  const max = Number(root.dataset.max);
  const mode = root.dataset.mode || "answerable";
  const unanswerableWanted = mode === "mixed" ? Number(root.dataset.unanswerable) || 0 : 0;
  const impossibleBox = $("question-impossible");  // mixed campaigns only
  const existing = JSON.parse(($("existing-questions-source") || {}).textContent || "[]");
  const pace = Number(root.dataset.paceSeconds) || 0;
  const csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  // Opened from the page fetched ahead (`?ahead=…`): show the paragraph's own address, which
  // a reload or Back asks the server for (the ahead one is cached for the click only).
  if (/[?&]ahead=/.test(window.location.search)) {
    history.replaceState(history.state, "", window.location.pathname);
  }

  // While "Sent" shows, the next paragraph is claimed (the claim gives back the lease already
  // held, so this is safe to repeat) and its page fetched ahead under an address used once
  // (`?ahead=<random>`, which the server lets the browser keep for a while): "Next
  // paragraph" then opens it from the browser's cache, with no request at all. Without this
  // (no script, a failed claim, nothing left), the form posts as before.
  let nextUrl = "";
  function claimNext() {
    nextUrl = "";
    for (const old of document.querySelectorAll('link[rel="prefetch"]')) old.remove();
    fetch(root.dataset.claimUrl, {
      method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": csrf },
    }).then((response) => (response.status === 200 || response.status === 201 ? response.json() : null))
      .then((lease) => {
        if (!lease || !Number.isInteger(lease.id)) return;
        const once = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
        nextUrl = root.dataset.leaseUrl.replace(/\/0\/$/, `/${lease.id}/?ahead=${once}`);
        const ahead = document.createElement("link");
        ahead.rel = "prefetch";
        ahead.href = nextUrl;
        document.head.append(ahead);
      }).catch(() => {});
  }
  $("next-paragraph").form.addEventListener("submit", (event) => {
    if (!nextUrl) return;
    event.preventDefault();
    window.location.assign(nextUrl);
  });
  // Back to a page kept whole by the browser (back-forward cache): a page fetched ahead is
  // not to be opened twice, so the next paragraph is claimed and fetched anew.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted && root.classList.contains("is-sent")) claimNext();
  });

  if (root.dataset.sent === "true") {  // the server says this paragraph was sent: offer the next
    $("next-paragraph").focus();
    claimNext();
    return;
  }
  const textInput = $("question-text");
  const exactButton = $("select-inside-words");
  const sendButton = $("submit-paragraph");
  const attemptsUrl = root.dataset.attemptsUrl || "";  // empty: no model in the loop
  const foolingTarget = Number(root.dataset.foolingTarget) || 0;  // adversarial campaigns
  const newKey = () => `q${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

  const length = S.codePointLength(paragraph);
  /* A question's length as people count it and as the server checks it: code points of the
   * trimmed text (Python's len(); an emoji is one, not two UTF-16 units). docs/decisions.md. */
  const maxChars = Number(root.dataset.maxChars) || 1000;
  const COUNTER_FROM = 0.9;  // the counter shows from 90 % of the limit
  const charCount = (text) => S.codePointLength(text.trim());
  let numbers = null;
  const formatCount = (n) => {
    if (!numbers) {
      try { numbers = new Intl.NumberFormat(document.documentElement.lang || undefined); }
      catch (e) { numbers = { format: String }; }
    }
    return numbers.format(n);
  };
  const isSpan = (q) => q && Number.isInteger(q.start) && Number.isInteger(q.end) &&
    q.start >= 0 && q.start < q.end && q.end <= length;
  const blank = () => ({ text: "", start: null, end: null, seconds: 0, impossible: mode === "unanswerable",
                         key: newKey(), model: null });
  const keyOf = (q) => (q && typeof q.key === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(q.key) ? q.key : newKey());
  // The model's last word on a question, as the draft kept it ("asking" is asked again).
  const modelOf = (q) => (q && q.model && typeof q.model === "object" && typeof q.model.status === "string"
    ? q.model : null);
  // Whether a question is unanswerable: always in an unanswerable campaign, never in a plain one.
  const impossibleFlag = (q) => mode === "unanswerable" || (mode === "mixed" && q.impossible === true);
  // A draft is whatever an earlier page saved: keep what is well formed, drop the rest.
  function restore(saved) {
    const questions = (Array.isArray(saved.questions) ? saved.questions : [])
      .filter((q) => isSpan(q) && typeof q.text === "string")
      .map((q) => ({ text: q.text, start: q.start, end: q.end,
                     seconds: Number.isInteger(q.seconds) ? q.seconds : 0, impossible: impossibleFlag(q),
                     key: keyOf(q), model: modelOf(q) }));
    const fix = (c) => ({
      text: c && typeof c.text === "string" ? c.text : "",
      start: isSpan(c) ? c.start : null, end: isSpan(c) ? c.end : null,
      seconds: c && Number.isInteger(c.seconds) ? c.seconds : 0,
      impossible: impossibleFlag(c || {}),
      key: keyOf(c), model: modelOf(c),
    });
    const editing = Number.isInteger(saved.editing) && saved.editing < questions.length
      ? saved.editing : null;
    return { questions, current: fix(saved.current), editing,
             pending: editing === null ? null : fix(saved.pending) };
  }
  let saved = {};
  try { saved = JSON.parse($("annotate-draft").textContent || "{}") || {}; } catch (e) { saved = {}; }
  if (!saved || typeof saved !== "object" || Array.isArray(saved)) saved = {};
  /* The draft is kept by window.DraftKeeper (draft-keeper.js): this browser's copy, one entry
   * per lease, and the server's, saved with retries; the notice says when saving fails. */
  const keeper = window.DraftKeeper.create({
    prefix: "annotate-draft:",
    id: root.dataset.leaseId,
    url: root.dataset.draftUrl,
    csrf,
    server: saved,
    body: () => ({ ...state, current: { ...state.current, seconds: elapsed() } }),
    elements: {
      status: $("draft-status"), notice: $("draft-notice"), title: $("draft-notice-title"),
      text: $("draft-notice-text"), retry: $("draft-retry"),
    },
    messages: {
      saved: T.saved, saveFailed: T.saveFailed, taken: T.taken, takenTitle: T.takenTitle,
      troubleTitle: T.draftTroubleTitle, troubleKept: T.draftTroubleKept,
      troubleNotKept: T.draftTroubleNotKept, refusedTitle: T.draftRefusedTitle,
      refusedKept: T.draftRefusedKept, restored: T.draftRestored,
    },
    timeNow,
  });
  const state = restore(keeper.draft);
  let startedAt = null;
  let sent = false;
  let detach = null;
  let modelShown = null;  // the question whose model answer is marked in the paragraph

  const locale = script.lang || "fr";
  const lower = (text) => { try { return text.toLocaleLowerCase(locale); } catch (e) { return text.toLowerCase(); } };
  const norm = (text) => lower(text.trim().split(/\s+/).join(" "));
  const spacedTokens = (text) => lower(text).match(/[\p{L}\p{N}\p{M}]+/gu) || [];
  /** The words of a text: its runs of letters, cut at the tokenizer's bounds (code points). */
  function wordsOf(text, cuts) {
    const stops = new Set(cuts);
    const found = [];
    let current = "";
    Array.from(text).forEach((char, i) => {
      const letter = /[\p{L}\p{N}\p{M}]/u.test(char);
      if (current && (!letter || stops.has(i))) { found.push(current); current = ""; }
      if (letter) current += char;
    });
    if (current) found.push(current);
    return found;
  }
  const paragraphTokens = script.words ? wordsOf(paragraph, bounds).map(lower) : spacedTokens(paragraph);
  const paragraphWords = new Set(paragraphTokens);
  const longestWord = paragraphTokens.reduce((n, w) => Math.max(n, Array.from(w).length), 1);
  /** Cut a run of letters into the paragraph's words, longest first; any other character
   * (with its combining marks) is a word of its own. */
  function longestMatch(run) {
    const chars = Array.from(run);
    const found = [];
    for (let i = 0; i < chars.length;) {
      let size = Math.min(longestWord, chars.length - i);
      while (size > 1 && !paragraphWords.has(chars.slice(i, i + size).join(""))) size -= 1;
      // No paragraph word: the character with its combining marks (Thai vowels, tones).
      if (size === 1) while (i + size < chars.length && /\p{M}/u.test(chars[i + size])) size += 1;
      found.push(chars.slice(i, i + size).join(""));
      i += size;
    }
    return found;
  }
  /** The words of a question: spaced languages' letter runs, or the paragraph's words. */
  const tokens = (text) => (script.words ? spacedTokens(text).flatMap(longestMatch) : spacedTokens(text));
  // A content word: 4 letters or more where spaces separate words; 2 where a tokenizer does
  // (Chinese and Thai words are short: "防守", "คะแนน").
  const CONTENT_CHARS = script.words ? 2 : 4;
  const existingNorms = new Set(existing.map(norm));
  /** Whether a question shares too few of its words (4 letters or more) with the paragraph. */
  function offTopic(words) {
    const content = words.filter((w) => Array.from(w).length >= CONTENT_CHARS);
    if (content.length < 2) return false;
    const shared = content.filter((w) => paragraphWords.has(w)).length;
    return shared / content.length < 0.25;
  }
  const countOf = (flag) => state.questions.filter((q) => Boolean(q.impossible) === flag).length;
  const complete = (c) => Boolean(c.text.trim()) && c.start !== null && c.start < c.end;

  function longestSharedRun(words) {
    let best = 0;
    for (let i = 0; i < words.length; i++) {
      for (let j = 0; j < paragraphTokens.length; j++) {
        let k = 0;
        while (i + k < words.length && j + k < paragraphTokens.length &&
               words[i + k] === paragraphTokens[j + k]) k++;
        if (k > best) best = k;
      }
    }
    return best;
  }

  /** The words a span cuts, as hints: "starts inside the word “1624”". */
  function cutHints(start, end) {
    const cut = S.cutWords(paragraph, start, end, bounds);
    return [cut.start && T.cutStart.replace("%(word)s", cut.start),
            cut.end && T.cutEnd.replace("%(word)s", cut.end)].filter(Boolean);
  }

  function hintsFor(current, skipIndex) {
    const hints = [];
    const text = current.text.trim();
    if (text && script.marks.length && !script.marks.some((m) => text.endsWith(m))) {
      hints.push(T.noQuestionMark);
    }
    const words = tokens(text);
    if (words.length >= 4 && longestSharedRun(words) / words.length >= 0.6) hints.push(T.copied);
    if (text && state.questions.some((q, i) => i !== skipIndex && norm(q.text) === norm(text))) {
      hints.push(T.duplicate);
    }
    if (text && existingNorms.has(norm(text))) hints.push(T.existingDuplicate);
    if (current.impossible && offTopic(words)) hints.push(T.offTopic);
    if (current.start !== null) {
      const answer = S.slice(paragraph, current.start, current.end);
      const inside = bounds.filter((b) => b > current.start && b < current.end).map((b) => b - current.start);
      const count = script.words ? wordsOf(answer, inside).length : answer.split(/\s+/).filter(Boolean).length;
      if (count > 20) hints.push(T.longAnswer);
      hints.push(...cutHints(current.start, current.end));
    }
    return hints;
  }

  function element(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  }

  function renderHighlights() {
    const spans = state.questions.map((q, i) => ({
      start: q.start, end: q.end, className: q.impossible ? "plausible-mark" : "answer-mark",
      label: `${q.impossible ? T.plausible : T.answer} ${i + 1}`,
    }));
    if (!sent && state.current.start !== null) {
      spans.push({ start: state.current.start, end: state.current.end,
                   className: "answer-candidate", label: T.selected });
    }
    spans.push(...modelSpans(spans));
    S.highlight(paragraphEl, paragraph, spans);
  }

  /** The model's answer to the question last answered (or chosen), drawn over the other marks:
   * where it covers one of them, both show (that mark's colour, the model's outline). */
  function modelSpans(marks) {
    const shown = state.questions.find((q) => q.key === modelShown);
    const m = shown && shown.model;
    if (!m || m.status !== "answered" || !Number.isInteger(m.answerStart) || !m.answer) return [];
    const label = T.modelMark.replace("%(number)s", String(state.questions.indexOf(shown) + 1));
    const end = m.answerStart + S.codePointLength(m.answer);
    const under = (i) => marks.reduce((found, mark) => (i >= mark.start && i < mark.end ? mark : found), null);
    const runs = [];
    for (let i = m.answerStart; i < end; i++) {
      const mark = under(i);
      const className = mark ? `${mark.className} model-mark` : "model-mark";
      const last = runs[runs.length - 1];
      if (last && last.className === className && last.end === i) last.end = i + 1;
      else runs.push({ start: i, end: i + 1, className, label });
    }
    return runs;
  }

  function renderList(errors) {
    const list = $("question-list");
    list.replaceChildren();
    state.questions.forEach((q, i) => {
      const item = element("li", undefined, q.impossible ? "question-item is-impossible" : "question-item");
      const title = inScript(element("p", q.text, "question-text"));
      if (q.impossible && mode === "mixed") title.prepend(element("span", T.unanswerableBadge, "badge"), " ");
      item.append(title);
      const answer = element("p", undefined, "question-answer");
      answer.append(element("span", q.impossible ? T.plausibleLabel : T.answerLabel), " ",
                    quoted(S.slice(paragraph, q.start, q.end)));
      item.append(answer);
      for (const hint of cutHints(q.start, q.end)) item.append(element("p", hint, "hint"));
      if (attemptsUrl && !q.impossible && q.model) item.append(modelLine(q));
      for (const message of (errors && errors[i]) || []) {
        item.append(element("p", message, "field-error"));
      }
      if (!sent) {  // once sent, the questions are shown, not editable
        const edit = element("button", T.edit, "button-small");
        edit.type = "button";
        edit.disabled = state.editing !== null;
        edit.addEventListener("click", () => startEdit(i));
        const remove = element("button", T.delete, "button-small");
        remove.type = "button";
        remove.disabled = state.editing !== null;  // indexes must not move under an edit
        remove.addEventListener("click", () => { state.questions.splice(i, 1); changed(); });
        item.append(edit, remove);
      }
      list.append(item);
    });
    const count = state.questions.length;
    const taking = state.editing === null && complete(state.current);  // goes along with Send
    const impossible = countOf(true) + (taking && state.current.impossible && mode === "mixed" ? 1 : 0);
    const answerable = mode === "mixed" ? count - countOf(true) + (taking && !state.current.impossible ? 1 : 0)
      : count + (taking ? 1 : 0);
    const full = mode === "mixed" ? (state.current.impossible ? countOf(true) >= unanswerableWanted : count - countOf(true) >= max)
      : count >= max;
    if (foolingTarget) {
      const fooled = state.questions.filter((q) => q.model && q.model.fooled === true).length;
      const counter = $("fooling-counter");
      counter.textContent = T.foolingCounter.replace("%(count)s", number(fooled))
        .replace("%(target)s", number(foolingTarget));
      counter.classList.toggle("is-met", fooled >= foolingTarget);
    }
    $("question-counter").textContent = mode === "mixed"
      ? `${count - countOf(true)} / ${min}–${max} ${T.counterAnswerable} · ${countOf(true)} / ${unanswerableWanted} ${T.counterUnanswerable}`
      : `${count} / ${min}–${max}`;
    $("bar-counter").textContent = $("question-counter").textContent;
    root.classList.toggle("has-questions", count > 0);  // the action bar sticks from the first one
    renderBarModel();
    sendButton.disabled = sent || answerable < min || answerable > max || state.editing !== null ||
      (mode === "mixed" && impossible !== unanswerableWanted);
    $("add-question").disabled = state.editing === null && full;
    $("cancel-edit").hidden = state.editing === null;
  }

  /** The model's word on the question last added, in the action bar (a phone: the list may be
   * below the screen's edge). The list keeps the full line, read by screen readers. */
  function renderBarModel() {
    const bar = $("bar-model");
    const last = attemptsUrl ? [...state.questions].reverse().find((q) => !q.impossible && q.model) : null;
    const m = last && last.model;
    bar.replaceChildren();
    bar.className = "bar-model";
    if (!m) return;
    const number = state.questions.indexOf(last) + 1;
    if (m.status === "asking") {
      bar.textContent = `${number}. ${T.modelAsking}`;
    } else if (m.status !== "answered") {
      bar.textContent = `${number}. ${T.modelUnavailable}`;
    } else {
      bar.classList.add(m.fooled ? "is-fooled" : "not-fooled");
      bar.append(`${number}. `, m.answer ? quoted(m.answer) : T.modelNoAnswer, " · ",
                 T.modelF1.replace("%(f1)s", String(Math.round(m.f1))), " · ",
                 element("strong", m.fooled ? T.fooled : T.notFooled, "model-verdict"));
    }
  }

  /** The model's answer under a question: asking, its answer with F1 and verdict, or down. */
  function modelLine(q) {
    const m = q.model;
    const line = element("p", undefined, "model-line");
    line.setAttribute("aria-live", "polite");
    if (m.status === "asking") {
      line.classList.add("is-asking");
      line.textContent = T.modelAsking;
      return line;
    }
    if (m.status !== "answered") {
      line.classList.add("is-unavailable");
      line.textContent = m.status === "limited" ? m.message : T.modelUnavailable;
      return line;
    }
    line.classList.add(m.fooled ? "is-fooled" : "not-fooled");
    const answer = m.answer ? quoted(m.answer) : element("span", T.modelNoAnswer);
    const verdict = element("strong", m.fooled ? T.fooled : T.notFooled, "model-verdict");
    line.append(element("span", T.modelSays.replace("%(model)s", m.model || "")), " ", answer, " · ",
                element("span", T.modelF1.replace("%(f1)s", number(Math.round(m.f1)))), " · ", verdict,
                " · ", element("span", T.attempt.replace("%(number)s", String(m.number)), "hint"));
    const mark = element("button", T.showModel, "button-small");
    mark.type = "button";
    mark.addEventListener("click", () => { modelShown = q.key; render(); });
    if (Number.isInteger(m.answerStart)) line.append(" ", mark);
    if (!m.fooled && foolingTarget) line.append(element("span", T.rephrase, "hint model-rephrase"));
    return line;
  }

  /** Ask the model about a question just added (unless it answered this very text and span). */
  function askModel(q) {
    if (!attemptsUrl || q.impossible || sent) return;
    const m = q.model;
    if (m && m.status === "answered" && m.text === q.text && m.start === q.start && m.end === q.end) return;
    const asked = { text: q.text, start: q.start, end: q.end };
    q.model = { status: "asking", ...asked };
    const controller = typeof AbortController === "function" ? new AbortController() : null;
    const timer = controller ? setTimeout(() => controller.abort(), 15000) : null;
    fetch(attemptsUrl, {
      method: "POST", credentials: "same-origin", signal: controller ? controller.signal : undefined,
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ key: q.key, text: q.text, answer_start: q.start,
                             answer_text: S.slice(paragraph, q.start, q.end) }),
    }).then((response) => {
      if (response.ok) return response.json();
      // Past the annotator's limit of attempts (429): the server says when to try again.
      if (response.status === 429) {
        return response.json().then((body) => {
          const said = body && body.errors && body.errors.detail;
          return { status: "limited", message: Array.isArray(said) ? said.join(" ") : "" };
        }).catch(() => null);
      }
      return null;
    }).catch(() => null).then((data) => {
      clearTimeout(timer);
      const now = state.questions.find((each) => each.key === q.key) ||
        (state.current.key === q.key ? state.current : null);
      // A newer attempt (the question edited meanwhile) has the last word.
      if (!now || !now.model || now.model.text !== asked.text || now.model.start !== asked.start ||
          now.model.end !== asked.end) return;
      now.model = data && data.status === "answered" ? {
        status: "answered", ...asked, model: data.model, answer: data.model_answer,
        answerStart: data.model_answer_start, f1: data.f1, fooled: data.fooled, number: data.number,
      } : data && data.status === "limited" && data.message ? {
        status: "limited", ...asked, message: data.message, number: null,
      } : { status: "unavailable", ...asked, number: data ? data.number : null };
      if (now.model.status === "answered") modelShown = now.key;
      if (!sent) changed(); else render();
    });
  }

  function renderCurrent() {
    const c = state.current;
    $("answer-preview").replaceChildren(
      ...(c.start === null ? [] : [inScript(element("bdi", S.slice(paragraph, c.start, c.end)))]));
    if (mode === "mixed") {
      impossibleBox.checked = Boolean(c.impossible);
      $("answer-preview-label").textContent = c.impossible ? T.plausibleLabel : T.answerLabel;
    }
    const hints = $("question-hints");
    hints.replaceChildren(...hintsFor(c, state.editing).map((h) => element("li", h)));
    renderLength(c.text);
  }

  /** The counter near the limit: "953 / 1,000 characters", red past it (never cut). */
  function renderLength(text) {
    const chars = charCount(text);
    const counter = $("question-length");
    counter.hidden = sent || chars < maxChars * COUNTER_FROM;
    counter.textContent = T.charCounter.replace("%(count)s", formatCount(chars))
      .replace("%(max)s", formatCount(maxChars));
    counter.classList.toggle("is-over", chars > maxChars);
  }

  function render(errors) {
    renderHighlights();
    renderList(errors);
    renderCurrent();
  }

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

  /** The work changed: show it, keep it (this browser first, then the server). */
  function changed() {
    render();
    if (!sent) keeper.changed();
  }

  function elapsed() {
    const running = startedAt === null ? 0 : Math.round((Date.now() - startedAt) / 1000);
    return (state.current.seconds || 0) + running;
  }
  const minutes = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  function showPace() {
    if (!pace || sent) return;
    $("pace").textContent = T.pace.replace("%(spent)s", minutes(elapsed())).replace("%(guide)s", minutes(pace));
  }

  /** Start the clock of the current question (its first keystroke or its first selection). */
  function started() { if (startedAt === null) startedAt = Date.now(); }
  /** Stop the clock: its time goes into the current question. */
  function stopClock() { state.current.seconds = elapsed(); startedAt = null; }

  function startEdit(index) {
    if (state.editing !== null) return;
    const q = state.questions[index];
    stopClock();
    state.pending = { ...state.current };  // the unsent question waits
    state.editing = index;
    state.current = { text: q.text, start: q.start, end: q.end, seconds: q.seconds || 0,
                      impossible: Boolean(q.impossible), key: q.key, model: q.model };
    textInput.value = q.text;
    textInput.focus();
    changed();
  }

  function resumePending() {
    state.current = state.pending || blank();
    state.pending = null;
    textInput.value = state.current.text;
    startedAt = null;
  }

  function cancelEdit() {
    state.editing = null;
    resumePending();
    changed();
  }

  /** Add (or put back, when editing) the current question; return whether it was. */
  const count = () => state.questions.length;
  function addQuestion() {
    const c = state.current;
    const problems = [];
    // What is missing, the question first, in one sentence when both are.
    const noText = !c.text.trim();
    const noSpan = c.start === null || c.start === c.end;
    if (noText && noSpan) problems.push(c.impossible ? T.needTextAndPlausible : T.needTextAndAnswer);
    else if (noText) problems.push(T.needText);
    else if (noSpan) problems.push(c.impossible ? T.needPlausible : T.needAnswer);
    const chars = charCount(c.text);
    if (chars > maxChars) {
      problems.push(T.tooLong.replace("%(count)s", formatCount(chars)).replace("%(max)s", formatCount(maxChars)));
    }
    if (state.editing === null) {
      if (mode === "mixed" && c.impossible && countOf(true) >= unanswerableWanted) {
        problems.push(T.tooManyUnanswerable.replace("%(max)s", String(unanswerableWanted)));
      } else if (mode === "mixed" ? !c.impossible && count() - countOf(true) >= max : count() >= max) {
        problems.push(T.tooMany.replace("%(max)s", String(max)));
      }
    }
    if (problems.length) {
      $("question-hints").replaceChildren(...problems.map((p) => element("li", p, "field-error")));
      textInput.setAttribute("aria-invalid", String(noText || chars > maxChars));
      if (noText) textInput.focus({ preventScroll: true });
      // In sight, whatever covers the screen's edges (a phone: the paragraph, the action bar).
      $("question-hints").scrollIntoView({ block: "nearest" });
      return false;
    }
    textInput.removeAttribute("aria-invalid");
    const question = { text: c.text.trim(), start: c.start, end: c.end, seconds: elapsed(),
                       impossible: Boolean(c.impossible), key: c.key || newKey(), model: c.model || null };
    if (state.editing === null) {
      state.questions.push(question);
      state.current = blank();
      textInput.value = "";
      startedAt = null;
    } else {
      state.questions[state.editing] = question;
      state.editing = null;
      resumePending();
    }
    askModel(question);
    changed();
    textInput.focus();
    showPace();
    return true;
  }

  function showErrors(errors) {
    const perQuestion = {};
    const general = [];
    for (const [key, messages] of Object.entries(errors || {})) {
      const match = /^questions\[(\d+)\]/.exec(key);
      if (match) (perQuestion[Number(match[1])] ||= []).push(...messages);
      else general.push(...messages);
    }
    $("submit-errors").replaceChildren(
      element("p", T.refused), ...general.map((m) => element("p", m)));
    render(perQuestion);
  }

  function finish() {
    sent = true;
    keeper.stop();
    keeper.forget();
    $("draft-notice").hidden = true;
    if (detach) detach();
    root.classList.add("is-sent");
    $("question-form").hidden = true;
    sendButton.hidden = true;
    $("pace-line").hidden = true;
    exactButton.hidden = true;
    $("submit-errors").replaceChildren();
    $("draft-status").textContent = "";
    $("question-length").hidden = true;
    document.querySelector(".action-bar-status").hidden = true;
    for (const box of document.querySelectorAll("details.shortcuts, details.release")) box.hidden = true;
    $("after-submit").hidden = false;
    $("next-paragraph").focus();
    render();
    claimNext();
  }

  // Back to a page the browser kept whole (back-forward cache) while it was being written:
  // if the paragraph was sent meanwhile (another tab), say so instead of offering Send.
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted || sent) return;
    fetch(root.dataset.draftUrl.replace(/draft\/$/, ""), { credentials: "same-origin" })
      .then((response) => (response.ok ? response.json() : null))
      .then((lease) => {
        if (!lease || lease.status !== "submitted" || sent) return;
        $("sent-message").textContent = T.wasSent;
        finish();
      }).catch(() => {});
  });

  function submit() {
    if (sent || state.editing !== null) return;
    // The question being written goes along when it is complete; a started one is never
    // dropped silently.
    if (state.current.text.trim() && !addQuestion()) {
      $("submit-errors").replaceChildren(element("p", T.unfinished));
      return;
    }
    if (sendButton.disabled) return;
    sendButton.disabled = true;
    const body = {
      questions: state.questions.map((q) => (q.impossible ? {
        text: q.text, is_impossible: true, plausible_answer_start: q.start,
        plausible_answer_text: S.slice(paragraph, q.start, q.end), seconds_spent: q.seconds || 0,
      } : {
        text: q.text, answer_start: q.start,
        answer_text: S.slice(paragraph, q.start, q.end), seconds_spent: q.seconds || 0,
        ...(attemptsUrl ? { model_key: q.key } : {}),
      })),
    };
    // No draft save after the paragraph: one on its way is answered first (else it would
    // reach a sent lease and be refused), and none starts while the paragraph travels.
    keeper.hold().then(() => fetch(root.dataset.submitUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    })).then((response) => response.json().catch(() => ({})).then((data) => {
      if (response.ok) finish();
      else { keeper.resume(); showErrors(data.errors); }
    })).catch(() => {
      keeper.resume();
      $("submit-errors").replaceChildren(element("p", T.offline));
      renderList();
    });
  }

  detach = S.attach(paragraphEl, {
    bounds,
    exact: () => exactButton.getAttribute("aria-pressed") === "true",
    onSelect: ({ start, end }, { by }) => {
      started();
      state.current.start = start;
      state.current.end = end;
      changed();
      // Selected first: the question is typed next, without a click on its field.
      if (by === "mouse" && !state.current.text.trim()) textInput.focus({ preventScroll: true });
    },
  });
  exactButton.addEventListener("click", () => {
    exactButton.setAttribute("aria-pressed", String(exactButton.getAttribute("aria-pressed") !== "true"));
  });
  if (impossibleBox) {
    impossibleBox.addEventListener("change", () => {
      state.current.impossible = impossibleBox.checked;
      changed();
      textInput.focus({ preventScroll: true });
    });
  }
  textInput.addEventListener("input", () => {
    started();
    state.current.text = textInput.value;
    changed();
  });
  const plainEnter = (event) => event.key === "Enter" && !event.shiftKey && !event.ctrlKey &&
    !event.metaKey && !event.altKey;
  textInput.addEventListener("keydown", (event) => {
    if (plainEnter(event)) { event.preventDefault(); addQuestion(); }
  });
  paragraphEl.addEventListener("keydown", (event) => {
    if (plainEnter(event) && !sent) { event.preventDefault(); addQuestion(); }
  });
  $("question-form").addEventListener("submit", (event) => { event.preventDefault(); addQuestion(); });
  $("cancel-edit").addEventListener("click", cancelEdit);
  sendButton.addEventListener("click", submit);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); submit(); }
    if (event.key === "Escape" && state.editing !== null) cancelEdit();
  });
  // Giving the paragraph back drops its work: the copy in this browser goes too.
  const releaseForm = document.querySelector("details.release form");
  if (releaseForm) releaseForm.addEventListener("submit", keeper.forget);

  // Text typed before this script ran (a slow load) is kept, unless the draft has its own.
  if (state.current.text || !textInput.value) textInput.value = state.current.text;
  else state.current.text = textInput.value;
  // Questions whose answer had not come when the page was left are asked again.
  for (const q of state.questions) if (q.model && q.model.status === "asking") { q.model = null; askModel(q); }
  render();
  keeper.start();  // changes the server never got (this browser's copy): said, and sent now
  if (pace) { $("pace-line").hidden = false; showPace(); setInterval(showPace, 1000); }
  textInput.focus({ preventScroll: true });
  performance.mark("annotate:ready");
}());
