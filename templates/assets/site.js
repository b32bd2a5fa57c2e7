// kubewalk: highlight the lines named by the URL fragment (#L12 or
// #L12-L30) on source pages, on load and whenever the fragment changes, and
// scroll the first of them into view; keep the reader's step when switching
// release. No dependencies, no network.
(function () {
  "use strict";
  var marked = [];
  function apply() {
    for (var i = 0; i < marked.length; i++) marked[i].classList.remove("hl");
    marked = [];
    var m = /^#L(\d+)(?:-L(\d+))?$/.exec(location.hash);
    if (!m) return;
    var from = parseInt(m[1], 10), to = m[2] ? parseInt(m[2], 10) : from;
    if (to < from) { var t = from; from = to; to = t; }
    for (var n = from; n <= to && n - from < 5000; n++) {
      var el = document.getElementById("L" + n);
      if (el) { el.classList.add("hl"); marked.push(el); }
    }
    if (marked.length) {
      var first = marked[0];
      // Centre short ranges; put long ones at the top so their start shows.
      first.scrollIntoView({ block: (to - from) < 20 ? "center" : "start" });
    }
  }
  // A click on a source line's number (drawn by CSS before the line, see
  // site/code.go) goes to that line; Shift-click extends the highlighted
  // range. The number is no element: a click on it lands on the line
  // itself, left of where its text starts.
  document.addEventListener("click", function (e) {
    var ln = e.target;
    if (!ln.matches || !ln.matches("pre.src > span")) return;
    if (e.clientX > ln.getBoundingClientRect().left + parseFloat(getComputedStyle(ln, "::before").width)) return;
    var y = parseInt(ln.id.slice(1), 10), m = /^#L(\d+)/.exec(location.hash);
    var x = e.shiftKey && m ? parseInt(m[1], 10) : y;
    location.hash = x === y ? "#L" + y : "#L" + Math.min(x, y) + "-L" + Math.max(x, y);
  });
  // An excerpt's line number goes to the whole file at that line.
  document.addEventListener("click", function (e) {
    var nr = e.target.closest && e.target.closest(".excerpt .ln:not(.gap) > .nr");
    var file = nr && nr.closest(".excerpt").querySelector(".exhead a.file");
    if (!file) return;
    location.href = file.getAttribute("href").split("#")[0] + "#L" + nr.textContent;
  });
  // Version switcher (multi-release sites): on a walkthrough, keep the
  // reader on the step in view when the other release has it (data-keep
  // lists those step IDs, "*" for all). Without script the link still
  // lands on the same walkthrough.
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[data-keep]");
    if (!a) return;
    var id = stepInView(), keep = a.getAttribute("data-keep");
    if (!id || (keep !== "*" && (" " + keep + " ").indexOf(" " + id + " ") < 0)) return;
    e.preventDefault();
    location.href = a.getAttribute("href").split("#")[0] + "#" + id;
  });
  // Language switch (bilingual sites): keep the reader on the step in
  // view when the other language's walkthrough has it (data-steps), else
  // on the URL's fragment (a line, an event reason).
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[data-switch]");
    if (!a || modified(e)) return;
    var steps = a.getAttribute("data-steps"), frag = location.hash, id;
    if (steps) {
      id = stepInView();
      frag = id && (steps === "*" || (" " + steps + " ").indexOf(" " + id + " ") >= 0) ? "#" + id : "";
    }
    if (!frag) return;
    e.preventDefault();
    location.href = a.getAttribute("href").split("#")[0] + frag;
  });
  // Source pages are shared by a bilingual site's languages and a
  // multi-release site's releases (site/shared.go): each carries every
  // language's and release's header and backlinks, and ?lang= and ?rel=
  // pick which show. Links into the source pages carry both along.
  var body = document.body, srcRoot = body && body.getAttribute("data-src");
  var blocks = document.querySelectorAll(".langblock[data-lang]"), lang = document.documentElement.lang;
  var first = blocks.length ? blocks[0].getAttribute("data-lang") : "en";
  var rel = blocks.length ? blocks[0].getAttribute("data-rel") || "" : "", newest = rel;
  if (blocks.length) pick(new URLSearchParams(location.search));
  function pick(q) {
    var l = q.get("lang") || first, r = q.get("rel") || rel, hasL = false, hasR = false;
    for (var b = 0; b < blocks.length; b++) {
      hasL = hasL || blocks[b].getAttribute("data-lang") === l;
      hasR = hasR || (blocks[b].getAttribute("data-rel") || "") === r;
    }
    if (hasL) lang = l;
    // A release this page does not serve (a link followed from a page
    // rendered for another release): that release's own page of the
    // file, through this page's version switcher, at the same line.
    if (!hasR && rel) {
      var vs = shown(lang, rel).querySelectorAll("details.versions a[href]");
      for (var i = 0; i < vs.length; i++) {
        if (vs[i].textContent === r) { location.replace(vs[i].href.split("#")[0] + location.hash); return; }
      }
    }
    if (hasR) rel = r;
    for (b = 0; b < blocks.length; b++) blocks[b].hidden = !matches(blocks[b], lang, rel);
    document.documentElement.lang = lang;
  }
  function matches(el, l, r) {
    return el.getAttribute("data-lang") === l && (el.getAttribute("data-rel") || "") === r;
  }
  function shown(l, r) {
    for (var b = 0; b < blocks.length; b++) if (matches(blocks[b], l, r)) return blocks[b];
    return blocks[0];
  }
  // The code's links are the page's newest release's: for another, its
  // part lists those that go elsewhere (data-relinks: pairs) and where
  // its permalinks start (data-gh), for the tag in GitHub links.
  function relink(a) {
    var href = a.getAttribute("href");
    if (rel === newest || !a.closest("pre.src")) return href;
    var cur = shown(lang, rel), m = (cur.getAttribute("data-relinks") || "").split(" ");
    for (var i = 0; i + 1 < m.length; i += 2) if (m[i] === href) return m[i + 1];
    var g0 = blocks[0].getAttribute("data-gh"), g = cur.getAttribute("data-gh");
    return g0 && g && href.indexOf(g0) === 0 ? g + href.slice(g0.length) : href;
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[href]");
    if (!a || a.hasAttribute("data-switch") || modified(e)) return;
    var to = new URL(relink(a), location.href), root = srcRoot && new URL(srcRoot, location.href).href;
    if (root && to.href.indexOf(root) === 0 && to.pathname !== location.pathname) {
      var q = to.searchParams;
      if (rel && !q.has("rel")) q.set("rel", rel);
      if (lang !== first && !q.has("lang")) q.set("lang", lang);
    }
    if (to.href === a.href) return;
    e.preventDefault();
    location.href = to.href;
  });
  // modified reports a click that opens a tab or window, or does
  // something else than follow the link here: left alone.
  function modified(e) {
    return e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;
  }
  // The step in view: the one named by the fragment when it is on screen,
  // else the last step whose top is above a third of the window.
  function stepInView() {
    var h = location.hash.slice(1), el = h && document.getElementById(h);
    if (el && el.classList.contains("step")) {
      var r = el.getBoundingClientRect();
      if (r.bottom > 0 && r.top < window.innerHeight) return h;
    }
    var steps = document.querySelectorAll("section.step[id]"), cur = "";
    for (var i = 0; i < steps.length; i++) {
      if (steps[i].getBoundingClientRect().top <= window.innerHeight / 3) cur = steps[i].id;
    }
    return cur;
  }
  // Diffs since the previous release: a walkthrough's diffs live in a
  // script beside it (data-diffs), loaded when a reader first opens one
  // and written into the <pre> as text, one line per span, classed like
  // internal/render/codehtml's "diff" highlighting.
  var pending = [], loading = false;
  document.addEventListener("toggle", function (e) {
    var d = e.target;
    if (!d.open || !d.matches || !d.matches("details[data-diff]")) return;
    if (window.kubewalkDiffs) { fill(d); return; }
    pending.push(d);
    var art = document.querySelector("[data-diffs]");
    if (loading || !art) return;
    loading = true;
    var s = document.createElement("script");
    s.src = art.getAttribute("data-diffs");
    s.onload = function () { pending.forEach(fill); pending = []; };
    document.head.appendChild(s);
  }, true);
  function fill(d) {
    var pre = d.querySelector("pre"), text = window.kubewalkDiffs[d.getAttribute("data-diff")];
    if (!pre || pre.firstChild || typeof text !== "string") return;
    text.replace(/\n$/, "").split("\n").forEach(function (l) {
      var span = document.createElement("span"), c = l.charAt(0);
      span.className = l.slice(0, 2) === "@@" ? "xh" : c === "+" ? "xi" : c === "-" ? "xd" : "";
      span.textContent = l + "\n";
      pre.appendChild(span);
    });
    d.classList.add("loaded");
  }
  window.addEventListener("hashchange", apply);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", apply); else apply();
})();
