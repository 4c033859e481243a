// A table's result from a player's phone: "Who are you?" starts at the player this
// phone chose with "This is me" (me.js keeps the entry ids in localStorage under "me-entries").
(function () {
  "use strict";
  function mine() {
    try {
      var v = JSON.parse(window.localStorage.getItem("me-entries") || "[]");
      return Array.isArray(v) ? v.map(String) : [];
    } catch (error) {
      return [];
    }
  }
  function start() {
    var ids = mine();
    Array.prototype.forEach.call(document.querySelectorAll("select[data-me-select]"), function (select) {
      if (select.value) return;
      Array.prototype.some.call(select.options, function (option) {
        if (ids.indexOf(option.value) === -1) return false;
        select.value = option.value;
        return true;
      });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
