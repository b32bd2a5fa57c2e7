// kubewalk search: a substring search over window.KUBEWALK_SEARCH, the
// index search-index.js assigns (a script, not fetched JSON, so it works
// from file://). Every word of the query must match the title or detail.
(function () {
  "use strict";
  var index = window.KUBEWALK_SEARCH || [];
  var input = document.getElementById("q");
  var list = document.getElementById("results");
  var count = document.getElementById("count");
  var kindOrder = { walkthrough: 0, step: 1, event: 2, resource: 3, symbol: 4, file: 5 };
  for (var i = 0; i < index.length; i++) {
    index[i].lt = index[i].t.toLowerCase();
    index[i].ld = (index[i].d || "").toLowerCase();
  }
  function run(q) {
    var words = q.toLowerCase().split(/\s+/).filter(Boolean);
    list.textContent = "";
    if (!words.length) { count.textContent = ""; return; }
    var hits = [];
    for (var i = 0; i < index.length; i++) {
      var e = index[i], score = 0, ok = true;
      for (var j = 0; j < words.length; j++) {
        var w = words[j], p = e.lt.indexOf(w);
        if (p === 0) score += 3; else if (p > 0) score += 2; else if (e.ld.indexOf(w) >= 0) score += 1; else { ok = false; break; }
      }
      if (ok) hits.push({ e: e, s: score });
    }
    hits.sort(function (a, b) {
      return b.s - a.s || (kindOrder[a.e.k] - kindOrder[b.e.k]) || (a.e.t < b.e.t ? -1 : a.e.t > b.e.t ? 1 : 0);
    });
    count.textContent = hits.length ? hits.length + " " + count.dataset.results : count.dataset.none;
    for (var k = 0; k < hits.length && k < 200; k++) {
      var h = hits[k].e, li = document.createElement("li");
      var kind = document.createElement("span");
      kind.className = "kind";
      kind.textContent = list.dataset["k" + h.k.charAt(0).toUpperCase() + h.k.slice(1)] || h.k;
      var a = document.createElement("a");
      a.href = h.u; // relative to the site root, where search.html is
      a.textContent = h.t;
      li.appendChild(kind); li.appendChild(a);
      if (h.d) { var d = document.createElement("span"); d.className = "d"; d.textContent = h.d; li.appendChild(d); }
      list.appendChild(li);
    }
  }
  var q = new URLSearchParams(location.search).get("q") || "";
  input.value = q;
  run(q);
  input.addEventListener("input", function () {
    run(input.value);
    history.replaceState(null, "", "?q=" + encodeURIComponent(input.value));
  });
})();
