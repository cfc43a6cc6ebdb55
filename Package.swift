// swift-tools-version:6.0
// Reel: a desktop media player for Linux over GStreamer 1.22 (playbin3) and GTK 3.
// Layering (see docs/ARCHITECTURE.md):
//   ReelCore    pure Swift (Foundation at most): queue, playlists, tokens, state, policies.
//   ReelGLib    the GLib main-loop glue (MainQueue, spinning, the headless loop); imports CGLib only.
//   ReelEngine  playbin3 player; imports CGStreamer only (plus ReelCore).
//   ReelGateway loopback HTTP proxy adding headers and rewriting playlists (NIO + AsyncHTTPClient).
//   ReelUI      GTK 3 window; imports CGtk only (plus ReelCore).
//   ReelDesktop MPRIS, screensaver inhibition and the network monitor; imports CGio only (plus ReelCore, ReelGLib).
//   ReelApp     composes them: command line, controller, reports.
//   reel        the executable; main.swift is one call.
import PackageDescription

let package = Package(
    name: "Reel",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "reel", targets: ["reel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.24.0"),
        // TLS for the gateway's upstream client (trusting a private CA) and the tests' HTTPS fixture.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
    ],
    targets: [
        // System libraries with thin static-inline C shims (see each shim.h for ownership notes).
        .systemLibrary(
            name: "CGStreamer", path: "CGStreamer",
            pkgConfig: "gstreamer-1.0 gstreamer-video-1.0 gstreamer-audio-1.0 gstreamer-pbutils-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev"])]),
        .systemLibrary(
            name: "CGtk", path: "CGtk",
            pkgConfig: "gtk+-3.0",
            providers: [.apt(["libgtk-3-dev"])]),
        // GIO's D-Bus for the desktop services (MPRIS, the screensaver), apart from GTK.
        .systemLibrary(
            name: "CGio", path: "Sources/CGio",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]),

        .target(name: "ReelCore"),
        // The GLib main-loop glue (MainQueue, spinning, the headless loop), one set for engine, UI and app.
        .systemLibrary(name: "CGLib", path: "Sources/CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        .target(name: "ReelGLib", dependencies: ["CGLib"]),
        // Real C code on GStreamer's objects (PNG snapshots, the frame catcher, the window gate, the MPD typefinder), in a C target.
        .target(name: "CReelFrame", dependencies: ["CGStreamer"]),
        .target(name: "ReelEngine", dependencies: ["ReelCore", "ReelGLib", "CGStreamer", "CReelFrame"], exclude: ["Workarounds/README.md"]),
        .target(name: "ReelGateway", dependencies: [
            "ReelCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ]),
        .target(name: "ReelUI", dependencies: ["ReelCore", "ReelGLib", "CGtk"]),
        // MPRIS 2, screensaver inhibition and the network monitor (GIO only; no GTK).
        .target(name: "ReelDesktop", dependencies: ["ReelCore", "ReelGLib", "CGio"]),
        .target(name: "ReelApp", dependencies: [
            "ReelCore", "ReelGLib", "ReelEngine", "ReelGateway", "ReelUI", "ReelDesktop",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "reel", dependencies: ["ReelApp"]),
        // `make bench`'s driver for what the command line cannot measure (seek latency, parser throughput).
        .executableTarget(name: "ReelBench", dependencies: ["ReelEngine", "ReelGLib", "ReelCore"]),

        // Test helpers live in their own target (media generation, main-loop spinning, HTTP fixtures).
        .target(name: "ReelTestSupport", dependencies: ["ReelCore",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOSSL", package: "swift-nio-ssl"),
        ], path: "Tests/ReelTestSupport"),
        .testTarget(name: "ReelCoreTests", dependencies: ["ReelCore", "ReelTestSupport"]),
        // The fuzz targets (Tests/Fuzz, also compiled alone by `make fuzz`) replaying their committed corpus.
        .testTarget(name: "ReelFuzzReplayTests", dependencies: ["ReelCore"], path: "Tests/Fuzz",
                    exclude: ["LibFuzzerMain.swift", "README.md", "corpus"],
                    swiftSettings: [.define("REEL_HAVE_PLAYLIST_PARSER"), .define("REEL_HAVE_HLS")]),
        .testTarget(name: "ReelEngineTests", dependencies: ["ReelEngine", "CReelFrame", "ReelGLib", "ReelCore", "ReelTestSupport"]),
        .testTarget(name: "ReelGatewayTests", dependencies: ["ReelGateway", "ReelCore", "ReelTestSupport",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
        ]),
        .testTarget(name: "ReelDesktopTests", dependencies: ["ReelDesktop", "ReelGLib", "ReelCore", "ReelTestSupport"]),
        .testTarget(name: "ReelUITests", dependencies: ["ReelUI", "ReelGLib", "ReelCore", "ReelTestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "ReelAppTests", dependencies: ["ReelApp", "ReelCore", "ReelGLib", "ReelEngine", "ReelGateway", "ReelTestSupport"], exclude: ["Goldens"]),
    ]
)
