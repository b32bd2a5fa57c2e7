// kubewalk: highlight the lines named by the URL fragment (#L12 or
// #L12-L30) on source pages, on load and whenever the fragment changes, and
// scroll the first of them into view. No dependencies, no network.
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
  // Shift-click on a line number extends the highlighted range.
  document.addEventListener("click", function (e) {
    var a = e.target.closest && e.target.closest("pre.src a.nr");
    if (!a || !e.shiftKey) return;
    var m = /^#L(\d+)/.exec(location.hash), n = /#L(\d+)$/.exec(a.getAttribute("href"));
    if (!m || !n) return;
    e.preventDefault();
    var x = parseInt(m[1], 10), y = parseInt(n[1], 10);
    location.hash = "#L" + Math.min(x, y) + "-L" + Math.max(x, y);
  });
  window.addEventListener("hashchange", apply);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", apply); else apply();
})();
