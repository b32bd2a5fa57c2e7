package codehtml

import (
	"strings"
	"testing"
)

var textSamples = []struct{ name, src string }{
	{"deploy.yaml", "# a comment\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx\n  labels: {app: \"web\"}\nspec:\n  replicas: 3\n"},
	{"run.sh", "#!/bin/bash\nset -e\nfor i in 1 2; do\n  echo \"$i <b>\" | grep -q x && exit 1\ndone\n"},
	{"x.json", "{\n  \"kind\": \"Pod\",\n  \"n\": 1.5,\n  \"ok\": true\n}\n"},
	{"Dockerfile", "FROM golang:1.26 AS build\nRUN go build ./...\n"},
	{"README.md", "# Title\n\nSome *text* and `code`.\n\n```go\nfunc f() {}\n```\n"},
	{"unknown.zzz", "a < b & c\n"},
}

func TestText(t *testing.T) {
	for _, s := range textSamples {
		lines := Text(s.name, []byte(s.src))
		if got, want := len(lines), strings.Count(s.src, "\n"); got != want {
			t.Errorf("%s: %d lines, want %d", s.name, got, want)
		}
		checkInert(t, lines)
		if testing.Verbose() {
			t.Logf("%s:\n%s", s.name, joinLines(lines))
		}
	}
}

func TestTextHostile(t *testing.T) {
	for _, name := range []string{"x.yaml", "x.sh", "x.json", "x.md", "x.html", "x.zzz", "Dockerfile"} {
		src := "a: \"</span><script>alert(1)</script>\" # <img src=x onerror=alert(2)>\n[x](javascript:alert(3)) <a href=\"javascript:alert(4)\">\r\n'quote\" &amp;\n"
		lines := Text(name, []byte(src))
		checkInert(t, lines)
		if len(lines) != 3 {
			t.Errorf("%s: %d lines, want 3", name, len(lines))
		}
	}
}

func TestLang(t *testing.T) {
	got := joinLines(Lang("yaml", []byte("kind: Pod\n")))
	if !strings.Contains(got, "<span class=a>kind</span>") {
		t.Errorf("Lang(yaml): %q has no key span", got)
	}
	if got := joinLines(Lang("go", []byte("package p\n"))); got != "<b>package</b> p\n" {
		t.Errorf("Lang(go) = %q", got)
	}
	if got := joinLines(Lang("nonesuch", []byte("<x>\n"))); got != "&lt;x&gt;\n" {
		t.Errorf("Lang(nonesuch) = %q", got)
	}
}
