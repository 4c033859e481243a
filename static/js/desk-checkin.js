// The desk at speed: a check-in box that narrows the players' list as one types,
// and focus that goes back where the next keystroke belongs after every desk action.
// Loaded as a file (the Content-Security-Policy forbids inline scripts and eval).
//
// Markup it reads:
//   <input data-checkin-filter aria-controls="LIST-ID">   the box (inside a form that posts the
//                                                          typed text when no row is chosen)
//   <tr|li data-checkin-row data-search="folded name club" data-number="12">   each player
//   <button data-checkin-go>                               the row's "Check in" button
//   <form data-refocus="ELEMENT-ID">                       after this form's htmx answer is in
//                                                          place, focus ELEMENT-ID
(function () {
  "use strict";

  // As events.models.fold: case and accents aside, letters Unicode does not decompose mapped.
  var LETTERS = { "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "ł": "l", "đ": "d", "ð": "d", "þ": "th" };
  function fold(text) {
    return text
      .toLowerCase()
      .replace(/[øæœßłđðþ]/g, function (c) { return LETTERS[c]; })
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .replace(/\s+/g, " ")
      .trim();
  }

  function rowsOf(input) {
    var list = document.getElementById(input.getAttribute("aria-controls") || "");
    return list ? Array.prototype.slice.call(list.querySelectorAll("[data-checkin-row]")) : [];
  }

  function choosable(row) {
    return !row.hidden && row.querySelector("[data-checkin-go]");
  }

  function highlight(input, row) {
    rowsOf(input).forEach(function (other) {
      other.classList.remove("highlight");
      other.removeAttribute("aria-selected");
    });
    if (row) {
      row.classList.add("highlight");
      row.setAttribute("aria-selected", "true");
      if (row.scrollIntoView) row.scrollIntoView({ block: "nearest" });
    }
  }

  function statusOf(input) {
    var status = document.getElementById(input.getAttribute("aria-describedby") || "");
    return status && status.hasAttribute("data-checkin-status") ? status : null;
  }

  // Narrow the list: a number names one player exactly; words must each be in the name or club.
  function narrow(input) {
    var query = fold(input.value);
    var words = query ? query.split(" ") : [];
    var number = /^\d+$/.test(query) ? query : null;
    var first = null;
    rowsOf(input).forEach(function (row) {
      var search = row.getAttribute("data-search") || "";
      var match = !words.length || (number
        ? row.getAttribute("data-number") === number
        : words.every(function (word) { return search.indexOf(word) !== -1; }));
      row.hidden = !match;
      if (match && !first && words.length && choosable(row)) first = row;
    });
    highlight(input, first);
    say(input, words.length ? first : undefined);
  }

  // The line under the box says what Enter will do (its words come from the template, which
  // translates them: data-chosen "Enter checks in:", data-none "No player to check in matches.").
  function say(input, row) {
    var status = statusOf(input);
    if (!status) return;
    if (!status.hasAttribute("data-help")) status.setAttribute("data-help", status.textContent);
    if (row === undefined) {
      status.textContent = status.getAttribute("data-help");
    } else if (row) {
      status.textContent = (status.getAttribute("data-chosen") || "") + " " +
        row.getAttribute("data-number") + ". " + (row.getAttribute("data-name") || "");
    } else {
      status.textContent = status.getAttribute("data-none") || "";
    }
  }

  function move(input, step) {
    var rows = rowsOf(input).filter(choosable);
    if (!rows.length) return;
    var at = rows.findIndex(function (row) { return row.classList.contains("highlight"); });
    var next = at === -1 ? rows[0] : rows[Math.min(rows.length - 1, Math.max(0, at + step))];
    highlight(input, next);
    say(input, next);
  }

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input && input.matches && input.matches("[data-checkin-filter]")) narrow(input);
  });

  // "/" anywhere but in a field goes to the check-in box.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
    var here = event.target;
    if (here && here.closest && here.closest("input, textarea, select, [contenteditable]")) return;
    var box = document.querySelector("[data-checkin-filter]");
    if (box) {
      event.preventDefault();
      box.focus();
    }
  });

  document.addEventListener("keydown", function (event) {
    var input = event.target;
    if (!input || !input.matches || !input.matches("[data-checkin-filter]")) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      move(input, event.key === "ArrowDown" ? 1 : -1);
    } else if (event.key === "Escape") {
      event.preventDefault();
      input.value = "";
      narrow(input);
    } else if (event.key === "Enter") {
      if (!input.value.trim()) {
        event.preventDefault();
      } else if (inFlight) {
        // One list action at a time: an answer rendered before this one's write would
        // otherwise replace the list after it, one check-in behind. The words wait, in order,
        // and go as typed once the list in the page is the server's answer.
        event.preventDefault();
        waiting.push(input.value);
        input.value = "";
        narrow(input);
      } else if (checkIn(input)) {
        event.preventDefault();
      }
      // Otherwise the form posts what was typed and the server says what it matched.
    }
  });

  // Enter's check-in: the highlighted row's own button (the same request, the same answer as a
  // click); false when no row is chosen (the form then posts the words).
  function checkIn(input) {
    var row = rowsOf(input).filter(function (r) { return r.classList.contains("highlight"); })[0];
    var go = row && !row.hidden ? row.querySelector("[data-checkin-go]") : null;
    if (!go) return false;
    // A list swapped in a moment ago may not be wired by htmx yet (it does that as the swap
    // settles): wire the row first, or the click would post the whole page.
    if (window.htmx && go.form) window.htmx.process(go.form);
    go.click();
    // The request has left with the row's own form: the box is ready for the next player
    // at once (a fast desk types the next number before this answer is in).
    input.value = "";
    narrow(input);
    return true;
  }

  // The list's actions in flight (a check-in, an undo, a registration: anything aimed at the
  // players' list), and the words typed meanwhile.
  var inFlight = 0;
  var waiting = [];
  function aimsAtList(elt) {
    return !!(elt && elt.closest && (elt.closest("#players") || elt.closest("[hx-target='#entries']")));
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (aimsAtList(event.detail && event.detail.elt)) inFlight += 1;
  });
  function nextWaiting() {
    if (inFlight || !waiting.length) return;
    var input = document.querySelector("[data-checkin-filter]");
    if (!input) {
      waiting = [];
      return;
    }
    var kept = input.value;
    input.value = waiting.shift();
    narrow(input);
    if (!checkIn(input)) {
      var form = input.form;
      if (form && window.htmx) window.htmx.trigger(form, "submit");
      else if (form) form.requestSubmit();
      input.value = kept;
      narrow(input);
    } else if (kept) {
      input.value = kept;
      narrow(input);
    }
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!aimsAtList(event.detail && event.detail.elt)) return;
    inFlight = Math.max(0, inFlight - 1);
    // A failed request swaps nothing: the next one goes now. A good one goes once settled.
    if (!event.detail.successful) nextWaiting();
  });
  document.addEventListener("htmx:afterSettle", function () {
    nextWaiting();
  });

  // Where focus goes once an htmx answer is in place: the element the form names.
  // Kept with the request it belongs to: another answer settling first (a poll, a list refresh)
  // must not spend it on the element that is about to be replaced.
  var refocus = null;
  var refocusRequest = null;
  var refocusValue = null;  // the box's words when the request left: typed on since, they stay
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    var form = elt && elt.closest ? elt.closest("[data-refocus]") : null;
    if (form) {
      refocus = form.getAttribute("data-refocus");
      refocusRequest = event.detail.xhr || null;
      var box = document.getElementById(refocus);
      refocusValue = box ? box.value : null;
    }
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var filter = document.querySelector("[data-checkin-filter]");
    if (!refocus || (refocusRequest && event.detail && event.detail.xhr !== refocusRequest)) {
      if (filter && filter.value) narrow(filter);
      return;
    }
    var target = document.getElementById(refocus);
    refocus = null;
    refocusRequest = null;
    // The box stays in the page: once its player is checked in, it is emptied for the next
    // one; a refusal (the list says why) keeps the words, selected, to type over.
    if (target && target === filter) {
      var refused = document.querySelector("#entries [role=alert]");
      if (!refused && filter.value === refocusValue) filter.value = "";
      narrow(filter);
    } else if (filter && filter.value) {
      narrow(filter);
    }
    // Typed on while the answer was on its way (site.js carried it over): the cursor stays there.
    if (!target || (event.detail.xhr && event.detail.xhr.keptTyping)) return;
    // A form that came back with errors: the first field in error instead.
    var form = target.form;
    var next = (form && form.querySelector(".has-error input, .has-error select")) || target;
    // htmx may have put focus back already, and a fast typist may have typed on: keep it.
    if (document.activeElement === next) return;
    next.focus();
    // The search box keeps its words, selected, so typing starts a new search.
    if (next.type === "search" && next.value && next.select) next.select();
  });
})();
