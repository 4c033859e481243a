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
    // Only what the user sent: a poll or a search that fails is tried again on its own.
    if (!elt || !elt.closest || String(config.verb || "get").toLowerCase() === "get") return;
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
