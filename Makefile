# Steppie for Linux — convenience targets over the Swift package manager.
PREFIX ?= /usr/local
SWIFT ?= swift

.PHONY: build test run bench install uninstall sounds clean

build:
	$(SWIFT) build

test:
	scripts/test.sh

run:
	scripts/run.sh

# Every benchmark of the project, in a release build (see README "Benchmarks").
bench:
	scripts/bench.sh

# Installs the binary and its data under one prefix: $(PREFIX)/bin/steppie and
# $(PREFIX)/share/steppie/{Localization,Sounds,Pronunciation}, where the binary finds them.
install:
	$(SWIFT) build -c release --product steppie
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/steppie
	install -m 755 .build/release/steppie $(DESTDIR)$(PREFIX)/bin/steppie
	rm -rf $(DESTDIR)$(PREFIX)/share/steppie/Localization $(DESTDIR)$(PREFIX)/share/steppie/Sounds $(DESTDIR)$(PREFIX)/share/steppie/Pronunciation
	cp -r Localization Sounds Pronunciation $(DESTDIR)$(PREFIX)/share/steppie/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/steppie
	rm -rf $(DESTDIR)$(PREFIX)/share/steppie

sounds:
	python3 scripts/make-sounds.py Sounds

clean:
	rm -rf .build
