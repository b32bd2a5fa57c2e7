package analyzer

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"testing"
)

// FuzzDecodeResult: a cache file's content of any shape (one written by
// another build of kubewalk, damaged past its checksum, or made by hand)
// is read or refused with an error, never a panic, and what is read
// encodes again.
func FuzzDecodeResult(f *testing.F) {
	const key = "fuzz"
	res, err := Analyze(context.Background(), fixtureConfig(f))
	if err != nil {
		f.Fatal(err)
	}
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	if err := encodeResult(w, key, res); err != nil {
		f.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		f.Fatal(err)
	}
	good := b.Bytes()
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(cacheMagic + keyLine(key)))
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := decodeResult(data, key)
		if err != nil {
			return
		}
		w := bufio.NewWriter(io.Discard)
		if err := encodeResult(w, key, res); err != nil {
			t.Fatalf("a decoded result does not encode: %v", err)
		}
	})
}
