// Check-in by the desk's camera: "Scan" beside the check-in box reads the QR code of
// a player's own page and checks that player in through the box's own form (the same view, the
// same answer swapped in, focus back to the box: static/js/desk-checkin.js does that part).
// The server resolves the code (events.desk.views.checkin.entry_for_code) and refuses a code of
// another event with a sentence. QR codes are read by the browser's BarcodeDetector where it
// exists (Android Chrome, macOS), otherwise by the vendored jsQR (static/vendor/jsqr/), loaded
// only when the camera opens. No camera (or no secure context): the button stays hidden and
// the typed number remains. Loaded as a file: the Content-Security-Policy forbids inline
// scripts and eval.
//
// Markup it reads, inside the check-in form:
//   <button type="button" data-scan data-scan-decoder="URL of jsQR.js" hidden>
//   <input type="hidden" name="code" data-scan-code>
//   <div data-scan-view hidden> <video> <button type="button" data-scan-stop> <p data-scan-status>
(function () {
  "use strict";

  var t = window.gettext || function (s) { return s; };

  var button = document.querySelector("[data-scan]");
  if (!button) return;
  var form = button.form;
  var view = form.querySelector("[data-scan-view]");
  var video = view.querySelector("video");
  var status = view.querySelector("[data-scan-status]");
  var codeField = form.querySelector("[data-scan-code]");
  var box = form.querySelector("[data-checkin-filter]");

  var stream = null;
  var detector = null;
  var canvas = null;
  var running = false;

  function say(text) {
    status.textContent = text;
  }

  function cameraPossible() {
    return window.isSecureContext && navigator.mediaDevices &&
      typeof navigator.mediaDevices.getUserMedia === "function";
  }

  // The button shows only where a camera can open: a desk without one keeps the typed number.
  if (!cameraPossible()) return;
  (navigator.mediaDevices.enumerateDevices ? navigator.mediaDevices.enumerateDevices() : Promise.resolve([{ kind: "videoinput" }]))
    .then(function (devices) {
      if (devices.some(function (d) { return d.kind === "videoinput"; })) button.hidden = false;
    })
    .catch(function () { /* no list of devices: no camera to offer */ });

  // The native reader where it reads QR codes, else jsQR (one script, loaded once).
  var decoderReady = null;
  function loadDecoder() {
    if (decoderReady) return decoderReady;
    decoderReady = new Promise(function (resolve, reject) {
      if ("BarcodeDetector" in window && window.BarcodeDetector.getSupportedFormats) {
        window.BarcodeDetector.getSupportedFormats().then(function (formats) {
          if (formats.indexOf("qr_code") !== -1) {
            detector = new window.BarcodeDetector({ formats: ["qr_code"] });
            resolve();
          } else {
            loadScript().then(resolve, reject);
          }
        }, function () { loadScript().then(resolve, reject); });
      } else {
        loadScript().then(resolve, reject);
      }
    });
    decoderReady.catch(function () { decoderReady = null; });
    return decoderReady;
  }

  function loadScript() {
    return new Promise(function (resolve, reject) {
      if (window.jsQR) return resolve();
      var script = document.createElement("script");
      script.src = button.getAttribute("data-scan-decoder");
      script.onload = function () { window.jsQR ? resolve() : reject(new Error("jsQR")); };
      script.onerror = reject;
      document.head.appendChild(script);
    });
  }

  function stop() {
    running = false;
    if (stream) stream.getTracks().forEach(function (track) { track.stop(); });
    stream = null;
    video.srcObject = null;
    view.hidden = true;
    button.setAttribute("aria-expanded", "false");
  }

  function start() {
    view.hidden = false;
    button.setAttribute("aria-expanded", "true");
    say(t("Opening the camera…"));
    Promise.all([
      loadDecoder(),
      // The rear camera where there is one (a tablet or phone at the desk).
      navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: "environment" } }, audio: false }),
    ]).then(function (results) {
      stream = results[1];
      video.srcObject = stream;
      return video.play();
    }).then(function () {
      running = true;
      say(t("Hold the player's QR code in front of the camera."));
      look();
    }).catch(function () {
      stop();
      view.hidden = false;
      say(t("The camera could not be opened: type the player's number instead."));
      box.focus();
    });
  }

  function read() {
    if (detector) {
      return detector.detect(video).then(function (codes) {
        return codes.length ? codes[0].rawValue : null;
      });
    }
    var width = video.videoWidth;
    var height = video.videoHeight;
    if (!width || !height) return Promise.resolve(null);
    var scale = Math.min(1, 800 / Math.max(width, height));
    canvas = canvas || document.createElement("canvas");
    canvas.width = Math.round(width * scale);
    canvas.height = Math.round(height * scale);
    var context = canvas.getContext("2d", { willReadFrequently: true });
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    var image = context.getImageData(0, 0, canvas.width, canvas.height);
    var found = window.jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" });
    return Promise.resolve(found ? found.data : null);
  }

  function look() {
    if (!running) return;
    var ready = video.readyState >= 2 ? read() : Promise.resolve(null);
    ready.then(function (text) {
      if (!running) return;
      if (text) {
        submit(text);
      } else {
        window.requestAnimationFrame(look);
      }
    }, function () {
      if (running) window.requestAnimationFrame(look);
    });
  }

  // The code goes through the box's own form: the server says whom it names, or why not.
  function submit(text) {
    stop();
    codeField.value = text;
    box.focus();
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }

  // Sent with this one request only: a number typed next goes alone.
  document.addEventListener("htmx:beforeSend", function (event) {
    if (event.detail && event.detail.elt === form) codeField.value = "";
  });

  button.addEventListener("click", function () {
    if (stream) stop(); else start();
  });
  view.querySelector("[data-scan-stop]").addEventListener("click", function () {
    stop();
    box.focus();
  });
  view.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      stop();
      box.focus();
    }
  });
  window.addEventListener("pagehide", stop);
})();
