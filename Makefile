# Muster: two commands on a fresh Debian machine.
#   make demo   a working kiosk with sample data (installs packages, builds, opens the kiosk screen)
#   make test   the whole test suite (installs packages, builds, runs unit, live and end-to-end tests)
SHELL := /bin/bash
export PATH := /opt/swift/usr/bin:$(PATH)
SWIFT ?= swift

.PHONY: deps build demo test clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

demo: build
	scripts/demo.sh

test: build
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build
