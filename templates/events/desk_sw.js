// The desk's service worker: desk pages and their files come back when the network
// is gone, so the score-entry page reloads offline and its queue (static/js/offline.js) keeps
// taking results. Served at /desk/sw.js with the scope /desk/ (events.desk.views.competition).
// Browsers register one on HTTPS or on this computer (localhost) only.
//
// Pages: network first, the last good copy when the network fails. Files under /static/: the
// cached copy at once, refreshed in the background. Logging out empties the cache (a shared
// desk laptop keeps no organiser's pages).
"use strict";
var PAGES = "desk-pages-v1";
var FILES = "desk-files-v1";
var LOGOUT = "{{ logout_url|escapejs }}";
var FILE_PATHS = ["{{ static_url|escapejs }}", "/jsi18n/"]; // the files and the JS strings

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return key !== PAGES && key !== FILES;
      }).map(function (key) { return caches.delete(key); }));
    }).then(function () { return self.clients.claim(); })
  );
});

function forget() {
  return Promise.all([caches.delete(PAGES), caches.delete(FILES)]);
}

self.addEventListener("message", function (event) {
  if (event.data === "logout") event.waitUntil(forget());
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && url.pathname === LOGOUT) {
    event.waitUntil(forget());
    return;
  }
  if (request.method !== "GET") return;
  if (request.mode === "navigate" && !request.headers.get("HX-Request")) {
    event.respondWith(
      fetch(request).then(function (response) {
        if (response.ok && !response.redirected && response.type === "basic") {
          var copy = response.clone();
          caches.open(PAGES).then(function (cache) { cache.put(request, copy); });
        } else if (response.redirected && new URL(response.url).pathname.indexOf("/accounts/login") === 0) {
          forget(); // the session ended: its pages go
        }
        return response;
      }, function () {
        return caches.match(request, { cacheName: PAGES }).then(function (hit) {
          if (hit) return hit;
          throw new TypeError("offline, and this page was not opened before");
        });
      })
    );
    return;
  }
  if (FILE_PATHS.some(function (path) { return url.pathname.indexOf(path) === 0; })) {
    event.respondWith(
      caches.open(FILES).then(function (cache) {
        return cache.match(request).then(function (hit) {
          var fresh = fetch(request).then(function (response) {
            if (response.ok) cache.put(request, response.clone());
            return response;
          });
          if (hit) {
            event.waitUntil(fresh.catch(function () {}));
            return hit;
          }
          return fresh;
        });
      })
    );
  }
});
