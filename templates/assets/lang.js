// kubewalk: the root of a bilingual site sends the reader to the
// language the browser prefers (navigator.languages, "ko-KR" matching
// "ko"), else to the first listed. Without script the links stay.
(function () {
  "use strict";
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
