// "Also notify me on this phone" on a public player page (offered once the visitor chose
// "This is me", see me.js and site.css): the section with data-push-me
// (templates/events/_push_me.html) subscribes this browser through the public service
// worker (/sw.js, scope /) and posts the subscription as JSON (no CSRF token: the
// route reads no cookie, see events/outbox/views/public.py); "Stop on this phone" posts the
// browser's own push address. Whether this phone is on is remembered in this browser only.
"use strict";
(function () {
  const gettext = window.gettext || ((text) => text);
  const box = document.querySelector("[data-push-me]");
  if (!box || !("serviceWorker" in navigator && "PushManager" in window && "Notification" in window)) {
    return; // stays hidden: this browser cannot show notifications from the site
  }
  const on = box.querySelector("[data-push-me-on]");
  const off = box.querySelector("[data-push-me-off]");
  const status = box.querySelector("[data-push-me-status]");
  const remembered = "push-me:" + box.dataset.pushMe;

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  function show(subscribed) {
    on.hidden = subscribed;
    off.hidden = !subscribed;
    box.dataset.state = subscribed ? "on" : "off";
  }

  function stored() {
    try {
      return window.localStorage.getItem(remembered) === "1";
    } catch (error) {
      return false;
    }
  }

  function remember(subscribed) {
    try {
      if (subscribed) window.localStorage.setItem(remembered, "1");
      else window.localStorage.removeItem(remembered);
    } catch (error) {
      /* private mode: the buttons follow this page only */
    }
  }

  async function post(url, data) {
    const answer = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(data),
      credentials: "omit",
    });
    const reply = await answer.json().catch(() => ({}));
    if (!answer.ok) throw new Error(reply.error || gettext("Could not turn on notifications. Try again."));
    return reply;
  }

  on.addEventListener("click", async () => {
    status.textContent = gettext("Turning on notifications…");
    try {
      const registration = await navigator.serviceWorker.register(box.dataset.swUrl, { scope: "/" });
      await navigator.serviceWorker.ready;
      if ((await Notification.requestPermission()) !== "granted") {
        throw new Error(gettext("Notifications are blocked for this site in your browser's settings."));
      }
      const subscription =
        (await registration.pushManager.getSubscription()) ||
        (await registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(box.dataset.pushKey),
        }));
      await post(box.dataset.pushUrl, subscription.toJSON());
      remember(true);
      show(true);
      status.textContent = gettext("This phone will be notified.");
    } catch (error) {
      status.textContent = error.message;
    }
  });

  off.addEventListener("click", async () => {
    try {
      const registration = await navigator.serviceWorker.getRegistration("/");
      const subscription = registration && (await registration.pushManager.getSubscription());
      if (subscription) await post(box.dataset.pushStopUrl, { endpoint: subscription.endpoint });
      remember(false);
      show(false);
      status.textContent = gettext("Stopped on this phone.");
    } catch (error) {
      status.textContent = error.message;
    }
  });

  show(stored());
  box.hidden = false;
})();
