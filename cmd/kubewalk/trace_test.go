package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// Usage errors of trace are told before any tree is fetched.
func TestTraceUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"trace"}, "accepts 1 arg"},
		{[]string{"trace", "a", "b"}, "accepts 1 arg"},
		{[]string{"trace", "deployments", "-o", "xml"}, `-o "xml": want table, json or markdown`},
		{[]string{"trace", "deployments", "--depth", "0"}, "--depth 0: want at least 1"},
		{[]string{"trace", "deployments", "--depth", "x"}, "invalid argument"},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"--cache-dir", t.TempDir()}, c.args...)
		code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
		if code != exitUsage {
			t.Errorf("kubewalk %s: exit %d, want %d\n%s", strings.Join(c.args, " "), code, exitUsage, errb.String())
		}
		if !strings.Contains(errb.String(), c.want) {
			t.Errorf("kubewalk %s: stderr %q lacks %q", strings.Join(c.args, " "), errb.String(), c.want)
		}
	}
}
