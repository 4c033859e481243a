// Site-wide behaviour that the Content-Security-Policy keeps out of the templates: no inline
// script or on*= attribute runs, and htmx runs with allowEval off (no eval, no Function()).
(function () {
  // Print buttons: <button type="button" data-print>.
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (target && target.closest && target.closest("[data-print]")) {
      window.print();
    }
  });

  // Live sections poll only while the tab is visible. Their hx-trigger is a plain "every 10s"
  // (with allowEval off htmx cannot evaluate a trigger filter), so a poll (a request with no
  // triggering event, from an element that polls) is cancelled here while the tab is hidden.
  var POLLS = /(^|,)\s*every\s/;
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (document.visibilityState === "visible") return;
    var detail = event.detail || {};
    var config = detail.requestConfig || {};
    var elt = detail.elt;
    if (config.triggeringEvent || !elt || !elt.getAttribute) return;
    if (POLLS.test(elt.getAttribute("hx-trigger") || "")) {
      event.preventDefault();
    }
  });
  // An htmx answer that is not swapped in (a refusal, a server error) or no answer at all (the
  // venue network dropped) would leave the page unchanged without a word: say so beside what
  // was pressed. What was typed stays in the form. The words come from the answer itself (its
  // first alert or message, already in the reader's language) or from the page's own
  // data-htmx-error / data-htmx-offline texts.
  function wordsOf(xhr) {
    var text = (xhr && xhr.responseText) || "";
    var type = (xhr && xhr.getResponseHeader && xhr.getResponseHeader("Content-Type")) || "";
    try {
      if (type.indexOf("json") !== -1) return (JSON.parse(text) || {}).error || "";
      var doc = new DOMParser().parseFromString(text, "text/html");
      var found = doc.querySelector("[role=alert], .msg.error, .errorlist, main p");
      return found ? found.textContent.replace(/\s+/g, " ").trim() : "";
    } catch (error) {
      return "";
    }
  }

  function tell(event, words) {
    var elt = event.detail && event.detail.elt;
    var config = (event.detail && event.detail.requestConfig) || {};
    // Only what the user sent: a poll or a search that fails is tried again on its own, and a
    // preview that follows typing (a sjoelen score, a Blokus result) is not a sending.
    if (!elt || !elt.closest || String(config.verb || "get").toLowerCase() === "get") return;
    var trigger = config.triggeringEvent;
    if (trigger && trigger.type !== "submit" && trigger.type !== "click") return;
    // Offline, a form with a queue keeps what is sent and says so (static/js/offline.js).
    if (!navigator.onLine && elt.closest("form[data-offline-queue]")) return;
    var place = elt.closest("form") || elt;
    var note = place.previousElementSibling;
    if (!note || !note.hasAttribute("data-htmx-error")) {
      note = document.createElement("p");
      note.className = "msg error";
      note.setAttribute("role", "alert");
      note.setAttribute("data-htmx-error", "");
      place.parentNode.insertBefore(note, place);
    }
    note.textContent = words;
  }

  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail && event.detail.xhr;
    tell(event, wordsOf(xhr) || document.body.getAttribute("data-htmx-error") || "");
  });
  document.addEventListener("htmx:sendError", function (event) {
    tell(event, document.body.getAttribute("data-htmx-offline") || "");
  });
  // Sending again clears the note of the place that sends (a new one comes if it fails again).
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.closest) return;
    var place = elt.closest("form") || elt;
    var note = place.previousElementSibling;
    if (note && note.hasAttribute("data-htmx-error")) note.remove();
  });
})();

// Typing ahead while an answer is on its way (a hosted desk over venue Wi-Fi or 4G): a form whose
// htmx answer replaces it (a new player, a sjoelen turn) is not replaced under the fingers.
// - What was typed since the request left is carried into the form that comes back, and the
//   cursor stays in the field being typed in, where it was (htmx's autofocus included).
// - One write at a time per form: a second submit while the first is in flight waits, and goes
//   from the form that comes back once the first answer is in, and only if something was typed
//   since (a double Enter is not a second player) and the answer refused nothing.
// desk-checkin.js reads ``xhr.keptTyping`` to leave the focus where the typing goes on.
(function () {
  "use strict";
  var SKIP = /^(hidden|submit|button|reset|image|file|fieldset)$/;
  var flights = new WeakMap(); // form -> {sent, xhr, queued}
  var carries = new WeakMap(); // xhr -> what to carry into the answer

  function fieldsOf(form) {
    return Array.prototype.filter.call(form.elements, function (f) {
      return f.name && !SKIP.test(f.type);
    });
  }
  // A field's place: its name and, among fields of that name, its value (checkboxes) or rank.
  function keyOf(form, field) {
    if (field.type === "checkbox" || field.type === "radio") return field.name + "=" + field.value;
    var same = fieldsOf(form).filter(function (f) { return f.name === field.name; });
    return field.name + "#" + same.indexOf(field);
  }
  function valueOf(field) {
    if (field.type === "checkbox" || field.type === "radio") return field.checked;
    if (field.type === "select-multiple") {
      return Array.prototype.map.call(field.selectedOptions, function (o) { return o.value; }).join("\n");
    }
    return field.value;
  }
  function snapshot(form) {
    var values = {};
    fieldsOf(form).forEach(function (f) { values[keyOf(form, f)] = valueOf(f); });
    return values;
  }
  function find(form, key) {
    return fieldsOf(form).filter(function (f) { return keyOf(form, f) === key; })[0] || null;
  }
  function put(field, value) {
    if (field.type === "checkbox" || field.type === "radio") field.checked = value;
    else if (field.type === "select-multiple") {
      var chosen = String(value).split("\n");
      Array.prototype.forEach.call(field.options, function (o) { o.selected = chosen.indexOf(o.value) !== -1; });
    } else field.value = value;
  }

  // The form an answer replaces: the one that sent it, when the swap's target holds it.
  function replacedForm(detail) {
    // htmx fires some events on the target, others on an element still in the page: the
    // request's own element is in its configuration.
    var elt = detail && ((detail.requestConfig && detail.requestConfig.elt) || detail.elt);
    var form = elt && elt.closest ? elt.closest("form") : null;
    var target = detail && detail.target;
    var verb = String((detail.requestConfig && detail.requestConfig.verb) || detail.verb || "get");
    if (!form || !target || verb.toLowerCase() === "get") return null;
    return target === form || (target.contains && target.contains(form)) ? form : null;
  }
  // The same form in the answer: by id, else by where it posts.
  function formAfter(carry) {
    if (carry.id) return document.getElementById(carry.id);
    return carry.post ? document.querySelector('form[hx-post="' + CSS.escape(carry.post) + '"]') : null;
  }
  function refused(form) {
    return !!form.querySelector(".has-error, .errorlist, .errors, p.error, .msg.error");
  }

  document.addEventListener("htmx:confirm", function (event) {
    var form = replacedForm(event.detail);
    var flight = form && flights.get(form);
    if (!flight) return;
    event.preventDefault(); // sent once the answer in flight is in, from the form it brings
    var submit = event.detail.triggeringEvent;
    var by = submit && submit.submitter;
    flight.queued = { name: by && by.name ? by.name : "", value: by ? by.value : "" };
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = replacedForm(event.detail);
    if (form) flights.set(form, { sent: snapshot(form), xhr: event.detail.xhr, queued: null });
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail || {};
    var form = replacedForm(detail);
    var flight = form && flights.get(form);
    if (!flight || flight.xhr !== detail.xhr || !detail.shouldSwap) return;
    var typed = [];
    fieldsOf(form).forEach(function (f) {
      var key = keyOf(form, f);
      var now = valueOf(f);
      if (flight.sent[key] !== now) typed.push([key, now]);
    });
    var active = document.activeElement;
    var at = null;
    if (active && active.name && form.contains(active) && !SKIP.test(active.type)) {
      at = { key: keyOf(form, active), start: null, end: null };
      try {
        at.start = active.selectionStart;
        at.end = active.selectionEnd;
      } catch (error) { /* a field without a text selection */ }
    }
    carries.set(detail.xhr, {
      id: form.id,
      post: form.getAttribute("hx-post"),
      typed: typed,
      at: typed.length ? at : null,
      queued: flight.queued,
    });
  });

  function placeCursor(form, at) {
    var field = at && find(form, at.key);
    if (!field) return null;
    if (document.activeElement !== field) field.focus({ preventScroll: true });
    if (at.start !== null && field.setSelectionRange) {
      try { field.setSelectionRange(at.start, at.end); } catch (error) { /* not a text field */ }
    }
    return field;
  }

  document.addEventListener("htmx:afterSwap", function (event) {
    var xhr = event.detail && event.detail.xhr;
    var carry = xhr && carries.get(xhr);
    if (!carry || carry.placed) return;
    var form = formAfter(carry);
    if (!form) return;
    carry.placed = true;
    carry.typed.forEach(function (pair) {
      var field = find(form, pair[0]);
      if (!field) return;
      put(field, pair[1]);
      field.dispatchEvent(new Event("input", { bubbles: true })); // previews follow
    });
    if (carry.typed.length) xhr.keptTyping = true;
    placeCursor(form, carry.at);
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    var xhr = event.detail && event.detail.xhr;
    var carry = xhr && carries.get(xhr);
    if (!carry || carry.settled) return;
    carry.settled = true;
    var form = formAfter(carry);
    if (!form) return;
    // htmx focused the answer's autofocus field as it settled: back to where the typing is,
    // with whatever was typed in the meantime.
    if (carry.at) {
      var field = find(form, carry.at.key);
      if (field && document.activeElement !== field) {
        carry.at.start = carry.at.end = field.value ? field.value.length : 0;
        placeCursor(form, carry.at);
      }
    }
    var queued = carry.queued;
    if (!queued || !carry.typed.length || refused(form)) return;
    var button = null;
    if (queued.name) {
      button = Array.prototype.filter.call(form.querySelectorAll("button, input[type=submit]"), function (b) {
        return b.name === queued.name && b.value === queued.value;
      })[0] || null;
    }
    // A click, not requestSubmit(button): htmx sends the button's name and value only for a
    // button it saw pressed.
    if (button) button.click();
    else if (form.requestSubmit) form.requestSubmit();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var detail = event.detail || {};
    var elt = (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
    var form = elt && elt.closest ? elt.closest("form") : null;
    var flight = form && flights.get(form);
    if (flight && flight.xhr === detail.xhr) flights.delete(form);
  });
})();
