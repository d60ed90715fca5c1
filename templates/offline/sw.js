// Keeps the table pages and their assets on the phone: a table page comes from the network when it can
// (and is kept), from the phone's cache when the server cannot be reached. Nothing else is touched.
"use strict";
const CACHE = "{{ cache_name|escapejs }}";
const ASSETS = [{% for url in assets %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const STATIC_PREFIX = "{{ static_prefix|escapejs }}";
const SHEET_PAGE = /^\/(table|card)\/[A-Za-z0-9_-]+\/$/;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll(ASSETS); }).then(function () {
    return self.skipWaiting();
  }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (key) {
      return key.indexOf("bidwhist-") === 0 && key !== CACHE;
    }).map(function (key) { return caches.delete(key); }));
  }).then(function () { return self.clients.claim(); }));
});

function offlinePage() {
  const html = "<!doctype html><meta charset=utf-8><meta name=viewport content='width=device-width'>" +
    "<title>Offline</title><p style='font:1.1rem sans-serif;padding:1rem'>The phone is offline and has not " +
    "opened this page before. Try again when the network is back.</p>";
  return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

function keep(request, response) {
  if (response.ok && !response.redirected) {
    const copy = response.clone();
    caches.open(CACHE).then(function (cache) { cache.put(request, copy); });
  }
  return response;
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && SHEET_PAGE.test(url.pathname)) {
    const key = url.origin + url.pathname;
    event.respondWith(fetch(request).then(function (response) { return keep(key, response); }).catch(function () {
      return caches.match(key).then(function (hit) { return hit || offlinePage(); });
    }));
  } else if (url.pathname.indexOf(STATIC_PREFIX) === 0) {
    event.respondWith(caches.match(request).then(function (hit) {
      return hit || fetch(request).then(function (response) { return keep(request, response); });
    }));
  }
});
