package analyzer

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/gob"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/kubewalk/kubewalk/analyzer/fact"

	"github.com/kubewalk/kubewalk/internal/disk/atomicfile"
)

// Version is the analyzer's own version: bump it when the loader, the
// symbol index, the cross-references or a pass change what they produce
// without a schema change, so old caches are not reused.
const Version = "14"

// cacheMagic starts every cache file; the digit is the encoding's version.
// It is part of the cache key, so a file of another encoding is never
// read. (2: a SHA-256 of the content ends the file. 3: the key follows,
// "key <key>\n".)
const cacheMagic = "kubewalk-analyzer-cache 3\n"

// ErrCacheUnwritable is wrapped by the error AnalyzeCached returns beside
// its Result when the analysis could not be written to the cache (a
// read-only or full disk): the Result is whole, and only the next run's
// time is lost, for the caller to warn about.
var ErrCacheUnwritable = errors.New("facts cache not writable")

// ErrCacheIgnored is wrapped by the error AnalyzeCached returns beside its
// Result when a cache file was there but could not be used (damaged, or
// holding another key): a miss, analysed again and replaced, for the
// caller to report once.
var ErrCacheIgnored = errors.New("cached facts not used")

// AnalyzeCached is Analyze with a cache of its Result in cacheDir. The
// key is the tree's identity (see the package doc: every Go, go.mod,
// go.sum and go.work file's path, size and modification time, the
// workspace file named in Env, the go command's version), the schema and
// analyzer versions, the sorted roots, the environment, and the tag and
// commit. A hit reads the file and loads no packages; a miss analyzes and
// writes the file atomically (temporary file and rename). A cache file
// that cannot be read, or holds another key (a file copied over another),
// is replaced, and the Result comes with an error wrapping ErrCacheIgnored
// that names the file. When the file cannot be written, AnalyzeCached
// returns the Result and an error wrapping ErrCacheUnwritable: the
// analysis is not thrown away. Any other error comes without a Result.
func AnalyzeCached(ctx context.Context, cfg Config, cacheDir string) (*Result, bool, error) {
	logf := cfg.logf()
	t0 := time.Now()
	key, err := cacheKey(ctx, cfg)
	if err != nil {
		return nil, false, fmt.Errorf("analyzer cache key: %w", err)
	}
	file := filepath.Join(cacheDir, "analyzer-"+key+".bin")
	var ignored error
	if res, err := readCache(file, key); err == nil {
		res.dir = filepath.Clean(absDir(cfg.Dir))
		logf("analyzer: cache hit %s (%v)", file, time.Since(t0).Round(time.Millisecond))
		return res, true, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		ignored = fmt.Errorf("%w: %s: %w", ErrCacheIgnored, file, err)
	}
	logf("analyzer: cache miss (key %v)", time.Since(t0).Round(time.Millisecond))
	res, err := Analyze(ctx, cfg)
	if err != nil {
		return nil, false, err
	}
	if err := writeCache(file, key, res); err != nil {
		return res, false, errors.Join(ignored, fmt.Errorf("%w: %w", ErrCacheUnwritable, err))
	}
	return res, false, ignored
}

func absDir(dir string) string {
	if a, err := filepath.Abs(dir); err == nil {
		return a
	}
	return dir
}

// cacheKey hashes everything a Result depends on.
func cacheKey(ctx context.Context, cfg Config) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "schema %d analyzer %s encoding %q\n", fact.SchemaVersion, Version, cacheMagic)
	fmt.Fprintf(h, "tag %q commit %q\n", cfg.Tag, cfg.Commit)
	for _, r := range sortedCopy(cfg.roots()) {
		fmt.Fprintf(h, "root %q\n", r)
	}
	for _, e := range cfg.Env {
		fmt.Fprintf(h, "env %q\n", e)
	}
	// The go command decides the standard library's sources, GOOS and
	// GOARCH (build tags), and where GOWORK points.
	vals, err := goEnv(ctx, cfg.Dir, cfg.Env, "GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOWORK", "GOFLAGS")
	if err != nil {
		return "", err
	}
	for _, v := range vals {
		fmt.Fprintln(h, v)
	}
	if work := strings.TrimSpace(vals[4]); work != "" && work != "off" {
		if err := hashFile(h, work, work); err != nil {
			return "", err
		}
	}
	if err := hashTree(h, cfg.Dir); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), nil
}

// hashTree hashes the path, size and modification time of every file of
// the tree the go command reads: Go files, go.mod, go.sum, go.work(.sum)
// and vendor/modules.txt. Directories the go command ignores (names
// starting with "." or "_", testdata) are skipped.
func hashTree(w io.Writer, dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") && name != "go.mod" && name != "go.sum" &&
			name != "go.work" && name != "go.work.sum" && name != "modules.txt" {
			return nil
		}
		return hashFile(w, path, path[len(dir):])
	})
}

func hashFile(w io.Writer, path, name string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s %d %d\n", name, fi.Size(), fi.ModTime().UnixNano())
	return nil
}

// The cache file: cacheMagic, the key it was written under (a file copied
// over another's name is not read as that one's), then the gob-encoded Facts (length-prefixed),
// then the symbols and cross-references in a compact binary form —
// uvarints, a table of paths, names front-coded against the previous
// (sorted) name — about 10× smaller than gob and quicker to decode; last,
// the SHA-256 of all that precedes it. Decoding catches a truncated file
// but not a changed byte inside a string or a number: without the sum,
// one flipped bit in a path was a cache hit that published the damaged
// path. Summing the file costs about as much as reading it.

func writeCache(file, key string, res *Result) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(file, 0o644, func(w io.Writer) error {
		sum := sha256.New()
		bw := bufio.NewWriterSize(io.MultiWriter(w, sum), 1<<20)
		if err := encodeResult(bw, key, res); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		_, err := w.Write(sum.Sum(nil))
		return err
	})
}

// errChecksum is readCache's error for a file whose content does not
// match its sum.
var errChecksum = errors.New("checksum mismatch")

func readCache(file, key string) (*Result, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte(cacheMagic)) || len(data) < len(cacheMagic)+sha256.Size {
		return nil, errors.New("not a cache file of this version")
	}
	content, sum := data[:len(data)-sha256.Size], data[len(data)-sha256.Size:]
	if got := sha256.Sum256(content); !bytes.Equal(got[:], sum) {
		return nil, errChecksum
	}
	return decodeResult(content, key)
}

type encoder struct {
	w     *bufio.Writer
	buf   [binary.MaxVarintLen64]byte
	paths map[string]int
	kinds map[string]int // identKinds by name
}

func (e *encoder) uint(v int) {
	n := binary.PutUvarint(e.buf[:], uint64(v))
	e.w.Write(e.buf[:n])
}

func (e *encoder) str(s string) {
	e.uint(len(s))
	e.w.WriteString(s)
}

// path writes a path as its index in the table, 0 for "".
func (e *encoder) path(p string) { e.uint(e.paths[p]) }

func encodeResult(w *bufio.Writer, key string, res *Result) error {
	e := &encoder{w: w, paths: map[string]int{"": 0}, kinds: map[string]int{}}
	for i, k := range identKinds {
		e.kinds[k] = i
	}
	w.WriteString(cacheMagic)
	w.WriteString(keyLine(key))
	var facts bytes.Buffer
	if err := gob.NewEncoder(&facts).Encode(&res.facts); err != nil {
		return err
	}
	e.uint(facts.Len())
	w.Write(facts.Bytes())
	e.pathTable(res)
	if err := e.symbols(res.Symbols); err != nil {
		return err
	}
	return e.xrefs(res.Xrefs)
}

// pathTable numbers every file path the symbols and identifier tables
// name, in sorted order from 1, and writes the table.
func (e *encoder) pathTable(res *Result) {
	var paths []string
	addPath := func(p string) {
		if _, ok := e.paths[p]; !ok {
			e.paths[p] = 0
			paths = append(paths, p)
		}
	}
	for _, s := range res.Symbols {
		addPath(s.Decl.Path)
		addPath(s.Body.Path)
	}
	for _, x := range res.Xrefs {
		addPath(x.Path)
		for _, id := range x.Idents {
			addPath(id.Target.Path)
		}
	}
	sort.Strings(paths)
	for i, p := range paths {
		e.paths[p] = i + 1
	}
	e.uint(len(paths))
	for _, p := range paths {
		e.str(p)
	}
}

// kind is k's index in identKinds.
func (e *encoder) kind(k string) (int, error) {
	i, ok := e.kinds[k]
	if !ok {
		return 0, fmt.Errorf("unknown kind %q", k)
	}
	return i, nil
}

// symbols writes the symbols, each name as the length of the prefix it
// shares with the previous one and the rest (they are sorted).
func (e *encoder) symbols(syms []fact.Symbol) error {
	e.uint(len(syms))
	prev := ""
	for _, s := range syms {
		n := commonPrefix(prev, s.Name)
		e.uint(n)
		e.str(s.Name[n:])
		prev = s.Name
		k, err := e.kind(s.Kind)
		if err != nil {
			return err
		}
		e.uint(k)
		e.path(s.Decl.Path)
		e.uint(s.Decl.StartLine)
		e.uint(s.Decl.EndLine - s.Decl.StartLine)
		e.path(s.Body.Path)
		if s.Body.Path != "" {
			e.uint(s.Body.StartLine)
			e.uint(s.Body.EndLine - s.Body.StartLine)
		}
	}
	return nil
}

// xrefs writes the identifier tables, offsets as deltas and Def as bit 4
// of the kind.
func (e *encoder) xrefs(xrefs []fact.FileXref) error {
	e.uint(len(xrefs))
	for _, x := range xrefs {
		e.path(x.Path)
		e.uint(len(x.Idents))
		off := 0
		for _, id := range x.Idents {
			e.uint(id.Off - off)
			off = id.Off
			e.uint(id.Len)
			k, err := e.kind(id.Kind)
			if err != nil {
				return err
			}
			if id.Def {
				k |= 16
			}
			e.uint(k)
			e.path(id.Target.Path)
			if id.Target.Path != "" {
				e.uint(id.Target.StartLine)
				e.uint(id.Target.EndLine - id.Target.StartLine)
			}
		}
	}
	return nil
}

func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

type decoder struct {
	data  []byte
	err   error
	paths []string
}

func (d *decoder) uint() int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.data)
	if n <= 0 || v > 1<<40 {
		d.err = errors.New("corrupt cache file")
		return 0
	}
	d.data = d.data[n:]
	return int(v)
}

func (d *decoder) bytes() []byte {
	n := d.uint()
	if d.err != nil {
		return nil
	}
	if n > len(d.data) {
		d.err = errors.New("truncated cache file")
		return nil
	}
	b := d.data[:n]
	d.data = d.data[n:]
	return b
}

func (d *decoder) path() string {
	i := d.uint()
	if i > len(d.paths) {
		d.err = errors.New("corrupt cache file")
		return ""
	}
	if i == 0 {
		return ""
	}
	return d.paths[i-1]
}

func (d *decoder) kind(k int) string {
	if k >= len(identKinds) {
		d.err = errors.New("corrupt cache file")
		return ""
	}
	return identKinds[k]
}

// keyLine is how the key is written in the file.
func keyLine(key string) string { return "key " + key + "\n" }

func decodeResult(data []byte, key string) (*Result, error) {
	if !bytes.HasPrefix(data, []byte(cacheMagic)) {
		return nil, errors.New("not a cache file of this version")
	}
	data = data[len(cacheMagic):]
	if !bytes.HasPrefix(data, []byte(keyLine(key))) {
		return nil, errors.New("a cache file of another key (another release, roots or tree)")
	}
	d := &decoder{data: data[len(keyLine(key)):]}
	res := &Result{}
	factsData := d.bytes()
	if d.err != nil {
		return nil, d.err
	}
	if err := gob.NewDecoder(bytes.NewReader(factsData)).Decode(&res.facts); err != nil {
		return nil, err
	}
	np := d.uint()
	for i := 0; i < np && d.err == nil; i++ {
		d.paths = append(d.paths, string(d.bytes()))
	}
	var err error
	if res.Symbols, err = d.symbols(); err != nil {
		return nil, err
	}
	if res.Xrefs, err = d.xrefs(); err != nil {
		return nil, err
	}
	if d.err != nil {
		return nil, d.err
	}
	if len(d.data) != 0 {
		return nil, errors.New("trailing data in cache file")
	}
	return res, nil
}

// symbols reads what encoder.symbols wrote. A count larger than what is
// left to read is an error at once, before anything is allocated; other
// errors are left in d.err.
func (d *decoder) symbols() ([]fact.Symbol, error) {
	ns := d.uint()
	if d.err == nil && ns > len(d.data) {
		return nil, errors.New("corrupt cache file")
	}
	syms := make([]fact.Symbol, ns)
	prev := ""
	for i := 0; i < ns && d.err == nil; i++ {
		s := &syms[i]
		n := d.uint()
		suffix := d.bytes()
		if n > len(prev) {
			d.err = errors.New("corrupt cache file")
			break
		}
		s.Name = prev[:n] + string(suffix)
		prev = s.Name
		s.Kind = d.kind(d.uint())
		s.Decl.Path = d.path()
		s.Decl.StartLine = d.uint()
		s.Decl.EndLine = s.Decl.StartLine + d.uint()
		if s.Body.Path = d.path(); s.Body.Path != "" {
			s.Body.StartLine = d.uint()
			s.Body.EndLine = s.Body.StartLine + d.uint()
		}
	}
	return syms, nil
}

// xrefs reads what encoder.xrefs wrote, as symbols does.
func (d *decoder) xrefs() ([]fact.FileXref, error) {
	nx := d.uint()
	if d.err == nil && nx > len(d.data) {
		return nil, errors.New("corrupt cache file")
	}
	xrefs := make([]fact.FileXref, nx)
	for i := 0; i < nx && d.err == nil; i++ {
		x := &xrefs[i]
		x.Path = d.path()
		n := d.uint()
		if d.err != nil || n > len(d.data) {
			d.err = errors.New("corrupt cache file")
			break
		}
		x.Idents = make([]fact.Ident, n)
		off := 0
		for j := 0; j < n && d.err == nil; j++ {
			id := &x.Idents[j]
			off += d.uint()
			id.Off = off
			id.Len = d.uint()
			k := d.uint()
			id.Def = k&16 != 0
			id.Kind = d.kind(k &^ 16)
			if id.Target.Path = d.path(); id.Target.Path != "" {
				id.Target.StartLine = d.uint()
				id.Target.EndLine = id.Target.StartLine + d.uint()
			}
		}
	}
	return xrefs, nil
}
