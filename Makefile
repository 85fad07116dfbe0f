# Steppie for Linux — convenience targets over the Swift package manager.
PREFIX ?= /usr/local
SWIFT ?= swift

.PHONY: build test run bench install uninstall deb sounds clean

build:
	$(SWIFT) build

test:
	scripts/test.sh

run:
	scripts/run.sh

# Every benchmark of the project (the Benchmarks/ package), in a release build (docs/performance.md).
bench:
	scripts/bench.sh

# Installs the binary and its data under one prefix: $(PREFIX)/bin/steppie and
# $(PREFIX)/share/steppie/{Localization,Sounds,Pronunciation,Web}, where the binary finds them, and the
# systemd user units to $(SYSTEMD_USER_DIR) with ExecStart=$(PREFIX)/bin/steppie serve, and a centre
# hub's system unit to $(SYSTEMD_SYSTEM_DIR) (docs/centre.md).
# STEPPIE_BIN installs a binary already built instead of building a release (the tests use it).
SYSTEMD_USER_DIR ?= $(PREFIX)/lib/systemd/user
SYSTEMD_SYSTEM_DIR ?= $(PREFIX)/lib/systemd/system
STEPPIE_BIN ?=
install:
	@if [ -z "$(STEPPIE_BIN)" ]; then echo "$(SWIFT) build -c release --product steppie --static-swift-stdlib"; $(SWIFT) build -c release --product steppie --static-swift-stdlib; fi
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/steppie $(DESTDIR)$(SYSTEMD_USER_DIR) $(DESTDIR)$(SYSTEMD_SYSTEM_DIR)
	install -m 755 $(if $(STEPPIE_BIN),$(STEPPIE_BIN),.build/release/steppie) $(DESTDIR)$(PREFIX)/bin/steppie
	rm -rf $(DESTDIR)$(PREFIX)/share/steppie/Localization $(DESTDIR)$(PREFIX)/share/steppie/Sounds $(DESTDIR)$(PREFIX)/share/steppie/Pronunciation $(DESTDIR)$(PREFIX)/share/steppie/Web
	cp -r Localization Sounds Pronunciation $(DESTDIR)$(PREFIX)/share/steppie/
	mkdir -p $(DESTDIR)$(PREFIX)/share/steppie/Web
	cp Web/*.html Web/*.css Web/*.js $(DESTDIR)$(PREFIX)/share/steppie/Web/ 2>/dev/null || true
	cp -r Web/icons $(DESTDIR)$(PREFIX)/share/steppie/Web/ 2>/dev/null || true
	sed 's|^ExecStart=.*|ExecStart=$(PREFIX)/bin/steppie serve|' contrib/systemd/steppie.service > $(DESTDIR)$(SYSTEMD_USER_DIR)/steppie.service
	install -m 644 contrib/systemd/steppie-kiosk.service $(DESTDIR)$(SYSTEMD_USER_DIR)/steppie-kiosk.service
	chmod 644 $(DESTDIR)$(SYSTEMD_USER_DIR)/steppie.service
	sed 's|^ExecStart=/usr/bin/steppie |ExecStart=$(PREFIX)/bin/steppie |' contrib/systemd/steppie-hub.service > $(DESTDIR)$(SYSTEMD_SYSTEM_DIR)/steppie-hub.service
	chmod 644 $(DESTDIR)$(SYSTEMD_SYSTEM_DIR)/steppie-hub.service

# The Debian package steppie_<version>_<arch>.deb in this folder, from a release build (or STEPPIE_BIN):
# the binary, /usr/share/steppie, the systemd user units and the man pages (docs/packaging.md).
deb:
	STEPPIE_BIN="$(STEPPIE_BIN)" scripts/make-deb.sh

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/steppie $(DESTDIR)$(SYSTEMD_USER_DIR)/steppie.service $(DESTDIR)$(SYSTEMD_USER_DIR)/steppie-kiosk.service
	rm -f $(DESTDIR)$(SYSTEMD_SYSTEM_DIR)/steppie-hub.service
	rm -rf $(DESTDIR)$(PREFIX)/share/steppie

sounds:
	python3 scripts/make-sounds.py Sounds

clean:
	rm -rf .build
