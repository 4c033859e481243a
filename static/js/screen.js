// The projector screen (templates/events/screen_base.html): shows its pages one after the other,
// ticks the event's time from the server's clock, follows the live section's polls without
// losing its place, and says so when the network is gone (the last page stays up).
(function () {
  "use strict";
  var body = document.body;
  var current = 1; // the page shown, from 1
  var offset = 0; // server time minus device time, in ms (from the answers' Date header)
  var lastUpdate = Date.now(); // device time of the last answer the server gave
  var lastBody = null; // the live section's last answer: the same answer again is not swapped
  var failing = false;

  function serverNow() { return new Date(Date.now() + offset); }

  function timeText(moment) {
    var zone = body.dataset.timeZone || undefined;
    var options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: zone };
    try {
      return new Intl.DateTimeFormat(body.dataset.lang || undefined, options).format(moment);
    } catch (error) { // an unknown zone name: the device's zone rather than nothing
      delete options.timeZone;
      return new Intl.DateTimeFormat(body.dataset.lang || undefined, options).format(moment);
    }
  }

  function pages() { return document.querySelectorAll(".screen-live .screen-page"); }

  function show(number) {
    var all = pages();
    var count = all.length || 1;
    current = ((number - 1) % count + count) % count + 1;
    all.forEach(function (page, index) { page.hidden = index + 1 !== current; });
    body.dataset.currentPage = String(current);
    body.dataset.pageCount = String(count);
    var pager = document.querySelector(".screen-pager");
    if (pager) { pager.textContent = count > 1 ? current + " / " + count : ""; }
  }

  function tickClock() {
    var text = timeText(serverNow());
    document.querySelectorAll("[data-screen-clock]").forEach(function (clock) {
      clock.textContent = text;
    });
  }

  function learnOffset(dateHeader, sentAt) {
    var server = Date.parse(dateHeader || "");
    if (isNaN(server)) { return; }
    // The header is in whole seconds: the server's moment lies half a second later on average,
    // and half the round trip before the answer arrived.
    var now = Date.now();
    offset = server + 500 - (sentAt + now) / 2;
  }

  function markStale() {
    failing = true;
    var badge = document.querySelector(".screen-stale");
    if (!badge) { return; }
    var text = body.dataset.staleText || "{time}";
    badge.textContent = text.replace("{time}", timeText(new Date(lastUpdate + offset)));
    badge.hidden = false;
    body.classList.add("is-stale");
  }

  function markFresh() {
    lastUpdate = Date.now();
    if (!failing) { return; }
    failing = false;
    var badge = document.querySelector(".screen-stale");
    if (badge) { badge.hidden = true; badge.textContent = ""; }
    body.classList.remove("is-stale");
  }

  function isPoll(event) {
    var elt = event.detail && event.detail.elt;
    return !!(elt && elt.closest && elt.closest(".screen-live, .clock-box"));
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isPoll(event)) { event.detail.elt._screenSentAt = Date.now(); }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isPoll(event)) { return; }
    var xhr = event.detail.xhr;
    if (event.detail.successful && xhr) {
      learnOffset(xhr.getResponseHeader("Date"), event.detail.elt._screenSentAt || Date.now());
      markFresh();
    }
  });
  document.addEventListener("htmx:sendError", function (event) { if (isPoll(event)) { markStale(); } });
  document.addEventListener("htmx:responseError", function (event) { if (isPoll(event)) { markStale(); } });
  document.addEventListener("htmx:timeout", function (event) { if (isPoll(event)) { markStale(); } });

  // A poll answered with what is already shown (the browser turns a 304 into the same body)
  // keeps the display as it is: no swap, so the page on show and the clock stay put.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || elt.id !== "screen-live") { return; }
    var text = event.detail.xhr ? event.detail.xhr.responseText : null;
    if (text !== null && text === lastBody) { event.detail.shouldSwap = false; }
    lastBody = text;
  });
  // A new answer was swapped in: keep showing the same page number (or the last there is).
  function keepPage() {
    if (document.getElementById("screen-live")) { show(Math.min(current, pages().length || 1)); }
  }
  document.addEventListener("htmx:load", keepPage);
  document.addEventListener("htmx:afterSettle", keepPage);

  function start() {
    var seconds = Number(body.dataset.cycle) || 8;
    show(1);
    tickClock();
    setInterval(function () {
      // A screen the desk paused (events/screens) holds the page it shows.
      if (!document.querySelector("#screen-live[data-screen-paused]")) { show(current + 1); }
    }, seconds * 1000);
    setInterval(tickClock, 1000);
    // The page itself may come from the browser's cache: ask the server for its time once.
    var sentAt = Date.now();
    var request = new XMLHttpRequest();
    request.open("HEAD", window.location.href);
    request.setRequestHeader("Cache-Control", "no-cache");
    request.onload = function () {
      learnOffset(request.getResponseHeader("Date"), sentAt);
      tickClock();
    };
    request.send();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
