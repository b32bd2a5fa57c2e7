#!/usr/bin/env bash
# make bench: every benchmark of kubewalk on real Kubernetes trees, with a
# Hugo v0.165.0 baseline measured in the same run, ending in one summary
# table. See bench/README.md. Full output: .cache/bench/last.txt.
#
# Environment: GO (go), E2E_CACHE (.cache/e2e, shared with make e2e),
# HUGO_RUNS (3), BENCHTIME (Go -benchtime for the render benchmarks, 3x),
# BENCH_SKIP (packages whose benchmarks to leave out, e.g. "./analyzer
# ./source": their rows then read n/a).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
GO=${GO:-go}
E2E_CACHE=${E2E_CACHE:-$ROOT/.cache/e2e}
mkdir -p "$E2E_CACHE"
E2E_CACHE=$(cd "$E2E_CACHE" && pwd) # kubewalk needs it absolute (go env runs in the tree)
BENCH=$ROOT/.cache/bench
HUGO_VERSION=v0.165.0
HUGO_BIN=$BENCH/bin/hugo
HUGO_RUNS=${HUGO_RUNS:-3}
BENCHTIME=${BENCHTIME:-3x}
BENCH_SKIP=${BENCH_SKIP:-}
OLD_TAG=v1.31.0 # issue 4's Hugo reference
NEW_TAG=v1.37.2 # the default release
ALL_RANGE=v1.29..v1.37 # make site-all
BIN=$ROOT/bin/kubewalk
mkdir -p "$BENCH"
LOG=$BENCH/last.txt
exec > >(tee "$LOG") 2>&1

START=$(date +%s)
LOAD_START=$(cut -d' ' -f1-3 /proc/loadavg)
step() { printf '\n=== %s  (%ds, load %s)\n' "$*" $(($(date +%s) - START)) "$(cut -d' ' -f1-3 /proc/loadavg)"; }
note() { NOTES+=("$*"); echo "NOTE: $*"; }
NOTES=()

# timed OUTFILE CMD...: runs CMD under /usr/bin/time; OUTFILE gets
# "wall user sys maxrss_kb".
timed() {
  local out=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$out" "$@"
}
wall() { cut -d' ' -f1 "$1"; }
cpu() { awk '{printf "%.2f", $2 + $3}' "$1"; }
rssmb() { awk '{printf "%.0f", $4 / 1024}' "$1"; }
# div A B [prec]
div() { awk -v a="$1" -v b="$2" -v p="${3:-1}" 'BEGIN { if (a == "" || b == "" || b + 0 == 0) print "n/a"; else printf "%." p "f", a / b }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1e6 }'; }
# metric FILE BENCH UNIT: the value before UNIT on BENCH's result line.
metric() {
  awk -v b="$2" -v u="$3" '
    { name = $1; sub(/-[0-9]+$/, "", name) }
    name == b { for (i = 3; i <= NF; i++) if ($i == u) v = $(i - 1) }
    END { print (v == "" ? "n/a" : v) }' "$1"
}
# secs NS: ns/op in seconds / milliseconds.
secs() { awk -v n="$1" 'BEGIN { if (n == "n/a") print "n/a"; else printf "%.2f s", n / 1e9 }'; }
msecs() { awk -v n="$1" 'BEGIN { if (n == "n/a") print "n/a"; else printf "%.1f ms", n / 1e6 }'; }
usecs() { awk -v n="$1" 'BEGIN { if (n == "n/a") print "n/a"; else printf "%.1f us", n / 1e3 }'; }

step "build bin/kubewalk"
"$GO" build -o "$BIN" ./cmd/kubewalk
"$GO" version
echo "cores: $(nproc), GOMAXPROCS default; load at start: $LOAD_START"

step "fetch $OLD_TAG and $NEW_TAG (goproxy)"
fetch() { "$BIN" --quiet --cache-dir "$E2E_CACHE" fetch --source goproxy --tag "$1" -o dir; }
t0=$(date +%s.%N)
TREE_OLD=$(fetch $OLD_TAG)
t1=$(date +%s.%N)
TREE_NEW=$(fetch $NEW_TAG)
t2=$(date +%s.%N)
echo "$OLD_TAG: $TREE_OLD ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s)"
echo "$NEW_TAG: $TREE_NEW ($(awk -v a="$t1" -v b="$t2" 'BEGIN { printf "%.1f", b - a }') s)"
# A cached fetch through the CLI, process start included.
timed "$BENCH/fetch.time" "$BIN" --quiet --cache-dir "$E2E_CACHE" fetch --source goproxy --tag $NEW_TAG -o dir >/dev/null
FETCH_CLI=$(wall "$BENCH/fetch.time")
echo "cached fetch of $NEW_TAG through the CLI: ${FETCH_CLI}s"

step "install Hugo $HUGO_VERSION"
HUGO_OK=1
if [ -x "$HUGO_BIN" ] && "$HUGO_BIN" version 2>/dev/null | grep -q "${HUGO_VERSION}"; then
  echo "cached: $HUGO_BIN"
else
  echo "go install github.com/gohugoio/hugo@$HUGO_VERSION (a few minutes the first time)"
  if ! GOBIN="$BENCH/bin" "$GO" install "github.com/gohugoio/hugo@$HUGO_VERSION" >"$BENCH/hugo-install.log" 2>&1; then
    HUGO_OK=0
    tail -20 "$BENCH/hugo-install.log"
    if grep -q '403' "$BENCH/hugo-install.log"; then
      note "Hugo install: the module proxy refused a module (403): $(grep -m1 '403' "$BENCH/hugo-install.log")"
    else
      note "Hugo install failed (see $BENCH/hugo-install.log)"
    fi
    note "Hugo figures below are issue 4's reference (5.9 s, 155 pages/s, 64 MB), not measured in this run"
  fi
fi
[ "$HUGO_OK" = 1 ] && "$HUGO_BIN" version

step "Hugo site: one page per non-test .go file of $OLD_TAG pkg/{controller,scheduler,kubelet}"
HSITE=$BENCH/hugo-site
read -r _ HFILES _ HLINES _ HSRC < <("$GO" run ./bench/hugo -tree "$TREE_OLD" -out "$HSITE")
echo "$HFILES files, $HLINES lines, $(mb "$HSRC") MB of Go"

HUGO_WALL=5.9 HUGO_CPU=n/a HUGO_MB=64 HUGO_RSS=n/a HUGO_PAGES=914
if [ "$HUGO_OK" = 1 ]; then
  step "hugo --quiet, $HUGO_RUNS runs (median)"
  walls=() cpus=()
  for i in $(seq 1 "$HUGO_RUNS"); do
    rm -rf "$HSITE/public"
    HUGO_CACHEDIR=$BENCH/hugo-cache timed "$BENCH/hugo.time" "$HUGO_BIN" --quiet -s "$HSITE" -d "$HSITE/public"
    echo "run $i: wall $(wall "$BENCH/hugo.time") s, cpu $(cpu "$BENCH/hugo.time") s, maxrss $(rssmb "$BENCH/hugo.time") MB"
    walls+=("$(wall "$BENCH/hugo.time")") cpus+=("$(cpu "$BENCH/hugo.time")")
    HUGO_RSS=$(rssmb "$BENCH/hugo.time")
  done
  median() { printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
  HUGO_WALL=$(median "${walls[@]}")
  HUGO_CPU=$(median "${cpus[@]}")
  HUGO_PAGES=$(find "$HSITE/public" -name index.html -path '*/pkg/*' | wc -l)
  HUGO_BYTES=$(du -sb "$HSITE/public" | cut -f1)
  HUGO_MB=$(mb "$HUGO_BYTES")
  HUGO_LARGEST=$(find "$HSITE/public" -type f -printf '%s %P\n' | sort -n | tail -1)
  echo "Hugo: $HUGO_PAGES source pages, $HUGO_MB MB, largest: $HUGO_LARGEST"
  [ "$HUGO_PAGES" = "$HFILES" ] || note "Hugo wrote $HUGO_PAGES pages for $HFILES files"
fi
HUGO_PPS=$(div "$HFILES" "$HUGO_WALL" 0)
HUGO_PPCPU=$(div "$HFILES" "$HUGO_CPU" 0)

# Benchmarks, one go test per package, with the tree that package wants.
gobench() { # gobench PKG TREE [go test flags...]
  local pkg=$1 tree=$2
  shift 2
  case " $BENCH_SKIP " in *" $pkg "*)
    note "benchmarks of $pkg skipped (BENCH_SKIP)"
    : >"$BENCH/bench-$(basename "$pkg").txt"
    return
    ;;
  esac
  step "go test -bench $pkg (KUBEWALK_BENCH_TREE=${tree##*/goproxy/})"
  KUBEWALK_BENCH_TREE=$tree KUBEWALK_E2E_CACHE=$E2E_CACHE \
    "$GO" test -run '^$' -bench . -benchmem -count 1 -timeout 60m "$@" "$pkg" | tee "$BENCH/bench-$(basename "$pkg").txt" ||
    note "benchmarks of $pkg failed"
}

gobench ./site "$TREE_OLD" -benchtime "$BENCHTIME"
S=$BENCH/bench-site.txt
KW_PPS=$(metric $S BenchmarkSourcePages pages/s)
KW_PPCPU=$(metric $S BenchmarkSourcePages pages/cpu-s)
KW_MB=$(metric $S BenchmarkSourcePages MB)
KW_LARGEST=$(metric $S BenchmarkSourcePages largest-kB)
KW_PAGES=$(grep -o '[0-9]* source pages' $S | tail -1 | cut -d' ' -f1)

step "kubewalk build --tag $OLD_TAG: real analysis and identifier links (first run fills the facts cache)"
build() { # build TAG OUT TIMEFILE; TAG may be a range (--tags)
  local flag=--tag
  case $1 in *..*) flag=--tags ;; esac
  timed "$3" "$BIN" --cache-dir "$E2E_CACHE" build --source goproxy "$flag" "$1" --out "$2" 2>&1 | tail -1
}
build $OLD_TAG "$BENCH/kw-$OLD_TAG" "$BENCH/build1.time"
echo "first build: wall $(wall "$BENCH/build1.time")s (analysis included unless the facts were cached)"
BUILT=$(build $OLD_TAG "$BENCH/kw-$OLD_TAG" "$BENCH/build.time")
echo "$BUILT"
E2E_WALL=$(wall "$BENCH/build.time") E2E_CPU=$(cpu "$BENCH/build.time") E2E_RSS=$(rssmb "$BENCH/build.time")
E2E_SRC=$(find "$BENCH/kw-$OLD_TAG/src" -name '*.html' | wc -l)
E2E_SRC_BYTES=$(du -sb "$BENCH/kw-$OLD_TAG/src" | cut -f1)
E2E_BYTES=$(du -sb "$BENCH/kw-$OLD_TAG" | cut -f1)
E2E_SRC_IN=$(find "$BENCH/kw-$OLD_TAG/src" -name '*.html' -printf '%P\n' | grep -cE '^pkg/(controller|scheduler|kubelet)/' || true)
echo "second build: wall ${E2E_WALL}s cpu ${E2E_CPU}s maxrss ${E2E_RSS}MB; $E2E_SRC source pages ($E2E_SRC_IN of them in the 3 dirs), $(mb "$E2E_SRC_BYTES") MB of source pages, $(mb "$E2E_BYTES") MB in all"

step "kubewalk build --tag $NEW_TAG (the default site)"
build $NEW_TAG "$BENCH/kw-$NEW_TAG" "$BENCH/build-new1.time" >/dev/null
BUILT_NEW=$(build $NEW_TAG "$BENCH/kw-$NEW_TAG" "$BENCH/build-new.time")
echo "$BUILT_NEW"
NEW_WALL=$(wall "$BENCH/build-new.time")
NEW_BYTES=$(du -sb "$BENCH/kw-$NEW_TAG" | cut -f1)
NEW_PAGES=$(find "$BENCH/kw-$NEW_TAG" -name '*.html' | wc -l)
WT_LARGEST=$(find "$BENCH/kw-$NEW_TAG" -path '*/walkthroughs/*.html' -printf '%s %P\n' | sort -n | tail -1)
PAGE_LARGEST=$(find "$BENCH/kw-$NEW_TAG" -name '*.html' -printf '%s %P\n' | sort -n | tail -1)
echo "largest walkthrough page: $WT_LARGEST; largest page: $PAGE_LARGEST"

# The default site's facts.json.zst encoded again from the facts it holds:
# encode time, its bytes and those of the gzipped plain JSON of before.
step "go test -bench Encode ./analyzer/fact/factsfile (the facts of $NEW_TAG)"
KUBEWALK_BENCH_FACTS=$BENCH/kw-$NEW_TAG/facts.json.zst \
  "$GO" test -run '^$' -bench '^BenchmarkEncode$' -benchmem -count 1 -benchtime 3x ./analyzer/fact/factsfile | tee "$BENCH/bench-facts.txt" ||
  note "BenchmarkEncode (factsfile) failed"
grep -q '^BenchmarkEncode' "$BENCH/bench-facts.txt" || note "BenchmarkEncode (factsfile) did not run"

step "kubewalk build --tags $ALL_RANGE (every minor release, latest patch)"
# The first build fetches and analyses what the cache lacks; the second,
# measured, builds from cached trees and facts, as make site-all does
# from a warm module cache.
build "$ALL_RANGE" "$BENCH/kw-all" "$BENCH/build-all1.time"
BUILT_ALL=$(build "$ALL_RANGE" "$BENCH/kw-all" "$BENCH/build-all.time")
echo "$BUILT_ALL"
ALL_WALL=$(wall "$BENCH/build-all.time") ALL_RSS=$(rssmb "$BENCH/build-all.time")
ALL_BYTES=$(du -sb "$BENCH/kw-all" | cut -f1)
ALL_SRC_BYTES=$(du -sb "$BENCH/kw-all/src" | cut -f1)
# The releases' own subtrees; the rest but the source pages is the pages
# the releases share (site/internal/pageshare) and the list of releases.
ALL_REL_BYTES=$(du -scb "$BENCH"/kw-all/v*/ | tail -1 | cut -f1)
ALL_PAGES=$(find "$BENCH/kw-all" -name '*.html' | wc -l)
ALL_LARGEST=$(find "$BENCH/kw-all" -name '*.html' -printf '%s %P\n' | sort -n | tail -1)
ALL_FACTS_BYTES=$(find "$BENCH/kw-all" -name facts.json.zst -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
echo "largest page of the $ALL_RANGE site: $ALL_LARGEST"

gobench ./internal/render/codehtml "$TREE_OLD" -benchtime "$BENCHTIME"
gobench ./analyzer "$TREE_NEW"
gobench ./source "$TREE_NEW"
# BenchmarkServeRebuildReal edits a walkthrough of the real $NEW_TAG site,
# its tree and facts from E2E_CACHE (cached by the builds above).
gobench ./cmd/kubewalk/internal/serve "$TREE_NEW" -benchtime 10x
# BenchmarkTrace on the real $NEW_TAG facts, opened as the command opens
# them; internal/derive/trace's is on its fixture.
gobench ./cmd/kubewalk/internal/sitebuild "$TREE_NEW"
gobench ./internal/derive/trace "$TREE_NEW"
# The recorded run: the programs built from an empty Go build cache (about
# 10 minutes here), plain and with coverage counters, then a record with
# each built.
gobench ./record "$TREE_NEW" -benchtime 1x

# Anything else with a benchmark that the list above missed.
for d in $(grep -rl --include='*_test.go' --exclude-dir=.cache --exclude-dir=testdata --exclude-dir=public --exclude-dir=.git '^func Benchmark' . 2>/dev/null | xargs -rn1 dirname | sort -u); do
  case $d in ./site | ./internal/render/codehtml | ./analyzer | ./source | ./cmd/kubewalk/internal/serve | ./cmd/kubewalk/internal/sitebuild | ./internal/derive/trace | ./record) ;;
  *) gobench "$d" "$TREE_NEW" ;;
  esac
done

REC=$BENCH/bench-record.txt
A=$BENCH/bench-analyzer.txt SRC=$BENCH/bench-source.txt SV=$BENCH/bench-serve.txt TR=$BENCH/bench-sitebuild.txt CH=$BENCH/bench-codehtml.txt
LOAD_END=$(cut -d' ' -f1-3 /proc/loadavg)

step "summary"
{
  printf '\nkubewalk bench — %s, %s cores, %s; load average (1/5/15 min) at start %s, at end %s; %ds in all\n' \
    "$(date -u +%FT%TZ)" "$(nproc)" "$("$GO" env GOVERSION)" "$LOAD_START" "$LOAD_END" $(($(date +%s) - START))
  printf '%-62s %-30s %s\n' "measure" "value" "target / reference"
  printf '%-62s %-30s %s\n' "-------" "-----" "------------------"
  row() { printf '%-62s %-30s %s\n' "$1" "$2" "${3:-}"; }
  hsrc=measured; [ "$HUGO_OK" = 1 ] || hsrc="issue 4 reference, NOT measured"
  row "source files rendered ($OLD_TAG controller+scheduler+kubelet)" "$HFILES files, $HLINES lines" "914 files, 177k lines"
  row "Hugo $HUGO_VERSION wall, median of $HUGO_RUNS ($hsrc)" "${HUGO_WALL} s" "5.9 s (issue 4)"
  row "Hugo pages/s (wall)" "$HUGO_PPS" "155 (issue 4)"
  row "Hugo pages/cpu-s" "$HUGO_PPCPU"
  row "Hugo output" "${HUGO_MB} MB" "64 MB (issue 4)"
  row "Hugo peak RSS" "${HUGO_RSS} MB"
  row "kubewalk source pages/s (BenchmarkSourcePages, wall)" "$KW_PPS ($KW_PAGES pages)" "≥ 5× Hugo"
  row "kubewalk source pages/cpu-s" "$KW_PPCPU"
  row "RATIO kubewalk/Hugo pages/s (wall)" "$(div "$KW_PPS" "$HUGO_PPS" 2)×" "≥ 5×"
  row "RATIO kubewalk/Hugo pages/cpu-s" "$(div "$KW_PPCPU" "$HUGO_PPCPU" 2)×" "≥ 5×"
  row "kubewalk output of those pages (synthesized links)" "${KW_MB} MB, largest ${KW_LARGEST} kB" "≤ Hugo's (${HUGO_MB} MB)"
  row "RATIO output kubewalk/Hugo" "$(div "$KW_MB" "$HUGO_MB" 2)" "≤ 1"
  row "real build $OLD_TAG, cached facts (2nd run): wall" "${E2E_WALL} s (cpu ${E2E_CPU} s, ${E2E_RSS} MB)"
  row "  its source pages (real xrefs; only referenced files)" "$E2E_SRC pages ($E2E_SRC_IN in the 3 dirs), $(mb "$E2E_SRC_BYTES") MB" "site total $(mb "$E2E_BYTES") MB"
  row "  whole build pages/s (source pages / build wall)" "$(div "$E2E_SRC" "$E2E_WALL" 0)"
  row "  bytes per source page: kubewalk real / Hugo" "$(div "$E2E_SRC_BYTES" "$((E2E_SRC * 1000))" 1) kB / $(div "${HUGO_BYTES:-64000000}" "$((HFILES * 1000))" 1) kB"
  row "default site $NEW_TAG build, cached facts: wall" "${NEW_WALL} s" "$NEW_PAGES pages, $(mb "$NEW_BYTES") MB (≤ 30 MB)"
  row "largest walkthrough page ($NEW_TAG)" "$(awk '{printf "%.1f kB %s", $1/1000, $2}' <<<"$WT_LARGEST")" "< 200 kB"
  row "largest page of the site ($NEW_TAG)" "$(awk '{printf "%.1f kB %s", $1/1000, $2}' <<<"$PAGE_LARGEST")" "≤ 1 MB"
  row "site of $ALL_RANGE (make site-all), cached: wall, peak RSS" "${ALL_WALL} s, ${ALL_RSS} MB" "$ALL_PAGES pages"
  row "  its size; of it, the shared source pages" "$(mb "$ALL_BYTES") MB; $(mb "$ALL_SRC_BYTES") MB"
  row "  of it, the other pages shared by releases; each release's own" "$(mb "$((ALL_BYTES - ALL_SRC_BYTES - ALL_REL_BYTES))") MB; $(mb "$ALL_REL_BYTES") MB"
  row "  RATIO its size / the default site's" "$(div "$ALL_BYTES" "$NEW_BYTES" 2)×" "≤ 2×"
  row "  its largest page" "$(awk '{printf "%.1f kB %s", $1/1000, $2}' <<<"$ALL_LARGEST")" "≤ 1 MB"
  F=$BENCH/bench-facts.txt
  row "facts.json.zst $NEW_TAG: bytes, encode time" "$(metric $F BenchmarkEncode zst-kB) kB, $(msecs "$(metric $F BenchmarkEncode ns/op)")" "$(metric $F BenchmarkEncode gz-kB) kB as facts.json.gz"
  row "  facts.json.zst of every release of $ALL_RANGE" "$(mb "$ALL_FACTS_BYTES") MB" "5.5 MB as facts.json.gz"
  row "codehtml BenchmarkGo / GoParallel" "$(msecs "$(metric $CH BenchmarkGo ns/op)") / $(msecs "$(metric $CH BenchmarkGoParallel ns/op)")"
  row "analysis cold (empty GOCACHE), $NEW_TAG: time, peak RSS" "$(secs "$(metric $A BenchmarkAnalyzeCold ns/op)"), $(metric $A BenchmarkAnalyzeCold peak-RSS-MB) MB" "≤ 8 s quiet, ≤ 1.5 GB"
  row "  go list -deps -json, same roots, empty GOCACHE (same runs)" "$(metric $A BenchmarkAnalyzeCold golist-s/op) s"
  row "  RATIO analysis cold / go list -deps -json" "$(metric $A BenchmarkAnalyzeCold analysis/golist)"
  row "  go list -deps -export cold, same roots" "$(secs "$(metric $A BenchmarkGoListExportCold ns/op)"), $(metric $A BenchmarkGoListExportCold peak-RSS-MB) MB"
  row "  RATIO analysis cold / go list -export cold" "$(div "$(metric $A BenchmarkAnalyzeCold ns/op)" "$(metric $A BenchmarkGoListExportCold ns/op)" 2)"
  row "analysis warm GOCACHE: time, peak RSS" "$(secs "$(metric $A BenchmarkAnalyzeWarm ns/op)"), $(metric $A BenchmarkAnalyzeWarm peak-RSS-MB) MB"
  row "  go list -deps -export warm" "$(secs "$(metric $A BenchmarkGoListExportWarm ns/op)"), $(metric $A BenchmarkGoListExportWarm peak-RSS-MB) MB"
  row "analysis, cached facts: time, peak RSS" "$(secs "$(metric $A BenchmarkAnalyzeCached ns/op)"), $(metric $A BenchmarkAnalyzeCached peak-RSS-MB) MB" "≤ 1 s"
  row "cached fetch (BenchmarkFetchCached, git fixture)" "$(usecs "$(metric $SRC BenchmarkFetchCached ns/op)")"
  row "cached fetch $NEW_TAG via CLI (process start incl.)" "${FETCH_CLI} s"
  row "clone depth 1 of $NEW_TAG mirror: go-git / git" "$(metric $SRC BenchmarkClone/ratio go-git-s/op) s / $(metric $SRC BenchmarkClone/ratio git-s/op) s"
  row "  RATIO go-git / git clone" "$(metric $SRC BenchmarkClone/ratio go-git/git)" "≤ 1.1"
  row "  RATIO go-git / git clone, CPU (user+sys)" "$(metric $SRC BenchmarkClone/ratio go-git-cpu/git-cpu)"
  row "serve save->reload (fixture site): mean, worst" "$(msecs "$(metric $SV BenchmarkServeRebuild ns/op)"), $(metric $SV BenchmarkServeRebuild worst-ms) ms" "well under 1 s"
  sv() { echo "$(msecs "$(metric $SV "BenchmarkServeRebuildReal/$1" ns/op)"), $(metric $SV "BenchmarkServeRebuildReal/$1" worst-ms) ms"; }
  row "serve save->reload, real $NEW_TAG site, text edit: mean, worst" "$(sv text)" "< 300 ms"
  row "  a step's title edited (its files' backlinks change)" "$(sv title)" "< 300 ms"
  row "  baseline: the text edit, a whole build each time" "$(sv full)"
  row "  RATIO baseline / text edit (mean)" "$(div "$(metric $SV BenchmarkServeRebuildReal/full ns/op)" "$(metric $SV BenchmarkServeRebuildReal/text ns/op)" 1)×"
  row "trace deployments, cached facts" "$(msecs "$(metric $TR BenchmarkTrace ns/op)")" "well under 1 s"
  row "record: the programs of $NEW_TAG, empty GOCACHE: time, peak RSS" "$(secs "$(metric $REC BenchmarkBuildCold ns/op)"), $(metric $REC BenchmarkBuildCold peak-RSS-MB) MB" "beside analysis cold above"
  row "record with the programs built: time, peak RSS of all" "$(secs "$(metric $REC BenchmarkRecordCached ns/op)"), $(metric $REC BenchmarkRecordCached peak-RSS-MB) MB" "≤ 60 s, ≤ 4 GB"
  row "record: the programs with coverage counters, empty GOCACHE: time, peak RSS" "$(secs "$(metric $REC BenchmarkBuildColdCoverage ns/op)"), $(metric $REC BenchmarkBuildColdCoverage peak-RSS-MB) MB" "≤ 1.5× the plain build"
  row "  RATIO coverage build / plain build: time, peak RSS" "$(div "$(metric $REC BenchmarkBuildColdCoverage ns/op)" "$(metric $REC BenchmarkBuildCold ns/op)" 2)×, $(div "$(metric $REC BenchmarkBuildColdCoverage peak-RSS-MB)" "$(metric $REC BenchmarkBuildCold peak-RSS-MB)" 2)×" "≤ 1.5×"
  row "record with coverage, programs built: time, coverage in the JSON" "$(secs "$(metric $REC BenchmarkRecordCachedCoverage ns/op)"), $(metric $REC BenchmarkRecordCachedCoverage coverage-KB) KB" "≤ 1.5× the plain record, ≤ 2 MB"
  row "  RATIO record with coverage / plain record" "$(div "$(metric $REC BenchmarkRecordCachedCoverage ns/op)" "$(metric $REC BenchmarkRecordCached ns/op)" 2)×" "≤ 1.5×"
  row "  RATIO record / analysis warm GOCACHE" "$(div "$(metric $REC BenchmarkRecordCached ns/op)" "$(metric $A BenchmarkAnalyzeWarm ns/op)" 1)×"
  for n in "${NOTES[@]}"; do echo "NOTE: $n"; done
  echo "full output: $LOG"
} | tee "$BENCH/summary.txt"
