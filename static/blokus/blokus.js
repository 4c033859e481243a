// Blokus pages: the round clock counts down between server refreshes, and tapping the pieces
// left adds up their squares into the squares field (which then updates the live preview).
(function () {
  "use strict";
  // The round clock ticks each second from the milliseconds left that the server sent: the
  // device's clock only measures the time since the answer arrived (performance.now(), which
  // no clock setting moves). A clock swapped in by htmx gets its own timer; the timer of the
  // one it replaced is stopped. A paused clock (data-paused) stands still.
  var running = [];
  function show(clock, left) {
    var time = clock.querySelector(".clock-time");
    if (time) {
      time.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    }
  }
  function stop(clock) {
    clearTimeout(clock._timer);
    clock._timer = null;
    running = running.filter(function (other) { return other !== clock; });
  }
  function tick(clock) {
    if (!clock.isConnected) { stop(clock); return; }
    var ms = clock._deadline - performance.now();
    var left = Math.max(0, Math.ceil(ms / 1000));
    show(clock, left);
    if (left <= 0) {
      stop(clock);
      clock.classList.add("expired");
      alarm(clock);
      return;
    }
    // Wake just after the next whole second, so "time is up" shows on the second.
    clock._timer = setTimeout(function () { tick(clock); }, (ms % 1000 || 1000) + 5);
  }
  function startClocks(root) {
    if (!root || !root.querySelectorAll) { return; }
    running.slice().forEach(function (clock) { if (!clock.isConnected) { stop(clock); } });
    var clocks = Array.prototype.slice.call(root.querySelectorAll(".blokus-clock[data-remaining]"));
    if (root.matches && root.matches(".blokus-clock[data-remaining]")) { clocks.push(root); }
    clocks.forEach(function (clock) {
      if (clock._timer || clock.hasAttribute("data-paused")) { return; }
      var ms = Number(clock.dataset.remainingMs || 1000 * Number(clock.dataset.remaining));
      if (!(ms > 0)) { return; }
      clock._deadline = performance.now() + ms;
      running.push(clock);
      tick(clock);
    });
  }
  // At zero on a page opened with ?alarm=flash or ?alarm=sound (the projector): off by default.
  var audio = null;
  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    audio = audio || new Context();
    if (audio.resume) { audio.resume(); }
    [0, 0.5, 1].forEach(function (at) {
      var tone = audio.createOscillator();
      var gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.value = 0.3;
      tone.connect(gain);
      gain.connect(audio.destination);
      tone.start(audio.currentTime + at);
      tone.stop(audio.currentTime + at + 0.3);
    });
  }
  function alarm(clock) {
    var box = clock.closest("[data-alarm]");
    if (!box) { return; }
    box.dataset.alarmed = box.dataset.alarm;  // the box stays when polls swap the clock
    if (box.dataset.alarm === "sound") { beep(); }
    if (box.dataset.alarm === "flash" && box.animate) {
      box.animate([{ opacity: 1 }, { opacity: 0.15 }, { opacity: 1 }], { duration: 600, iterations: 10 });
    }
  }
  // Browsers start sound only after a tap: the first one on an alarm page prepares it.
  document.addEventListener("pointerdown", function () {
    if (!audio && document.querySelector('[data-alarm="sound"]')) {
      var Context = window.AudioContext || window.webkitAudioContext;
      if (Context) { audio = new Context(); }
    }
  }, { once: true });
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
  document.addEventListener("htmx:afterSwap", function (event) { startClocks(event.detail.target); });
})();
