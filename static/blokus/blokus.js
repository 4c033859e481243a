// Blokus pages: the round clock counts down between server refreshes, and tapping the pieces
// left adds up their squares into the squares field (which then updates the live preview).
(function () {
  "use strict";
  function tick(clock) {
    if (!document.contains(clock)) { clearInterval(clock._timer); return; }
    var left = Math.max(0, Math.round((clock._deadline - Date.now()) / 1000));
    var time = clock.querySelector(".clock-time");
    if (time) {
      time.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    }
    if (left <= 0) {
      clock.classList.add("expired");
      clearInterval(clock._timer);
    }
  }
  function startClocks(root) {
    root.querySelectorAll(".blokus-clock[data-remaining]").forEach(function (clock) {
      if (clock._timer) { return; }
      // The server computed the seconds left from the round's start; the phone's own clock
      // only measures the time since this element arrived.
      clock._deadline = Date.now() + 1000 * Number(clock.dataset.remaining);
      clock._timer = setInterval(function () { tick(clock); }, 1000);
    });
  }
  function addUp(event) {
    var box = event.target;
    if (!box.matches || !box.matches(".pieces input[type=checkbox]")) { return; }
    var hand = box.closest(".hand");
    var total = 0;
    hand.querySelectorAll(".pieces input:checked").forEach(function (piece) {
      total += Number(piece.dataset.size);
    });
    var squares = hand.querySelector("input.squares");
    squares.value = total;
    squares.dispatchEvent(new Event("input", { bubbles: true }));
  }
  document.addEventListener("change", addUp);
  document.addEventListener("DOMContentLoaded", function () { startClocks(document); });
  document.addEventListener("htmx:load", function (event) { startClocks(event.target); });
})();
