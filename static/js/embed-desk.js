// The desk's widget page: "Copy the code" puts the <iframe> snippet on the clipboard (the
// textarea stays selectable by hand where the clipboard is refused).
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest && event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    field.select();
    var done = function () { button.textContent = button.getAttribute("data-copied"); };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(field.value).then(done, function () {});
    }
  });
})();
