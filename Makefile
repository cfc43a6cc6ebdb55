# Reel — the two commands: `make demo` and `make test`. Both install what is missing first.
SWIFT      ?= swift
BUILD_DIR  ?= .build
CONFIG     ?= debug
REEL        = $(BUILD_DIR)/$(CONFIG)/reel
XVFB        = xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp -noreset"
# Pinned look for screenshot tests (the tests also pin GtkSettings: font, icons, no animations).
# PULSE_SERVER: no sound server but the ones tests start themselves (AudioFocusTests), so that a
# desktop's own or an autospawned PulseAudio never changes what the other tests hear.
# A crash in a test's reel (or the test process) reports the crashed thread alone: with every
# thread, CI's tail of a failure showed an idle NIO event loop and not the frames that died.
UI_ENV      = env GTK_THEME=Adwaita GDK_SCALE=1 GDK_DPI_SCALE=1 NO_AT_BRIDGE=1 GTK_CSD=0 PULSE_SERVER=unix:/nonexistent/reel-tests \
              SWIFT_BACKTRACE=threads=crashed,registers=none,images=none
# Swift sources that import a shim header; SwiftPM does not rebuild them when only a header changes.
SHIM_USERS  = Sources/ReelGLib Sources/ReelEngine Sources/ReelUI Sources/ReelDesktop Sources/ReelApp Tests

.PHONY: all setup shims build media demo test test-serial test-fast bench soak fuzz install clean goldens docs locale pot deb package-test

all: build

setup:
	@bash Resources/scripts/setup.sh
	@bash Resources/scripts/setup-python.sh

# Force a rebuild of shim users when CGStreamer/shim.h or CGtk/shim.h changed since the last build.
shims:
	@mkdir -p $(BUILD_DIR)
	@sum=$$(cat CGStreamer/shim.h CGtk/shim.h Sources/CGio/shim.h Sources/CGLib/shim.h Sources/CReelFrame/include/*.h | md5sum | cut -d' ' -f1); \
	if [ "$$(cat $(BUILD_DIR)/.shims.md5 2>/dev/null)" != "$$sum" ]; then \
	  grep -rlE '^import (CGStreamer|CGtk|CGio|CGLib|CReelFrame)' $(SHIM_USERS) | xargs -r touch; \
	  find $(BUILD_DIR) -name 'CReelFrame-*.pcm' -delete 2>/dev/null || true; \
	  echo $$sum > $(BUILD_DIR)/.shims.md5; \
	fi

# Release builds link Swift's runtime and Foundation statically: fewer libraries for the dynamic
# loader to map and search at every start (`make bench`'s start-up breakdown, docs/BENCHMARKS.md).
STATIC_STDLIB = $(if $(filter release,$(CONFIG)),--static-swift-stdlib)

build: setup shims locale
	$(SWIFT) build -c $(CONFIG) $(STATIC_STDLIB)

# Translations: po/*.po checked and compiled (msgfmt --check) into $(BUILD_DIR)/locale, where the
# built binary finds them (../locale beside it; installed: ../share/locale).
locale:
	@for po in po/*.po; do lang=$$(basename $$po .po); mkdir -p $(BUILD_DIR)/locale/$$lang/LC_MESSAGES; \
	  msgfmt --check -o $(BUILD_DIR)/locale/$$lang/LC_MESSAGES/reel.mo $$po || exit 1; done

# The template of every string a person reads (each `tr("…")` in the sources) and the catalogues
# merged with it: run after adding or changing such a string, then translate what is new.
pot:
	xgettext --language=C --keyword=tr --from-code=UTF-8 --package-name=reel --sort-by-file --no-wrap -o po/reel.pot \
	  $$(grep -rlE '\btr\("' Sources --include='*.swift' | LC_ALL=C sort)
	python3 Resources/scripts/po-update.py

media: setup
	@bash Resources/scripts/make-media.sh

# Plays the bundled demo playlist: in a window when there is a display, headless otherwise.
demo: build media
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  $(REEL) Resources/demo.m3u; \
	else \
	  echo "demo: no display (DISPLAY is unset): playing headless, printing events"; \
	  $(REEL) --headless --events --audio-sink "fakesink sync=true" Resources/demo.m3u; \
	fi

# Every test, in parallel lanes (TEST_LANES, default 4), each under its own virtual X display and
# private session bus (Resources/scripts/test-lanes.py); the ten slowest tests are listed at the end.
# LOAD=1 runs a busy loop on one core beside the suite; TEST_FILTER=REGEX runs the matching tests.
TEST_BUNDLE = $(BUILD_DIR)/debug/ReelPackageTests.xctest
test: setup shims media locale
	$(SWIFT) build --build-tests
	$(UI_ENV) python3 Resources/scripts/test-lanes.py $(TEST_BUNDLE) $(if $(LOAD),--load)

# The suite as one process, one test after another (the old way; for bisecting an interaction).
test-serial: setup shims media
	$(SWIFT) build --build-tests
	$(UI_ENV) $(XVFB) dbus-run-session -- $(SWIFT) test --skip-build --disable-swift-testing

# Rewrites the screenshot goldens (Tests/ReelUITests/Goldens, Tests/ReelAppTests/Goldens) from this
# run after an intended UI change: review the PNGs (git diff) and commit them.
goldens: setup shims media
	$(SWIFT) build --build-tests
	REEL_UPDATE_GOLDENS=1 $(UI_ENV) $(XVFB) dbus-run-session -- $(SWIFT) test --disable-swift-testing --filter 'ReelUITests|WindowSessionTests'

# Benchmarks measure the optimised build (the target-specific CONFIG reaches `build` too).
bench: CONFIG = release
bench: build media
	@bash Resources/scripts/setup.sh --bench
	@bash Resources/scripts/make-media.sh --bench
	@BUILD_DIR=$(BUILD_DIR) CONFIG=$(CONFIG) bash Resources/scripts/bench.sh

# The masters lane first (every HLS master fixture, fresh and warm, REPEAT times: 0 crashes), then
# the timed soak.
soak: build media
	@BUILD_DIR=$(BUILD_DIR) CONFIG=$(CONFIG) bash Resources/scripts/soak-masters.sh $(or $(REPEAT),20)
	@BUILD_DIR=$(BUILD_DIR) CONFIG=$(CONFIG) bash Resources/scripts/soak.sh $(MINUTES)

# libFuzzer over ReelCore (Tests/Fuzz): make fuzz [FUZZ_TARGET=all] [FUZZ_SECONDS=300]
# docs/OPTIONS.md's generated part: `reel help play|check|inspect`, from the argument parser.
docs: build
	@python3 Resources/scripts/gen-option-docs.py $(REEL)
	@python3 Resources/scripts/architecture-map.py

fuzz: setup
	@bash Resources/scripts/fuzz.sh $(or $(FUZZ_TARGET),all) $(or $(FUZZ_SECONDS),300)

install: locale
	$(SWIFT) build -c release --static-swift-stdlib
	@bash Resources/scripts/install.sh "$(PREFIX)" "$(BUILD_DIR)/release/reel"

# A Debian package (.build/reel_VERSION_ARCH.deb) of the release build, and its check: unpacked it
# plays a clip; as root it is installed with apt, played and removed (Resources/scripts/package-test.sh).
deb: locale
	$(SWIFT) build -c release --static-swift-stdlib
	@bash Resources/scripts/make-deb.sh $(BUILD_DIR)/release/reel $(BUILD_DIR)

package-test: deb media
	@bash Resources/scripts/package-test.sh $$(ls -t $(BUILD_DIR)/reel_*.deb | head -1)

clean:
	rm -rf $(BUILD_DIR) Resources/media
