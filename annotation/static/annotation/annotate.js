/* The annotation page: write 3–5 questions on a paragraph, each with its answer span.
 *
 * Offsets are code points (window.SpanSelect). Work in progress is saved to the server as a
 * draft (debounced) so a closed tab, a crash or an expired lease loses nothing; the server
 * validates everything again on submit, and a refusal keeps the text on screen.
 * All text goes into the page through textContent: nothing here builds HTML from strings.
 */
(function () {
  "use strict";

  const root = document.getElementById("annotate");
  if (!root || !window.SpanSelect) return;
  const S = window.SpanSelect;
  const $ = (id) => document.getElementById(id);
  const T = JSON.parse($("annotate-messages").textContent);
  const paragraphEl = $("paragraph");
  const paragraph = JSON.parse($("paragraph-source").textContent);
  paragraphEl.textContent = paragraph;
  const min = Number(root.dataset.min);
  const max = Number(root.dataset.max);
  const csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
  const textInput = $("question-text");

  const length = S.codePointLength(paragraph);
  const isSpan = (q) => q && Number.isInteger(q.start) && Number.isInteger(q.end) &&
    q.start >= 0 && q.start < q.end && q.end <= length;
  const blank = () => ({ text: "", start: null, end: null, seconds: 0 });
  // A draft is whatever an earlier page saved: keep what is well formed, drop the rest.
  function restore(saved) {
    const questions = (Array.isArray(saved.questions) ? saved.questions : [])
      .filter((q) => isSpan(q) && typeof q.text === "string")
      .map((q) => ({ text: q.text, start: q.start, end: q.end,
                     seconds: Number.isInteger(q.seconds) ? q.seconds : 0 }));
    const fix = (c) => ({
      text: c && typeof c.text === "string" ? c.text : "",
      start: isSpan(c) ? c.start : null, end: isSpan(c) ? c.end : null,
      seconds: c && Number.isInteger(c.seconds) ? c.seconds : 0,
    });
    const editing = Number.isInteger(saved.editing) && saved.editing < questions.length
      ? saved.editing : null;
    return { questions, current: fix(saved.current), editing,
             pending: editing === null ? null : fix(saved.pending) };
  }
  let saved = {};
  try { saved = JSON.parse($("annotate-draft").textContent || "{}") || {}; } catch (e) { saved = {}; }
  const state = restore(typeof saved === "object" && !Array.isArray(saved) ? saved : {});
  let startedAt = null;
  let saveTimer = null;
  let sent = false;

  const norm = (text) => text.trim().split(/\s+/).join(" ").toLocaleLowerCase("fr");
  const tokens = (text) => text.toLocaleLowerCase("fr").match(/[\p{L}\p{N}]+/gu) || [];
  const paragraphTokens = tokens(paragraph);

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

  function hintsFor(current, skipIndex) {
    const hints = [];
    const text = current.text.trim();
    if (text && !text.endsWith("?")) hints.push(T.noQuestionMark);
    const words = tokens(text);
    if (words.length >= 4 && longestSharedRun(words) / words.length >= 0.6) hints.push(T.copied);
    if (text && state.questions.some((q, i) => i !== skipIndex && norm(q.text) === norm(text))) {
      hints.push(T.duplicate);
    }
    if (current.start !== null) {
      const answer = S.slice(paragraph, current.start, current.end);
      if (answer.split(/\s+/).filter(Boolean).length > 20) hints.push(T.longAnswer);
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
      start: q.start, end: q.end, className: "answer-mark", label: `${T.answer} ${i + 1}`,
    }));
    if (state.current.start !== null) {
      spans.push({ start: state.current.start, end: state.current.end,
                   className: "answer-candidate", label: T.selected });
    }
    S.highlight(paragraphEl, paragraph, spans);
  }

  function renderList(errors) {
    const list = $("question-list");
    list.replaceChildren();
    state.questions.forEach((q, i) => {
      const item = element("li", undefined, "question-item");
      item.append(element("p", q.text, "question-text"));
      const answer = element("p", undefined, "question-answer");
      answer.append(element("span", `${T.answer} : `), element("q", S.slice(paragraph, q.start, q.end)));
      item.append(answer);
      for (const message of (errors && errors[i]) || []) {
        item.append(element("p", message, "field-error"));
      }
      const edit = element("button", T.edit, "button-small");
      edit.type = "button";
      edit.disabled = state.editing !== null;
      edit.addEventListener("click", () => startEdit(i));
      const remove = element("button", T.delete, "button-small");
      remove.type = "button";
      remove.disabled = state.editing !== null;  // indexes must not move under an edit
      remove.addEventListener("click", () => { state.questions.splice(i, 1); changed(); });
      item.append(edit, remove);
      list.append(item);
    });
    const count = state.questions.length;
    $("question-counter").textContent = `${count} / ${min}–${max}`;
    $("submit-paragraph").disabled = sent || count < min || count > max || state.editing !== null;
    $("add-question").disabled = state.editing === null && count >= max;
    $("cancel-edit").hidden = state.editing === null;
  }

  function renderCurrent() {
    const c = state.current;
    $("answer-preview").textContent = c.start === null ? "" : S.slice(paragraph, c.start, c.end);
    const hints = $("question-hints");
    hints.replaceChildren(...hintsFor(c, state.editing).map((h) => element("li", h)));
  }

  function render(errors) {
    renderHighlights();
    renderList(errors);
    renderCurrent();
  }

  function saveDraft() {
    clearTimeout(saveTimer);
    saveTimer = null;
    if (sent) return;
    fetch(root.dataset.draftUrl, {
      method: "PUT", credentials: "same-origin", keepalive: true,  // survives closing the tab
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ draft: state }),
    }).then((response) => {
      if (response.status === 409 || response.status === 413) {
        return response.json().catch(() => ({})).then((data) => {
          const messages = Object.values((data && data.errors) || {}).flat();
          $("draft-status").textContent = messages.join(" ") || T.saveFailed;
        });
      }
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

  function changed() {
    render();
    clearTimeout(saveTimer);
    saveTimer = setTimeout(saveDraft, 800);
  }

  function elapsed() {
    const running = startedAt === null ? 0 : Math.round((Date.now() - startedAt) / 1000);
    return (state.current.seconds || 0) + running;
  }

  function startEdit(index) {
    if (state.editing !== null) return;
    const q = state.questions[index];
    state.pending = { ...state.current, seconds: elapsed() };  // the unsent question waits
    startedAt = null;
    state.editing = index;
    state.current = { text: q.text, start: q.start, end: q.end, seconds: q.seconds || 0 };
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

  function addQuestion() {
    const c = state.current;
    const problems = [];
    if (!c.text.trim()) problems.push(T.needText);
    if (c.start === null || c.start === c.end) problems.push(T.needAnswer);
    if (problems.length) {
      $("question-hints").replaceChildren(...problems.map((p) => element("li", p, "field-error")));
      return;
    }
    const question = { text: c.text.trim(), start: c.start, end: c.end, seconds: elapsed() };
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
    changed();
    textInput.focus();
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

  function submit() {
    if ($("submit-paragraph").disabled) return;
    $("submit-paragraph").disabled = true;
    const body = {
      questions: state.questions.map((q) => ({
        text: q.text, answer_start: q.start,
        answer_text: S.slice(paragraph, q.start, q.end), seconds_spent: q.seconds || 0,
      })),
    };
    fetch(root.dataset.submitUrl, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    }).then((response) => response.json().catch(() => ({})).then((data) => {
      if (response.ok) {
        sent = true;
        clearTimeout(saveTimer);
        $("question-form").hidden = true;
        $("submit-errors").replaceChildren();
        $("after-submit").hidden = false;
        $("next-paragraph").focus();
        renderList();
      } else {
        showErrors(data.errors);
      }
    })).catch(() => {
      $("submit-errors").replaceChildren(element("p", T.offline));
      renderList();
    });
  }

  S.attach(paragraphEl, {
    onSelect: ({ start, end }) => {
      state.current.start = start;
      state.current.end = end;
      changed();
    },
  });
  textInput.addEventListener("input", () => {
    if (startedAt === null) startedAt = Date.now();
    state.current.text = textInput.value;
    changed();
  });
  textInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && !event.shiftKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      addQuestion();
    }
  });
  $("question-form").addEventListener("submit", (event) => { event.preventDefault(); addQuestion(); });
  $("cancel-edit").addEventListener("click", cancelEdit);
  $("submit-paragraph").addEventListener("click", submit);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); submit(); }
    if (event.key === "Escape" && state.editing !== null) cancelEdit();
  });
  window.addEventListener("beforeunload", () => { if (saveTimer) saveDraft(); });

  textInput.value = state.current.text || "";
  render();
}());
