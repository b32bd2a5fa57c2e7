package diagram

import (
	"strings"
	"unicode/utf8"
)

// fontSize is the font size, in px, of all diagram text.
const fontSize = 13

// asciiWidth holds DejaVu Sans advance widths (units of 1/2048 em) for
// printable ASCII. DejaVu Sans is the default sans-serif on most Linux
// systems and is wider than Helvetica, Arial and San Francisco, so an
// estimate made with it errs toward a box a little too wide, never a
// label overflowing its box.
var asciiWidth = [95]uint16{
	// ' ' ! " # $ % & ' ( ) * + , - . /
	651, 821, 942, 1716, 1303, 1946, 1595, 563, 799, 799, 1024, 1716, 651, 739, 651, 690,
	// 0-9
	1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303, 1303,
	// : ; < = > ? @
	690, 690, 1716, 1716, 1716, 1087, 2048,
	// A-Z
	1401, 1405, 1430, 1577, 1294, 1178, 1587, 1540, 604, 604, 1343, 1141, 1767,
	1532, 1612, 1235, 1612, 1423, 1300, 1251, 1499, 1401, 2025, 1403, 1251, 1403,
	// [ \ ] ^ _ `
	799, 690, 799, 1716, 1024, 1024,
	// a-z
	1255, 1300, 1126, 1300, 1260, 721, 1300, 1298, 569, 569, 1186, 569, 1995,
	1298, 1253, 1300, 1300, 842, 1067, 803, 1298, 1212, 1675, 1212, 1212, 1075,
	// { | } ~
	1303, 690, 1303, 1716,
}

// runeWidth estimates the advance of r in 1/2048 em. East Asian wide
// characters (Hangul, CJK ideographs, kana, full-width forms) take a full
// em; other non-ASCII letters are taken as a wide Latin letter.
func runeWidth(r rune) int {
	switch {
	case r >= ' ' && r <= '~':
		return int(asciiWidth[r-' '])
	case r < ' ' || (r >= 0x7f && r < 0xa0) || r == 0x200b || r == 0xfeff:
		return 0
	case isWide(r):
		return 2048
	default:
		return 1400
	}
}

func isWide(r rune) bool {
	return r >= 0x1100 && r <= 0x115f || // Hangul Jamo
		r >= 0x2e80 && r <= 0x303e || // CJK radicals, punctuation
		r >= 0x3041 && r <= 0x33ff || // kana, compatibility Jamo, CJK compat
		r >= 0x3400 && r <= 0x4dbf || // CJK extension A
		r >= 0x4e00 && r <= 0x9fff || // CJK unified ideographs
		r >= 0xa960 && r <= 0xa97f || // Hangul Jamo extended-A
		r >= 0xac00 && r <= 0xd7a3 || // Hangul syllables
		r >= 0xf900 && r <= 0xfaff || // CJK compatibility ideographs
		r >= 0xfe30 && r <= 0xfe4f || // CJK compatibility forms
		r >= 0xff00 && r <= 0xff60 || // full-width forms
		r >= 0xffe0 && r <= 0xffe6 ||
		r >= 0x1f300 && r <= 0x1faff || // emoji
		r >= 0x20000 && r <= 0x3fffd // CJK extensions B…
}

// textWidth estimates the width of s in px at fontSize, rounded up.
func textWidth(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return (w*fontSize + 2047) / 2048
}

// wrap breaks s into lines no wider than max px: greedily at spaces, and
// inside a word (between any two runes, which is also where Chinese and
// Japanese break) only when the word alone is too wide. Runs of blanks
// and control characters collapse to one space.
func wrap(s string, max int) []string {
	words := strings.Fields(s)
	var lines []string
	line := ""
	for _, word := range words {
		for textWidth(word) > max {
			// Break the word after the last '/', '.', '-', '_' or ','
			// that fits on a fresh line (paths, symbols), else after
			// the last rune that fits.
			cut, punct, w := 0, 0, 0
			for i, r := range word {
				rw := (runeWidth(r)*fontSize + 2047) / 2048
				if w+rw > max && i > 0 {
					break
				}
				w += rw
				cut = i + utf8.RuneLen(r)
				if strings.ContainsRune("/.-_,", r) && cut < len(word) {
					punct = cut
				}
			}
			if punct > 0 {
				cut = punct
			}
			if line != "" {
				lines = append(lines, line)
				line = ""
			}
			lines = append(lines, word[:cut])
			word = word[cut:]
		}
		if word == "" {
			continue
		}
		switch {
		case line == "":
			line = word
		case textWidth(line+" "+word) <= max:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

// maxWidth is the width of the widest of lines.
func maxWidth(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, textWidth(l))
	}
	return w
}
