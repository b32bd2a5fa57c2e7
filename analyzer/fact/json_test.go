package fact

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestWriteJSON(t *testing.T) {
	f := &Facts{Schema: SchemaVersion, Tag: "v1.0.0", Events: []Event{{Reason: "<&>", Message: "a & b"}}}
	var buf bytes.Buffer
	if err := f.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "null") {
		t.Errorf("an empty list came out null: %s", out)
	}
	for _, k := range []string{"roots", "handlers", "wirings", "writes", "listWatches", "calls"} {
		if !strings.Contains(out, `"`+k+`":[]`) {
			t.Errorf("%s is not [] in %s", k, out)
		}
	}
	if strings.ContainsAny(out, "<&>") {
		t.Errorf("<, > and & are not escaped: %s", out)
	}
	if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") {
		t.Errorf("want one line with a newline, got %q", out)
	}
	if f.Handlers != nil {
		t.Error("WriteJSON changed the facts it wrote")
	}
	var back Facts
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back.Events[0].Message != "a & b" {
		t.Errorf("read back %+v, %v", back, err)
	}
}
