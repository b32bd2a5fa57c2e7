// kubewalk search: full text over window.KUBEWALK_SEARCH, the index
// search-index.js assigns (a script, not fetched JSON, so it works from
// file://), and in a bilingual release KUBEWALK_SEARCH_SHARED: entries as
// [kind, title, URL, detail] and an inverted index from terms to entries
// (site/search.go builds both). The query is split as the index was —
// lower-cased words, Hangul runs as bigrams — and each entry is scored by
// the query terms it has, rare terms counting more; the last word typed
// also matches the terms it begins. Results are links: arrow keys move
// between them and the box, Enter follows one, and the count is announced
// (role=status).
(function () {
  "use strict";
  var index = together(window.KUBEWALK_SEARCH_SHARED, window.KUBEWALK_SEARCH || { docs: [], terms: {} });
  var docs = index.docs, terms = index.terms, lens = index.lens || [], vocab = null;
  var avg = lens.reduce(function (a, b) { return a + b; }, 0) / (lens.length || 1) || 1;
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  var count = document.getElementById("count");
  var kindOrder = { walkthrough: 0, step: 1, event: 2, resource: 3, symbol: 4, file: 5 };
  var MAX = 100;

  // together is the index of a bilingual release: the entries every
  // language has alike (search-shared.js), then the language's own,
  // numbered on from them (site/search.go searchIndex).
  function together(shared, own) {
    if (!shared) return own;
    var terms = {}, k;
    for (k in shared.terms) terms[k] = shared.terms[k];
    for (k in own.terms) terms[k] = (terms[k] || []).concat(own.terms[k]);
    return { docs: shared.docs.concat(own.docs), lens: (shared.lens || []).concat(own.lens || []), terms: terms };
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
      if (!scores[d]) { scores[d] = 0; hits[d] = {}; }
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
  function promoteSteps(scores, hits, need, known) {
    var best = -1, boost = {};
    if (known < 3) return boost;
    for (var d in scores) {
      if (docs[d][0] === "event" && Object.keys(hits[d]).length >= need && (best < 0 || scores[d] > scores[best])) best = d;
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
    var boost = promoteSteps(scores, hits, need, known);
    var lq = q.trim().toLowerCase(), found = [];
    for (var d in scores) {
      if (!boost[d] && Object.keys(hits[d]).length < need) continue;
      var e = docs[d], s = scores[d];
      if (e[1].toLowerCase() === lq) s *= 2; else if (e[1].toLowerCase().indexOf(lq) >= 0) s *= 1.5;
      found.push({ e: e, s: s });
    }
    found.sort(function (a, b) {
      return b.s - a.s || (kindOrder[a.e[0]] - kindOrder[b.e[0]]) || (a.e[1] < b.e[1] ? -1 : a.e[1] > b.e[1] ? 1 : 0);
    });
    count.textContent = found.length ? found.length + " " + count.dataset.results : count.dataset.none;
    for (var k = 0; k < found.length && k < MAX; k++) {
      var h = found[k].e, li = document.createElement("li");
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = list.dataset["k" + h[0].charAt(0).toUpperCase() + h[0].slice(1)] || h[0];
      var a = document.createElement("a");
      a.href = h[2]; // relative to search.html's directory
      a.textContent = h[1];
      li.appendChild(kind); li.appendChild(a);
      if (h[3]) { var dd = document.createElement("span"); dd.className = "d"; dd.textContent = h[3]; li.appendChild(dd); }
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
})();
