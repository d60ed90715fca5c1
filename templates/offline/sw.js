// Keeps the table pages and their assets on the phone: a table page comes from the network when it can
// (and is kept while its sheet is being filled in), from the phone's cache when the server cannot be
// reached. A page the server no longer marks for keeping (signed, round closed) is dropped from the phone.
"use strict";
const ASSETS_CACHE = "{{ assets_cache|escapejs }}";
const SHEETS_CACHE = "bidwhist-sheets";
const ASSETS = [{% for url in assets %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const KEEP_HEADER = "{{ keep_header|escapejs }}";
const REFRESH_HEADER = "{{ refresh_header|escapejs }}";
const OTHERS_KEPT = 3;
const SHEET_PAGE = /^\/(table|card)\/[A-Za-z0-9_-]+\/$/;
const DISPLAY = "{{ display_url|escapejs }}";

function sheetKey(url) {
  const address = new URL(url);
  return SHEET_PAGE.test(address.pathname) && address.origin === self.location.origin ?
    address.origin + address.pathname : null;
}

// Keep the page if the server says so; drop the copy if it answered anything else but a server error.
function remember(key, response) {
  return caches.open(SHEETS_CACHE).then(function (cache) {
    if (response.ok && !response.redirected && response.headers.get(KEEP_HEADER) === "keep") {
      return cache.put(key, response);
    }
    if (response.status < 500) return cache.delete(key);
  });
}

function refresh(key) {
  const headers = {};
  headers[REFRESH_HEADER] = "1";
  return fetch(key, { credentials: "same-origin", cache: "no-store", headers: headers }).then(function (response) {
    return remember(key, response);
  }).catch(function () { /* offline: keep what the phone has */ });
}

// Every other kept page is asked for again, so a sheet signed or closed elsewhere leaves this phone too. A
// phone needs its own table's page: beyond the few most recent, older pages (a laptop browsing many tables)
// are dropped rather than asked for on every page load.
function tidy(except) {
  return caches.open(SHEETS_CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      const others = requests.filter(function (request) { return request.url !== except; });
      const stale = others.slice(0, Math.max(0, others.length - OTHERS_KEPT));
      return Promise.all(stale.map(function (request) { return cache.delete(request); }).concat(
        others.slice(stale.length).map(function (request) { return refresh(request.url); })));
    });
  });
}

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(ASSETS_CACHE).then(function (cache) { return cache.addAll(ASSETS); }).then(function () {
    return self.skipWaiting();
  }));
});

// The table page that registered this worker was loaded before the worker ran: it is fetched again and
// kept now, so that page reloads offline even if the phone never opens it again while online.
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (key) {
      return key.indexOf("bidwhist-") === 0 && key !== ASSETS_CACHE && key !== SHEETS_CACHE;
    }).map(function (key) { return caches.delete(key); }));
  }).then(function () { return self.clients.claim(); }).then(function () {
    return self.clients.matchAll({ type: "window", includeUncontrolled: true });
  }).then(function (windows) {
    const keys = new Set(windows.map(function (client) { return sheetKey(client.url); }).filter(Boolean));
    return Promise.all(Array.from(keys, refresh));
  }));
});

function isAsset(url) {
  return url.origin === self.location.origin && ASSETS.indexOf(url.pathname) !== -1;
}

function offlinePage() {
  const html = "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<title>Offline</title><p style='font:1.1rem sans-serif;padding:1rem'>The phone is offline and has not " +
    "kept this page. Try again when the network is back.</p>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// The reader's text size follows a cookie, so it is asked for each time; the last answer is kept for offline.
function displayStyles(event) {
  return fetch(event.request).then(function (response) {
    if (response.ok) {
      const copy = response.clone();
      event.waitUntil(caches.open(ASSETS_CACHE).then(function (cache) { return cache.put(DISPLAY, copy); }));
    }
    return response;
  }).catch(function () {
    return caches.match(DISPLAY, { cacheName: ASSETS_CACHE }).then(function (hit) {
      return hit || new Response("", { headers: { "Content-Type": "text/css" } });
    });
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const key = request.mode === "navigate" ? sheetKey(request.url) : null;
  if (key) {
    event.respondWith(fetch(request).then(function (response) {
      event.waitUntil(remember(key, response.clone()).then(function () { return tidy(key); }));
      return response;
    }).catch(function () {
      return caches.open(SHEETS_CACHE).then(function (cache) { return cache.match(key); }).then(function (hit) {
        return hit || offlinePage();
      });
    }));
  } else if (new URL(request.url).pathname === DISPLAY && new URL(request.url).origin === self.location.origin) {
    event.respondWith(displayStyles(event));
  } else if (isAsset(new URL(request.url))) {
    event.respondWith(caches.match(request, { cacheName: ASSETS_CACHE }).then(function (hit) {
      return hit || fetch(request);
    }));
  }
});
