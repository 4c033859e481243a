// Deadlines counting down on a player's private page. The server renders the deadline in the
// event's time zone and the time left; this only keeps the countdown ticking and adds the
// deadline in the browser's own zone. The deadline itself always comes from the server.
// Words come from the JavaScript catalogue (/jsi18n/<lang>/, loaded first by base.html); if it
// did not load, the English words are used.
(function () {
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (text, values) {
    return text.replace(/%\((\w+)\)s/g, function (all, name) { return String(values[name]); });
  };
  function fmt(seconds) {
    var left = Math.max(0, seconds);
    var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60);
    // Translators: the time left before a correspondence move deadline, e.g. "5 h 07 min".
    return interpolate(gettext("%(hours)s h %(minutes)s min"), {hours: h, minutes: (m < 10 ? "0" : "") + m}, true);
  }
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = (Date.parse(el.dataset.countdown) - Date.now()) / 1000;
      // Translators: "5 h 07 min left" before a move deadline.
      el.textContent = interpolate(gettext("%(time)s left"), {time: fmt(left)}, true);
    });
  }
  function local() {
    // The deadline in the reader's own zone, in the page's language (weekday, time, zone).
    var language = document.documentElement.lang || undefined;
    document.querySelectorAll("[data-local-time]").forEach(function (el) {
      var d = new Date(el.dataset.localTime);
      try {
        el.textContent = "(" + d.toLocaleString(language, {weekday: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short"}) + ")";
      } catch (e) { el.textContent = ""; }
    });
  }
  document.addEventListener("htmx:afterSwap", function () { local(); tick(); });
  document.addEventListener("DOMContentLoaded", function () { local(); tick(); setInterval(tick, 30000); });
})();
