// Browser notifications: a form with data-push-key (the VAPID public key) and
// data-push-url subscribes this browser through the public service worker (/sw.js, scope /)
// when its "notifications in this browser" box is ticked, posts the subscription (CSRF token of
// the form), then saves the form by fetch and says so. Without the Push API the box is turned
// off and says why.
"use strict";
(function () {
  const gettext = window.gettext || ((text) => text);

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  async function subscribe(form) {
    const registration = await navigator.serviceWorker.register(form.dataset.swUrl, { scope: "/" });
    await navigator.serviceWorker.ready;
    if ((await Notification.requestPermission()) !== "granted") {
      throw new Error(gettext("Notifications are blocked for this site in your browser's settings."));
    }
    const subscription =
      (await registration.pushManager.getSubscription()) ||
      (await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(form.dataset.pushKey),
      }));
    const answer = await fetch(form.dataset.pushUrl, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]").value,
      },
      body: JSON.stringify(subscription.toJSON()),
      credentials: "same-origin",
      // The private page sends no referrer; its own origin still goes (Django's CSRF check).
      referrerPolicy: "same-origin",
    });
    if (!answer.ok) {
      const reply = await answer.json().catch(() => ({}));
      throw new Error(reply.error || gettext("Could not turn on notifications. Try again."));
    }
  }

  for (const form of document.querySelectorAll("form[data-push-url]")) {
    const box = form.querySelector("input[name=push]");
    const status = form.querySelector("[data-push-status]");
    if (!box) continue;
    if (!("serviceWorker" in navigator && "PushManager" in window && "Notification" in window)) {
      box.disabled = true;
      box.checked = false;
      status.textContent = gettext("This browser cannot show notifications from this site.");
      continue;
    }
    form.addEventListener("submit", (event) => {
      // Saved by fetch (the private page sends no referrer, so a form's own post would carry
      // "Origin: null" and fail the CSRF check); subscribed first when push is ticked.
      event.preventDefault();
      const subscribed = box.checked ? subscribe(form) : Promise.resolve();
      if (box.checked) status.textContent = gettext("Turning on notifications…");
      subscribed
        .then(() =>
          fetch(form.action, {
            method: "POST",
            body: new FormData(form),
            headers: { "X-CSRFToken": form.querySelector("[name=csrfmiddlewaretoken]").value },
            credentials: "same-origin",
            referrerPolicy: "same-origin",
          }),
        )
        .then((answer) => {
          if (!answer.ok) throw new Error(gettext("Could not turn on notifications. Try again."));
          status.textContent = gettext("Saved.");
          form.dataset.saved = box.checked ? "push" : "off";
        })
        .catch((error) => {
          status.textContent = error.message;
        });
    });
  }
})();
