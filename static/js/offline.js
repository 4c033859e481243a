// The desk keeps working offline, so a dropped venue network loses no result. A form marked
// data-offline-queue that is submitted while the network is down (or while older results still
// wait) is kept in IndexedDB with a one-time key (its "submission" field) and listed as "waiting
// to send"; the queue is sent in order, as plain posts, when the connection returns ("online", a
// retry timer, a page load).
// The server takes each key once and answers a replay as the first post (a redirect). A refusal
// (409 stale, another 4xx) is listed as not applied with the server's words, never retried.
// Without such a form the module only says when the browser is offline.
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (s, p, n) { return n === 1 ? s : p; };
  var STORE = "queue";
  var forms = document.querySelectorAll("form[data-offline-queue]");
  var main = document.querySelector("main");
  var box, dbp, busy = false, waiting = 0, loggedOut = false, last = new WeakMap();

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text) e.textContent = text;
    return e;
  }

  var banner = el("p", "msg warning", gettext("You are offline: this page shows what it had."));
  banner.setAttribute("role", "status");
  function offline() {
    if (navigator.onLine) banner.remove();
    else if (main && !forms.length) main.prepend(banner);
  }
  window.addEventListener("offline", offline);
  window.addEventListener("online", offline);
  offline();

  // Desk pages come back offline from a service worker (templates/events/desk_sw.js). Browsers
  // allow one on HTTPS or on this computer only: a second desk at http://192.168… is told so.
  var onDesk = location.pathname.indexOf("/desk/") === 0;
  if (onDesk && "serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/desk/sw.js", { scope: "/desk/" }).catch(function () {});
  } else if (onDesk && forms.length && main && !window.isSecureContext) {
    var note = el("p", "muted small", gettext("At this address the page cannot be reloaded without a network: results typed offline are still kept, but keep this page open. Open the desk on HTTPS or on the computer running the server to reload offline too."));
    note.setAttribute("data-offline-insecure", "");
    main.append(note);
  }
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[action$='/accounts/logout/']")) return;
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage("logout");
    }
  }, true);
  if (!forms.length || !window.indexedDB) return;

  function db() {
    dbp = dbp || new Promise(function (ok, ko) {
      var r = indexedDB.open("desk-offline", 1);
      r.onupgradeneeded = function () {
        r.result.createObjectStore(STORE, { keyPath: "n", autoIncrement: true });
      };
      r.onsuccess = function () { ok(r.result); };
      r.onerror = function () { ko(r.error); };
    });
    return dbp;
  }
  function tx(mode, act) {
    return db().then(function (d) {
      return new Promise(function (ok, ko) {
        var t = d.transaction(STORE, mode), req = act(t.objectStore(STORE));
        t.oncomplete = function () { ok(req.result); };
        t.onerror = function () { ko(t.error); };
      });
    });
  }
  function all() { return tx("readonly", function (s) { return s.getAll(); }); }
  function put(item) { return tx("readwrite", function (s) { return s.put(item); }); }
  function drop(n) { return tx("readwrite", function (s) { return s.delete(n); }); }

  function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    return Array.from(crypto.getRandomValues(new Uint8Array(16)), function (b) {
      return (b + 256).toString(16).slice(1);
    }).join("");
  }

  // What is sent: the form's fields (with the pressed button) and a fresh key.
  function snapshot(form, submitter) {
    var field = form.querySelector("input[name=submission]");
    if (!field) {
      field = el("input");
      field.type = "hidden";
      field.name = "submission";
      form.append(field);
    }
    field.value = newKey();
    var label = form.getAttribute("data-offline-label") || document.title;
    var step = form.getAttribute("data-offline-step");
    var stepped = step && form.elements[step];
    if (stepped && stepped.value && stepped.labels && stepped.labels.length) {
      label += " · " + stepped.labels[0].textContent.replace(/[:\s]+$/, "") + " " + stepped.value;
    }
    if (submitter && submitter.value) label += " · " + submitter.textContent.trim();
    return {
      key: field.value,
      url: form.action,
      body: Array.from(new FormData(form, submitter)).filter(function (p) {
        return typeof p[1] === "string";
      }),
      label: label,
    };
  }

  function queue(form, item) {
    return put(item).then(function () {
      var step = form.getAttribute("data-offline-step");
      var input = step && form.elements[step];
      var value = input ? Number(input.value) : NaN;
      form.reset(); // ready for the next result
      // A page that knows what comes next says so (static/shuffleboard/offline-rota.js: the
      // board's next player, as online); otherwise a stepped field (a game number) moves on.
      var next = new CustomEvent("offline:queued", { bubbles: true, cancelable: true, detail: item });
      if (form.dispatchEvent(next) && input && value) input.value = value + 1;
      render();
      flush();
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-offline-queue]")) return;
    var item = snapshot(form, event.submitter);
    if (navigator.onLine && !waiting) {
      last.set(form, item); // htmx or the browser sends it; kept in case htmx cannot
      return;
    }
    event.preventDefault();
    event.stopPropagation(); // htmx listens on the form itself: it never sees this submit
    queue(form, item);
  }, true);

  document.addEventListener("htmx:sendError", function (event) {
    var d = event.detail || {}, form = d.elt && d.elt.closest("form[data-offline-queue]");
    var trigger = d.requestConfig && d.requestConfig.triggeringEvent;
    var item = form && last.get(form);
    if (!item || !trigger || trigger.type !== "submit") return;
    last.delete(form);
    var note = form.previousElementSibling; // site.js's "not sent": the queue says it now
    if (note && note.hasAttribute("data-htmx-error")) note.remove();
    queue(form, item);
  });

  function wordsOf(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var found = [".msg.error p", ".msg.error", ".errors", ".errorlist", "[role=alert]"]
      .map(function (s) { return doc.querySelector("main " + s); })
      .filter(Boolean)[0];
    return found ? found.textContent.replace(/\s+/g, " ").trim() : "";
  }

  // The page's current CSRF token (the cookie, else a form's field).
  function csrfToken() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  // Oldest first; stops at the first one that cannot be sent (no network, a server error).
  function flush() {
    if (busy || !navigator.onLine) return;
    busy = true;
    function next(items) {
      var item = items.filter(function (i) { return !i.status; })[0];
      if (!item) return;
      var body = new URLSearchParams(item.body);
      var token = csrfToken();
      if (token) body.set("csrfmiddlewaretoken", token); // a login since changed the token
      return fetch(item.url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { "X-Offline-Queue": "1" },
      }).then(function (r) {
        if (r.status >= 500) return;
        if (r.redirected && new URL(r.url).pathname.indexOf("/accounts/login") === 0) {
          // The session ended (or the desk logged out): nothing was saved. Kept, in order,
          // and sent once someone logs in again on this browser.
          loggedOut = true;
          return;
        }
        loggedOut = false;
        if (r.ok) return drop(item.n).then(all).then(next);
        return r.text().then(function (html) {
          item.status = r.status;
          item.words = wordsOf(html);
          return put(item).then(all).then(next);
        });
      }, function () {});
    }
    all().then(next).then(render, render).then(function () { busy = false; });
  }

  function render() {
    return all().then(function (items) {
      var sending = items.filter(function (i) { return !i.status; });
      var refused = items.filter(function (i) { return i.status; });
      waiting = sending.length;
      if (!box) {
        box = el("section", "panel offline-queue");
        box.id = "offline-queue";
        box.setAttribute("aria-live", "polite");
        main.prepend(box);
      }
      box.replaceChildren();
      box.hidden = !items.length;
      if (sending.length) {
        var n = sending.length;
        box.append(el("h2", "", interpolateN(ngettext("Waiting to send (%s)", "Waiting to send (%s)", n), n)));
        if (!navigator.onLine) box.append(el("p", "muted small", gettext("You are offline: results are kept in this browser and sent when the connection returns.")));
        if (loggedOut) {
          var login = el("p", "msg warning", gettext("Your session has ended: log in again on this browser and these results are sent."));
          login.setAttribute("role", "alert");
          login.setAttribute("data-offline-login", "");
          box.append(login);
        }
        var ol = el("ol", "queue");
        sending.forEach(function (i) { ol.append(el("li", "", i.label)); });
        box.append(ol);
      }
      if (refused.length) {
        box.append(el("h2", "", gettext("Not applied")));
        refused.forEach(function (i) {
          var li = el("p", "msg error", (i.status === 409 ? gettext("Conflict") : gettext("Refused")) + ": " + i.label + " — " + (i.words || i.status));
          li.setAttribute("role", "alert");
          li.setAttribute("data-status", i.status);
          var ok = el("button", "link", gettext("Dismiss"));
          ok.type = "button";
          ok.addEventListener("click", function () { drop(i.n).then(render); });
          li.append(" ", ok);
          box.append(li);
        });
      }
    });
  }
  function interpolateN(fmt, n) {
    return window.interpolate ? window.interpolate(fmt, [n]) : fmt.replace("%s", n);
  }

  window.addEventListener("online", flush);
  window.addEventListener("offline", render);
  setInterval(function () { if (waiting) flush(); }, 5000);
  render().then(flush);
})();
