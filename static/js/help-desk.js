// The desk's calls for help: a short beep when the count of open calls rises, once the
// organiser has switched the sound on with a click on the queue page (browsers play no sound
// before a click; the choice is kept in localStorage, the last count seen in sessionStorage,
// so moving between desk pages does not beep for calls already seen). The count comes from
// the badge (templates/events/help/_badge.html) or the queue (_queue.html): data-help-count.
(function () {
  "use strict";
  if (window.helpDeskLoaded) return;
  window.helpDeskLoaded = true;
  var SOUND = "help-sound";
  var audio = null;

  function soundOn() {
    try {
      return window.localStorage.getItem(SOUND) === "on";
    } catch (error) {
      return false;
    }
  }
  function keepSound(on) {
    try {
      window.localStorage.setItem(SOUND, on ? "on" : "off");
    } catch (error) {
      /* private mode: on for this page only */
    }
  }
  function context() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!audio) audio = new Context();
    if (audio.state === "suspended") audio.resume();
    return audio;
  }
  function beep() {
    var root = document.documentElement;
    root.setAttribute("data-help-beeps", String(Number(root.getAttribute("data-help-beeps") || 0) + 1));
    var ctx = context();
    if (!ctx) return;
    var tone = ctx.createOscillator();
    var gain = ctx.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.2, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    tone.connect(gain).connect(ctx.destination);
    tone.start();
    tone.stop(ctx.currentTime + 0.4);
  }
  // A page loaded after the sound was switched on may still start its audio suspended: the
  // first click or key on it lets it play.
  function unlock() {
    if (soundOn()) context();
  }
  document.addEventListener("pointerdown", unlock, { once: true });
  document.addEventListener("keydown", unlock, { once: true });

  function seen(el) {
    // One count per event, whether the badge or the queue sees it first: one beep per rise.
    var key = "help-count:" + el.getAttribute("data-help-event");
    var count = Number(el.getAttribute("data-help-count") || 0);
    var before = null;
    try {
      before = window.sessionStorage.getItem(key);
      window.sessionStorage.setItem(key, String(count));
    } catch (error) {
      before = null;
    }
    if (before !== null && count > Number(before) && soundOn()) beep();
  }
  function look(root) {
    Array.prototype.forEach.call((root || document).querySelectorAll("[data-help-count]"), seen);
  }

  function showButton(button) {
    var on = soundOn();
    button.setAttribute("aria-pressed", on ? "true" : "false");
  }
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest && event.target.closest("[data-help-sound]");
    if (!button) return;
    var on = !soundOn();
    keepSound(on);
    showButton(button);
    if (on) beep();
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    look(event.detail && event.detail.elt ? event.detail.elt.parentNode || document : document);
  });
  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("[data-help-sound]"), showButton);
    look(document);
  });
})();
