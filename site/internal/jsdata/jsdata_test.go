package jsdata

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestConvert: a value converted is what Read gives of the script
// Assign writes of it (numbers as the json.Number written, not float64),
// so the site's stage, handed the releases' data as values, works on
// what it read back from their scripts before.
func TestConvert(t *testing.T) {
	type step struct {
		Title string `json:"t"`
		Line  int    `json:"l"`
		Skip  string `json:"s,omitempty"`
	}
	in := []step{{Title: "a</script>", Line: 12}, {Title: "b", Line: 9007199254740993}}
	var got []any
	if err := Convert(in, &got); err != nil {
		t.Fatal(err)
	}
	js, err := Assign("g", in)
	if err != nil {
		t.Fatal(err)
	}
	var read []any
	if err := Read("g", js, &read); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(read)
	if !bytes.Equal(a, b) {
		t.Errorf("Convert gives %s, Read of Assign %s", a, b)
	}
	if n, ok := got[1].(map[string]any)["l"].(json.Number); !ok || n != "9007199254740993" {
		t.Errorf("a number converted is %#v, want the json.Number written", got[1].(map[string]any)["l"])
	}
	if err := Convert(func() {}, &got); err == nil {
		t.Error("Convert of a func: no error")
	}
}
