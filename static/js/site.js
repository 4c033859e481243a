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
})();
