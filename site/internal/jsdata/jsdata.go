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
	return decode("not a script assigning "+global, jsn, v)
}

// Convert sets v to what Read gives of the script Assign writes of
// value: a value of one type as another, as a page would read it
// (generic JSON, when v points to an interface value or a map).
func Convert(value, v any) error {
	data, err := json.Marshal(value)
	if err != nil {
		return err
	}
	return decode("not one JSON value", string(data), v)
}

// decode decodes the JSON jsn into v; what names the error of more
// after the value.
func decode(what, jsn string, v any) error {
	dec := json.NewDecoder(strings.NewReader(jsn))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Errorf("%s: more after its value", what)
	}
	return nil
}
