/* A work page's draft that nothing loses: kept in this browser, saved to the server.
 *
 * window.DraftKeeper.create(options) keeps a lease's work in progress (issue 24 §1) for the
 * pages that load this module before their own script: the annotation page (annotate.js) and
 * the additional-answer page (answer.js):
 *
 * - every change goes first to this browser's storage (localStorage, one entry per lease,
 *   `prefix` + lease id), then to the server as the lease's draft (PUT, debounced);
 * - each change raises the draft's revision (`rev`, saved in the draft); on load, the copy
 *   with the higher revision wins, the server's on a tie, and a copy the server never got is
 *   sent at once;
 * - a failed save is retried (1, 2, 4, 8, then every 15 seconds, and at once when the
 *   browser comes back online or the person asks); after 5 seconds without an answer the
 *   notice beside the work says so; a hanging request is cancelled by "Try again now";
 * - a refusal that will never succeed (a 4xx other than 408 and 429: the item sent or given
 *   back, too large, signed out) is not retried: the notice shows the server's reason.
 *
 * The page gives the draft (`body()`), the elements of the notice and its messages; all text
 * goes into the page through textContent.
 */
(function () {
  "use strict";

  const RETRY_MS = [1000, 2000, 4000, 8000, 15000];
  const NOTICE_AFTER_MS = 5000;
  const DEBOUNCE_MS = 800;
  const STORE_DAYS = 30;  // a copy left behind (a lease that ended elsewhere) goes after this

  const isDraft = (value) => Boolean(value) && typeof value === "object" && !Array.isArray(value);
  const revisionOf = (draft) => (isDraft(draft) && Number.isInteger(draft.rev) && draft.rev > 0 ? draft.rev : 0);

  function openStore(prefix) {
    try {
      const s = window.localStorage;
      s.setItem(`${prefix}probe`, "1");
      s.removeItem(`${prefix}probe`);
      return s;
    } catch (e) { return null; }  // storage off, private mode, full: the server alone keeps it
  }

  /**
   * options: prefix (the storage keys' start), id (the lease), url (its draft), csrf,
   * server (the draft the page came with), body() (the draft to keep now, without `rev`),
   * elements {status, notice, title, text, retry}, messages {saved, saveFailed,
   * troubleTitle, troubleKept, troubleNotKept, refusedTitle, refusedKept, restored,
   * takenTitle, taken}, timeNow() (the time of day, as the pages write it).
   *
   * Returns {draft, fromBrowser, changed(), flush(), upToDate(), forget(), stop(), hold(),
   * resume(), start()}:
   * `draft` is the one to show (this browser's copy when it is newer than the server's);
   * `start()` sends it at once if it came from this browser.
   */
  function create(options) {
    const T = options.messages;
    const E = options.elements;
    const key = `${options.prefix}${options.id}`;
    const store = openStore(options.prefix);
    const server = isDraft(options.server) ? options.server : {};
    const serverRev = revisionOf(server);

    function readLocal() {
      if (!store) return null;
      try {
        const copy = JSON.parse(store.getItem(key) || "null");
        return copy && Number.isInteger(copy.rev) && isDraft(copy.draft) ? copy : null;
      } catch (e) { return null; }
    }
    let keptHere = Boolean(store);  // whether the last change reached this browser's storage
    function writeLocal(draft) {
      if (!store) return;
      try {
        store.setItem(key, JSON.stringify({ rev: draft.rev, changedAt: Date.now(), draft }));
        keptHere = true;
      } catch (e) { keptHere = false; }  // full: the notice says to keep the page open
    }
    function forget() {
      if (store) try { store.removeItem(key); } catch (e) { /* nothing to forget */ }
    }
    function prune() {
      if (!store) return;
      const oldest = Date.now() - STORE_DAYS * 86400000;
      try {
        for (const name of Object.keys(store)) {
          if (!name.startsWith(options.prefix) || name === key) continue;
          let copy = null;
          try { copy = JSON.parse(store.getItem(name)); } catch (e) { copy = null; }
          if (!copy || !(copy.changedAt > oldest)) store.removeItem(name);
        }
      } catch (e) { /* storage went away meanwhile */ }
    }

    const local = readLocal();
    const fromBrowser = local !== null && local.rev > serverRev;  // the server missed changes
    let rev = fromBrowser ? local.rev : serverRev;  // the revision of what is on screen
    let ackedRev = serverRev;  // the last revision the server confirmed
    let stopped = false;
    let saveTimer = null;
    let inFlight = null;  // the AbortController of the request on its way (or true without one)
    let saveAgain = false;
    let retryAfterAbort = false;
    let failures = 0;
    let refused = false;
    let waitingSince = null;  // the first unanswered save since the last success
    let noticeTimer = null;
    let held = false;  // the work is on its way (hold()): changes are kept here, not sent
    let idleWaiters = [];  // hold()'s promises, settled when no save is on its way

    const status = (text) => { E.status.textContent = text; };
    const draftBody = () => ({ ...options.body(), rev });

    function showNotice(kind, title, lines) {
      E.notice.classList.toggle("is-refused", kind !== "trouble");
      E.title.textContent = title;
      E.text.replaceChildren(...lines.map((line) => Object.assign(document.createElement("p"), { textContent: line })));
      E.retry.hidden = kind !== "trouble";
      E.notice.hidden = false;
    }
    const hideNotice = () => { E.notice.hidden = true; };
    function showTrouble() {
      noticeTimer = null;
      if (stopped || refused || waitingSince === null) return;
      showNotice("trouble", T.troubleTitle, [keptHere ? T.troubleKept : T.troubleNotKept]);
    }

    function schedule(ms) {
      clearTimeout(saveTimer);
      saveTimer = setTimeout(save, ms);
    }

    function save() {
      clearTimeout(saveTimer);
      saveTimer = null;
      if (stopped || held || rev <= ackedRev) return;
      if (inFlight) { saveAgain = true; return; }
      const controller = typeof AbortController === "function" ? new AbortController() : null;
      inFlight = controller || true;
      if (waitingSince === null) {
        waitingSince = Date.now();
        noticeTimer = setTimeout(showTrouble, NOTICE_AFTER_MS);
      }
      const draft = draftBody();
      fetch(options.url, {
        method: "PUT", credentials: "same-origin", keepalive: true,  // survives closing the tab
        signal: controller ? controller.signal : undefined,
        headers: { "Content-Type": "application/json", "X-CSRFToken": options.csrf },
        body: JSON.stringify({ draft }),
      }).then((response) => {
        if (response.ok) return response.json().then((lease) => savedOn(draft.rev, lease));
        if (response.status >= 400 && response.status < 500 && response.status !== 408 &&
            response.status !== 429) {
          return response.json().catch(() => ({})).then(refusedWith);
        }
        throw new Error(String(response.status));
      }).catch(failed).finally(() => {
        inFlight = null;
        // Changes made meanwhile go now, unless a retry is already planned.
        if (saveAgain && !saveTimer && !refused && !failures) save();
        saveAgain = false;
        if (!inFlight) { idleWaiters.forEach((resolve) => resolve()); idleWaiters = []; }
      });
    }

    function savedOn(savedRev, lease) {
      ackedRev = Math.max(ackedRev, savedRev);
      failures = 0;
      retryAfterAbort = false;
      refused = false;
      waitingSince = null;
      clearTimeout(noticeTimer);
      if (stopped) return;
      const time = T.saved.replace("%(time)s", options.timeNow());
      if (lease && lease.status !== "active") {
        status(`${time} — ${T.taken}`);
        showNotice("taken", T.takenTitle, [T.taken]);
      } else {
        status(time);
        hideNotice();
      }
    }

    function refusedWith(data) {
      refused = true;
      failures = 0;
      retryAfterAbort = false;
      waitingSince = null;
      clearTimeout(noticeTimer);
      clearTimeout(saveTimer);
      saveTimer = null;
      if (stopped) return;
      const errors = (data && data.errors) || {};
      let messages = Object.values(errors).flat().filter((m) => typeof m === "string");
      if (!messages.length && data && typeof data.detail === "string") messages = [data.detail];
      if (!messages.length) messages = [T.saveFailed];
      status(messages.join(" "));
      showNotice("refused", T.refusedTitle, [...messages, keptHere ? T.refusedKept : T.troubleNotKept]);
    }

    function failed() {
      if (stopped) return;
      failures += 1;
      status(T.saveFailed);
      schedule(retryAfterAbort ? 0 : RETRY_MS[Math.min(failures, RETRY_MS.length) - 1]);
      retryAfterAbort = false;
    }

    /** Try at once: the browser is back online, or the person asked. A request still on its
     * way (a server that hangs) is cancelled first. */
    function retryNow() {
      if (stopped || refused || rev <= ackedRev) return;
      if (inFlight && typeof inFlight.abort === "function") {
        retryAfterAbort = true;
        inFlight.abort();
        return;
      }
      if (!inFlight) save();
    }

    /** The page's work changed: keep it here first (the network may fail), then send it. */
    function changed() {
      if (stopped) return;
      rev += 1;
      writeLocal(draftBody());
      refused = false;  // something changed: ask the server again
      if (!failures) schedule(DEBOUNCE_MS);  // while the server fails, the backoff sets the pace
    }

    // A pending draft goes out when the page is left or hidden (pagehide, not beforeunload:
    // a beforeunload listener slows every navigation away and keeps the page out of the cache).
    // While the server fails, the copy in this browser is what counts: nothing to send then.
    const flush = () => { if (saveTimer && !failures) save(); };
    window.addEventListener("pagehide", flush);
    document.addEventListener("visibilitychange", () => { if (document.hidden) flush(); });
    window.addEventListener("online", retryNow);
    E.retry.addEventListener("click", retryNow);

    return {
      draft: fromBrowser ? local.draft : server,
      fromBrowser,
      changed,
      flush,
      /** Whether the server holds the latest change (so this browser's copy may go). */
      upToDate: () => rev <= ackedRev,
      forget,
      /** The work is sent or given back: no more saves, no more notices. */
      stop() {
        stopped = true;
        clearTimeout(saveTimer);
        clearTimeout(noticeTimer);
        saveTimer = null;
      },
      /** The work is being sent: no save starts, and the promise settles once the one on its
       * way (if any) is answered, so that it never reaches the server after the work. */
      hold() {
        held = true;
        clearTimeout(saveTimer);
        saveTimer = null;
        return inFlight ? new Promise((resolve) => idleWaiters.push(resolve)) : Promise.resolve();
      },
      /** The sending failed: saving goes on, the changes held meanwhile first. */
      resume() {
        held = false;
        if (rev > ackedRev && !refused) schedule(0);  // a retry held back goes now too
      },
      /** Once the page shows the draft: prune old copies, send one the server never got. */
      start() {
        prune();
        if (fromBrowser) {
          status(T.restored);
          save();
        }
      },
    };
  }

  window.DraftKeeper = { create };
}());
