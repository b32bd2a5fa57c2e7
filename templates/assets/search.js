// kubewalk search: full text over window.KUBEWALK_SEARCH, the index
// search-index.js assigns (a script, not fetched JSON, so it works from
// file://), and in a bilingual release KUBEWALK_SEARCH_SHARED: entries as
// [kind, title, URL, detail] and an inverted index from terms to entries
// (site/search.go builds both). In a multi-release site the entries two
// releases or more have are the site's scripts', which the release's
// index names (site/searchrel.go). The query is split as the index was —
// lower-cased words, Hangul runs as bigrams — and each entry is scored by
// the query terms it has, rare terms counting more; the last word typed
// also matches the terms it begins. Results are links: arrow keys move
// between them and the box, Enter follows one, and the count is announced
// (role=status).
(function () {
  "use strict";
  var own = window.KUBEWALK_SEARCH || { docs: [], terms: {} };
  var docs = [], terms = {}, lens = [], vocab = null, avg = 1;
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  var count = document.getElementById("count");
  var kindOrder = { walkthrough: 0, step: 1, event: 2, resource: 3, symbol: 4, file: 5 };
  var MAX = 100;

  // load runs the site's scripts the release's index names, as script
  // elements (file:// refuses fetch), then done.
  function load(urls, done) {
    var left = urls.length;
    if (!left) return done();
    urls.forEach(function (u) {
      var s = document.createElement("script");
      s.src = u;
      s.onload = s.onerror = function () { if (--left === 0) done(); };
      document.head.appendChild(s);
    });
  }
  // together is the release's index from its parts, each numbering its
  // entries from 0: the entries every language has alike
  // (search-shared.js) and the language's own; in a multi-release site,
  // before each, the site's (search-site-shared.js, search-site.js): of
  // those, the entries the release has (a bit per release in rels, the
  // newest first), its ?rel= filled in (siteURL).
  function together(parts, release) {
    // No prototype: a term may be "constructor".
    var out = { docs: [], lens: [], terms: Object.create(null) };
    parts.forEach(function (p) {
      if (!p) return;
      var at = [], bit = p.rels ? Math.pow(2, (p.releases || []).indexOf(release)) : 0;
      p.docs.forEach(function (e, i) {
        at.push(-1);
        if (p.rels && !(bit >= 1 && Math.floor(p.rels[i] / bit) % 2)) return;
        at[i] = out.docs.length;
        out.docs.push(p.rels ? [e[0], e[1], siteURL(e[2], release, p.rels[i] % bit === 0), e[3]] : e);
        out.lens.push((p.lens || [])[i]);
      });
      for (var k in p.terms) {
        var post = p.terms[k], to = out.terms[k] || [];
        for (var i = 0; i < post.length; i += 2) if (at[post[i]] >= 0) to.push(at[post[i]], post[i + 1]);
        if (to.length) out.terms[k] = to;
      }
    });
    return out;
  }
  // siteURL is a site entry's URL u for release: rel=* and rel=+ as
  // ?rel= of it, but rel=+ dropped for the entry's newest release, whose
  // link into a shared source page has none (site/searchrel.go
  // searchSiteURL).
  function siteURL(u, release, newest) {
    var rel = function () { return "rel=" + release; };
    if (u.indexOf("rel=+") < 0) return u.replace("rel=*", rel);
    if (!newest) return u.replace("rel=+", rel);
    if (u.indexOf("rel=+&") >= 0) return u.replace("rel=+&", "");
    return u.replace("?rel=+", "").replace("&rel=+", "");
  }
  function isHangul(c) {
    return (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x1100 && c <= 0x11FF) || (c >= 0x3130 && c <= 0x318F);
  }
  // Terms of text, as searchTerms (site/search.go) makes them.
  function split(text) {
    var out = [], run = [], hangul = false;
    function flush() {
      if (!run.length) return;
      if (hangul && run.length === 1) out.push(run[0]);
      else if (hangul) for (var i = 0; i + 1 < run.length; i++) out.push(run[i] + run[i + 1]);
      else if (run.length > 1) out.push(run.join(""));
      run = [];
    }
    var chars = Array.from(text.toLowerCase());
    for (var i = 0; i < chars.length; i++) {
      var ch = chars[i], h = isHangul(ch.codePointAt(0));
      if (!h && !/[\p{L}\p{N}]/u.test(ch)) { flush(); continue; }
      if (run.length && h !== hangul) flush();
      hangul = h;
      run.push(ch);
    }
    flush();
    return out;
  }
  // Every term beginning with prefix (the sorted vocabulary, made once).
  function withPrefix(prefix) {
    if (!vocab) vocab = Object.keys(terms).sort();
    var lo = 0, hi = vocab.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (vocab[mid] < prefix) lo = mid + 1; else hi = mid; }
    var out = [];
    for (var i = lo; i < vocab.length && vocab[i].lastIndexOf(prefix, 0) === 0 && out.length < 200; i++) {
      if (vocab[i] !== prefix) out.push(vocab[i]);
    }
    return out;
  }
  // score adds to scores each entry's weight for term, times the term's
  // rarity and factor; it returns whether any entry has it.
  function score(scores, hits, term, factor, q) {
    var post = terms[term];
    if (!post) return false;
    var idf = Math.log(1 + docs.length / (post.length / 2));
    for (var i = 0; i < post.length; i += 2) {
      // BM25's length normalisation (k1 1.2, b 0.75) for a term found once.
      var d = post[i], norm = 2.2 / (1 + 1.2 * (0.25 + 0.75 * (lens[d] || avg) / avg));
      var s = post[i + 1] * idf * factor * norm;
      if (!scores[d]) { scores[d] = 0; hits[d] = Object.create(null); }
      // A query term counts once per entry, by its best match.
      var prev = hits[d][q] || 0;
      if (s > prev) { scores[d] += s - prev; hits[d][q] = s; }
    }
    return true;
  }
  // Text pasted from kubectl get events matches its event's message
  // format best; the steps that show or name that event (their text has
  // its reason) are what explains it, so they follow it, scored half the
  // event's. It returns the steps promoted.
  function promoteSteps(scores, hits, need, known, named) {
    var best = named, boost = {};
    if (known < 3) return boost;
    for (var d in scores) {
      if (named >= 0) break; // the event the line names is the one
      // Of two alike, the first by title, not by the entries' order.
      if (docs[d][0] === "event" && Object.keys(hits[d]).length >= need &&
          (best < 0 || scores[d] > scores[best] || scores[d] === scores[best] && docs[d][1] < docs[best][1])) best = d;
    }
    var post = best < 0 ? [] : terms[docs[best][1].toLowerCase()] || [];
    for (var i = 0; i < post.length; i += 2) {
      var s = post[i];
      if (docs[s][0] !== "step") continue;
      scores[s] = (scores[s] || 0) + scores[best] / 2;
      boost[s] = true;
    }
    return boost;
  }
  // namedEvent is the event entry whose title (its reason) is the first
  // of the query's terms to be one, -1 for none.
  function namedEvent(qterms) {
    for (var i = 0; i < qterms.length; i++) {
      var post = terms[qterms[i]] || [];
      for (var j = 0; j < post.length; j += 2) {
        var d = post[j];
        if (docs[d][0] === "event" && docs[d][1].toLowerCase() === qterms[i]) return d;
      }
    }
    return -1;
  }
  // marked fills el with text, each word of it that is one of the
  // query's terms (or, for Hangul, holds one of its bigrams) in a <mark>:
  // the snippet shows why the entry was found. Text nodes only, never
  // markup from the index.
  function marked(el, text, qterms) {
    var want = Object.create(null);
    qterms.forEach(function (t) { want[t] = true; });
    var re = /[\p{L}\p{N}]+/gu, last = 0, m;
    while ((m = re.exec(text))) {
      var w = m[0], ws = split(w), hit = ws.length > 0 && ws.some(function (t) { return want[t]; });
      if (!hit) continue;
      if (m.index > last) el.appendChild(document.createTextNode(text.slice(last, m.index)));
      var mk = document.createElement("mark");
      mk.textContent = w;
      el.appendChild(mk);
      last = m.index + w.length;
    }
    if (last < text.length) el.appendChild(document.createTextNode(text.slice(last)));
  }
  function order(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  function run(q) {
    list.textContent = "";
    var qs = split(q);
    if (!qs.length) { count.textContent = ""; return; }
    var scores = {}, hits = {}, uniq = [];
    qs.forEach(function (t) { if (uniq.indexOf(t) < 0) uniq.push(t); });
    var typing = !/\s$/.test(q), known = 0;
    uniq.forEach(function (t, i) {
      var found = score(scores, hits, t, 1, t);
      if (typing && i === uniq.length - 1) withPrefix(t).forEach(function (p) { found = score(scores, hits, p, 0.7, t) || found; });
      if (found) known++;
    });
    // An entry must have most of the query's terms that the index knows:
    // pasted event text carries names (default/nginx, node1) none has.
    var need = known <= 2 ? known : Math.ceil(known * 0.4);
    // A pasted event line (kubectl get events, any layout) names its
    // event by its reason, the first word of it that is an event's
    // title (the REASON column comes before the message in every
    // layout): that event is found whatever else the line holds (names,
    // ages, a node) and comes first.
    var named = known >= 3 ? namedEvent(uniq) : -1;
    var boost = promoteSteps(scores, hits, need, known, named);
    var lq = q.trim().toLowerCase(), found = [], top = 0;
    for (var d in scores) top = Math.max(top, scores[d]);
    for (var d in scores) {
      if (!boost[d] && +d !== named && Object.keys(hits[d]).length < need) continue;
      var e = docs[d], s = scores[d];
      if (+d === named) s = 2 * top + 1;
      else if (e[1].toLowerCase() === lq) s *= 2; else if (e[1].toLowerCase().indexOf(lq) >= 0) s *= 1.5;
      found.push({ e: e, s: s });
    }
    // Ties go by URL and detail, not by the entries' order, which
    // together does not keep.
    found.sort(function (a, b) {
      return b.s - a.s || (kindOrder[a.e[0]] - kindOrder[b.e[0]]) || order(a.e[1], b.e[1]) || order(a.e[2], b.e[2]) || order(a.e[3], b.e[3]);
    });
    count.textContent = found.length ? count.dataset.results.replace("{n}", found.length) : count.dataset.none;
    for (var k = 0; k < found.length && k < MAX; k++) {
      var h = found[k].e, li = document.createElement("li");
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = list.dataset["k" + h[0].charAt(0).toUpperCase() + h[0].slice(1)] || h[0];
      var a = document.createElement("a");
      a.href = h[2]; // relative to search.html's directory
      marked(a, h[1], qs);
      li.appendChild(kind); li.appendChild(a);
      if (h[3]) { var dd = document.createElement("span"); dd.className = "d"; marked(dd, h[3], qs); li.appendChild(dd); }
      list.appendChild(li);
    }
    window.kubewalkSearchShown = performance.now();
  }
  // Arrow keys: from the box to the first result, between results, and
  // from the first back to the box; Enter on a result follows its link.
  document.addEventListener("keydown", function (e) {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    var links = list.querySelectorAll("a"), i = Array.prototype.indexOf.call(links, document.activeElement);
    if (document.activeElement !== input && i < 0) return;
    e.preventDefault();
    if (e.key === "ArrowDown") { if (i + 1 < links.length) links[i + 1].focus(); }
    else if (i > 0) links[i - 1].focus();
    else input.focus();
  });
  load(own.site || [], function () {
    var index = together([window.KUBEWALK_SEARCH_SITE_SHARED, window.KUBEWALK_SEARCH_SHARED, window.KUBEWALK_SEARCH_SITE, own], own.release);
    docs = index.docs; terms = index.terms; lens = index.lens;
    avg = lens.reduce(function (a, b) { return a + b; }, 0) / (lens.length || 1) || 1;
    var q = new URLSearchParams(location.search).get("q") || "";
    input.value = q;
    run(q);
    var timer = 0;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        run(input.value);
        history.replaceState(null, "", "?q=" + encodeURIComponent(input.value));
      }, 60);
    });
  });
})();
