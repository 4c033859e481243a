{% comment %}The public service worker, served at /sw.js with scope / by
events.outbox.views.public.service_worker. It shows a push (JSON: title, body, url, lang, tag
from events.outbox.channels.push.push_payload) and opens its link when tapped; its "Stop"
action (stop, stop_label: events.outbox.stop_links.push_stop) posts the one-tap stop, on this
site only. It caches nothing: the desk's own worker (/desk/sw.js, scope /desk/) keeps desk pages
offline.{% endcomment %}"use strict";

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = { body: event.data ? event.data.text() : "" };
  }
  const url = typeof data.url === "string" && data.url ? data.url : "/";
  const stop = typeof data.stop === "string" ? data.stop : "";
  const options = {
    body: String(data.body || ""),
    lang: String(data.lang || ""),
    tag: String(data.tag || ""),
    icon: "{{ icon }}",
    data: { url, stop },
  };
  if (stop) options.actions = [{ action: "stop", title: String(data.stop_label || "Stop") }];
  event.waitUntil(self.registration.showNotification(String(data.title || ""), options));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  if (event.action === "stop") {
    const stop = new URL((event.notification.data && event.notification.data.stop) || "/", self.location.origin);
    if (stop.origin !== self.location.origin) return; // only this site's stop
    event.waitUntil(
      fetch(stop.href, {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: "List-Unsubscribe=One-Click",
        credentials: "omit",
      }).catch(() => undefined),
    );
    return;
  }
  let url = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (url.origin !== self.location.origin) url = new URL("/", self.location.origin); // only this site's pages
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      for (const client of windows) {
        if (client.url === url.href && "focus" in client) return client.focus();
      }
      return self.clients.openWindow(url.href);
    }),
  );
});
