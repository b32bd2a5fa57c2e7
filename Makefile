# kubewalk — see README.md. Two commands set a fresh machine up:
#   make site   builds the site for the default release into ./public
#   make test   downloads kubewalk's own Go modules, then runs the unit and
#               integration tests offline (fixtures, no Kubernetes)

GO        ?= go
BIN       := bin/kubewalk
OUT       ?= public
TAG       ?=
SOURCE    ?= auto
# e2e and bench share one cache so a release is fetched and analysed once.
E2E_CACHE ?= $(CURDIR)/.cache/e2e
ARTIFACTS ?= $(CURDIR)/.cache/artifacts
FUZZTIME  ?= 30s
# A release newer than the default, and the Go it needs (make e2e).
NEXT_TAG  ?= v1.38.0-beta.0
NEXT_GO   ?= go1.27.3

.PHONY: all build site site-all check-site-all test e2e bench lint fuzz clean recordings

all: build

build:
	$(GO) build -o $(BIN) ./cmd/kubewalk

site: build
	./$(BIN) build $(if $(TAG),--tag $(TAG)) --source $(SOURCE) --out $(OUT)

# One site of every minor release the walkthroughs support, each at its
# latest patch (a subtree per release, a version switcher).
RANGE ?= v1.29..v1.37
site-all: build
	./$(BIN) build --tags $(RANGE) --source $(SOURCE) --out $(OUT)

# site-all, then its checks: the link checker over the whole site, and
# every page the releases share read as each release in headless Chromium,
# its links compared with the link checker's reading (a few minutes).
check-site-all: site-all
	KUBEWALK_LINKCHECK_DIR=$(abspath $(OUT)) KUBEWALK_REAL_MULTI_SITE=$(abspath $(OUT)) \
		$(GO) test -count=1 -timeout 60m -run 'TestLinksOfSite|TestBrowserSharedReleasePagesReal' ./site

# The recordings kept with the walkthroughs, made again: every scenario of
# the default release (or TAG), with coverage counters, compressed into
# walkthroughs/recordings. The first scenario runs alone and builds the
# release's programs when the cache lacks them (10-20 minutes); the
# others then run RECORD_JOBS at once, each with a control plane of its
# own (its own ports and run directory), their log lines naming them.
SCENARIOS ?= deployment scale delete unschedulable daemonset statefulset imagepull crashloop job cronjob service rollout
RECORD_JOBS ?= 3
RECORD = ./$(BIN) record $(if $(TAG),--tag $(TAG)) --source $(SOURCE) --keep-in walkthroughs/recordings -o json
recordings: build
	$(RECORD) --scenario $(firstword $(SCENARIOS)) >/dev/null
	printf '%s\n' $(wordlist 2,$(words $(SCENARIOS)),$(SCENARIOS)) | xargs -P $(RECORD_JOBS) -I{} $(RECORD) --scenario {} >/dev/null

# go mod download first, said as its own step: a fresh machine fetches
# kubewalk's dependencies (about 350 MB unpacked) once; the tests
# themselves use fixtures only, no Kubernetes download and no network.
# The browser tests need Chromium (Debian's chromium package; .ci/run
# installs it): under CI=true a missing one fails them, elsewhere they skip
# and the last line says so.
CHROMIUM_FOUND = $(or $(KUBEWALK_CHROMIUM),$(wildcard /usr/bin/chromium),$(shell command -v chromium chromium-browser google-chrome google-chrome-stable 2>/dev/null | head -1))
test:
	$(GO) mod download
	@$(GO) test -count=1 ./...; rc=$$?; \
	if [ -z "$(CHROMIUM_FOUND)" ]; then \
		echo "make test: no Chromium found, so the browser tests were SKIPPED (apt-get install chromium, or set KUBEWALK_CHROMIUM)"; \
	fi; exit $$rc

# Real Kubernetes through the Go module proxy: fetch, analyse, check the
# built-in walkthroughs at several releases, build the default site, link
# check it and open it in a browser.
e2e: build
	mkdir -p $(E2E_CACHE) $(ARTIFACTS)
	KUBEWALK_E2E_CACHE=$(E2E_CACHE) KUBEWALK_ARTIFACTS=$(ARTIFACTS) KUBEWALK_BIN=$(CURDIR)/$(BIN) \
		$(GO) test -count=1 -tags e2e -timeout 60m -p 1 ./...
	# The explain page and `kubewalk explain` agree on the default release's
	# real facts too, not only on the fixture's; every Recorded run page of
	# its site reads in both languages at desktop and phone width, and no
	# page but the source pages reaches past a phone's screen.
	./$(BIN) --cache-dir $(E2E_CACHE) build --source goproxy --out $(ARTIFACTS)/default-site
	KUBEWALK_EXPLAIN_FACTS=$(ARTIFACTS)/default-site/facts.json.zst KUBEWALK_REAL_SITE=$(ARTIFACTS)/default-site \
		$(GO) test -count=1 -run 'TestBrowserExplainParityFacts|TestBrowserRecordedRunsReal|TestBrowserPhoneReal' ./site
	# The default release and the one before it as one site: every page
	# they share, read as each release in a browser, links as the link
	# checker reads them (make check-site-all does it for every release).
	./$(BIN) --cache-dir $(E2E_CACHE) build --source goproxy --tag v1.36.3 --tag v1.37.2 --out $(ARTIFACTS)/two-releases
	KUBEWALK_REAL_MULTI_SITE=$(ARTIFACTS)/two-releases \
		$(GO) test -count=1 -run 'TestBrowserSharedReleasePagesReal' ./site
	# The newest release the proxy serves needs a newer Go than kubewalk's
	# own: built with that Go, kubewalk reads it, and the walkthroughs
	# resolve there too.
	GOTOOLCHAIN=$(NEXT_GO) $(GO) build -o $(E2E_CACHE)/kubewalk-$(NEXT_GO) ./cmd/kubewalk
	GOTOOLCHAIN=$(NEXT_GO) $(E2E_CACHE)/kubewalk-$(NEXT_GO) --cache-dir $(E2E_CACHE) check --source goproxy --tag $(NEXT_TAG)

bench: build
	GO=$(GO) E2E_CACHE=$(E2E_CACHE) bash bench/run.sh

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v /testdata/)); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# Longer fuzzing than the seed-corpus runs in `make test`.
fuzz:
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
			echo "fuzz $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime 2s $$pkg || exit 1; \
		done; \
	done

clean:
	rm -rf bin $(OUT) .cache
