// Package jsdata is the format of the site's scripts of data: a script
// assigning a JSON value to a global of window, which a page loads with
// <script src> (file:// cannot fetch() it).
package jsdata

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Assign is a script assigning v, as JSON, to a global: data a page
// loads with <script src>, as file:// cannot fetch() it. json.Marshal
// escapes <, > and & (and U+2028, U+2029), so no string in v can end the
// script or break out of the string it sits in.
func Assign(global string, v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(append([]byte("window."+global+" = "), data...), ";\n"...), nil
}

// Read reads a script Assign wrote for global into v; numbers
// in an interface value are json.Numbers, as written.
func Read(global string, data []byte, v any) error {
	jsn, ok := strings.CutPrefix(string(data), "window."+global+" = ")
	jsn, ok2 := strings.CutSuffix(jsn, ";\n")
	if !ok || !ok2 {
		return fmt.Errorf("not a script assigning %s", global)
	}
	dec := json.NewDecoder(strings.NewReader(jsn))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("not a script assigning %s: more after its value", global)
	}
	return nil
}
