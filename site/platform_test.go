package site

import "testing"

// The home page says, in each language, which platform the facts
// describe, as the facts name it; facts that do not name one get no
// sentence.
func TestHomePlatform(t *testing.T) {
	s := testBuild(t, "", withInput(func(in *Input) {
		bilingual(in)
		facts := *in.Facts
		facts.Platform = "windows/arm64"
		in.Facts = &facts
	}))
	s.AssertFileContent("en/index.html", "The facts on this site describe the windows/arm64 build: code built only for other platforms, such as _windows.go files, is not analysed.")
	s.AssertFileContent("ko/index.html", "이 사이트의 사실(facts)은 windows/arm64 빌드를 기준으로 하며, _windows.go 파일처럼 다른 플랫폼에서만 빌드되는 코드는 분석하지 않습니다.")
	testBuild(t, "").AssertFileContent("index.html", "! build: code built only for other platforms")
}
