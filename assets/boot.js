// The page's only script besides the app: no inline script anywhere, so the page runs under a
// strict Content-Security-Policy (`script-src 'self' 'wasm-unsafe-eval'`).
//
// Trunk writes the tag that loads this file (Trunk.toml `pattern_script`), in <head>, as a plain
// blocking script with the hashed names of the app's JavaScript glue and wasm as data attributes:
//   1. it picks the theme before the first paint (the app keeps it in step afterwards);
//   2. it loads the app itself (what Trunk's inline loader did), after the first paint (an
//      embed, which has no text to show first, at once), and if that fails — WebAssembly
//      missing or blocked, a 404 — the loading message says so at once;
//   3. it still dispatches Trunk's `TrunkApplicationStarted` event with the wasm exports;
//   4. to a link at the default settings, it shows the built page's copy of the book's first
//      screen and a picture of its first figure until the app has built its own;
//   5. to an embed, it starts the downloads of the wasm modules its figure's chapter needs beside
//      the main module's (the build's list, `data-embeds`: tools/embed-preload.mjs), instead of
//      after the main module has loaded and the app has asked for them.
(function () {
  "use strict";
  var script = document.currentScript;

  var query = new URLSearchParams(location.search);
  var q = query.get("theme");
  var dark =
    q === "dark" ||
    (q !== "light" && window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.setAttribute("data-theme", dark ? "dark" : "light");
  // An embed shows one figure: the page's static header and introduction are hidden before the
  // first paint (the app takes the class off again if the figure id is unknown).
  if (query.has("embed")) document.documentElement.classList.add("embedded");
  // A link that leaves every setting at its default (no query but the theme, no fragment) is shown
  // the copy of the book's first screen that the build put into the page, until the app's own is
  // built (see showFirstView below).
  var firstView = !location.hash;
  query.forEach(function (value, key) {
    if (key !== "theme") firstView = false;
  });
  if (firstView) document.documentElement.classList.add("first-view");

  function fail(text) {
    var show = function () {
      var loading = document.getElementById("loading");
      if (!loading) return;
      loading.querySelector("p").textContent = text;
      loading.classList.add("failed");
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", show);
    else show();
  }

  /** Takes the first screen's copy away (the app has built its own, or it panicked). If the app
   * cannot load at all, the copy stays readable under the loading message's failure. */
  /**
   * Preloads the modules of the embedded figure (the last `embed=` of the query, as the app reads
   * it) that the build listed. The app's own requests for them (`__wasm_split.js`: fetch of the
   * same URL, same-origin, CORS mode) take the preloaded responses. Without the list (`trunk
   * serve`), or when it cannot be read, nothing is preloaded and the app fetches as before.
   */
  function preloadEmbed() {
    var list = script && script.getAttribute("data-embeds");
    var ids = query.getAll("embed");
    var id = ids[ids.length - 1];
    if (!list || !id || !window.fetch) return;
    fetch(list)
      .then(function (response) {
        return response.ok ? response.json() : { groups: [] };
      })
      .then(function (embeds) {
        (embeds.groups || []).forEach(function (group) {
          if (group.figures.indexOf(id) < 0) return;
          group.files.forEach(function (file) {
            var link = document.createElement("link");
            link.rel = "preload";
            link.as = "fetch";
            link.crossOrigin = "anonymous";
            link.href = "./" + file;
            document.head.appendChild(link);
          });
        });
      })
      .catch(function () {});
  }

  function dropFirstView() {
    document.documentElement.classList.remove("first-view");
    var copy = document.querySelector(".first-screen");
    if (copy) copy.remove();
  }

  /**
   * The copy of the first screen (tools/first-view.mjs: the app's own DOM at the default state and
   * pictures of its first figure, drawn by `pe render`, one per theme and width). Its picture is
   * the one drawn for the width nearest the figure's on this screen, in the page's theme. When the
   * app has built its own first screen, which lands exactly where the copy was, the copy goes and
   * the picture moves over the live figure's canvas until that figure first draws, or until the
   * reader changes anything (the picture would no longer be of the page's state).
   */
  function showFirstView() {
    var root = document.documentElement;
    var copy = document.querySelector(".first-screen");
    if (!copy || !root.classList.contains("first-view")) {
      dropFirstView();
      return;
    }
    var picture = copy.querySelector(".first-picture");
    var id = copy.getAttribute("data-figure");
    var app = document.getElementById("app");
    if (!picture || !id || !app) {
      dropFirstView();
      return;
    }
    var pick = function () {
      var width = picture.getBoundingClientRect().width;
      var list = (picture.getAttribute("data-" + root.getAttribute("data-theme")) || "").split(" ");
      var best = null;
      var gap = Infinity;
      for (var i = 0; i < list.length; i++) {
        var at = list[i].indexOf(":");
        var d = Math.abs(Number(list[i].slice(0, at)) - width);
        if (at > 0 && d < gap) {
          gap = d;
          best = list[i].slice(at + 1);
        }
      }
      if (best && picture.getAttribute("src") !== best) picture.setAttribute("src", best);
    };
    pick();
    var themes = new MutationObserver(pick);
    themes.observe(root, { attributes: true, attributeFilter: ["data-theme"] });
    var gone = false;
    var done = function () {
      gone = true;
      themes.disconnect();
      picture.remove();
      document.removeEventListener("input", done, true);
      document.removeEventListener("change", done, true);
    };
    document.addEventListener("input", done, true);
    document.addEventListener("change", done, true);
    var built = new MutationObserver(function () {
      var live = document.getElementById(id);
      if (!live) return;
      built.disconnect();
      var wrap = live.querySelector(".canvas-wrap");
      // The figure's `data-drawn-at` is 0 until its first draw, then when that draw ended.
      var drawn = function () {
        return Number(live.getAttribute("data-drawn-at")) > 0;
      };
      if (wrap && !gone && !drawn()) {
        picture.className = "first-overlay";
        wrap.appendChild(picture);
        new MutationObserver(function (records, watch) {
          if (!drawn()) return;
          watch.disconnect();
          done();
        }).observe(live, { attributes: true, attributeFilter: ["data-drawn-at"] });
      } else {
        done();
      }
      dropFirstView();
    });
    built.observe(app, { childList: true, subtree: true });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", showFirstView);
  else showFirstView();

  if (typeof WebAssembly !== "object") {
    fail(
      "This browser does not support WebAssembly, which the explainer needs to compute its figures. " +
        "Please try a current Firefox, Chrome, Edge or Safari.",
    );
    return;
  }
  if (!script || !script.dataset.js || !script.dataset.wasm) {
    fail("The page is incomplete (its loader does not name the app's files). Please reload.");
    return;
  }

  setTimeout(function () {
    var loading = document.getElementById("loading");
    if (loading && !loading.classList.contains("failed")) {
      loading.querySelector("p").textContent =
        "Still loading… (a slow connection?) If nothing appears, reload the page.";
    }
  }, 15000);

  // The app loads after the page has painted its static header and introduction: the reader sees
  // text first whatever the network (on a fast one the app could otherwise start, and take the
  // main thread, before anything was painted), and nothing the first paint does not need competes
  // with it. The browser says when it painted text ("first-contentful-paint"); in any case a timer
  // starts the app 300 ms after this script runs (no paint timing, a hidden tab that paints
  // nothing, or a slow first paint).
  // An embed has no text to show first (its header is hidden): its app starts at once.
  var painted = new Promise(function (ok) {
    if (query.has("embed")) ok();
    setTimeout(ok, 300);
    // The entry arrives as the frame is handed over; after the next frame it is on screen.
    var nextFrame = function () {
      requestAnimationFrame(function () {
        setTimeout(ok, 0);
      });
    };
    try {
      new PerformanceObserver(function (list) {
        if (list.getEntriesByName("first-contentful-paint").length) nextFrame();
      }).observe({ type: "paint", buffered: true });
    } catch (e) {
      ok();
    }
  });

  if (query.has("embed")) preloadEmbed();

  painted
    .then(function () {
      // Both downloads at once: the wasm does not wait for the glue.
      var wasm = fetch(script.dataset.wasm);
      wasm.catch(function () {}); // reported below, when the glue awaits it
      return import(script.dataset.js).then(function (glue) {
        return [glue, wasm];
      });
    })
    .then(function (loaded) {
      var glue = loaded[0];
      return glue.default({ module_or_path: loaded[1] }).then(function (exports) {
        window.wasmBindings = glue;
        dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm: exports } }));
      });
    })
    .catch(function (error) {
      if (document.getElementById("panic")) {
        // The app started and then panicked: its own banner says so, with the message.
        dropFirstView();
        var loading = document.getElementById("loading");
        if (loading) loading.remove();
        return;
      }
      var detail = String((error && error.message) || error).slice(0, 200);
      fail(
        "The explainer could not start: its WebAssembly did not load (" +
          detail +
          "). It may be blocked by this browser or a security policy, or the site is missing a file.",
      );
    });
})();
