// Sjoelen score entry offline: "Save and next" moves to the board's next player as
// it does online. The panel carries the rota (<script type="application/json" id="rota-data">,
// shuffleboard.views.desk); when static/js/offline.js queues a game it says so
// ("offline:queued"), and this marks the game entered and picks who is next exactly as the
// server does (shuffleboard.selectors.rota: at this board, lowest next game first, then rota
// order). Loaded as a file (the Content-Security-Policy forbids inline scripts).
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };

  function nextNumber(player) {
    for (var n = 1; n <= player.boards.length; n++) {
      if (player.entered.indexOf(n) < 0) return n;
    }
    return null;
  }

  function nextBoard(player) {
    var n = nextNumber(player);
    return n === null ? null : player.boards[n - 1];
  }

  function waiting(data) {
    return data.players
      .filter(function (p) {
        return nextNumber(p) !== null && (data.board === null || nextBoard(p) === data.board);
      })
      .sort(function (a, b) {
        return nextNumber(a) - nextNumber(b) || a.position - b.position;
      });
  }

  document.addEventListener("offline:queued", function (event) {
    var form = event.target;
    var node = document.getElementById("rota-data");
    if (!form || form.id !== "turn-form" || !node) return;
    var data = JSON.parse(node.textContent);
    var sent = {};
    event.detail.body.forEach(function (pair) { sent[pair[0]] = pair[1]; });
    var who = Number(sent.entry);
    var number = Number(sent.number);
    data.players.forEach(function (p) {
      if (p.entry === who && p.entered.indexOf(number) < 0) p.entered.push(number);
    });
    node.textContent = JSON.stringify(data);
    event.preventDefault(); // the next player comes from the rota, not a stepped game number

    var queue = waiting(data);
    var panel = document.getElementById("entry-panel");
    var list = panel && panel.querySelector("ol.queue");
    if (list) {
      list.replaceChildren();
      queue.slice(0, 12).forEach(function (p, i) {
        var li = document.createElement("li");
        if (i === 0) li.className = "now";
        li.textContent = p.name + " · " + interpolate(gettext("game %(n)s, board %(b)s"), { n: nextNumber(p), b: nextBoard(p) });
        list.append(li);
      });
    }
    if (!queue.length) {
      form.hidden = true;
      return;
    }
    var next = queue[0];
    form.elements.entry.value = next.entry;
    form.elements.entry.defaultValue = next.entry; // a reset keeps the player shown
    form.elements.number.value = nextNumber(next);
    form.elements.number.defaultValue = nextNumber(next);
    form.setAttribute("data-offline-label", next.name);
    var heading = document.getElementById("current-player");
    if (heading) heading.textContent = next.name;
    var first = form.querySelector("[autofocus]") || form.querySelector("input[type=number]");
    if (first) first.focus();
  });

  function interpolate(text, values) {
    if (window.interpolate) return window.interpolate(text, values, true);
    return text.replace(/%\((\w+)\)s/g, function (_m, name) { return values[name]; });
  }
})();
