// kubewalk: the explain page. Reads `kubectl get events` output (any
// column layout, with or without --watch), `kubectl get events -o json`,
// or API server audit lines, and explains each record as
// `kubewalk explain` does at the same tag: the component, the code that
// emitted the event or made the write, and the walkthrough steps.
//
// explain-index.js (window.kubewalkExplain) is internal/derive/explain's Index:
// the call sites with their code, step scores and reach sets, and the
// component tables, all computed in Go; its steps, titled in the page's
// language, are explain-steps.js's (window.kubewalkExplainSteps), so that
// the languages of a bilingual site share the rest (site/explain.go). In
// a site of several releases, what the releases' indexes and steps share
// is written once, and releases.js's explain() puts this release's back
// together (site/internal/explainshare). This script ports the rest of
// internal/derive/explain function for function (the Go name is in each
// comment): Parse (parse.go, table.go, json.go, audit.go), the ranking
// in Explain (match.go) and the component rules (component.go).
// site/explain_parity_test.go runs internal/derive/explain/testdata/corpus
// through both and compares every line.
//
// Known differences, where the browser cannot hold what Go holds (pinned
// by site.TestBrowserExplainKnownDifferences):
//   - a textarea turns CR and CRLF into LF, so text with bare CR line
//     ends is several lines here and one line to the command line;
//   - a %-escape in an audit requestURI that decodes to bytes that are
//     not UTF-8 (%FF) shows U+FFFD here, as `kubewalk explain -o json`
//     does; Go holds (and its text output prints) the raw bytes;
//   - lower-casing an object kind and the %q quoting of a reason in a
//     note follow this browser's Unicode tables, Go's follow Go's; they
//     differ only for characters one version assigns and the other not;
//   - an object giving one key three times, once with a lone surrogate
//     escape ("\ud800" and "\ufffd" read alike), may keep another of
//     the values than Go does.
//
// Everything is written with textContent, and hrefs come from the index
// only, so no markup or URL from the input is ever parsed. The script is
// ASCII (non-ASCII text in strings is escaped), so it reads the same
// whatever encoding a page or a file:// load gives it.
(function () {
  "use strict";
  var X = window.kubewalkExplain, steps = window.kubewalkExplainSteps;
  var input = document.getElementById("explain-input"), out = document.getElementById("explain-results");
  // The page's words (site/i18n.go's explain.* strings, in the page's
  // language) come in the results' data-strings; T fills a format's {0}, {1}
  // with args, or gives fallback for a key the table lacks.
  var pageWords = Object.create(null);
  try { pageWords = JSON.parse(out.getAttribute("data-strings") || "{}"); } catch (err) { pageWords = Object.create(null); }
  function T(key, args, fallback) {
    var f = Object.prototype.hasOwnProperty.call(pageWords, key) ? pageWords[key] : fallback;
    return String(f).replace(/\{(\d+)\}/g, function (m, i) { return args[+i] != null ? String(args[+i]) : m; });
  }
  if (X && typeof X.copy === "number") { // this release's part of a site of several (releases.js)
    X = window.kubewalkReleases ? window.kubewalkReleases.explain(window.kubewalkExplainShared, X, window.kubewalkExplainStepsShared) : null;
    if (X) window.kubewalkExplain = X, steps = window.kubewalkExplainSteps = X.steps;
  }
  if (!X || !steps || !input || !out) return;
  X.steps = steps;

  // ---- Go's string functions ----
  var SPACES = "\t\n\v\f\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"; // unicode.IsSpace
  var S = "[\\t\\n\\f\\r ]", NS = "[^\\t\\n\\f\\r ]"; // \s and \S in Go's regexp
  function isSpace(c) { return c.length === 1 && SPACES.indexOf(c) >= 0; }
  function trim(s) { return trimSet(s, SPACES); } // strings.TrimSpace
  // trimSet is strings.Trim(s, set) for a set of BMP characters, in one
  // pass (a regular expression like /\s+$/ takes quadratic time on a long
  // run of spaces inside a line).
  function trimSet(s, set) {
    var i = 0, j = s.length;
    while (i < j && set.indexOf(s[i]) >= 0) i++;
    while (j > i && set.indexOf(s[j - 1]) >= 0) j--;
    return s.slice(i, j);
  }
  function own(o, k) { return o != null && Object.prototype.hasOwnProperty.call(o, k); }
  function starts(s, p) { return s.slice(0, p.length) === p; }
  function ends(s, p) { return p.length <= s.length && s.slice(s.length - p.length) === p; }
  function cut(s, sep) { var i = s.indexOf(sep); return i < 0 ? [s, "", false] : [s.slice(0, i), s.slice(i + sep.length), true]; }
  function first() { for (var i = 0; i < arguments.length; i++) if (arguments[i]) return arguments[i]; return ""; }
  function set(words) { var m = Object.create(null); words.forEach(function (w) { m[w] = true; }); return m; }
  function inDirs(p, dirs) { return dirs.some(function (d) { return starts(p, d + "/"); }); }
  function pkgDir(p) { var i = p.lastIndexOf("/"); return i >= 0 ? p.slice(0, i) : ""; }
  function shortSymbol(s) { return s.slice(s.lastIndexOf("/") + 1); }
  // fact.ReadableSymbol: a func literal ("f$1") is named by the
  // declaration it is written in.
  function readableSymbol(s) {
    s = shortSymbol(s);
    var i = s.indexOf("$");
    return i < 0 ? s : "func literal in " + s.slice(0, i);
  }
  // strings.ToLower maps each rune on its own (U+0130 to "i", a capital
  // sigma to a small one wherever it stands).
  function lower(s) { return Array.from(s, function (c) { return Array.from(c.toLowerCase())[0]; }).join(""); }
  // Go's JSON decoder reads a lone surrogate escape ("\ud800") as U+FFFD.
  function wellFormed(s) { return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"); }

  // clip: at most 4096 bytes of UTF-8, cut at a character.
  function clip(s) {
    if (s.length * 3 <= 4096) return s;
    for (var i = 0, b = 0; i < s.length; i++) {
      var c = s.charCodeAt(i), pair = c >= 0xd800 && c < 0xdc00 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
      var w = c < 0x80 ? 1 : c < 0x800 ? 2 : pair ? 4 : 3;
      if (b + w > 4096) return s.slice(0, i) + "\u2026";
      b += w;
      if (pair) i++;
    }
    return s;
  }
  // strconv.Quote, for notes.
  function quote(s) {
    var short = { "\x07": "\\a", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\v": "\\v", "\\": "\\\\", "\"": "\\\"" };
    return "\"" + s.replace(/[\\"]|(?! )[\p{C}\p{Z}]/gu, function (c) {
      var n = c.codePointAt(0), h = n.toString(16);
      if (short[c]) return short[c];
      if (n < 0x20 || n === 0x7f) return "\\x" + ("0" + h).slice(-2);
      return n < 0x10000 ? "\\u" + ("000" + h).slice(-4) : "\\U" + ("0000000" + h).slice(-8);
    }) + "\"";
  }
  // json.Marshal of a decoded value (unrecognised list items are shown
  // so), without recursion: Go decodes values 10,000 levels deep.
  function marshal(v) {
    var out = "", todo = [v], i;
    function Lit(s) { this.s = s; }
    while (todo.length) {
      var x = todo.pop();
      if (x instanceof Lit) out += x.s;
      else if (typeof x === "string") out += JSON.stringify(x).replace(/[<>&\u2028\u2029]/g, function (c) { return "\\u" + ("000" + c.charCodeAt(0).toString(16)).slice(-4); });
      else if (typeof x === "number") out += Object.is(x, -0) ? "-0" : String(x);
      else if (x === null || typeof x !== "object") out += String(x);
      else if (Array.isArray(x)) {
        out += "[";
        todo.push(new Lit("]"));
        for (i = x.length - 1; i >= 0; i--) todo.push(x[i], new Lit(i ? "," : ""));
      } else {
        var keys = Object.keys(x).sort(byBytes);
        out += "{";
        todo.push(new Lit("}"));
        for (i = keys.length - 1; i >= 0; i--) todo.push(x[keys[i]], new Lit((i ? "," : "") + JSON.stringify(keys[i]) + ":"));
      }
    }
    return out;
  }
  function byBytes(a, b) { // UTF-8 byte order is code point order
    var x = Array.from(a, cp), y = Array.from(b, cp);
    for (var i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i] - y[i];
    return x.length - y.length;
  }
  function cp(c) { return c.codePointAt(0); }
  // strconv.FormatFloat(v, 'f', -1, 64), for numbers where text belongs.
  function formatFloat(v) {
    var s = String(v), m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
    if (Object.is(v, -0)) return "-0";
    if (!m) return s;
    var digits = m[2] + (m[3] || ""), e = +m[4];
    return e >= 0 ? m[1] + digits + "0".repeat(e - digits.length + 1) : m[1] + "0." + "0".repeat(-e - 1) + digits;
  }

  // ---- Parse (parse.go) ----
  function unknown(n, text) { return { line: n, text: clip(text), kind: "unknown" }; }
  function parse(text) {
    var t = text.replace(/^[ \t\r\n\ufeff]+/, "");
    if (t[0] === "{" || t[0] === "[") {
      var recs = parseJSONStream(text);
      if (recs) return recs;
    }
    return parseLines(text);
  }
  function parseLines(text) {
    var recs = [], table = tableParser(), kv = new KVBlock();
    var lines = text.split("\n"); // forLines
    if (lines[lines.length - 1] === "") lines.pop();
    lines.forEach(function (line, i) {
      line = line.replace(/\r$/, "");
      var n = i + 1, t = trim(line);
      if (kv.add(n, t)) return;
      kv.flush(recs);
      if (t[0] === "{") {
        recs.push.apply(recs, decodeLine(n, t));
        return;
      }
      var r = table(n, line);
      if (r) recs.push(r);
    });
    kv.flush(recs);
    return recs;
  }
  // parseJSON is JSON.parse made to read as Go's encoding/json does:
  // numbers are float64 (one out of range is an error, not Infinity),
  // lone surrogates are U+FFFD, and (valueEnd) at most 10,000 levels
  // nest. A walk rather than a reviver, which recurses.
  function parseJSON(s) {
    var root = [JSON.parse(s)], todo = [root];
    while (todo.length) {
      var o = todo.pop(), keys = Object.keys(o);
      if (!Array.isArray(o) && keys.some(function (k) { return wellFormed(k) !== k; })) {
        var vals = keys.map(function (k) { var v = o[k]; delete o[k]; return v; });
        keys.forEach(function (k, i) { o[wellFormed(k)] = vals[i]; }); // the last of equal keys wins, as in Go
        keys = Object.keys(o);
      }
      keys.forEach(function (k) {
        var v = o[k];
        if (typeof v === "number" && !isFinite(v)) throw new Error("number out of range");
        if (typeof v === "string") o[k] = wellFormed(v);
        else if (v !== null && typeof v === "object") todo.push(v);
      });
    }
    return root[0];
  }
  function decodeLine(n, text) {
    var v;
    try {
      if (valueEnd(text, 0) < 0) throw new Error("nested too deep");
      v = parseJSON(text);
    } catch (e) { return [unknown(n, text)]; }
    var recs = fromJSON(n, text, v);
    return recs.length ? recs : [unknown(n, text)];
  }
  // parseJSONStream: a sequence of JSON values (json.Decoder), each
  // numbered by the line it starts on; null when any of it is not JSON.
  function parseJSONStream(s) {
    var recs = [], i = 0, n = 1, counted = 0;
    for (;;) {
      while (i < s.length && " \t\r\n".indexOf(s[i]) >= 0) i++;
      if (i >= s.length) return recs;
      var j = valueEnd(s, i), v;
      if (j < 0) return null;
      try { v = parseJSON(s.slice(i, j)); } catch (e) { return null; }
      for (; counted < i; counted++) if (s[counted] === "\n") n++;
      var nl = s.indexOf("\n", i), line = trim(nl < 0 ? s.slice(i) : s.slice(i, nl));
      var got = fromJSON(n, line, v);
      recs.push.apply(recs, got.length ? got : [unknown(n, line)]);
      i = j;
    }
  }
  var scalar = /true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  // valueEnd is the end of the JSON value starting at i, or -1: where the
  // decoder would stop reading it (JSON.parse then says whether it is
  // one), or -1 where it would stop with an error.
  function valueEnd(s, i) {
    var c = s[i], depth = 0, str = c === "\"", j;
    if (c === "{" || c === "[" || str) {
      for (j = str ? i + 1 : i; j < s.length; j++) {
        c = s[j];
        if (str) {
          if (c === "\\") j++;
          else if (c === "\"") { str = false; if (depth === 0) return j + 1; }
        } else if (c === "\"") str = true;
        else if ((c === "{" || c === "[") && ++depth > 10000) return -1;
        else if ((c === "}" || c === "]") && --depth === 0) return j + 1;
      }
      return -1;
    }
    scalar.lastIndex = i;
    var m = scalar.exec(s);
    return m ? i + m[0].length : -1;
  }

  // ---- table.go ----
  var knownColumns = set(["NAMESPACE", "LAST SEEN", "FIRST SEEN", "COUNT", "NAME", "KIND", "SUBOBJECT", "TYPE", "REASON", "OBJECT", "SOURCE", "MESSAGE"]);
  var ageRe = /^(?:(?:\d+[smhdy])+|<unknown>|<invalid>|\d+)$/;
  var wideSep = new RegExp(S + "{2,}", "g");
  var subobject = /^(?:spec|status|metadata)\.|\{/;
  var componentRe = new RegExp("^[a-z0-9][a-z0-9._-]*(?:, " + NS + "+)?$");

  function isType(s) { return s === "Normal" || s === "Warning"; }
  function newEvent() { return { type: "", reason: "", kind: "", name: "", message: "", component: "", action: "" }; }
  // tableParser.line: a record, or null for a header or a blank line.
  function tableParser() {
    var header = null;
    return function (n, line) {
      var t = trim(line);
      if (t === "") return null;
      var h = parseHeader(line);
      if (h) { header = h; return null; }
      var e = header && positional(header, Array.from(line)) || shapeRow(line);
      return e ? { line: n, text: clip(t), kind: "event", format: "table", event: e } : unknown(n, t);
    };
  }
  // parseHeader: the columns (rune offsets) of an events table header.
  function parseHeader(line) {
    var rs = Array.from(line), cols = [], hasReason = false, i = 0;
    while (i < rs.length) {
      while (i < rs.length && isSpace(rs[i])) i++;
      if (i >= rs.length) break;
      var start = i;
      while (i < rs.length && !(isSpace(rs[i]) && (i + 1 >= rs.length || isSpace(rs[i + 1])))) i++;
      var name = trim(rs.slice(start, i).join(""));
      if (!own(knownColumns, name)) return null;
      hasReason = hasReason || name === "REASON";
      cols.push({ name: name, start: start });
    }
    return hasReason ? cols : null;
  }
  function positional(cols, rs) {
    var vals = Object.create(null);
    for (var i = 0; i < cols.length; i++) {
      var c = cols[i];
      if (c.start > rs.length) { vals[c.name] = ""; continue; }
      if (c.start > 0 && !isSpace(rs[c.start - 1])) return null; // a cell runs across the boundary
      var end = rs.length;
      if (i + 1 < cols.length && cols[i + 1].start < end) end = cols[i + 1].start;
      vals[c.name] = trim(rs.slice(c.start, end).join(""));
    }
    var e = newEvent();
    e.type = vals.TYPE || ""; e.reason = vals.REASON || ""; e.message = vals.MESSAGE || "";
    if (e.reason === "" || /[ \t]/.test(e.reason)) return null;
    if ("TYPE" in vals && !isType(e.type)) return null;
    if ("OBJECT" in vals) {
      if (/[ \t]/.test(vals.OBJECT)) return null;
      splitObject(e, vals.OBJECT);
    } else {
      e.kind = lower(vals.KIND || "");
      e.name = vals.NAME || "";
    }
    e.component = splitSource(vals.SOURCE || "");
    return e;
  }
  function splitObject(e, obj) {
    var ko = cut(obj, "/");
    e.kind = ko[2] ? lower(ko[0]) : "";
    e.name = ko[2] ? ko[1] : obj;
  }
  function splitSource(s) { return trim(cut(s, ",")[0]); } // the component; the host is not used
  function tokens(line) {
    var out = [], re = /[^ \t]+/g, m;
    while ((m = re.exec(line))) out.push({ s: m[0], start: m.index, end: m.index + m[0].length });
    return out;
  }
  // regexp.Split(s, n)
  function split(s, re, n) {
    if (s === "") return [""];
    var parts = [], beg = 0, m;
    re.lastIndex = 0;
    while (parts.length < n - 1 && (m = re.exec(s))) {
      parts.push(s.slice(beg, m.index));
      beg = m.index + m[0].length;
    }
    parts.push(s.slice(beg));
    return parts;
  }
  // wideTail finds what Go's wideTail regular expression,
  // \s{2,}(\S+)\s{2,}(\d+)\s{2,}(\S+\.[0-9a-f]+)\s*$, matches: -o wide's
  // FIRST SEEN, COUNT and NAME. Its groups can only be the last three
  // tokens, so they are read as such: the expression itself backtracks
  // for ever here on a long run of spaces, where Go's runs in linear time.
  function wideTail(rest) {
    var re = new RegExp(NS + "+", "g"), t = [], m;
    while ((m = re.exec(rest))) t.push({ s: m[0], start: m.index, end: m.index + m[0].length });
    var n = t.length, gap = function (i) { return t[i].start - (i > 0 ? t[i - 1].end : 0); };
    if (n < 3 || gap(n - 3) < 2 || gap(n - 2) < 2 || gap(n - 1) < 2 || !/^\d+$/.test(t[n - 2].s)) return null;
    var name = t[n - 1].s, dot = name.lastIndexOf(".");
    if (dot < 1 || !/^[0-9a-f]+$/.test(name.slice(dot + 1))) return null;
    return { index: n > 3 ? t[n - 4].end : 0, firstSeen: t[n - 3].s };
  }
  // shapeRow: a row without a usable header, read from its shape.
  function shapeRow(line) {
    var toks = tokens(line), ti = -1;
    for (var i = 0; i < toks.length && i < 4; i++) if (isType(toks[i].s)) { ti = i; break; }
    if (ti < 0 || ti + 1 >= toks.length) return null;
    var pre = toks.slice(0, ti);
    if (pre.length === 0 || !ageRe.test(pre[pre.length - 1].s) || pre.length > 2) return null;
    var e = newEvent();
    e.type = toks[ti].s; e.reason = toks[ti + 1].s;
    if (ti + 2 >= toks.length) return e;
    var obj = toks[ti + 2];
    splitObject(e, obj.s);
    var rest = line.slice(obj.end), m = wideTail(rest);
    if (m && ageRe.test(m.firstSeen)) {
      var parts = split(trim(rest.slice(0, m.index)), wideSep, 3);
      if (parts.length > 1 && subobject.test(parts[0])) parts = parts.slice(1);
      if (parts.length > 1 && componentRe.test(parts[0])) {
        e.component = splitSource(parts[0]);
        parts = parts.slice(1);
      }
      rest = parts.join("   ");
    }
    e.message = trim(rest);
    return e;
  }

  // ---- json.go ----
  function isMap(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }
  function fromJSON(n, text, v) {
    var items = Array.isArray(v) ? v : isMap(v) && own(v, "items") && Array.isArray(v.items) ? v.items : null;
    if (items) return items.map(function (it) { return itemRecord(n, it); });
    var r = isMap(v) && objectRecord(n, v);
    if (!r) return [];
    r.text = clip(text);
    return [r];
  }
  function itemRecord(n, it) {
    var r = isMap(it) && objectRecord(n, it);
    if (!r) return unknown(n, marshal(it));
    r.text = summary(r);
    return r;
  }
  function summary(r) {
    var parts;
    if (r.event) {
      var e = r.event;
      parts = [e.type, e.reason, object(e), e.message];
    } else if (r.audit) {
      var a = r.audit, obj = a.namespace && a.name ? a.namespace + "/" + a.name : a.name;
      parts = [a.verb, a.resource + (a.subresource ? "/" + a.subresource : ""), obj, a.username, a.userAgent];
    } else return r.text;
    return trim(parts.filter(Boolean).join("  "));
  }
  function object(e) { return e.kind && e.name ? e.kind + "/" + e.name : e.name || e.kind; } // EventRecord.Object
  function objectRecord(n, m) {
    var hasVerb = lookup(m, "verb") !== null;
    if (starts(str(m, "apiVersion"), "audit.k8s.io/") ||
        hasVerb && (has(m, "requestURI") || has(m, "objectRef") || has(m, "objectRef.resource") || has(m, "auditID"))) {
      var a = {
        verb: str(m, "verb"), requestURI: str(m, "requestURI"), group: str(m, "objectRef.apiGroup"),
        resource: str(m, "objectRef.resource"), subresource: str(m, "objectRef.subresource"),
        namespace: str(m, "objectRef.namespace"), name: str(m, "objectRef.name"),
        username: str(m, "user.username"), userAgent: str(m, "userAgent")
      };
      fillFromURI(a);
      if (a.name === "") a.name = str(m, "responseObject.metadata.name");
      return { line: n, kind: "audit", format: "audit-json", audit: a };
    }
    if (!has(m, "reason") || !(str(m, "kind") === "Event" || has(m, "involvedObject") || has(m, "regarding"))) return null;
    var e = newEvent();
    e.type = str(m, "type");
    e.reason = str(m, "reason");
    e.message = first(str(m, "message"), str(m, "note"));
    e.action = str(m, "action");
    e.kind = lower(first(str(m, "involvedObject.kind"), str(m, "regarding.kind")));
    e.name = first(str(m, "involvedObject.name"), str(m, "regarding.name"));
    e.component = first(str(m, "source.component"), str(m, "reportingComponent"), str(m, "reportingController"), str(m, "deprecatedSource.component"));
    return { line: n, kind: "event", format: "json", event: e };
  }
  // lookup: a dotted path through nested objects, or the dotted key itself.
  function lookup(m, path) {
    if (own(m, path)) return { v: m[path] };
    var parts = path.split("."), cur = m;
    for (var i = 0; i < parts.length; i++) {
      if (!own(cur, parts[i])) return null;
      if (i === parts.length - 1) return { v: cur[parts[i]] };
      cur = cur[parts[i]];
      if (!isMap(cur)) return null;
    }
    return null;
  }
  function has(m, path) { return lookup(m, path) !== null; }
  function str(m, path) {
    var r = lookup(m, path);
    return !r ? "" : typeof r.v === "string" ? r.v : typeof r.v === "number" ? formatFloat(r.v) : "";
  }

  // ---- audit.go ----
  function fillFromURI(a) {
    if (a.requestURI === "") return;
    var p = a.requestURI, i = p.search(/[?#]/);
    if (i >= 0) p = p.slice(0, i);
    p = pathUnescape(p);
    var segs = trimSet(p, "/").split("/"), group = "", ns = "";
    if (segs.length >= 2 && segs[0] === "api") segs = segs.slice(2);
    else if (segs.length >= 3 && segs[0] === "apis") { group = segs[1]; segs = segs.slice(3); }
    else return;
    if (segs.length >= 2 && segs[0] === "namespaces") {
      ns = segs[1];
      segs = segs.slice(2);
      if (segs.length === 0) { segs = ["namespaces", ns]; ns = ""; } // the namespace object itself
    }
    var res = segs[0] || "";
    if (a.resource === "") a.resource = res;
    if (a.resource !== res) return; // objectRef and URI disagree: trust objectRef
    if (a.subresource === "") a.subresource = segs[2] || "";
    if (a.group === "") a.group = group;
    if (a.namespace === "") a.namespace = ns;
    if (a.name === "") a.name = segs[1] || "";
  }
  // url.PathUnescape, or p itself when a % is not followed by two hex
  // digits. Bytes that are not UTF-8 become U+FFFD (see the note at the top).
  function pathUnescape(p) {
    if (/%(?![0-9a-fA-F]{2})/.test(p)) return p;
    var b = new TextEncoder().encode(p), out = [];
    for (var i = 0; i < b.length; i++) {
      if (b[i] === 0x25) { out.push(parseInt(String.fromCharCode(b[i + 1], b[i + 2]), 16)); i += 2; } else out.push(b[i]);
    }
    return new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array(out));
  }
  var auditKeys = set(["requestURI", "verb", "user.username", "userAgent", "objectRef.resource", "objectRef.subresource",
    "objectRef.name", "objectRef.namespace", "objectRef.apiGroup", "objectRef.apiVersion", "requestObject.kind",
    "responseObject.metadata.name", "responseStatus.code", "stage", "auditID", "@timestamp", "@message", "@logStream",
    "sourceIPs.0", "level", "kind", "apiVersion"]);
  // kvBlock: "key: value" audit fields, gathered into records.
  function KVBlock() { this.reset(); this.queued = []; }
  KVBlock.prototype.reset = function () { this.start = 0; this.lines = []; this.fields = null; };
  KVBlock.prototype.add = function (n, t) {
    var kv = cut(t, ":");
    if (!kv[2] || /[ \t{"]/.test(kv[0])) return false;
    var k = trim(kv[0]);
    if (!own(auditKeys, k)) return false;
    if (this.fields && k in this.fields) { // a repeated key starts a new record
      this.queued.push(this.build());
      this.reset();
    }
    if (!this.fields) { this.fields = Object.create(null); this.start = n; }
    this.fields[k] = trim(kv[1]);
    this.lines.push(t);
    return true;
  };
  KVBlock.prototype.flush = function (recs) {
    recs.push.apply(recs, this.queued);
    if (this.fields) recs.push(this.build());
    this.queued = [];
    this.reset();
  };
  KVBlock.prototype.build = function () {
    var f = this.fields, text = clip(this.lines.join("; "));
    function g(k) { return f[k] || ""; }
    if (g("verb") === "" && g("requestURI") === "") return { line: this.start, text: text, kind: "unknown" };
    var a = {
      verb: g("verb"), requestURI: g("requestURI"), group: g("objectRef.apiGroup"), resource: g("objectRef.resource"),
      subresource: g("objectRef.subresource"), namespace: g("objectRef.namespace"),
      name: first(g("objectRef.name"), g("responseObject.metadata.name")), username: g("user.username"), userAgent: g("userAgent")
    };
    fillFromURI(a);
    return { line: this.start, text: text, kind: "audit", format: "audit-fields", audit: a };
  };

  // ---- component.go (the tables are the index's) ----
  function dirsOf(name) {
    if (own(X.components, name)) return X.components[name];
    if (own(X.controllers, name)) return X.controllers[name];
    var x = ends(name, "-controller") ? name.slice(0, -"-controller".length) : "";
    return x ? ["pkg/controller/" + x.replace(/-/g, "")] : null;
  }
  function component(name, dirs, from) { return { name: name, dirs: dirs || [], from: from }; }
  function eventComponent(e) {
    if (e.component) return component(e.component, dirsOf(e.component), "source");
    if (own(X.kinds, e.kind)) return component(X.kinds[e.kind], dirsOf(X.kinds[e.kind]), "object kind");
    return null;
  }
  function auditComponent(a) {
    var u = a.username, sa = "system:serviceaccount:kube-system:", fixed = {
      "system:kube-scheduler": "kube-scheduler", "system:kube-proxy": "kube-proxy", "system:apiserver": "kube-apiserver"
    };
    if (starts(u, sa)) {
      var d = dirsOf(u.slice(sa.length));
      if (d) return component(u.slice(sa.length), d, "username");
    } else if (own(fixed, u)) {
      return component(fixed[u], dirsOf(fixed[u]), "username");
    } else if (u === "system:kube-controller-manager") {
      // Without per-controller credentials the user agent may still name the controller.
      var c = agentComponent(a.userAgent);
      return c && c.name !== "kube-controller-manager" ? c : component("kube-controller-manager", dirsOf("kube-controller-manager"), "username");
    } else if (starts(u, "system:node:")) {
      return component("kubelet", dirsOf("kubelet"), "username");
    }
    return agentComponent(a.userAgent);
  }
  function agentComponent(ua) {
    if (ua === "") return null;
    var bin = trim(cut(ua, "/")[0]), i = ua.indexOf(" kubernetes/");
    if (i >= 0) {
      var suffix = cut(ua.slice(i + " kubernetes/".length), "/");
      if (suffix[2]) {
        var s = starts(suffix[1], "system:serviceaccount:kube-system:") ? suffix[1].slice("system:serviceaccount:kube-system:".length) : suffix[1];
        var d = dirsOf(s);
        if (d && s !== "scheduler") return component(s, d, "user agent");
      }
    }
    if (dirsOf(bin)) return component(bin, dirsOf(bin), "user agent");
    return bin ? component(bin, null, "user agent") : null;
  }
  // codeComponent: the component of a call site when the input names none.
  function codeComponent(path) {
    var name = "", dir = "";
    [X.components, X.controllers].forEach(function (m) {
      Object.keys(m).forEach(function (n) {
        m[n].forEach(function (d) {
          if (inDirs(path, [d]) && (d.length > dir.length || d.length === dir.length && n < name)) { name = n; dir = d; }
        });
      });
    });
    if (name === "" || name === "kube-controller-manager") {
      var d = pkgDir(path);
      if (starts(d, "pkg/controller/") && d.indexOf("/", "pkg/controller/".length) < 0) return component(d.slice("pkg/controller/".length) + "-controller", [d], "code");
      if (name === "") return component(d, [d], "code");
    }
    return component(name, [dir], "code");
  }

  // ---- match.go ----
  function best(cands) {
    var top = -Infinity, tie = -Infinity;
    cands.forEach(function (c) {
      var t = c.tie || 0;
      if (c.score > top || (c.score === top && t > tie)) { top = c.score; tie = t; }
    });
    return cands.filter(function (c) { return c.score === top && (c.tie || 0) === tie; }).map(function (c) { return c.v; });
  }
  function reachedFrom(site, dirs) {
    return (site.r || []).some(function (i) { return inDirs(X.dirs[i] + "/", dirs); });
  }
  // formatMatches: could msg have been printed by the Printf format? The
  // regular expression Go builds (literal runs joined by .*?) is matched
  // here as the glob it is, which cannot backtrack for ever.
  var verbRe = /%[-+# 0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[a-zA-Z%]/g, formats = Object.create(null);
  function formatMatches(format, msg) {
    var segs = formats[format];
    if (!segs) {
      segs = [""];
      var last = 0, m;
      verbRe.lastIndex = 0;
      while ((m = verbRe.exec(format))) {
        segs[segs.length - 1] += format.slice(last, m.index);
        if (m[0].slice(-1) === "%") segs[segs.length - 1] += "%"; else segs.push("");
        last = m.index + m[0].length;
      }
      segs[segs.length - 1] += format.slice(last);
      formats[format] = segs;
    }
    if (starts(msg, "(combined from similar events): ")) msg = msg.slice("(combined from similar events): ".length);
    var head = segs[0], tail = segs[segs.length - 1];
    if (segs.length === 1) return msg === head;
    if (msg.length < head.length + tail.length || !starts(msg, head) || !ends(msg, tail)) return false;
    for (var k = 1, i = head.length, end = msg.length - tail.length; k < segs.length - 1; k++) {
      var j = msg.indexOf(segs[k], i);
      if (j < 0 || j + segs[k].length > end) return false;
      i = j + segs[k].length;
    }
    return typedVerbsMatch(format, msg);
  }
  // typedVerbsMatch: with %d or %q in the format, the glob is not enough;
  // match.go's regular expression, built by its verbPattern, decides.
  var typedRes = Object.create(null);
  function verbPattern(v) {
    var c = v.slice(-1);
    if (c === "%") return "%";
    if (c === "d") return " *[-+]?[0-9]+";
    if (c === "q") return "(?:\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|\\[.*?\\])";
    return ".*?";
  }
  function typedVerbsMatch(format, msg) {
    var re = typedRes[format];
    if (re === undefined) {
      re = null;
      var src = "^", last = 0, m, typed = false;
      verbRe.lastIndex = 0;
      while ((m = verbRe.exec(format))) {
        src += format.slice(last, m.index).replace(/[\\.+*?()|[\]{}^$]/g, "\\$&") + verbPattern(m[0]);
        typed = typed || /[dq]$/.test(m[0]);
        last = m.index + m[0].length;
      }
      if (typed) {
        try { re = new RegExp(src + format.slice(last).replace(/[\\.+*?()|[\]{}^$]/g, "\\$&") + "$", "s"); } catch (err) { re = null; }
      }
      typedRes[format] = re;
    }
    return re === null || re.test(msg);
  }
  // messageScore: match.go's. A format of verbs alone prints anything.
  function messageScore(f, msg) {
    var formats = f.m ? [f.m] : (f.mv || []);
    if (!formats.length || !msg) return 0;
    var score = -2;
    for (var i = 0; i < formats.length; i++) {
      if (formatMatches(formats[i], msg)) {
        verbRe.lastIndex = 0;
        if (formats[i].replace(verbRe, "") !== "") return 2;
        score = 1;
      }
    }
    return score;
  }
  // opening: match.go's. Does a format begin with the words msg begins
  // with? It breaks ties when no format prints msg whole.
  function opening(f, msg, m) {
    if (m !== -2) return 1;
    var formats = f.m ? [f.m] : (f.mv || []);
    if (starts(msg, "(combined from similar events): ")) msg = msg.slice("(combined from similar events): ".length);
    for (var i = 0; i < formats.length; i++) {
      verbRe.lastIndex = 0;
      var v = verbRe.exec(formats[i]), head = v ? formats[i].slice(0, v.index) : formats[i];
      if (head !== "" && starts(msg, head)) return 1;
    }
    return 0;
  }
  function code(role, site, symbol, detail) {
    return {
      role: role, symbol: symbol != null ? symbol : site.c, path: site.f, line: site.l, permalink: site.u || "",
      page: site.s || "", detail: detail != null ? detail : site.d || "", via: site.v || ""
    };
  }
  function explain(r) {
    var x = { summary: summary(r), component: null, code: [], handlers: [], steps: [], notes: [] };
    if (r.kind === "event" && r.event) explainEvent(x, r.event);
    else if (r.kind === "audit" && r.audit) explainAudit(x, r.audit);
    else x.notes.push(["notline"]);
    x.explained = x.code.length > 0 || x.steps.length > 0;
    return x;
  }
  function explainEvent(x, e) {
    if (e.reason === "") { x.notes.push(["noreason"]); return; }
    var comp = eventComponent(e), cands = [], worded = false, formats = false;
    X.events.forEach(function (f) {
      var s = 0;
      if (f.reason !== e.reason) {
        // a reason set at run time that reaches the call: less sure
        if (f.reason !== "" || (f.rv || []).indexOf(e.reason) < 0) return;
        s--;
      }
      if (comp && comp.dirs.length) {
        if (inDirs(f.f, comp.dirs)) s += 4;
        else if (reachedFrom(f, comp.dirs)) s += 3;
      }
      var m = messageScore(f, e.message);
      worded = worded || m > 0; formats = formats || m !== 0;
      s += m;
      if (e.type && f.t === e.type) s++;
      if (e.action && f.a === e.action) s++;
      cands.push({ v: f, score: s, tie: opening(f, e.message, m) });
    });
    if (!cands.length) {
      x.component = comp;
      x.notes.push(["norecorder", quote(e.reason), X.tag]);
      x.steps = stepsFor([], e.reason); // a facts block may still name the reason
      return;
    }
    var top = best(cands);
    x.code = top.map(function (f) { return code("emitted", f); });
    if (cands.length > 1) x.notes.push(["callsites", cands.length, e.reason, top.length]);
    // messages are reworded between releases, reasons seldom
    if (formats && !worded) x.notes.push(["reworded", X.tag]);
    x.component = comp || codeComponent(top[0].f);
    x.steps = stepsFor(top, e.reason);
  }
  var writeVerbs = set(["create", "update", "patch", "delete", "deletecollection"]);
  function explainAudit(x, a) {
    if (a.verb === "" || a.resource === "") { x.notes.push(["noverb"]); return; }
    var comp = auditComponent(a), mine = comp && comp.dirs.length > 0;
    var what = a.verb + " " + a.resource + (a.subresource ? "/" + a.subresource : ""), sites = [], handled = [];
    x.component = comp;
    if (own(writeVerbs, a.verb)) {
      var cands = [];
      X.writes.forEach(function (w) {
        var dyn = !!w.dyn && mine; // a resource known only at run time: the component's own request, after a named one
        if (w.verb !== a.verb || (w.res !== a.resource && !dyn) || (w.sub || "") !== a.subresource) return;
        if (a.group && w.g && a.group !== w.g) return;
        var s = 0;
        if (mine && inDirs(w.f, comp.dirs)) s = 2;
        else if (mine && reachedFrom(w, comp.dirs)) s = 1;
        else if (mine) return; // another component's write
        if (dyn) s--;
        cands.push({ v: w, score: s });
      });
      sites = best(cands);
      x.code = sites.map(function (w) { return code("wrote", w); });
      if (!x.code.length) x.notes.push(mine ? ["nowriteby", what, comp.name, X.tag] : ["nowrite", what, X.tag]);
      else if (!mine && x.code.length > 1) x.notes.push(["writers", x.code.length, what]);
      // Who reacts next: a binding or a status write updates the object.
      var which = a.verb === "create" && a.subresource === "" ? "add" : a.verb === "delete" || a.verb === "deletecollection" ? "del" : "upd";
      handled = X.handlers.filter(function (h) { return h.res === a.resource && h[which] != null; });
      // Handlers a walkthrough explains first (Array.sort is stable).
      handled.sort(function (p, q) { return (p.st ? 0 : 1) - (q.st ? 0 : 1); });
      x.handlers = handled.map(function (h) { return code("handles", h, h[which], h.hd); });
    } else {
      // A read (get, list, watch): the component's informers.
      sites = X.handlers.filter(function (h) { return h.res === a.resource && !(mine && !inDirs(h.f, comp.dirs)); });
      x.code = sites.map(function (h) { return code("watches", h); });
      if (!x.code.length) x.notes.push(mine ? ["noinfin", a.resource, comp.name] : ["noinformer", a.resource]);
    }
    if (!comp && x.code.length) x.component = codeComponent(x.code[0].path);
    x.steps = stepsFor(sites, "");
    if (!x.steps.length) x.steps = stepsFor(handled, "");
  }
  // stepsFor: each step scores the best of the sites' scores, and 1 when a
  // facts block names the reason; the best, at most three.
  function stepsFor(sites, reason) {
    var score = X.steps.map(function () { return 0; }), cs = [], out = [];
    sites.forEach(function (s) {
      (s.st || []).forEach(function (p) { score[p[0]] = Math.max(score[p[0]], p[1]); });
    });
    if (reason && own(X.reasons, reason)) X.reasons[reason].forEach(function (i) { score[i] = Math.max(score[i], 1); });
    score.forEach(function (s, i) { if (s > 0) cs.push({ step: X.steps[i], s: s }); });
    cs.sort(function (p, q) { return q.s - p.s; });
    for (var i = 0; i < cs.length && out.length < 3 && cs[i].s === cs[0].s; i++) out.push(cs[i].step);
    return out;
  }

  // ---- output ----
  function safe(u) { return /^https:\/\//.test(u) || !/^[a-z][a-z0-9+.-]*:/i.test(u) ? u : "#"; }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function link(href, text, cls) {
    if (!href) return el("span", cls, text);
    var a = el("a", cls, text);
    a.href = safe(href);
    return a;
  }
  function codeLine(c) {
    var d = el("div", "site");
    d.setAttribute("data-role", c.role);
    d.appendChild(el("span", "role meta", T("explain.role." + c.role, [], c.role) + " "));
    var sym = link(c.page || c.permalink, readableSymbol(c.symbol), "sym");
    sym.title = c.symbol.indexOf("$") < 0 ? c.symbol : readableSymbol(c.symbol);
    d.appendChild(sym);
    d.appendChild(document.createTextNode(" "));
    d.appendChild(link(c.page || c.permalink, c.path + ":" + c.line, "loc"));
    if (c.permalink) {
      d.appendChild(document.createTextNode(" "));
      d.appendChild(link(c.permalink, "\u2197", "gh"));
    }
    if (c.detail) d.appendChild(el("div", "detail meta", c.detail));
    if (c.via) d.appendChild(el("div", "via meta", T("explain.via", [readableSymbol(c.via)], "via {0}"))).title = c.via.indexOf("$") < 0 ? c.via : readableSymbol(c.via);
    return d;
  }
  var runs = 0;
  function render(recs) {
    out.textContent = "";
    var ok = 0;
    recs.forEach(function (r) {
      var x = explain(r), tr = el("tr", x.explained ? "explained" : "unexplained");
      if (x.explained) ok++;
      tr.setAttribute("data-line", r.line);
      tr.setAttribute("data-kind", r.kind);
      if (r.format) tr.setAttribute("data-format", r.format);
      var td = el("td", "rec");
      td.appendChild(el("span", "ln meta", r.line + ": "));
      var text = el("code", "", r.format !== "table" && x.summary ? x.summary : r.text); // JSON is unreadable in a table
      text.title = r.text;
      td.appendChild(text);
      tr.appendChild(td);
      td = el("td", "comp");
      if (x.component) {
        td.appendChild(el("span", "name", x.component.name));
        td.appendChild(el("span", "from meta", " (" + T("explain.from." + x.component.from.replace(" ", ""), [], x.component.from) + ")"));
      }
      tr.appendChild(td);
      td = el("td", "code");
      if (!x.explained) td.appendChild(el("span", "flag", "\u2014"));
      x.code.forEach(function (c) { td.appendChild(codeLine(c)); });
      var more = td;
      x.handlers.forEach(function (c, i) {
        if (i === 4) { // the rest of a pod's dozens of handlers, folded
          more = el("details", "handlers");
          more.appendChild(el("summary", "meta", "+" + (x.handlers.length - 4)));
          td.appendChild(more);
        }
        more.appendChild(codeLine(c));
      });
      if (x.notes.length) td.appendChild(el("div", "note meta", x.notes.map(function (n) { return T("explain.note." + n[0], n.slice(1), n[0]); }).join("; ")));
      tr.appendChild(td);
      td = el("td", "steps");
      x.steps.forEach(function (s) { td.appendChild(el("div")).appendChild(link(s.p, s.t + " \u203a " + s.s, "steplink")); });
      tr.appendChild(td);
      out.appendChild(tr);
    });
    out.setAttribute("data-run", ++runs);
    var sum = document.getElementById("explain-summary");
    if (sum) sum.textContent = ok + " / " + recs.length;
  }
  function run() { render(parse(input.value)); }
  document.getElementById("explain-form").addEventListener("submit", function (e) { e.preventDefault(); run(); });
  input.addEventListener("input", function () { clearTimeout(run.t); run.t = setTimeout(run, 250); });
  if (input.value.trim()) run();
})();
