package record

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The programs' coverage files are read here, not with go tool covdata
// textfmt: covdata decodes a program's whole meta-data file (every
// counted function of the program) and writes a line for every block it
// lists, counted or not, for each snapshot, and kubewalk then parsed that
// text. Here a program's meta-data is decoded once per run, and a
// snapshot's counter file (only the functions that ran) costs what it
// holds. bench/README.md has the figures.
//
// The formats are those of the Go toolchain's internal/coverage packages
// (defs.go, decodemeta, decodecounter; version 1 of both files, unchanged
// since Go 1.20), which a program outside the standard library cannot
// import. A file of another version or shape is an error, not a guess.

// covMetaMagic and covCounterMagic start a meta-data and a counter file.
var (
	covMetaMagic    = [4]byte{0x00, 0x63, 0x76, 0x6d}
	covCounterMagic = [4]byte{0x00, 0x63, 0x77, 0x6d}
)

const (
	covMetaPrefix    = "covmeta."
	covCounterPrefix = "covcounters."
	// covMetaFileHeader is the meta-data file's header: magic, version,
	// total length, number of packages, hash, string table offset and
	// length, counter mode and granularity, padding.
	covMetaFileHeader = 4 + 4 + 8 + 8 + 16 + 4 + 4 + 1 + 1 + 6
	// covMetaPkgHeader is a package's header in it: payload length,
	// name, path and module (string indexes), hash, padding, number of
	// files and of functions.
	covMetaPkgHeader = 4 + 4 + 4 + 4 + 16 + 4 + 4 + 4
	// covCounterFileHeader: magic, version, meta-data hash, flavor,
	// byte order, padding.
	covCounterFileHeader = 4 + 4 + 16 + 1 + 1 + 6
	// covCounterFooter: magic, padding, number of segments, padding.
	covCounterFooter = 4 + 4 + 4 + 4
	// covCounterSegHeader: number of functions, string table and
	// arguments lengths.
	covCounterSegHeader = 8 + 4 + 4
	// Counter flavors.
	covCtrRaw     = 1
	covCtrULeb128 = 2
)

// covFunc is a function of a program's meta-data: its blocks, in the
// order of its counters. A block of a file the recording leaves out (not
// the tree's, or generated) has an empty path.
type covFunc struct {
	blocks []coverBlock
	stmts  []int
}

// covMeta is a program's decoded meta-data: its functions per package,
// in the order counter files number them.
type covMeta struct {
	pkgs [][]covFunc
}

// covReader is a byte slice read front to back; the first error sticks.
type covReader struct {
	b   []byte
	off int
	err error
}

func (r *covReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%s at offset %d of %d", what, r.off, len(r.b))
	}
}

func (r *covReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || r.off+n > len(r.b) {
		r.fail("truncated")
		return nil
	}
	s := r.b[r.off : r.off+n]
	r.off += n
	return s
}

func (r *covReader) u32(order binary.ByteOrder) uint32 {
	if b := r.bytes(4); b != nil {
		return order.Uint32(b)
	}
	return 0
}

func (r *covReader) uleb() uint64 {
	var v uint64
	for shift := uint(0); ; shift += 7 {
		if r.err != nil || r.off >= len(r.b) || shift > 63 {
			r.fail("bad ULEB128")
			return 0
		}
		c := r.b[r.off]
		r.off++
		v |= uint64(c&0x7f) << shift
		if c&0x80 == 0 {
			return v
		}
	}
}

// strtab reads a string table: a count, then each string's length and
// bytes.
func (r *covReader) strtab() []string {
	n := r.uleb()
	if n > uint64(len(r.b)) {
		r.fail("bad string table")
		return nil
	}
	strs := make([]string, 0, n)
	for range n {
		l := r.uleb()
		if l > uint64(len(r.b)) {
			r.fail("bad string")
			return nil
		}
		strs = append(strs, string(r.bytes(int(l))))
	}
	return strs
}

// readCovMeta decodes a meta-data file (covmeta.<hash>), its blocks'
// files as repository paths.
func readCovMeta(name string) (*covMeta, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	m, err := parseCovMeta(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

func parseCovMeta(data []byte) (*covMeta, error) {
	le := binary.LittleEndian
	if len(data) < covMetaFileHeader || [4]byte(data[:4]) != covMetaMagic {
		return nil, errors.New("not a coverage meta-data file")
	}
	if v := le.Uint32(data[4:]); v != 1 {
		return nil, fmt.Errorf("coverage meta-data file of version %d, not 1", v)
	}
	entries := le.Uint64(data[16:])
	if entries > uint64(len(data))/16 {
		return nil, errors.New("bad package count")
	}
	r := &covReader{b: data, off: covMetaFileHeader}
	offs := make([]uint64, entries)
	lens := make([]uint64, entries)
	if covMetaFileHeader+16*entries > uint64(len(data)) {
		return nil, errors.New("truncated package table")
	}
	for i := range offs {
		offs[i] = le.Uint64(r.bytes(8))
	}
	for i := range lens {
		lens[i] = le.Uint64(r.bytes(8))
	}
	// Files are shared by the functions of a package: each path is
	// turned into the tree's once.
	paths := map[string]string{}
	repo := func(file string) string {
		p, ok := paths[file]
		if !ok {
			if rp, in := repoPath(file); in && !generated(rp) {
				p = rp
			}
			paths[file] = p
		}
		return p
	}
	m := &covMeta{pkgs: make([][]covFunc, entries)}
	for i := range offs {
		if offs[i] > uint64(len(data)) || lens[i] > uint64(len(data))-offs[i] || lens[i] < covMetaPkgHeader {
			return nil, fmt.Errorf("package %d out of the file", i)
		}
		funcs, err := parseCovPkg(data[offs[i]:offs[i]+lens[i]], repo)
		if err != nil {
			return nil, fmt.Errorf("package %d: %w", i, err)
		}
		m.pkgs[i] = funcs
	}
	return m, nil
}

// parseCovPkg decodes one package's meta-data: its header, the offsets
// of its functions, its string table, then each function: its number of
// blocks, name, file, each block's start line and column, end line and
// column and statements, and whether it is a literal.
func parseCovPkg(p []byte, repo func(string) string) ([]covFunc, error) {
	le := binary.LittleEndian
	nfuncs := le.Uint32(p[40:])
	if uint64(covMetaPkgHeader)+4*uint64(nfuncs) > uint64(len(p)) {
		return nil, errors.New("bad function count")
	}
	r := &covReader{b: p, off: covMetaPkgHeader + 4*int(nfuncs)}
	strs := r.strtab()
	if r.err != nil {
		return nil, r.err
	}
	funcs := make([]covFunc, nfuncs)
	for f := range funcs {
		off := le.Uint32(p[covMetaPkgHeader+4*f:])
		if int(off) >= len(p) {
			return nil, fmt.Errorf("function %d out of the package", f)
		}
		r.off = int(off)
		nunits := r.uleb()
		r.uleb() // name
		file := r.uleb()
		if r.err != nil || file >= uint64(len(strs)) || nunits > uint64(len(p)) {
			return nil, fmt.Errorf("function %d: bad header", f)
		}
		path := repo(strs[file])
		fn := covFunc{blocks: make([]coverBlock, nunits), stmts: make([]int, nunits)}
		for u := range fn.blocks {
			sl, sc, el, ec, st := r.uleb(), r.uleb(), r.uleb(), r.uleb(), r.uleb()
			fn.blocks[u] = coverBlock{path, int(sl), int(sc), int(el), int(ec)}
			fn.stmts[u] = int(st)
		}
		if r.err != nil {
			return nil, fmt.Errorf("function %d: %w", f, r.err)
		}
		funcs[f] = fn
	}
	return funcs, nil
}

// parseCovCounters decodes a counter file
// (covcounters.<hash>.<pid>.<time>): it calls meta with the hash of the
// meta-data the file belongs to, then fn for each function that ran, with
// its package and function index in that meta-data and its counters, one
// per block. It returns the hash.
func parseCovCounters(data []byte, meta func(hash string) error, fn func(pkg, fun uint32, counters []uint32) error) (string, error) {
	le := binary.LittleEndian
	if len(data) < covCounterFileHeader+covCounterFooter || [4]byte(data[:4]) != covCounterMagic {
		return "", errors.New("not a coverage counter file")
	}
	if v := le.Uint32(data[4:]); v != 1 {
		return "", fmt.Errorf("coverage counter file of version %d, not 1", v)
	}
	hash := hex.EncodeToString(data[8:24])
	if err := meta(hash); err != nil {
		return "", err
	}
	flavor := data[24]
	var order binary.ByteOrder = binary.LittleEndian
	if data[25] != 0 {
		order = binary.BigEndian
	}
	foot := data[len(data)-covCounterFooter:]
	if [4]byte(foot[:4]) != covCounterMagic {
		return "", errors.New("bad footer")
	}
	nsegs := le.Uint32(foot[8:])
	r := &covReader{b: data, off: covCounterFileHeader}
	var ctr func() uint32
	switch flavor {
	case covCtrULeb128:
		ctr = func() uint32 { return uint32(r.uleb()) }
	case covCtrRaw:
		ctr = func() uint32 { return r.u32(order) }
	default:
		return "", fmt.Errorf("unknown counter flavor %d", flavor)
	}
	var counters []uint32
	for s := range nsegs {
		if s > 0 {
			r.bytes(covCounterFooter) // the previous segment's footer
		}
		h := r.bytes(covCounterSegHeader)
		if h == nil {
			return "", r.err
		}
		nfuncs := le.Uint64(h)
		r.bytes(int(le.Uint32(h[8:])))  // string table
		r.bytes(int(le.Uint32(h[12:]))) // arguments
		if pad := r.off % 4; pad != 0 {
			r.bytes(4 - pad)
		}
		for range nfuncs {
			n := ctr()
			pkg, fun := ctr(), ctr()
			if r.err != nil || uint64(n) > uint64(len(data)) {
				return "", fmt.Errorf("bad function entry: %v", r.err)
			}
			counters = counters[:0]
			for range n {
				counters = append(counters, ctr())
			}
			if r.err != nil {
				return "", r.err
			}
			if err := fn(pkg, fun, counters); err != nil {
				return "", err
			}
		}
	}
	return hash, r.err
}

// covFiles lists a snapshot directory's meta-data and counter files.
func covFiles(dir string) (metas map[string]string, counters []string, err error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	metas = map[string]string{}
	for _, e := range ents {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, covMetaPrefix):
			metas[strings.TrimPrefix(name, covMetaPrefix)] = filepath.Join(dir, name)
		case strings.HasPrefix(name, covCounterPrefix):
			counters = append(counters, filepath.Join(dir, name))
		}
	}
	return metas, counters, nil
}
