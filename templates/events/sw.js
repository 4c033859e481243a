{% comment %}The public service worker (issue 31), served at /sw.js with scope / by
events.entry.notify.service_worker. It shows a push (JSON: title, body, url, lang, tag from
events.services.outbox.push_payload) and opens its link when tapped. It caches nothing: the
desk's own worker (/desk/sw.js, scope /desk/) keeps desk pages offline.{% endcomment %}"use strict";

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
  event.waitUntil(
    self.registration.showNotification(String(data.title || ""), {
      body: String(data.body || ""),
      lang: String(data.lang || ""),
      tag: String(data.tag || ""),
      icon: "{{ icon }}",
      data: { url },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
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
