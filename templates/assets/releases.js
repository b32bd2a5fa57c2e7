// kubewalk: what the pages of a site of several releases do that a
// single release's pages do not. site/releases/doc.go defines every
// attribute and script read here. Only those pages load this script,
// before site.js (and, on the explain page, before explain.js); it runs
// nothing on its own but defines window.kubewalkReleases:
//   - page(k) sets up the page, k being site.js's helpers (stepInView,
//     modified, shownLines, lineID, showRendering), and returns source(blocks, rel): the
//     release part of a shared source page's header blocks, for site.js;
//   - explain(S, R, SS) is a release's explain index put back together
//     from the shared explain scripts, for explain.js.
(function () {
  "use strict";
  window.kubewalkReleases = { page: page, explain: explainIndex };
  function page(k) {
    var stepInView = k.stepInView, modified = k.modified, showRendering = k.showRendering;
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
    // A page a multi-release site writes once for several releases
    // (site/internal/pageshare): data-rels lists them, newest first, and
    // data-releases the site's; ?rel= names the one to show (the newest
    // without it). A release another page of the same page serves is sent
    // there (data-groups). For an older release, its renderings are shown
    // (data-r: a bit per release, in hex), its ids given back (data-id),
    // and the newest's directory and GitHub tag in links, and in the
    // diffs' script, turned into the release's. Links to the source pages
    // and the shared pages carry ?rel=.
    (function () {
      var root = document.documentElement;
      if (!root.hasAttribute("data-rels")) return;
      var rels = root.getAttribute("data-rels").split(" ");
      var all = (root.getAttribute("data-releases") || "").split(" ");
      var r = new URLSearchParams(location.search).get("rel") || rels[0], k = rels.indexOf(r), n = rels[0];
      if (k < 0) {
        // Another group of releases' page (data-groups: "<tag>,<tag>=<url>").
        (root.getAttribute("data-groups") || "").split(" ").forEach(function (g) {
          var i = g.indexOf("=");
          if (i > 0 && g.slice(0, i).split(",").indexOf(r) >= 0) {
            location.replace(g.slice(i + 1) + "?rel=" + encodeURIComponent(r) + location.hash);
          }
        });
        return;
      }
      var top = new URL((root.getAttribute("data-root") || "") + "index.html", location.href).pathname;
      var gh = "https://github.com/kubernetes/kubernetes/blob/";
      if (k > 0) {
        // Its renderings and its own title, where its differs from the
        // newest's but for the release.
        var title = showRendering("data-r", k);
        document.querySelectorAll("[data-diffs]").forEach(function (el) {
          el.setAttribute("data-diffs", releaseDir(el.getAttribute("data-diffs")));
        });
        document.title = title.split(n).join(r);
      }
      document.querySelectorAll("a[href], form[action]").forEach(function (a) {
        var at = a.hasAttribute("href") ? "href" : "action", v = a.getAttribute(at);
        if (v.indexOf(gh + n + "/") === 0) {
          v = gh + r + "/" + v.slice(gh.length + n.length + 1);
        } else if (!/^[a-z][a-z0-9+.-]*:/i.test(v) && v.charAt(0) !== "#") {
          v = releaseDir(v);
          // A page in a release's directory, or the list of releases, is no
          // one release's.
          var p = v.split("#")[0].split("?")[0];
          var none = p.split("/").some(function (s) { return all.indexOf(s) >= 0; }) || new URL(p, location.href).pathname === top;
          if (!none && !/[?&]rel=/.test(v)) {
            var h = v.indexOf("#"), head = h < 0 ? v : v.slice(0, h), tail = h < 0 ? "" : v.slice(h);
            v = head + (head.indexOf("?") < 0 ? "?" : "&") + "rel=" + encodeURIComponent(r) + tail;
          }
        } else return;
        a.setAttribute(at, v);
      });
      if (k > 0 && location.hash) {
        // A fragment that is not valid %-encoding (#%E0%A4%A) names no
        // element; decoding it threw and stopped the rest of this script.
        var id = location.hash.slice(1);
        try { id = decodeURIComponent(id); } catch (e) { id = ""; }
        var t = id && document.getElementById(id);
        if (t) t.scrollIntoView();
      }
      // releaseDir turns the newest's directory at the start of a relative
      // link (after any "../") into the release's.
      function releaseDir(v) {
        var seg = v.split("/"), i = 0;
        while (seg[i] === "..") i++;
        if (r === n || seg[i] !== n) return v;
        seg[i] = r;
        return seg.join("/");
      }
    })();
    // Diffs since the previous release live in a script of the release's
    // (data-diffs: <tag>/diffs.js, site/changes.go), loaded when a reader
    // first opens a walkthrough's diff, and at once on the changes page,
    // which draws every diff from it; each is written into its <pre> as
    // text, one line per span, classed like internal/render/codehtml's
    // "diff" highlighting.
    var waiting = [], loading = false;
    function withDiffs(then) {
      if (window.kubewalkDiffs) { then(); return; }
      waiting.push(then);
      var art = document.querySelector("[data-diffs]");
      if (loading || !art) return;
      loading = true;
      var s = document.createElement("script");
      s.src = art.getAttribute("data-diffs");
      s.onload = function () { waiting.forEach(function (f) { f(); }); waiting = []; };
      document.head.appendChild(s);
    }
    // A change's badge with a diff (a[data-diff], its href the change's
    // entry on the changes page, #d<N>) opens the diff below it, in a box
    // made from the page's template, with a link to that entry; a second
    // click closes it. Without script the badge goes to the entry.
    document.addEventListener("click", function (e) {
      var a = e.target.closest && e.target.closest("a.badge[data-diff]"), tpl = document.getElementById("diffbox");
      if (!a || !tpl || modified(e)) return;
      var href = a.getAttribute("href"), n = href.slice(href.lastIndexOf("#d") + 2);
      var li = a.closest("li"), host = li || a.closest(".exhead");
      if (!n || !host) return;
      e.preventDefault();
      var open = li ? li.querySelector(".diffbox") : host.nextElementSibling;
      if (open && open.classList.contains("diffbox")) {
        open.remove();
        host.querySelectorAll("a.badge[aria-expanded]").forEach(function (b) { b.setAttribute("aria-expanded", "false"); });
        if (open.getAttribute("data-d") === n) return;
      }
      var box = tpl.content.firstElementChild.cloneNode(true);
      box.setAttribute("data-d", n);
      box.querySelector("a").setAttribute("href", href);
      if (li) li.appendChild(box); else host.after(box);
      a.setAttribute("aria-expanded", "true");
      withDiffs(function () { fill(box.querySelector("pre"), n); });
    }, true); // before the handlers that follow links
    var pres = document.querySelectorAll("pre[data-diff]");
    if (pres.length) withDiffs(function () {
      pres.forEach(function (pre) { fill(pre, pre.getAttribute("data-diff")); });
      document.querySelectorAll(".diffs-nojs").forEach(function (p) { p.remove(); });
    });
    // fill writes diff n into pre, once; false when there is none.
    function fill(pre, n) {
      var all = window.kubewalkDiffs, text = all[n];
      if (typeof text === "string" && text.charAt(0) === "=") text = all[text.slice(1)]; // the same as another change's (site/changes.go diffsScript)
      if (!pre || typeof text !== "string") return false;
      if (pre.firstChild) return true;
      text.replace(/\n$/, "").split("\n").forEach(function (l) {
        var span = document.createElement("span"), c = l.charAt(0);
        span.className = l.slice(0, 2) === "@@" ? "xh" : c === "+" ? "xi" : c === "-" ? "xd" : "";
        span.textContent = l + "\n";
        pre.appendChild(span);
      });
      return true;
    }
    // ---- Line numbers of the pages releases share (site/lines.go) ----
    // A page a multi-release site writes once for several releases prints
    // a location by its source page's anchor numbers ("136" is the newest
    // release's line 136, "136.1" a line it lacks after it) and names them
    // on the element (data-l="136-140"). For an older release (?rel=), its
    // line map (<tag>/lines.js: per file, its lines as runs of anchors,
    // site/lines.go lineRuns) gives its own numbers, written into the
    // element's text ("x.go:136-140", "(x.go:136)"; a walkthrough link's
    // text is the author's), title and GitHub link; an excerpt's code
    // (pre[data-l]) numbers its lines and elisions, each by its text or its
    // text's element's data-l.
    (function () {
      var root = document.documentElement;
      if (!root.hasAttribute("data-rels")) return;
      var rels = root.getAttribute("data-rels").split(" "), up = root.getAttribute("data-root") || "";
      var r = new URLSearchParams(location.search).get("rel") || rels[0];
      if (rels.indexOf(r) <= 0) return; // the numbers shown, or another page's
      var s = document.createElement("script");
      s.src = up + encodeURIComponent(r) + "/lines.js";
      s.onload = function () { if (window.kubewalkLines) number(window.kubewalkLines); };
      document.head.appendChild(s);
      var gh = "https://github.com/kubernetes/kubernetes/blob/", src = new URL(up + "src/", location.href).pathname;
      function number(map) {
        var runs = {};
        // own is stable number n of file f as the release numbers it ("" for
        // ""), null when it lacks the line.
        function own(f, n) {
          if (!n) return "";
          if (!(f in map)) return /\./.test(n) ? null : n;
          var rs = runs[f];
          if (!rs) { // [first anchor's n, its k, lines]: lineRuns
            var base = 0;
            rs = runs[f] = map[f].split(" ").map(function (x) {
              var c = x.split(":"), d = c[0].split("."), r = [base + (+d[0] || 0), +d[1] || 0, +c[1] || 1];
              base = r[0] + (r[1] ? 0 : r[2] - 1);
              return r;
            });
          }
          var a = n.split("."), an = +a[0], ak = +a[1] || 0, line = 1;
          for (var i = 0; i < rs.length; i++) {
            var r = rs[i];
            if (!ak === !r[1] && (ak ? an === r[0] && ak >= r[1] && ak < r[1] + r[2] : an >= r[0] && an < r[0] + r[2])) {
              return String(line + (ak ? ak - r[1] : an - r[0]));
            }
            line += r[2];
          }
          return null;
        }
        document.querySelectorAll("pre[data-l]").forEach(function (pre) {
          // The releases' excerpts merged have a link to the file each.
          var fig = pre.closest(".excerpt"), fs = fig ? fig.querySelectorAll("a.file") : [], f = "";
          for (var i = 0; i < fs.length && !f; i++) if (!fs[i].closest("[hidden]")) f = fileOf(fs[i]);
          if (!f || pre.closest("[hidden]")) return;
          pre.querySelectorAll(".ln").forEach(function (ln) {
            var gap = ln.classList.contains("gap"), w = document.createTreeWalker(ln, NodeFilter.SHOW_TEXT);
            for (var t = w.nextNode(); t; t = w.nextNode()) {
              var nr = t.parentNode.closest(".nr"), mark = t.parentNode.getAttribute("data-l");
              if ((gap ? nr : !nr) || t.parentNode.closest("[hidden]")) continue;
              if (!gap) {
                var o = own(f, mark || t.data);
                if (o) t.data = o;
                continue;
              }
              var m = /^([\d.]+)–([\d.]+)/.exec(t.data), ab = m && (mark ? mark.split("-") : [m[1], m[2]]);
              var a = ab && own(f, ab[0]), b = ab && own(f, ab[1]);
              if (a && b) t.data = a + "–" + b + t.data.slice(m[0].length);
            }
          });
        });
        document.querySelectorAll("[data-l]").forEach(function (el) {
          if (el.closest("pre[data-l], [hidden]")) return;
          var f = fileOf(el), l = el.getAttribute("data-l").split("-");
          var a = f && own(f, l[0]), b = f && own(f, l[1] || "");
          if (a && b !== null) setLines(el, f.slice(f.lastIndexOf("/") + 1), a, b);
        });
        // fileOf is the file a link names: a source page (or a part of one)
        // or a GitHub permalink.
        function fileOf(a) {
          var h = a && a.getAttribute("href"), f;
          if (!h) return "";
          try {
            if (h.indexOf(gh) === 0) {
              f = h.slice(gh.length).split("#")[0];
              return decodeURIComponent(f.slice(f.indexOf("/") + 1));
            }
            var p = new URL(h, location.href).pathname;
            if (p.indexOf(src) !== 0) return "";
            f = decodeURIComponent(p.slice(src.length)).replace(/\.html$/, "");
          } catch (e) {
            return "";
          }
          return f in map || !/\.\d+$/.test(f) ? f : f.replace(/\.\d+$/, "");
        }
      }
      function setLines(el, base, from, to) {
        if (!el.classList.contains("symref")) {
          var w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (var t = w.nextNode(); t; t = w.nextNode()) t.data = printLines(t.data, base, from, to);
        }
        if (el.hasAttribute("title")) el.setAttribute("title", printLines(el.getAttribute("title"), base, from, to));
        var h = el.getAttribute("href");
        if (h && h.indexOf(gh) === 0) {
          el.setAttribute("href", h.replace(/#L[\d.]+(-L[\d.]+)?$/, function (m, rng) { return "#L" + from + (rng && to ? "-L" + to : ""); }));
        }
      }
      // printLines writes lines from-to over the last "<base>:<lines>" of s
      // that ends s or a parenthesis (from alone where s has one line).
      function printLines(s, base, from, to) {
        var key = base + ":";
        for (var end = s.length; end > 0;) {
          var i = s.lastIndexOf(key, end - key.length);
          if (i < 0) break;
          end = i;
          if (i > 0 && "/( ".indexOf(s.charAt(i - 1)) < 0) continue;
          var j = i + key.length, m = /^\d+(?:\.\d+)?(-\d+(?:\.\d+)?)?(?=\)|$)/.exec(s.slice(j));
          if (m) return s.slice(0, j) + (m[1] && to ? from + "-" + to : from) + s.slice(j + m[0].length);
        }
        return s;
      }
    })();
    // ---- end of line numbers ----
    return { source: function (blocks, rel) { return source(k, blocks, rel); } };
  }
  // source is the releases of a shared source page (site/releases:
  // shared.go): its header blocks (.langblock, data-rel and data-lang)
  // and the release shown at first, the page's newest. site.js calls
  // pick with the ?rel= asked for and the language it shows, which
  // returns the release to show ("" when the reader is sent to another
  // page), like on each block it shows, shown once they are shown (which
  // moves the code's GitHub links to the release), and relink for the
  // href of a link clicked.
  function source(k, blocks, rel) {
    var newest = rel, lang = "", shownLines = k.shownLines, lineID = k.lineID;
    return {
      pick: function (r, l) {
        var hasR = false;
        lang = l;
        r = r || rel;
        for (var b = 0; b < blocks.length; b++) hasR = hasR || (blocks[b].getAttribute("data-rel") || "") === r;
        // A release this page does not serve (a link followed from a page
        // rendered for another release): that release's own page of the
        // file, through this page's version switcher, at the same line.
        if (!hasR) {
          var vs = shown(lang, rel).querySelectorAll("details.versions a[href]");
          for (var i = 0; i < vs.length; i++) {
            if (vs[i].textContent === r) { location.replace(vs[i].href.split("#")[0] + location.hash); return ""; }
          }
        } else rel = r;
        return rel;
      },
      like: like,
      shown: function () {
        showLines();
        ghLinks();
        for (var b = 0; b < blocks.length; b++) if (!blocks[b].hidden) likeHead(blocks[b]);
      },
      relink: relink
    };
    // showLines shows the lines of the release being read: each line the
    // page's releases do not all have names those that do (data-r: a bit
    // per release, in the order of the page's parts, newest first). A part
    // of a page split in parts starts its numbering where the release's
    // previous part ended (data-start).
    function relIndex() {
      var rels = [];
      for (var b = 0; b < blocks.length; b++) {
        var r = blocks[b].getAttribute("data-rel") || "";
        if (rels.indexOf(r) < 0) rels.push(r);
      }
      return Math.max(0, rels.indexOf(rel));
    }
    function showLines() {
      var k = relIndex();
      var pre = document.querySelector("pre.src");
      if (!pre) return;
      var st = (pre.getAttribute("data-start") || "").split(" ");
      if (st[k]) pre.style.counterReset = "ln " + st[k];
      if (k === 0) return; // the newest's lines: site.css shows them
      pre.classList.add("rel");
      var ls = pre.querySelectorAll("pre.src > [data-r]");
      for (var i = 0; i < ls.length; i++) ls[i].hidden = !(parseInt(ls[i].getAttribute("data-r"), 16) & (1 << k));
    }
    // An older release's source header (data-n, its number of lines;
    // site/shared.go headLike) names its cited lines by the page's anchors
    // and says the newest's number of lines: it is written so, whole, or
    // not at all when it is another release's header (data-head names it)
    // but for the release in its links, and then made here from that one.
    // Either way its cited lines are renumbered here, each counted among
    // the lines the release shows, once: data-n goes. Only the shown
    // block is renumbered, and only the release read is shown (a ?rel=
    // change reloads the page), so the header another is made from is
    // still as written.
    function likeHead(el) {
      var n = el.getAttribute("data-head"), r = el.getAttribute("data-rel"), c = el.getAttribute("data-n"), nr = {};
      if (c === null || (n && !madeFrom(el, n, "header.srchead"))) return;
      if (n) el.querySelectorAll("a[href]").forEach(function (a) {
        a.setAttribute("href", moveRel(a.getAttribute("href"), n, r));
      });
      el.removeAttribute("data-n");
      var count = el.querySelector(".count"), ls = shownLines();
      if (count) count.textContent = c;
      for (var i = ls.length - 1; i >= 0; i--) nr[lineID(ls[i])] = i + 1;
      el.querySelectorAll("span.lines").forEach(function (s) {
        s.textContent = s.textContent.replace(/L[\d.]+/g, function (a) { return nr[a] ? "L" + nr[a] : a; });
      });
    }
    // madeFrom fills the empty block el with a copy of release n's block
    // of its language that holds sel (the newest's, or for a source header
    // any release's written whole); false if it has one already,
    // or there is none.
    function madeFrom(el, n, sel) {
      var l = el.getAttribute("data-lang"), src = null;
      if (!n || el.firstChild) return false;
      for (var b = 0; b < blocks.length && !src; b++) {
        if (matches(blocks[b], l, n) && blocks[b].querySelector(sel)) src = blocks[b];
      }
      if (!src) return false;
      for (var c = src.firstChild; c; c = c.nextSibling) el.appendChild(c.cloneNode(true));
      return true;
    }
    // moveRel moves link v from release n to r: the release's directory,
    // and a ?rel= naming it (site/shared.go relinked).
    function moveRel(v, n, r) {
      var relOf = new RegExp("([?&]rel=)" + n.replace(/[.+]/g, "\\$&") + "(?=[&#]|$)");
      return v.split("/" + n + "/").join("/" + r + "/").replace(relOf, "$1" + r);
    }
    // A release's header that is the newest's made over for it is not in
    // the page (data-like names the newest; site/shared.go, likeNewest):
    // it is made here, the same way, leaving out of its bar the links to
    // pages that release does not have (data-drop).
    function like(el) {
      var n = el.getAttribute("data-like"), r = el.getAttribute("data-rel");
      if (!madeFrom(el, n, "header.top")) return;
      var q = "rel=" + encodeURIComponent(r), self = "", cur = null;
      // The release's directory, and the release named by a link to a page
      // the releases share (site/internal/pageshare).
      el.querySelectorAll("[href], [action]").forEach(function (a) {
        var at = a.hasAttribute("href") ? "href" : "action";
        a.setAttribute(at, moveRel(a.getAttribute(at), n, r));
      });
      (el.getAttribute("data-drop") || "").split(" ").forEach(function (p) {
        el.querySelectorAll("nav.bar .navlinks > a[href]").forEach(function (a) {
          if (p && a.getAttribute("href").slice(-(r.length + p.length + 2)) === "/" + r + "/" + p) a.remove();
        });
      });
      var sum = el.querySelector("details.versions summary > span");
      if (sum && sum.textContent === n) sum.textContent = r;
      el.querySelectorAll("details.versions li").forEach(function (li) {
        var a = li.querySelector("a[data-switch]"), c = li.querySelector("b[aria-current]");
        if (c && c.textContent === n) cur = li;
        if (!a || a.textContent !== r || li.children.length !== 1) return;
        self = a.getAttribute("href").replace("?" + q + "&", "?").replace("?" + q, "");
        li.replaceChildren(mark("b", r));
        li.firstChild.setAttribute("aria-current", "true");
      });
      if (cur) {
        var to = mark("a", n);
        to.setAttribute("href", self);
        to.setAttribute("data-switch", "");
        cur.replaceChildren(to);
      }
      el.querySelectorAll("span.langs a[hreflang]").forEach(function (a) {
        var h = a.getAttribute("href"), i = h.indexOf("?");
        a.setAttribute("href", i < 0 ? h + "?" + q : h.slice(0, i + 1) + q + "&" + h.slice(i + 1));
      });
    }
    function mark(tag, text) {
      var e = document.createElement(tag);
      e.textContent = text;
      return e;
    }
    function matches(el, l, r) {
      return el.getAttribute("data-lang") === l && (el.getAttribute("data-rel") || "") === r;
    }
    function shown(l, r) {
      for (var b = 0; b < blocks.length; b++) if (matches(blocks[b], l, r)) return blocks[b];
      return blocks[0];
    }
    // The code's GitHub links are the page's newest release's (site.js
    // made their hrefs from the <body>'s data-gh): for another, its part
    // says where its permalinks start (data-gh; none when that is the
    // newest's but for the tag). A line
    // the release shares with newer ones (data-r has a lower bit, or there
    // is none) has their links, and the release's part says where those go
    // for it (site/merge.go file1): to another line of the same GitHub file
    // (data-ghl: "<n>#<line>=<its line>,<line>=<its line>…" per link, n
    // its index in the newest's data-ghf, space-separated; ghLines), or
    // elsewhere (data-lnk: "<href> <its href>" pairs, each href its index
    // in the newest's data-lnt, space-separated, its href only a fragment
    // on the same page; linkMoves). A line of its own has its own links.
    //
    // A GitHub link (data-g) is named by the newest's permalink whatever
    // its href (site.js made it so; ghLinks makes it the release's), so
    // relink gives it the same href however often it runs. ms and gl are
    // linkMoves() and ghLines(), read once for many links.
    function relink(a, ms, gl) {
      var g0 = document.body.getAttribute("data-gh"), line = a.closest("pre.src > *");
      var href = g0 && a.hasAttribute("data-g") ? g0 + a.getAttribute("data-g") : a.getAttribute("href");
      if (rel === newest || !line) return href;
      var r = line.getAttribute("data-r"), shared = !r || (parseInt(r, 16) & ((1 << relIndex()) - 1)) !== 0;
      var to = shared && (ms || linkMoves())[href];
      if (to) href = to;
      var cur = shown(lang, rel), g = cur.getAttribute("data-gh");
      if (g0 && !g) g = g0.replace("/" + newest + "/", "/" + rel + "/");
      if (!g0 || !g || href.indexOf(g0) !== 0) return href;
      var rest = href.slice(g0.length), moved = shared && !to && (gl || ghLines())[rest];
      if (moved) rest = rest.replace(/#L\d+$/, "#L" + moved);
      return g + rest;
    }
    // ghLinks gives the code's GitHub links of an older release the
    // href they go to for it (relink) as soon as it is shown, not only
    // when one is clicked: opened in a new tab they go there too.
    function ghLinks() {
      if (rel === newest || !document.body.getAttribute("data-gh")) return;
      var ms = linkMoves(), gl = ghLines(), ls = document.querySelectorAll("pre.src a[data-g]");
      for (var i = 0; i < ls.length; i++) ls[i].setAttribute("href", relink(ls[i], ms, gl));
    }
    function relAttr(name) {
      for (var b = 0; b < blocks.length; b++) {
        if ((blocks[b].getAttribute("data-rel") || "") === rel && blocks[b].hasAttribute(name)) return blocks[b].getAttribute(name);
      }
      return "";
    }
    function ghLines() {
      var out = {}, files = (blocks[0].getAttribute("data-ghf") || "").split(" ");
      relAttr("data-ghl").split(" ").forEach(function (e) {
        var i = e.lastIndexOf("#"), f = i > 0 && files[+e.slice(0, i)];
        if (f) e.slice(i + 1).split(",").forEach(function (l) {
          var j = l.indexOf("=");
          if (j > 0) out[f + "#L" + l.slice(0, j)] = l.slice(j + 1);
        });
      });
      return out;
    }
    function linkMoves() {
      var out = {}, t = (blocks[0].getAttribute("data-lnt") || "").split(" "), ps = relAttr("data-lnk").split(" ");
      for (var i = 0; i + 1 < ps.length; i += 2) { // a fragment alone: on the same page (site/merge.go expandLinkMove)
        var a = t[+ps[i]], b = t[+ps[i + 1]];
        if (a && b) out[a] = b.charAt(0) === "#" ? a.split("#")[0] + b : b;
      }
      return out;
    }
  }
  // ---- site/internal/explainshare: a release's Index in a site of several ----
  // explainIndex is explainShared.release and explainSharedSteps.steps: the
  // release's own sites (R, each at its place) among the shared sites S
  // it has (bit R.copy of "in"), each with its own line and values ("x")
  // and the tokens S.tok names back to its tag and line; and the steps
  // of its page (SS) in the page's language.
  function explainIndex(S, R, SS) {
    if (!S || !SS) return null;
    var tag = R.rel || R.tag, c = R.copy, T = S.tok.charAt(0), N = S.tok.charAt(1), X = { tag: R.tag, dirs: S.dirs }, k;
    var tables = S.tables[R.tables] || {};
    for (k in tables) X[k] = tables[k];
    function has(m, i) { var d = m.length - 1 - (i >> 2); return d >= 0 && (parseInt(m.charAt(d), 16) >> (i & 3) & 1) === 1; }
    function detok(v, t) {
      if (typeof v === "string") return v.split(t).join(tag);
      if (Array.isArray(v)) return v.map(function (x) { return detok(x, t); });
      if (v === null || typeof v !== "object") return v;
      var o = {};
      Object.keys(v).forEach(function (f) { o[f] = detok(v[f], t); });
      return o;
    }
    function site(e) {
      var o = {}, n = 0, i;
      Object.keys(e).forEach(function (f) { if (f !== "in" && f !== "x") o[f] = e[f]; });
      if (Array.isArray(e.l)) { for (i = 0; i < c; i++) if (has(e.in, i)) n++; o.l = e.l[n]; }
      (e.x || []).forEach(function (g) {
        if (!has(g[0], c)) return;
        Object.keys(g[1]).forEach(function (f) {
          var v = g[1][f], b = o[f];
          if (v === null) delete o[f];
          else if (typeof b === "string" && Array.isArray(v)) o[f] = b.slice(0, v[0]) + v[1] + b.slice(b.length - v[2]);
          else o[f] = v;
        });
      });
      if (typeof o.u === "string") o.u = o.u.split(N).join(String(o.l));
      return detok(o, T);
    }
    Object.keys(S.entries).forEach(function (kind) {
      var list = [], own = R.entries[kind] || [], j = 0;
      function mine() { while (j < own.length && own[j].at === list.length) list.push(own[j++]); }
      S.entries[kind].forEach(function (e) {
        if (!has(e.in, c)) return;
        mine();
        list.push(site(e));
      });
      mine();
      X[kind] = list;
    });
    SS.lists.forEach(function (l) { if (l.tags.indexOf(tag) >= 0) X.steps = detok(l.steps, SS.tok.charAt(0)); });
    return X;
  }
})();
