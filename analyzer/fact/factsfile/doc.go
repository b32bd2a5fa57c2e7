// Package factsfile writes and reads facts.json.zst, the file in which a
// site offers every fact of a release to readers and tools (no page
// loads it).
//
// The file is fact.Facts.WriteCompactJSON's output (the facts' JSON, its
// call graph written with a symbol table) in one zstd frame, which every
// platform's zstd command opens (zstd -d, unzstd), as do the libraries of
// most languages. Encode writes it; Read reads it, and also the
// facts.json.gz of sites built before and facts.json in either form
// (fact.ReadJSON).
//
// In a site of several releases the releases' facts are much alike: the
// newest release's file is Encode's, and every other's is EncodePatch's,
// its compact JSON compressed with the content of the newest's file as a
// raw-content dictionary, as zstd --patch-from writes it. Such a file is
// read with the newest's JSON (ReadDict; zstd -d --patch-from), or from
// the site's directory (ReadSite); Read refuses it with an error wrapping
// ErrPatch that says how to open it.
//
// Reading facts needs neither a site nor an HTML renderer: the package's
// dependencies are the standard library, analyzer/fact, zstd and the Go
// project's semver rules (the order of a site's releases), and a test
// holds them to that.
package factsfile
