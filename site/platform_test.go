package site

import (
	"strings"
	"testing"
)

// The home page says, in each language, which platform the facts
// describe, as the facts name it; facts that do not name one get no
// sentence.
func TestHomePlatform(t *testing.T) {
	out, _ := buildFixture(t, func(in *Input) {
		bilingual(in)
		facts := *in.Facts
		facts.Platform = "windows/arm64"
		in.Facts = &facts
	})
	site := readTree(t, out)
	for page, want := range map[string]string{
		"en/index.html": "The facts on this site describe the windows/arm64 build: code built only for other platforms, such as _windows.go files, is not analysed.",
		"ko/index.html": "이 사이트의 사실(facts)은 windows/arm64 빌드를 기준으로 하며, _windows.go 파일처럼 다른 플랫폼에서만 빌드되는 코드는 분석하지 않습니다.",
	} {
		if !strings.Contains(site[page], want) {
			t.Errorf("%s: no sentence naming the platform %q", page, want)
		}
	}
	out, _ = buildFixture(t, nil)
	if home := readTree(t, out)["index.html"]; strings.Contains(home, "build: code built only for other platforms") {
		t.Error("index.html names a platform the facts do not")
	}
}
