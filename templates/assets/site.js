// kubewalk: the code's links to GitHub (internal/render/codehtml: a
// declaration in a file the site does not render) name their permalink
// from the page's GitHub base on (data-g; the base is the <body>'s
// data-gh; a leading "~" stands for the staging modules' directory,
// codehtml.GitHubRest). Each gets its href here, all at once as the page
// loads, so it is a link like any other: focus, middle-click, open in a
// new tab, and its data-g is written out whole, the one place script
// undoes the "~". It runs first: the rest of this script and releases.js
// (a site of several releases, which turns the tag of permalinks into an
// older release's) find them as links, their data-g the permalink's
// whole rest. Without script the identifier shows, but is no link.
(function () {
  "use strict";
  var gh = document.body && document.body.getAttribute("data-gh");
  if (!gh) return;
  var ls = document.querySelectorAll("a[data-g]");
  for (var i = 0; i < ls.length; i++) {
    var rest = ls[i].getAttribute("data-g").replace(/^~/, "staging/src/k8s.io/");
    ls[i].setAttribute("data-g", rest);
    ls[i].setAttribute("href", gh + rest);
  }
})();
// kubewalk: a package's name before a selector, in code, is written as
// <s> when its link would go to the package's import on the same page
// (internal/render/codehtml: importLines); the import's path carries the
// name (data-p). A click on the name goes to the line of the import the
// page shows (a multi-release page may hold one per release).
document.addEventListener("click", function (e) {
  "use strict";
  var s = e.target.closest && e.target.closest("pre s");
  if (!s || e.button !== 0) return;
  var ps = document.querySelectorAll("[data-p]");
  for (var i = 0; i < ps.length; i++) {
    var u = ps[i].getAttribute("data-p") === s.textContent && ps[i].closest("[id]");
    if (u && u.offsetParent !== null) {
      location.hash = u.id;
      return;
    }
  }
});
// kubewalk: highlight the lines named by the URL fragment (#L12 or
// #L12-L30) on source pages, on load and whenever the fragment changes, and
// scroll the first of them into view; keep the reader's step when switching
// release. No dependencies, no network.
(function () {
  "use strict";
  var marked = [];
  // A line's anchor is "L12" (line 12), or on a multi-release site's
  // source page "L12.1" for a line the newest release lacks after its
  // line 12 (site/merge.go). "#N12" is line 12 as the release read
  // numbers it, as excerpts do (on a later part of a page, counting on from
  // where the part starts): it becomes that line's anchor.
  function apply() {
    for (var i = 0; i < marked.length; i++) marked[i].classList.remove("hl", "hl1");
    marked = [];
    var n = /^#N(\d+)$/.exec(location.hash);
    if (n) {
      var pre = document.querySelector("pre.src"), start = 0;
      if (pre) start = parseInt((getComputedStyle(pre).counterReset.split(" ")[1]) || "0", 10) || 0;
      var at = parseInt(n[1], 10) - start - 1, ls = shownLines(), id = ls[at] && lineID(ls[at]);
      if (id) history.replaceState(null, "", "#" + id);
      // In another part of the page: on to the one before or after.
      var cur = !id && document.querySelector("nav.parts [aria-current]");
      var to = cur && (at < 0 ? cur.previousElementSibling : cur.nextElementSibling);
      if (to && to.href) { location.replace(to.href.split("#")[0].split("?")[0] + location.search + location.hash); return; }
    }
    var m = /^#(L[\d.]+)(?:-(L[\d.]+))?$/.exec(location.hash);
    if (!m) return;
    var from = shownAt(document.getElementById(m[1])), to = m[2] ? shownAt(document.getElementById(m[2])) : from;
    if (!from || !to) return;
    if (from.compareDocumentPosition(to) & Node.DOCUMENT_POSITION_PRECEDING) { var t = from; from = to; to = t; }
    for (var el = from, k = 0; el && k < 5000; el = el.nextElementSibling, k++) {
      if (!el.hidden) { el.classList.add("hl"); marked.push(el); }
      if (el === to) break;
    }
    if (marked.length) {
      // The range's first line stands out from the rest (site/code.go's
      // CSS): a whole function is a tint, its start a mark.
      marked[0].classList.add("hl1");
      // Centre short ranges; put long ones at the top so their start shows.
      marked[0].scrollIntoView({ block: marked.length < 20 ? "center" : "start" });
    }
  }
  // shownAt is line el as the release being read shows it: el, or the
  // rendering for that release that follows it (one without an id), or,
  // when that release lacks the line, the next line it has.
  function shownAt(el) {
    for (; el; el = el.nextElementSibling) if (!el.hidden) return el;
    return null;
  }
  function lineID(el) {
    while (el && !el.id) el = el.previousElementSibling;
    return el ? el.id : "";
  }
  function shownLines() {
    var out = [], ls = document.querySelectorAll("pre.src > *");
    for (var i = 0; i < ls.length; i++) if (!ls[i].hidden) out.push(ls[i]);
    return out;
  }
  // A click on a source line's number (drawn by CSS before the line, see
  // site/code.go) goes to that line; Shift-click extends the highlighted
  // range. The number is no element: a click on it lands on the line
  // itself, left of where its text starts.
  document.addEventListener("click", function (e) {
    var ln = e.target;
    if (!ln.matches || !ln.matches("pre.src > *")) return;
    if (e.clientX > ln.getBoundingClientRect().left + parseFloat(getComputedStyle(ln, "::before").width)) return;
    var y = lineID(ln), m = /^#(L[\d.]+)/.exec(location.hash), x = e.shiftKey && m && document.getElementById(m[1]);
    if (!x || x.id === y) { location.hash = "#" + y; return; }
    var before = x.compareDocumentPosition(ln) & Node.DOCUMENT_POSITION_FOLLOWING;
    location.hash = before ? "#" + x.id + "-" + y : "#" + y + "-" + x.id;
  });
  // An excerpt's line number goes to the whole file at that line.
  document.addEventListener("click", function (e) {
    var nr = e.target.closest && e.target.closest(".excerpt .ln:not(.gap) > .nr");
    var file = nr && nr.closest(".excerpt").querySelector(".exhead a.file");
    if (!file) return;
    var href = file.getAttribute("href").split("#")[0];
    location.href = href + (/^https:/.test(href) ? "#L" : "#N") + nr.textContent;
  });
  // The rendering each mask's attribute shows (showRendering, below).
  var shownRendering = { "data-r": 0, "data-lg": 0 };
  // A page a bilingual release's languages share (site/langshare.go:
  // data-langs, and data-lg a bit per language): ?lang= names the one to
  // show. Before releases.js's part, which makes an older release's title
  // from the language's.
  (function () {
    var root = document.documentElement;
    if (!root.hasAttribute("data-langs")) return;
    var merged = root.getAttribute("data-langs").split(" "), l = new URLSearchParams(location.search).get("lang"), k = merged.indexOf(l);
    if (k <= 0) return;
    root.lang = l;
    document.title = showRendering("data-lg", k);
    // The id may have moved to the rendering shown. A fragment that is
    // not valid %-encoding names no element (decoding it throws).
    var id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch (e) { id = ""; }
    var at = id && document.getElementById(id);
    if (at) at.scrollIntoView();
  })();
  // A page of a site of several releases: releases.js, loaded before
  // this script, does what such a page does beyond a single release's
  // (the version switcher's steps, the pages the releases share, their
  // line numbers, the diffs since the previous release) and gives back
  // the release part of the source pages.
  var R = window.kubewalkReleases && window.kubewalkReleases.page({ stepInView: stepInView, modified: modified, shownLines: shownLines, lineID: lineID, showRendering: showRendering });
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
  // multi-release site's releases: each carries every language's (and
  // release's) header and backlinks, and ?lang= (and ?rel=, releases.js)
  // pick which show. A bilingual site shares its index pages too, each
  // language's rendering merged into one page (above), which a site of
  // several releases then shares between releases. Links into the pages
  // the languages share carry ?lang= along.
  var body = document.body, srcRoot = body && body.getAttribute("data-src"), root = document.documentElement;
  var langs = Array.prototype.map.call(document.querySelectorAll('head > link[rel=alternate][hreflang]:not([hreflang="x-default"])'), function (l) { return l.getAttribute("hreflang"); });
  var blocks = document.querySelectorAll(".langblock[data-lang]"), lang = root.lang;
  var first = blocks.length ? blocks[0].getAttribute("data-lang") : langs[0] || "en";
  var rel = blocks.length ? blocks[0].getAttribute("data-rel") || "" : "";
  var rs = rel && R ? R.source(blocks, rel) : null;
  if (blocks.length) pick(new URLSearchParams(location.search));
  function pick(q) {
    var l = q.get("lang") || first, hasL = false;
    for (var b = 0; b < blocks.length; b++) hasL = hasL || blocks[b].getAttribute("data-lang") === l;
    if (hasL) lang = l;
    if (rs && !(rel = rs.pick(q.get("rel"), lang))) return;
    for (b = 0; b < blocks.length; b++) {
      blocks[b].hidden = blocks[b].getAttribute("data-lang") !== lang || (blocks[b].getAttribute("data-rel") || "") !== rel;
      if (!blocks[b].hidden && rs) rs.like(blocks[b]);
    }
    document.documentElement.lang = lang;
    if (rs) rs.shown();
  }
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("a[href]");
    if (!a || a.hasAttribute("data-switch") || modified(e)) return;
    var to = new URL(rs ? rs.relink(a) : a.getAttribute("href"), location.href);
    if (sharedTarget(to) && to.pathname !== location.pathname) {
      var q = to.searchParams;
      if (rel && !q.has("rel")) q.set("rel", rel);
      if (lang !== first && !q.has("lang")) q.set("lang", lang);
    }
    if (to.href === a.href) return;
    e.preventDefault();
    location.href = to.href;
  });
  // sharedTarget reports whether URL to is a page the languages share:
  // a source page, or any page of the site's outside the languages'
  // directories (the index pages, the changes page) but a release's
  // entry page; in a site of several releases, the releases' and those
  // of each release.
  function sharedTarget(to) {
    if (!srcRoot) return false;
    if (to.href.indexOf(new URL(srcRoot, location.href).href) === 0) return true;
    var top = new URL(srcRoot + "../", location.href).href;
    if (to.href.indexOf(top) !== 0) return false;
    var seg = to.href.slice(top.length).split(/[?#]/)[0].split("/"), last = seg[seg.length - 1];
    return /\.html$/.test(last) && last !== "index.html" && !seg.some(function (s) { return langs.indexOf(s) >= 0; });
  }
  // showRendering shows rendering k of a page merged from several
  // (site/internal/treemerge), by the attribute of the masks (a bit per
  // rendering, in hex): the languages of a bilingual release's index page
  // (data-lg), or the releases of a multi-release site's shared page
  // (data-r); a page may be both, an element shown when both its masks
  // name what is shown. It gives the ids back to what is shown (data-id)
  // and returns the rendering's title.
  function showRendering(attr, k) {
    shownRendering[attr] = k;
    document.querySelectorAll("[data-r], [data-lg]").forEach(function (el) {
      // toggleAttribute, not .hidden: an <svg> has no hidden property.
      el.toggleAttribute("hidden", !inMask(el, "data-r") || !inMask(el, "data-lg"));
    });
    // A table cell whose every part is other renderings' is empty for
    // this one: site.css prints its dash (td.none), as for td:empty.
    document.querySelectorAll("table.facts td").forEach(function (td) {
      var shown = false;
      for (var c = td.firstChild; c && !shown; c = c.nextSibling) {
        shown = c.nodeType === 3 ? /\S/.test(c.data) : c.nodeType === 1 && !c.hasAttribute("hidden");
      }
      td.classList.toggle("none", !shown && td.firstChild !== null);
    });
    document.querySelectorAll("[data-id]").forEach(function (el) {
      if (el.closest("[hidden]")) return;
      var id = el.getAttribute("data-id"), o = document.getElementById(id);
      if (o) { o.removeAttribute("id"); o.setAttribute("data-id", id); }
      el.id = id;
      el.removeAttribute("data-id");
    });
    var title = document.title;
    document.querySelectorAll("head > title").forEach(function (t) {
      if (!t.hidden && (t.hasAttribute("data-r") || t.hasAttribute("data-lg"))) title = t.textContent;
    });
    return title;
  }
  // inMask reports whether element el's mask in attribute attr names the
  // rendering shown (true without one).
  function inMask(el, attr) {
    var h = el.getAttribute(attr), k = shownRendering[attr];
    if (h === null) return true;
    var d = h.length - 1 - (k >> 2);
    return d >= 0 && ((parseInt(h.charAt(d), 16) >> (k & 3)) & 1) === 1;
  }
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
      if (steps[i].closest("[hidden]")) continue; // another release's rendering
      if (steps[i].getBoundingClientRect().top <= window.innerHeight / 3) cur = steps[i].id;
    }
    return cur;
  }
  window.addEventListener("hashchange", apply);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", apply); else apply();
})();
// kubewalk: a source page's coverage marks (site/coverage.go). The markup
// marks the lines the default scenario ran (data-n: how often); the
// <pre>'s data-cov holds the default scenario's counts as runs
// ("deployment=RUNS": "N" lines not counted, "N.C" lines that ran C times,
// "N.0" lines that did not run), then each other scenario's as its
// differences from them ("scale~DIFF": "N" lines as the default's, "N.C"
// lines that ran C times, "N._" lines not counted). This marks the lines
// that did not run, offers the scenarios in the choice the markup holds
// the default of, switches the marks, words each mark's count in the
// page's language (data-t) and lets the keyboard reach the first line of
// each run of marks.
(function () {
  "use strict";
  function covLines(pre) {
    return Array.prototype.filter.call(pre.children, function (u) { return u.tagName === "U"; });
  }
  function covDecode(runs, n) {
    var out = new Array(n), at = 0;
    runs.split(" ").forEach(function (r) {
      if (!r) return;
      var p = r.split("."), k = parseInt(p[0], 10);
      for (var i = 0; i < k && at < n; i++, at++) out[at] = p.length > 1 ? p[1] : null;
    });
    for (; at < n; at++) out[at] = null;
    return out;
  }
  function covDiffDecode(runs, base) {
    var out = base.slice(), at = 0;
    runs.split(" ").forEach(function (r) {
      if (!r) return;
      var p = r.split("."), k = parseInt(p[0], 10);
      if (p.length > 1) for (var i = 0; i < k && at + i < out.length; i++) out[at + i] = p[1] === "_" ? null : p[1];
      at += k;
    });
    return out;
  }
  function covText(v) {
    var picks = document.querySelectorAll(".covpick"), pick = picks[0];
    for (var i = 0; i < picks.length; i++) if (picks[i].offsetParent !== null) pick = picks[i];
    if (!pick) return "";
    return v === "0" ? pick.getAttribute("data-not") : pick.getAttribute("data-ran").replace("%d", v);
  }
  function covApply(lines, counts) {
    var prev = null;
    lines.forEach(function (u, i) {
      var v = counts[i];
      if (v === null) {
        u.removeAttribute("data-n"); u.removeAttribute("data-t"); u.removeAttribute("tabindex");
      } else {
        u.setAttribute("data-n", v); u.setAttribute("data-t", covText(v));
        if (v !== prev) u.setAttribute("tabindex", "0"); else u.removeAttribute("tabindex");
      }
      prev = v;
    });
  }
  function covInit() {
    var pre = document.querySelector("pre.src[data-cov]");
    if (!pre) return;
    var lines = covLines(pre), data = {}, sels = document.querySelectorAll(".covpick select");
    if (!sels.length) return;
    var base = null, names = [];
    (pre.getAttribute("data-cov") || "").split("|").forEach(function (s) {
      var eq = s.indexOf("="), td = s.indexOf("~");
      if (eq > 0 && (td < 0 || eq < td)) {
        base = data[s.slice(0, eq)] = covDecode(s.slice(eq + 1), lines.length);
        names.push(s.slice(0, eq));
      } else if (td > 0 && base) {
        data[s.slice(0, td)] = covDiffDecode(s.slice(td + 1), base);
        names.push(s.slice(0, td));
      }
    });
    sels.forEach(function (s) {
      names.forEach(function (n) {
        for (var i = 0; i < s.options.length; i++) if (s.options[i].value === n) return;
        var o = document.createElement("option");
        o.textContent = n;
        s.appendChild(o);
      });
    });
    var cur = sels[0].options[0].value;
    function show(name) {
      if (!data[name]) return;
      cur = name;
      sels.forEach(function (s) { s.value = name; });
      document.querySelectorAll(".covkey.ran code").forEach(function (c) { c.textContent = name; });
      covApply(lines, data[name]);
    }
    sels.forEach(function (s) {
      s.closest(".covsel").hidden = false;
      s.addEventListener("change", function () { show(s.value); });
    });
    // The language switch shows another header: word the marks in its language.
    new MutationObserver(function () { covApply(lines, data[cur]); })
      .observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
    show(cur);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", covInit); else covInit();
})();
// kubewalk: tables on narrow screens. Each data cell is labelled with its
// column's heading (data-label), and a table wider than its box is classed
// "stack": where its container is narrow (site.css: a container query),
// every row becomes a card of labelled cells instead of a table wider
// than the screen; a table that fits stays a table. Without script the
// table scrolls sideways in its box. Rows added later (the explain page's
// results) are labelled as they come; a new width (a phone turned) is
// measured again.
(function () {
  "use strict";
  function label(table) {
    var heads = table.tHead && table.tHead.rows[0];
    if (!heads) return;
    var names = [];
    for (var i = 0; i < heads.cells.length; i++) {
      var span = heads.cells[i].colSpan || 1, t = shownText(heads.cells[i]).trim();
      for (var k = 0; k < span; k++) names.push(t);
    }
    for (var b = 0; b < table.tBodies.length; b++) {
      var rows = table.tBodies[b].rows;
      for (var r = 0; r < rows.length; r++) {
        for (var c = 0, col = 0; c < rows[r].cells.length; c++) {
          var td = rows[r].cells[c];
          if (names[col] && td.tagName === "TD") td.setAttribute("data-label", names[col]);
          col += td.colSpan || 1;
        }
      }
    }
  }
  // shownText is n's text but for what it holds hidden (a page merged
  // from several renderings holds every language's heading).
  function shownText(n) {
    var s = "";
    for (var c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) s += c.data;
      else if (c.nodeType === 1 && !c.hasAttribute("hidden")) s += shownText(c);
    }
    return s;
  }
  // fit classes t "stack" when, laid out as a table, it is wider than
  // its box: it scrolls, or the .tablewrap around it does.
  function fit(t) {
    var wrap = t.parentElement;
    t.classList.remove("stack");
    if (t.scrollWidth > t.clientWidth + 1 || wrap && wrap.scrollWidth > wrap.clientWidth + 1) t.classList.add("stack");
  }
  function init() {
    var tables = document.querySelectorAll("table.facts, .prose table"), queued = false;
    tables.forEach(function (t) {
      label(t);
      fit(t);
      for (var b = 0; b < t.tBodies.length; b++) {
        if (t.tBodies[b].id) new MutationObserver(function () { label(t); fit(t); }).observe(t.tBodies[b], { childList: true });
      }
    });
    window.addEventListener("resize", function () {
      if (queued) return;
      queued = true;
      requestAnimationFrame(function () { queued = false; tables.forEach(fit); });
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init); else init();
})();
// kubewalk: on a source page, once its own header has scrolled away, a
// bar under the site's header names the file and the function the top of
// the screen is in. Go only: a line that starts "func" begins one.
(function () {
  "use strict";
  var pre = document.querySelector("pre.src"), top = document.querySelector("header.top");
  var name = pre && document.querySelector(".srchead h1");
  if (!pre || !name || !/\.go$/.test(name.textContent.trim())) return;
  var file = name.lastChild.textContent.trim(), funcs = [];
  for (var u = pre.firstElementChild; u; u = u.nextElementSibling) {
    var m = /^func\s+(?:\(\s*(?:\w+\s+)?\*?(\w+)[^)]*\)\s*)?(\w+)/.exec(u.textContent);
    if (m) funcs.push({ el: u, name: (m[1] ? m[1] + "." : "") + m[2] });
  }
  var bar = document.createElement("div");
  bar.className = "srcwhere";
  bar.setAttribute("aria-hidden", "true");
  bar.hidden = true;
  pre.parentNode.insertBefore(bar, pre);
  var queued = false;
  function update() {
    queued = false;
    var edge = top ? top.getBoundingClientRect().bottom : 0, cur = "";
    for (var i = 0; i < funcs.length; i++) {
      var el = funcs[i].el;
      if (!el.offsetParent) continue; // another release's line, hidden
      if (el.getBoundingClientRect().top > edge + 8) break;
      cur = funcs[i].name;
    }
    var text = cur ? file + " \u203a " + cur : file, hide = pre.getBoundingClientRect().top > edge;
    bar.style.top = edge > 0 ? edge + "px" : "0"; // reads first, then writes: one layout a frame
    bar.hidden = hide;
    if (bar.textContent !== text) bar.textContent = text;
  }
  window.addEventListener("scroll", function () { if (!queued) { queued = true; requestAnimationFrame(update); } }, { passive: true });
  window.addEventListener("hashchange", update);
  update();
})();
// kubewalk: the whole resource graph, focused. A choice above it lists
// its resources and components (read from the drawing: site/graphfocus.go,
// internal/render/diagram marks each node with data-node and data-kind and
// each line with data-ends); picking one dims everything but it,
// the lines that touch it and what is at their other end.
(function () {
  "use strict";
  var pick = document.querySelector(".graphpick");
  var svg = pick && pick.parentNode.querySelector("svg[role=img]");
  if (!svg) return;
  var sel = pick.querySelector("select"), nodes = {}, groups = { resource: [], component: [] };
  svg.querySelectorAll("g[data-node]").forEach(function (g) {
    var label = (g.querySelector("text") || {}).textContent || "", k = g.getAttribute("data-kind");
    nodes[g.getAttribute("data-node")] = g;
    if (groups[k]) groups[k].push([label, g.getAttribute("data-node")]);
  });
  ["resource", "component"].forEach(function (k) {
    groups[k].sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; });
    groups[k].forEach(function (e) {
      var o = document.createElement("option");
      o.value = e[1];
      o.textContent = e[0];
      sel.appendChild(o);
    });
  });
  var lines = svg.querySelectorAll("g[data-ends]");
  sel.addEventListener("change", function () {
    var n = sel.value, near = {};
    near[n] = true;
    lines.forEach(function (g) {
      var ends = g.getAttribute("data-ends").split(" "), on = n === "" || ends[0] === n || ends[1] === n;
      if (on) { near[ends[0]] = true; near[ends[1]] = true; }
      g.classList.toggle("dim", !on);
    });
    for (var id in nodes) nodes[id].classList.toggle("dim", n !== "" && !near[id]);
  });
  pick.hidden = false;
})();
