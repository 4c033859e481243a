// Deadlines counting down on a player's private page. The server renders the deadline in the
// event's time zone and the time left; this only keeps the countdown ticking and adds the
// deadline in the browser's own zone. The deadline itself always comes from the server.
(function () {
  function fmt(seconds) {
    if (seconds <= 0) return "0 h 00 min";
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60);
    return h + " h " + (m < 10 ? "0" : "") + m + " min";
  }
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = (Date.parse(el.dataset.countdown) - Date.now()) / 1000;
      el.textContent = el.textContent.replace(/\d+ h \d\d min/, fmt(left));
    });
  }
  function local() {
    document.querySelectorAll("[data-local-time]").forEach(function (el) {
      var d = new Date(el.dataset.localTime);
      try {
        el.textContent = "(" + d.toLocaleString([], {weekday: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short"}) + ")";
      } catch (e) { el.textContent = ""; }
    });
  }
  document.addEventListener("htmx:afterSwap", function () { local(); tick(); });
  document.addEventListener("DOMContentLoaded", function () { local(); tick(); setInterval(tick, 30000); });
})();
