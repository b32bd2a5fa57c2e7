package walkthrough

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const limitsHead = "---\ntitle: x\n---\n\n## Step\n\n" // 6 lines

// lines repeats unit per times on each line until the text has n bytes.
func lines(unit string, per, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(strings.Repeat(unit, per) + "\n")
	}
	return b.String()
}

// TestParseLimits: each input took goldmark seconds (5 s for the first,
// on this project's machine; a build parses a walkthrough three times);
// each is refused at once, at the line that goes beyond a limit, with
// what to do.
func TestParseLimits(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		line       int
		msg        string
	}{
		{"nested list", strings.Repeat("- ", 32<<10) + "x\n", 7, "nest them less deeply"},
		{"nested quotes", "text\n\n" + strings.Repeat("> ", 32<<10) + "x\n", 9, "more than 16"},
		{"nested ordered list", strings.Repeat("1. ", 20<<10) + "x\n", 7, "lists or block quotes opened on one line"},
		{"mixed", strings.Repeat("> * 2) ", 8<<10) + "x\n", 7, "nest them less deeply"},
		{"link openers on a line", strings.Repeat("[a](", 16<<10) + "\n", 7, "break it"},
		{"link openers in a paragraph", "ok\n\n" + strings.Repeat("[a](\n", 20<<10), 9, "without a blank line"},
		{"whole file", lines("word ", 100, MaxFileBytes+1), 0, "split it into several walkthroughs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse("big.md", []byte(limitsHead+tc.body))
			took := time.Since(start)
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("got %v, want %q", err, ErrTooLarge)
			}
			var e *Error
			errors.As(err, &e)
			if e.File != "big.md" || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("got %v, want line %d and %q", e, tc.line, tc.msg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("more than one error: %v", err)
			}
			if took > time.Second {
				t.Errorf("took %s", took)
			}
		})
	}
}

// TestParseWithinLimits: what prose needs passes, and goldmark's worst
// inputs within the limits parse in well under a second.
func TestParseWithinLimits(t *testing.T) {
	for _, tc := range []struct{ name, body string }{
		{"thematic breaks", strings.Repeat("* * * * * * * * * * * * * * * * * * * *\n\n", 100)},
		{"deep list", func() string {
			var b strings.Builder
			for i := range maxNesting {
				b.WriteString(strings.Repeat("  ", i) + "- item\n")
			}
			return b.String()
		}()},
		{"nested to the limit", strings.Repeat("- ", maxNesting) + "x\n"},
		{"long lines of link openers", lines("[a](", maxLineBytes/4-1, maxBlockBytes-maxLineBytes)},
		{"paragraphs of long lines of link openers", strings.Repeat(lines("[a](", maxLineBytes/4-1, maxBlockBytes-maxLineBytes)+"\n", 4)},
		{"paragraphs of link openers", strings.Repeat(strings.Repeat("[a](\n", maxBlockBytes/5-1)+"\n", 4)},
		{"lists nested to the limit on every line", strings.Repeat(lines("- ", maxNesting, maxBlockBytes-64)+"\n", 4)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse("ok.md", []byte(limitsHead+tc.body))
			if errors.Is(err, ErrTooLarge) {
				t.Fatal(err)
			}
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("%d bytes took %s", len(tc.body), took)
			}
		})
	}
}

// FuzzParseNesting parses a unit repeated on one line (lists, quotes,
// brackets opened n deep) and what follows: whatever the shape, Parse ends
// in bounded time, refusing what goldmark would take seconds over. The
// seeds are the shapes measured in limits.go, each repeated far past
// the limits that refuse it.
func FuzzParseNesting(f *testing.F) {
	for _, unit := range []string{"- ", "* ", "> ", "1. ", "> - ", "[a](", "![a](", "[", "*a_b*c_d**e_f*g**h*i_j**"} {
		f.Add(unit, uint16(65535), "x\n")
		f.Add(unit+"\n", uint16(20000), "")
	}
	f.Fuzz(func(t *testing.T, unit string, n uint16, tail string) {
		if len(unit) == 0 || len(unit)*int(n)+len(tail) > MaxFileBytes/2 {
			return
		}
		src := limitsHead + strings.Repeat(unit, int(n)) + tail
		start := time.Now()
		_, err := Parse("f.md", []byte(src))
		// Generous: the worst input within the limits parses in a
		// fraction of this; the seeds took from 4 s to over 20 s before.
		if took := time.Since(start); took > 3*time.Second {
			t.Errorf("%d bytes of %q took %s (%v)", len(src), unit, took, err)
		}
	})
}
