// kubewalk: the root of a bilingual site sends the reader to the
// language the browser prefers (navigator.languages, "ko-KR" matching
// "ko"), else to the first listed. Without script the links stay.
//
// A page a bilingual release's languages share whose title is
// translated (the changes page: site/changes.go) loads it too: each
// language's header carries the page's title in that language
// (data-title), and the one ?lang= names, which site.js shows, becomes
// the page's.
(function () {
  "use strict";
  var parts = document.querySelectorAll(".langblock[data-title]");
  if (parts.length) {
    var l = new URLSearchParams(location.search).get("lang");
    for (var k = 0; k < parts.length; k++) {
      if (parts[k].getAttribute("data-lang") === l) document.title = parts[k].getAttribute("data-title");
    }
    return;
  }
  var links = document.querySelectorAll("a[hreflang]");
  if (!links.length) return;
  var prefs = navigator.languages || [navigator.language || ""];
  for (var i = 0; i < prefs.length; i++) {
    var want = String(prefs[i]).toLowerCase().split("-")[0];
    for (var j = 0; j < links.length; j++) {
      if (links[j].getAttribute("hreflang") === want) {
        location.replace(links[j].href);
        return;
      }
    }
  }
  location.replace(links[0].href);
})();
