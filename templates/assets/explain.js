// kubewalk: the explain page. Reads `kubectl get events` output (any
// column layout, with or without --watch), `kubectl get events -o json`,
// or API server audit JSON lines, and explains each record from
// explain-index.js (window.kubewalkExplain): the component, the code that
// emitted the event or made the write, and the walkthrough steps that
// explain it. The rules are internal/explain's, cut down (site/explain.go
// says which). Everything is written with textContent; no markup from the
// input or the index is ever parsed.
(function () {
  "use strict";
  var X = window.kubewalkExplain;
  var input = document.getElementById("explain-input"), out = document.getElementById("explain-results");
  if (!X || !input || !out) return;

  // Controllers by the kind of object their events are about, and package
  // directories by component name (internal/explain/component.go).
  var kindComponent = {
    deployment: "deployment-controller", replicaset: "replicaset-controller", statefulset: "statefulset-controller",
    daemonset: "daemonset-controller", job: "job-controller", cronjob: "cronjob-controller",
    replicationcontroller: "replication-controller", horizontalpodautoscaler: "horizontal-pod-autoscaler",
    poddisruptionbudget: "disruption-controller", persistentvolumeclaim: "persistentvolume-controller",
    persistentvolume: "persistentvolume-controller", endpoints: "endpoint-controller"
  };
  var componentDir = {
    "default-scheduler": "pkg/scheduler", "kube-scheduler": "pkg/scheduler", scheduler: "pkg/scheduler",
    kubelet: "pkg/kubelet", "kube-proxy": "pkg/proxy", "daemonset-controller": "pkg/controller/daemon",
    "horizontal-pod-autoscaler": "pkg/controller/podautoscaler", "disruption-controller": "pkg/controller/disruption",
    "persistentvolume-controller": "pkg/controller/volume/persistentvolume", "kube-controller-manager": "pkg/controller",
    "kube-apiserver": "staging/src/k8s.io/apiserver", kubectl: "staging/src/k8s.io/kubectl"
  };
  function dirOf(name) {
    name = (name || "").split(",")[0].trim();
    if (componentDir[name]) return componentDir[name];
    var m = /^(.+)-controller$/.exec(name);
    return m ? "pkg/controller/" + m[1].replace(/-/g, "") : "";
  }

  // ---- parsing: one record per input line or JSON value ----
  var eventRow = /(?:^|\s)(Normal|Warning)\s+(\S+)(?:\s+(\S+))?(?:\s+(.*))?$/;
  function isHeader(s) { return /\bREASON\b/.test(s) && /\bTYPE\b/.test(s) && s === s.toUpperCase(); }
  function fromJSON(v, text, recs) {
    if (v && Array.isArray(v.items)) { v.items.forEach(function (it) { fromJSON(it, JSON.stringify(it), recs); }); return; }
    if (Array.isArray(v)) { v.forEach(function (it) { fromJSON(it, JSON.stringify(it), recs); }); return; }
    if (!v || typeof v !== "object") { recs.push({ kind: "unknown", text: text }); return; }
    if (v.objectRef || v.auditID) {
      var o = v.objectRef || {};
      recs.push({ kind: "audit", text: text, verb: v.verb || "", resource: o.resource || "", sub: o.subresource || "",
        user: (v.user && v.user.username) || "", agent: v.userAgent || "" });
      return;
    }
    if (v.reason) {
      var obj = v.involvedObject || v.regarding || {};
      recs.push({ kind: "event", text: text, type: v.type || "", reason: v.reason, message: v.message || v.note || "",
        objKind: (obj.kind || "").toLowerCase(),
        source: (v.source && v.source.component) || v.reportingComponent || v.reportingController || "" });
      return;
    }
    recs.push({ kind: "unknown", text: text });
  }
  function parse(text) {
    var recs = [], t = text.trim();
    if (/^[\[{]/.test(t)) {
      try { fromJSON(JSON.parse(t), t, recs); return recs; } catch (e) { /* JSON lines, or not JSON */ }
    }
    text.split(/\r?\n/).forEach(function (line) {
      var s = line.trim();
      if (!s || isHeader(s)) return;
      if (s.charAt(0) === "{") {
        try { fromJSON(JSON.parse(s), s, recs); return; } catch (e) { /* a table line after all */ }
      }
      var m = eventRow.exec(s);
      if (!m) { recs.push({ kind: "unknown", text: s }); return; }
      var obj = m[3] || "", msg = m[4] || "";
      if (obj.indexOf("/") < 0) { msg = (obj + " " + msg).trim(); obj = ""; }
      recs.push({ kind: "event", text: s, type: m[1], reason: m[2], message: msg,
        objKind: obj ? obj.split("/")[0].split(".")[0].toLowerCase() : "", source: "" });
    });
    return recs;
  }

  // ---- matching ----
  function formatMatches(format, message) {
    if (!format || !message) return false;
    var re = format.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/%[-+# 0-9.]*[a-zA-Z]/g, ".*");
    try { return new RegExp("^" + re + "$").test(message.trim()); } catch (e) { return false; }
  }
  function best(cands, score) {
    var top = -1, out = [];
    cands.forEach(function (c) {
      var s = score(c);
      if (s > top) { top = s; out = [c]; } else if (s === top) out.push(c);
    });
    return out;
  }
  function explain(r) {
    if (r.kind === "event") {
      var comp = r.source || kindComponent[r.objKind] || "", dir = dirOf(comp);
      var cands = X.events[r.reason] || [];
      if (!cands.length) return { why: "no code at " + X.tag + " records the reason " + r.reason };
      var sites = best(cands, function (c) {
        return (dir && c.f.indexOf(dir + "/") === 0 ? 4 : 0) + (formatMatches(c.m, r.message) ? 2 : 0) + (c.t === r.type ? 1 : 0);
      });
      return { component: comp || componentOf(sites[0].f), sites: sites };
    }
    if (r.kind === "audit") {
      if (/^(get|list|watch)$/.test(r.verb)) return { why: "a read (" + r.verb + "), not a write: see the Handlers page for who watches " + r.resource };
      var key = r.verb + " " + r.resource + (r.sub ? "/" + r.sub : ""), ws = X.writes[key] || [];
      if (!ws.length) return { why: "no typed-client call at " + X.tag + " makes " + key };
      var who = auditComponent(r), d = dirOf(who);
      var narrowed = d ? ws.filter(function (c) { return c.f.indexOf(d + "/") === 0; }) : [];
      return { component: who || componentOf(ws[0].f), sites: narrowed.length ? narrowed : ws };
    }
    return { why: "not an event or audit record kubewalk can read" };
  }
  function auditComponent(r) {
    var m = /^system:serviceaccount:kube-system:(.+)$/.exec(r.user);
    if (m) return m[1];
    if (/^system:node:/.test(r.user)) return "kubelet";
    if (r.user === "system:kube-scheduler") return "kube-scheduler";
    return r.agent ? r.agent.split("/")[0] : "";
  }
  function componentOf(file) { return file.split("/").slice(0, -1).join("/"); }

  // ---- output ----
  function safe(u) { return /^https:\/\//.test(u) || !/^[a-z][a-z0-9+.-]*:/i.test(u) ? u : "#"; }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function link(href, text, cls) { var a = el("a", cls, text); a.href = safe(href); return a; }
  function render(recs) {
    out.textContent = "";
    var ok = 0;
    recs.forEach(function (r) {
      var x = explain(r), tr = el("tr", x.sites ? "explained" : "unexplained");
      var src = el("td"); src.appendChild(el("code", "", r.text.length > 160 ? r.text.slice(0, 160) + "…" : r.text));
      if (r.reason) { src.appendChild(el("br")); src.appendChild(el("b", "reason", r.reason)); }
      tr.appendChild(src);
      if (!x.sites) {
        var td = el("td", "meta", x.why); td.colSpan = 3; tr.appendChild(td);
        out.appendChild(tr);
        return;
      }
      ok++;
      tr.appendChild(el("td", "", x.component));
      var code = el("td"), steps = el("td"), seen = {};
      x.sites.slice(0, 6).forEach(function (s, i) {
        if (i) code.appendChild(el("br"));
        code.appendChild(link(s.s, s.c, "sym"));
        code.appendChild(document.createTextNode(" "));
        code.appendChild(link(s.s, s.f + ":" + s.l, "loc"));
        code.appendChild(document.createTextNode(" "));
        code.appendChild(link(s.u, "↗", "gh"));
        (s.st || []).forEach(function (k) {
          if (seen[k] || !X.steps[k]) return;
          seen[k] = true;
          if (steps.firstChild) steps.appendChild(el("br"));
          steps.appendChild(link(X.steps[k][1], X.steps[k][0], "step"));
        });
      });
      if (x.sites.length > 6) code.appendChild(el("div", "meta", "+" + (x.sites.length - 6)));
      if (!steps.firstChild) steps.appendChild(el("span", "none", "—"));
      tr.appendChild(code);
      tr.appendChild(steps);
      out.appendChild(tr);
    });
    var sum = document.getElementById("explain-summary");
    if (sum) sum.textContent = ok + " / " + recs.length;
  }
  function run() { render(parse(input.value)); }
  document.getElementById("explain-form").addEventListener("submit", function (e) { e.preventDefault(); run(); });
  input.addEventListener("input", function () { clearTimeout(run.t); run.t = setTimeout(run, 250); });
  if (input.value.trim()) run();
})();
