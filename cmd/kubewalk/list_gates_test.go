package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubewalk/kubewalk/analyzer/fact"
)

// TestListGatesTable: one row per gate in name order, its checks counted
// by Enabled call (an if and its else are one call), and a gate checked
// in the code but missing from the loaded tables listed with "?".
func TestListGatesTable(t *testing.T) {
	at := func(line int) fact.Location {
		return fact.Location{Path: "pkg/kubelet/kubelet.go", StartLine: line, EndLine: line}
	}
	f := &fact.Facts{
		Gates: []fact.Gate{
			{Name: "ImageVolume", Stage: fact.StageAlpha, Since: "1.31"},
			{Name: "AppArmor", Stage: fact.StageGA, Default: true, LockToDefault: true, Since: "1.31"},
		},
		GateChecks: []fact.GateCheck{
			{Gate: "ImageVolume", At: at(10), Guarded: at(11), Kind: "if", WhenEnabled: true},
			{Gate: "ImageVolume", At: at(10), Guarded: at(13), Kind: "else"},
			{Gate: "ImageVolume", At: at(20), Guarded: at(20), Kind: "use", WhenEnabled: true},
			{Gate: "Unlisted", At: at(30), Guarded: at(31), Kind: "if", WhenEnabled: true},
		},
	}
	var out bytes.Buffer
	if err := listGates(&out, "table", f); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		got = append(got, strings.Join(strings.Fields(l), " "))
	}
	want := []string{
		"GATE STAGE DEFAULT LOCKED SINCE CHECKS FIRST CHECK",
		"AppArmor GA on locked 1.31 0 -",
		"ImageVolume alpha off - 1.31 2 pkg/kubelet/kubelet.go:10",
		"Unlisted ? ? - - 1 pkg/kubelet/kubelet.go:30",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("list gates:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
