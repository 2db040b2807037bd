# Muster: two commands on a fresh Debian machine.
#   make demo   a working kiosk with sample data (installs packages, builds, opens the kiosk screen)
#   make test   the whole test suite (installs packages, builds, runs unit, live and end-to-end tests)
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift

.PHONY: deps build demo test interop lab lab-down clean fuzz fuzz-short deb boot-test bench bench-smoke guard faults faults-short sim sim-night sim-short sim-byzantine model

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

demo: build
	scripts/demo.sh

test: build
	# The layering (README.md, "Architecture"): no import or manifest dependency points up; the check
	# first proves on a scratch tree that it catches wrong arrows.
	scripts/check-layering --self-test
	scripts/check-layering
	# What the built front end links (debug build, the one above): no libavahi-client, no NIOPosix; the
	# check first proves it refuses musterd, which links both.
	scripts/check-links --self-test
	scripts/check-links
	# Formatting: .swift-format is swift-nio's (4 spaces, 120 columns) with OneCasePerLine off, because
	# raw-value enums are deliberately written on one line (`case hello = 1, heads, deltas`).
	$(SWIFT) format lint --strict -r Sources Tests
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip MusterIntegrationTests
	# Real daemons, the lab and its avahi-daemons: one suite at a time, so timing-sensitive unit
	# tests and several labs never compete on a 2-core machine.
	$(SWIFT) test --skip-build --filter MusterIntegrationTests --no-parallel
	# The round trip with a real pretix from PyPI on loopback (README.md, "pretix").
	$(MAKE) --no-print-directory interop
	# Every parser of hostile input, 10 s per target from the committed corpus (Fuzz/README.md).
	$(MAKE) --no-print-directory fuzz-short
	# The Debian package booted as three kiosks in systemd-nspawn machines (docs/kiosk-install.md, "The boot test").
	@if ! command -v systemd-nspawn >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then \
		echo "boot-test skipped: needs systemd-nspawn (systemd-container) and debootstrap; scripts/install-deps.sh installs them"; \
	elif [ "$$(id -u)" -ne 0 ]; then \
		echo "boot-test skipped: needs root (debootstrap, network namespaces, systemd-nspawn)"; \
	else \
		$(MAKE) --no-print-directory boot-test; \
	fi
	# The fault campaign's 3-minute version (RELIABILITY.md): root only, like the lab it runs on.
	@if [ "$$(id -u)" -ne 0 ]; then \
		echo "faults-short skipped: needs root (network namespaces, avahi-daemon per kiosk)"; \
	else \
		$(MAKE) --no-print-directory faults-short; \
	fi
	# What the benchmark measures, not only that it runs: instructions per catch-up delta, per interleaved
	# delta and per local check-in against the budgets in bench/instruction-budgets (fails > 3 % over).
	$(MAKE) --no-print-directory guard
	$(MAKE) --no-print-directory bench-smoke
	$(MAKE) --no-print-directory sim-short

# A real pretix (PyPI, SQLite, 127.0.0.1 only) started for the round-trip test and stopped after it,
# whatever the test did (scripts/pretix-lab; the venv and a migrated database are kept in .build-pretix).
interop: build
	$(SWIFT) build --build-tests
	@dir=$$(mktemp -d /tmp/muster-pretix-XXXXXX); \
	trap 'scripts/pretix-lab stop "$$dir/lab" >/dev/null 2>&1 || true; rm -rf "$$dir"' EXIT; \
	port=$$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'); \
	scripts/pretix-lab start "$$dir/lab" "$$port" >/dev/null && \
	MUSTER_PRETIX_LAB="$$dir/lab" $(SWIFT) test --skip-build --filter PretixInteropTests

# Speed figures beside the physical limits of this machine, measured in the same run (BENCHMARKS.md):
# one table on stdout and .bench/results.json. A missed target is reported, not a failure.
bench: deps
	$(SWIFT) build -c release --product muster-bench
	# The lab figures run the release musterd and muster that sit beside muster-bench (root only).
	$(SWIFT) build -c release --product musterd
	$(SWIFT) build -c release --product muster
	"$$($(SWIFT) build -c release --show-bin-path)/muster-bench"

# The instruction-count guard (BENCHMARKS.md, "The instruction-count guard"): callgrind counts the
# instructions of fixed workloads of the release muster-bench (a count, unlike a time, does not depend on
# the machine's load) and fails when a figure is more than 3 % over its budget in bench/instruction-budgets.
# The release build is the one whose instructions matter; it uses make deb's scratch path and flags
# (scripts/build-deb.sh), so in `make test`, after the package's build, only muster-bench is compiled.
GUARD_BUILD = -c release --static-swift-stdlib --scratch-path .build-release \
	-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now
guard: deps
	$(SWIFT) build $(GUARD_BUILD) --product muster-bench
	scripts/instruction-guard "$$($(SWIFT) build $(GUARD_BUILD) --show-bin-path)/muster-bench"

# Jepsen-style fault campaign on a lab of real kiosks (RELIABILITY.md): workload, nemesis, checker,
# crash points. Needs root. The debug build is used: crash points exist only in test builds.
faults: build
	$(SWIFT) build --product muster-faults
	scripts/faults --minutes 20

faults-short: build
	$(SWIFT) build --product muster-faults
	scripts/faults --short

# The same at small sizes on the debug build, so `make test` keeps the benchmark working.
bench-smoke: deps
	$(SWIFT) build --product muster-bench
	$(SWIFT) build --product musterd
	$(SWIFT) build --product muster
	"$$($(SWIFT) build --show-bin-path)/muster-bench" --quick

# The deterministic simulator (RELIABILITY.md, "The simulator"): 1,000 seeds of 50 kiosks and 2,000 check-ins
# each through the sync core with every fault on (loss, duplication, reordering, a partition,
# crash-restarts, slow kiosks, clock skew); prints the failing seeds and how many converged, lost and
# phantom; about 9 minutes on two cores (BENCHMARKS.md, "Simulator"). A failing seed replays with
# `muster-sim --kiosks 50 --checkins 2000 --all-faults --store memory --seed S`. Seeds run one per core (`--jobs`).
SIM_SEEDS ?= 1000
sim: deps
	$(SWIFT) build -c release --product muster-sim
	"$$($(SWIFT) build -c release --show-bin-path)/muster-sim" --kiosks 50 --checkins 2000 --all-faults \
		--store memory --seeds $(SIM_SEEDS) --quiet
	# Doors judged by musterd's rule (--entries once), two doors per attendee: every double the faults let
	# through is in every kiosk's `muster report conflicts`, and nothing else (RELIABILITY.md, "Conflicts sweep").
	"$$($(SWIFT) build -c release --show-bin-path)/muster-sim" --kiosks 50 --checkins 2000 --all-faults \
		--doors --seeds 20 --quiet

# The night's sweep (not in `make test`): 10,000 seeds of 50 kiosks with 2,000 check-ins each and every
# fault, memory store; about an hour and a half on two cores (BENCHMARKS.md, "Simulator"). A failing seed replays
# with `muster-sim --kiosks 50 --checkins 2000 --all-faults --store memory --seed S`.
SIM_NIGHT_SEEDS ?= 10000
sim-night: deps
	$(SWIFT) build -c release --product muster-sim
	"$$($(SWIFT) build -c release --show-bin-path)/muster-sim" --kiosks 50 --checkins 2000 --all-faults \
		--store memory --seeds $(SIM_NIGHT_SEEDS) --quiet

# Byzantine mode (RELIABILITY.md, "Byzantine sweep"): 1,000 seeds of 4 kiosks with one liar, then 200 of
# 10 with two; each liar forks its chain, stamps far-future times and rewrites attendees, with every fault
# on, on the real replica.
# Not part of `make test`. A failing seed replays with
# `muster-sim --kiosks 4 --checkins 40 --all-faults --byzantine 1 --seed S`.
sim-byzantine: deps
	$(SWIFT) build -c release --product muster-sim
	"$$($(SWIFT) build -c release --show-bin-path)/muster-sim" --kiosks 4 --checkins 40 --all-faults \
		--byzantine 1 --seeds $(SIM_SEEDS) --quiet
	"$$($(SWIFT) build -c release --show-bin-path)/muster-sim" --kiosks 10 --checkins 100 --all-faults \
		--byzantine 2 --seeds 200 --quiet
	# The organizer revokes a kiosk cut off on the far side of the partition (RELIABILITY.md,
	# "Revocation sweeps"), on both stores.
	"$$($(SWIFT) build -c release --show-bin-path)/muster-sim" --kiosks 4 --checkins 40 --all-faults \
		--revoke --seeds $(SIM_SEEDS) --quiet
	"$$($(SWIFT) build -c release --show-bin-path)/muster-sim" --kiosks 10 --checkins 100 --all-faults \
		--revoke --store memory --seeds 200 --quiet
	"$$($(SWIFT) build -c release --show-bin-path)/muster-sim" --kiosks 10 --checkins 100 --all-faults \
		--revoke --store sqlite --seeds 200 --quiet
	# The organizer's key used on two machines during the partition (RELIABILITY.md, "Organizer fork").
	"$$($(SWIFT) build -c release --show-bin-path)/muster-sim" --kiosks 10 --checkins 100 --all-faults \
		--organizer-fork --seeds 200 --quiet

# A fixed short set on the debug build for `make test` (seconds): a few faulty seeds on the real
# replica, some as an overlay (`--full-mesh 4`: HyParView/Plumtree at 10 kiosks), and one seed of
# each run twice in two processes must print the same event-log hash (two processes have two hash
# seeds: a result that depended on a dictionary's order would differ).
sim-short: deps
	$(SWIFT) build --product muster-sim
	"$$($(SWIFT) build --show-bin-path)/muster-sim" --kiosks 10 --checkins 100 --all-faults --seeds 5 --quiet
	"$$($(SWIFT) build --show-bin-path)/muster-sim" --kiosks 10 --checkins 100 --all-faults --full-mesh 4 \
		--seeds 5 --quiet
	"$$($(SWIFT) build --show-bin-path)/muster-sim" --kiosks 10 --checkins 100 --all-faults --revoke --seeds 5 --quiet
	"$$($(SWIFT) build --show-bin-path)/muster-sim" --kiosks 10 --checkins 100 --all-faults --doors --seeds 5 --quiet
	@bin="$$($(SWIFT) build --show-bin-path)/muster-sim"; \
	for mesh in 64 4; do \
		a=$$("$$bin" --kiosks 10 --checkins 100 --all-faults --full-mesh $$mesh --seed 77 --json | grep -o '"event_log_hash":"[0-9a-f]*"'); \
		b=$$("$$bin" --kiosks 10 --checkins 100 --all-faults --full-mesh $$mesh --seed 77 --json | grep -o '"event_log_hash":"[0-9a-f]*"'); \
		if [ -z "$$a" ] || [ "$$a" != "$$b" ]; then echo "sim-short: seed 77 (full mesh up to $$mesh) did not replay ($$a vs $$b)"; exit 1; fi; \
		echo "sim-short: seed 77 (full mesh up to $$mesh) replayed in a second process ($$a)"; \
	done

# Three kiosks k1..k3 in network namespaces with their own avahi-daemon (root only), sample
# attendees imported and locked on k1; they find each other and sync. `make lab-down` removes it.
lab: build
	scripts/lab up 3
	scripts/lab exec 1 muster import scripts/sample-attendees.csv --campaign "DevConf 2026" --organizer-key .lab/venue/organizer.key
	scripts/lab exec 1 muster lock "DevConf 2026" --organizer-key .lab/venue/organizer.key
	@echo
	@echo "Try: scripts/lab exec 2 muster checkin MUS-0001; scripts/lab exec 3 muster status"
	@echo "     scripts/lab exec 3 muster kiosk; scripts/lab cut 3; scripts/lab heal 3; scripts/lab kill 2; scripts/lab start 2"
	@echo "     make lab-down when done"

lab-down:
	scripts/lab down

# Fuzz every parser of hostile input (sync frames, handshake, deltas, CSV import, control socket) for
# FUZZ_SECONDS per target, starting from the committed corpus in Fuzz/corpus; inputs that crash or break
# a property are saved in Fuzz/crashes (see Fuzz/README.md for replaying them).
FUZZ_SECONDS ?= 60
fuzz: deps
	$(SWIFT) build -c release --product muster-fuzz
	"$$($(SWIFT) build -c release --show-bin-path)/muster-fuzz" --seconds $(FUZZ_SECONDS)

# The same for 10 s per target on the debug build that `make test` already has.
fuzz-short: deps
	$(SWIFT) build --product muster-fuzz
	"$$($(SWIFT) build --show-bin-path)/muster-fuzz" --seconds 10

# The Debian package muster_VERSION_ARCH.deb in the checkout (release build with the Swift runtime
# linked in, dpkg-shlibdeps, dpkg-deb, lintian); docs/kiosk-install.md installs it on a kiosk.
deb: deps
	scripts/build-deb.sh

# Three kiosks from that package, booted with systemd-nspawn on a private bridge, enrolled, synced,
# crashed and powered off (root; skipped, with the reason, where containers cannot boot). kiosk3 starts
# on the previous release's package (scripts/build-previous-deb, from the commit packaging/changelog
# names) and is upgraded in place; in a clone without that commit the test runs one version and says so.
boot-test: deb
	previous=$$(scripts/build-previous-deb) || [ $$? -eq 3 ] || exit 1; \
	scripts/boot-test $${previous:+--previous "$$previous"}

# The revocation/wipe rule checked exhaustively with spin (model/README.md): the old rule must show its
# counterexamples (a device's revocation, a superseded fork branch), the new rule must have none.
model: deps
	scripts/model

clean:
	rm -rf .build
