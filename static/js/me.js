// "This is me" on phones: a player taps "This is me" once on their player page; the
// phone keeps the entry's id in localStorage (no login, nothing sent to the server) and marks
// every element with data-player="<that id>" (standings rows, crosstable rows, seats on table
// cards) with the class "me"; a table card that holds them moves to the top of its list.
// It also writes "updated hh:mm" above the live sections (the last poll that answered) and
// marks it offline when a poll fails (site.js tells the user about failed sends, not polls).
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\((\w+)\)s/g, function (_m, key) { return String(obj[key]); });
  };
  var KEY = "me-entries";

  function load() {
    try {
      var v = JSON.parse(window.localStorage.getItem(KEY) || "[]");
      return Array.isArray(v) ? v.map(String) : [];
    } catch (error) {
      return [];
    }
  }
  function save(ids) {
    try {
      window.localStorage.setItem(KEY, JSON.stringify(ids.slice(-20)));
    } catch (error) {
      /* private mode: nothing remembered */
    }
  }

  function mark(root) {
    var ids = load();
    var all = (root || document).querySelectorAll("[data-player]");
    Array.prototype.forEach.call(all, function (el) {
      el.classList.toggle("me", ids.indexOf(el.getAttribute("data-player")) !== -1);
    });
    // "Where do I sit": the card with my seat first, once per list.
    Array.prototype.forEach.call(document.querySelectorAll("ol.tables"), function (list) {
      var mine = list.querySelector(":scope > li [data-player].me");
      var card = mine && mine.closest("ol.tables > li");
      if (card && list.firstElementChild !== card) list.insertBefore(card, list.firstElementChild);
      if (card) card.classList.add("me-card");
    });
    // Sjoelen: "Next: game n at board b" for me, where the page carries every player's next
    // game (templates/shuffleboard/_next_game.html), the same for every visitor.
    Array.prototype.forEach.call(document.querySelectorAll("[data-next-game]"), function (box) {
      var data = box.querySelector("script");
      var games = {};
      try {
        games = JSON.parse((data && data.textContent) || "{}");
      } catch (error) {
        games = {};
      }
      var mine = ids.filter(function (id) { return Object.prototype.hasOwnProperty.call(games, id); })[0];
      var line = box.querySelector("p");
      if (!mine) {
        if (line) line.remove();
        return;
      }
      if (!line) {
        line = document.createElement("p");
        line.className = "msg warning my-next-game";
        box.appendChild(line);
      }
      var next = games[mine];
      line.textContent = interpolate(gettext("Next: game %(n)s at board %(b)s."), { n: next[0], b: next[1] }, true);
    });
    Array.prototype.forEach.call(document.querySelectorAll("[data-me-set]"), function (button) {
      var id = button.getAttribute("data-me-set");
      var isMe = ids.indexOf(id) !== -1;
      button.hidden = isMe;
      var other = document.querySelector('[data-me-clear="' + id + '"]');
      if (other) other.hidden = !isMe;
      // What only "me" may want next (push_me.js's "Also notify me on this phone"): one
      // choice at a time, so the page's first screen keeps the player's next board.
      Array.prototype.forEach.call(document.querySelectorAll('[data-me-follow="' + id + '"]'), function (el) {
        el.classList.toggle("me-chosen", isMe);
      });
    });
  }

  document.addEventListener("click", function (event) {
    var target = event.target && event.target.closest && event.target.closest("[data-me-set],[data-me-clear]");
    if (!target) return;
    var ids = load();
    var set = target.getAttribute("data-me-set");
    var clear = target.getAttribute("data-me-clear");
    if (set && ids.indexOf(set) === -1) ids.push(set);
    if (clear) ids = ids.filter(function (id) { return id !== clear; });
    save(ids);
    mark();
  });

  // The poll line: one per page, before the first live section.
  var line = null;
  // In the event's time zone, as every other time on the page (the phone may be elsewhere).
  function hhmm(date) {
    var options = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
    var zone = document.body.getAttribute("data-time-zone");
    if (zone) options.timeZone = zone;
    try {
      return date.toLocaleTimeString(document.documentElement.lang || undefined, options);
    } catch (error) { // a zone this browser does not know
      delete options.timeZone;
      return date.toLocaleTimeString(document.documentElement.lang || undefined, options);
    }
  }
  function polling() {
    return document.querySelector("section[hx-trigger*='every']");
  }
  function status(ok) {
    var section = polling();
    if (!section) return;
    if (!line || !line.isConnected) {
      line = document.createElement("p");
      line.className = "poll-status muted small";
      line.setAttribute("role", "status");
      line.setAttribute("data-poll-status", "");
      section.parentNode.insertBefore(line, section);
    }
    var now = new Date();
    if (ok) {
      line.classList.remove("offline");
      line.setAttribute("data-updated", now.toISOString());
      line.textContent = gettext("Updated %s").replace("%s", hhmm(now));
    } else {
      line.classList.add("offline");
      var since = line.getAttribute("data-updated");
      line.textContent = since
        ? gettext("Offline: shown as of %s").replace("%s", hhmm(new Date(since)))
        : gettext("Offline: this page may be out of date");
    }
  }
  function isPoll(event) {
    var detail = event.detail || {};
    var config = detail.requestConfig || {};
    return String(config.verb || "get").toLowerCase() === "get" && !config.triggeringEvent;
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isPoll(event)) return;
    status(!!(event.detail && event.detail.successful));
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (isPoll(event)) status(false);
  });
  window.addEventListener("offline", function () { status(false); });
  document.addEventListener("htmx:afterSettle", function () { mark(); });

  function start() {
    mark();
    status(navigator.onLine);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
