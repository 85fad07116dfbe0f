// swift-tools-version:6.0
import PackageDescription

/// The folder holding this manifest, for files the linker reads.
let packageRoot = String(#filePath.dropLast("Package.swift".count))

/// C libraries from Debian, each wrapped by exactly one adapter module.
let systemLibraries: [Target] = [
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                   providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CEspeakNG", path: "Sources/CEspeakNG",
                   providers: [.apt(["libespeak-ng-dev"])]),
    .systemLibrary(name: "CPulse", path: "Sources/CPulse",
                   providers: [.apt(["libpulse-dev"])]),
    .systemLibrary(name: "CSndfile", path: "Sources/CSndfile",
                   providers: [.apt(["libsndfile1-dev"])]),
    .systemLibrary(name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
                   providers: [.apt(["libsodium-dev"])]),
    // SHA-256 of backups: nettle uses the CPU's SHA extensions (libsodium's SHA-256 is portable C).
    .systemLibrary(name: "CNettle", path: "Sources/CNettle", pkgConfig: "nettle",
                   providers: [.apt(["nettle-dev"])]),
    .systemLibrary(name: "CZip", path: "Sources/CZip",
                   providers: [.apt(["libzip-dev"])]),
    .systemLibrary(name: "CSystemd", path: "Sources/CSystemd",
                   providers: [.apt(["libsystemd-dev"])]),
    // Keys and self-signed certificates for the guardian pages on the home network (HTTPS).
    .systemLibrary(name: "CGnuTLS", path: "Sources/CGnuTLS",
                   providers: [.apt(["libgnutls28-dev"])]),
    // PostgreSQL's client library: the centre's hub keeps its store of record in PostgreSQL (issue 28).
    // Opened on first use like the libraries below (it loads libldap, Kerberos and GnuTLS with it).
    .systemLibrary(name: "CLibPQ", path: "Sources/CLibPQ",
                   providers: [.apt(["libpq-dev"])]),
    // Linux evdev force feedback: kernel headers only, no library to link.
    .systemLibrary(name: "CEvdev", path: "Sources/CEvdev"),
]

/// Our own small C: the terminal calls Swift cannot make (variadic ioctl, termios flag macros).
let cTargets: [Target] = [
    .target(name: "CTerminal"),
    // Unix-socket calls that need _GNU_SOURCE or sockaddr_un handling (peer credentials, 0600 bind).
    .target(name: "CSocket"),
    // libmicrohttpd's variadic start function, for the kiosk pages' HTTP server (and, with GnuTLS
    // inside libmicrohttpd, the guardian pages' HTTPS server on the home network).
    .target(name: "CHTTP", dependencies: ["CLazyLoad"]),
    // libespeak-ng, libpulse, libsndfile, GnuTLS, libsystemd, libmicrohttpd, libzip and libpq opened on first use
    // (issue 16): stubs with each function's own prototype, written by scripts/make-lazy-stubs.py.
    // Their modules above declare the functions and link nothing.
    .target(name: "CLazyLoad", linkerSettings: [.linkedLibrary("dl")]),
]

let swiftTargets: [Target] = [
    // Pure core: data contract, validation, days and clocks, rules. No C, no I/O.
    .target(name: "SteppieCore"),
    // Owner-only files and folders, output-target checks, whole writes that report failure.
    .target(name: "SteppieFiles", dependencies: ["SteppieCore"]),
    .target(name: "SteppieLocalization", dependencies: ["SteppieCore"]),
    .target(name: "SteppieStore", dependencies: ["SteppieCore", "SteppieFiles", "SteppieSync", "SteppieSecurity", "CSQLite"]),
    // The guardian pages' TLS identity on the home network: key, self-signed certificate and
    // fingerprint through GnuTLS, kept owner-only beside the database.
    .target(name: "SteppieTLS", dependencies: ["SteppieCore", "SteppieFiles", "CGnuTLS", "CLazyLoad"]),
    // Password hashing and random codes through libsodium, SHA-256 through nettle.
    .target(name: "SteppieSecurity", dependencies: ["CSodium", "CNettle"]),
    .target(name: "SteppieFeedback",
            dependencies: ["SteppieCore", "SteppieLocalization", "SteppieFiles", "CEspeakNG", "CPulse", "CSndfile", "CEvdev", "CLazyLoad"]),
    // Big buttons and switches: Linux input devices (evdev) read as done / undo / next.
    .target(name: "SteppieInput", dependencies: ["SteppieCore", "SteppieFiles", "CEvdev"]),
    // The child-mode runtime: executes the reducer's effects (store, engine, timers); driven by
    // the service, the terminal screen and the tests.
    .target(name: "SteppieChildMode",
            dependencies: ["SteppieCore", "SteppieStore", "SteppieFeedback", "SteppieFiles"]),
    // A generic HTTP server on libmicrohttpd: routes as data, limits, host and origin policy,
    // files and descriptors sent from disk, streams. Knows nothing of the pages it serves.
    .target(name: "SteppieHTTP", dependencies: ["CHTTP"]),
    // Markup built through one escaping type (`HTML`), shared by the guardian pages and the centre's staff pages.
    .target(name: "SteppieHTML"),
    // The guardian pages: a `WebRequest` answered with a `WebResponse`, every page built as `HTML`
    // (interpolations escaped unless already HTML), on their own store connection.
    .target(name: "SteppieGuardianWeb",
            dependencies: ["SteppieCore", "SteppieHTML", "SteppieStore", "SteppieLocalization", "SteppieSecurity", "SteppieBackup", "SteppieFiles",
                           "SteppieSync", "SteppieSyncHTTP", "SteppieSyncAgent"]),
    // `steppie serve`: the long-running engine, its control socket and systemd notification, and
    // the kiosk's route tables handed to SteppieHTTP.
    .target(name: "SteppieService",
            dependencies: ["SteppieCore", "SteppieStore", "SteppieFeedback", "SteppieChildMode", "SteppieFiles", "SteppieInput",
                           "SteppieBackup", "SteppieTLS", "SteppieHTTP", "SteppieGuardianWeb", "CSystemd", "CSocket", "CLazyLoad"]),
    // Sync between a household's devices and a hub (issue 27): hybrid logical clocks, registers,
    // completion events, the merge rules and the protocol's messages. Pure: no C, no I/O.
    .target(name: "SteppieSync", dependencies: ["SteppieCore"]),
    // Sync over HTTPS (issue 27): a device's client for its hub (GnuTLS through SteppieTLS, the
    // hub's certificate pinned by its fingerprint) and the hub's routes for SteppieHTTP.
    .target(name: "SteppieSyncHTTP", dependencies: ["SteppieCore", "SteppieSync", "SteppieTLS", "SteppieHTTP"]),
    // Sync's use cases over the store and the wire: the household hub on SQLite, a device's rounds and background agent.
    // The centre's hub on PostgreSQL (issue 28, docs/centre.md): connections through libpq, one checking
    // helper for every statement, a bounded pool, reconnection, the hub's schema migrations.
    .target(name: "SteppiePostgres", dependencies: ["SteppieCore", "CLibPQ", "CLazyLoad"]),
    // `steppie hub` (issue 28, docs/centre.md): the sync protocol served from PostgreSQL, every
    // process of a centre on one database; its SQL lives here and in SteppiePostgres.
    .target(name: "SteppieCentre",
            dependencies: ["SteppieCore", "SteppiePostgres", "SteppieSync", "SteppieSyncHTTP", "SteppieHTTP", "SteppieTLS", "SteppieSecurity",
                           "SteppieFiles"]),
    // The centre hub's staff pages (issue 28, docs/centre.md): sign-in with sessions kept in
    // PostgreSQL, the teachers' overview and month view folded by SteppieSync's rules, admin actions.
    .target(name: "SteppieCentreWeb",
            dependencies: ["SteppieCore", "SteppieCentre", "SteppieSync", "SteppieHTTP", "SteppieHTML", "SteppieLocalization", "SteppieSecurity"]),
    .target(name: "SteppieSyncAgent",
            dependencies: ["SteppieCore", "SteppieStore", "SteppieSync", "SteppieSyncHTTP", "SteppieHTTP", "SteppieTLS", "SteppieSecurity", "SteppieFiles"]),
    .target(name: "SteppieCLI",
            dependencies: ["SteppieCore", "SteppieLocalization", "SteppieStore", "SteppieFeedback", "SteppieSecurity", "SteppieBackup",
                           "SteppieFiles", "SteppieChildMode", "SteppieService", "SteppieGuardianWeb", "SteppieInput", "SteppieTLS", "SteppieSync", "SteppieSyncAgent", "SteppieCentre", "SteppieCentreWeb", "SteppiePostgres", "CTerminal", "CLazyLoad"]),
    // The release binary is linked by lld, which lays out the functions everyday commands run side
    // by side (linker/steppie.order, see linker/README.md) and packs the relative relocations
    // (DT_RELR, glibc 2.36): together they keep child mode's peak RSS under 30 MB (issue 16).
    .executableTarget(name: "steppie", dependencies: ["SteppieCLI"],
                      linkerSettings: [// Exported so libespeak-ng binds to it rather than libpcaudio's
                                       // (Sources/CLazyLoad/no_espeak_audio.c).
                                       .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=create_audio_device_object"]),
                                       .unsafeFlags(["-use-ld=lld",
                                                     "-Xlinker", "--symbol-ordering-file=\(packageRoot)linker/steppie.order",
                                                     "-Xlinker", "--no-warn-symbol-ordering",
                                                     "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"],
                                                    .when(configuration: .release))]),
    // Real child processes and a private PulseAudio server, for the tests and benchmarks.
    .target(name: "SteppieTestSupport"),

    .testTarget(name: "SteppieCoreTests", dependencies: ["SteppieCore"]),
    .testTarget(name: "SteppieFilesTests", dependencies: ["SteppieFiles"]),
    .testTarget(name: "SteppieLocalizationTests", dependencies: ["SteppieLocalization", "SteppieCore"]),
    .testTarget(name: "SteppieStoreTests", dependencies: ["SteppieStore", "SteppieCore", "SteppieSecurity", "SteppieSync", "SteppieTestSupport"]),
    .testTarget(name: "SteppieSecurityTests", dependencies: ["SteppieSecurity"]),
    .testTarget(name: "SteppieSyncTests", dependencies: ["SteppieSync", "SteppieTestSupport"]),
    .testTarget(name: "SteppieSyncHTTPTests",
                dependencies: ["SteppieSyncHTTP", "SteppieSync", "SteppieHTTP", "SteppieTLS", "SteppieCore", "SteppieLocalization", "SteppieSyncAgent",
                               "SteppieStore"]),
    .testTarget(name: "SteppieCentreTests",
                dependencies: ["SteppieCentre", "SteppiePostgres", "SteppieSync", "SteppieCore", "SteppieSecurity"]),
    .testTarget(name: "SteppieCentreWebTests", dependencies: ["SteppieCentreWeb", "SteppieSync", "SteppieCore"]),
    .testTarget(name: "SteppiePostgresTests", dependencies: ["SteppiePostgres", "SteppieCore", "SteppieLocalization", "SteppieTestSupport"]),
    .testTarget(name: "SteppieFeedbackTests", dependencies: ["SteppieFeedback", "SteppieCore", "SteppieLocalization", "SteppieTestSupport"]),
    .testTarget(name: "SteppieInputTests", dependencies: ["SteppieInput", "SteppieFiles", "CEvdev"]),
    .testTarget(name: "SteppieChildModeTests", dependencies: ["SteppieChildMode", "SteppieStore", "SteppieCore"]),
    .testTarget(name: "SteppieServiceTests",
                dependencies: ["SteppieService", "SteppieGuardianWeb", "SteppieChildMode", "SteppieFeedback", "SteppieStore", "SteppieCore", "SteppieBackup", "SteppieTestSupport",
                               "SteppieSecurity", "SteppieLocalization", "SteppieTLS", "SteppieFiles", "SteppieSync", "CGnuTLS"],
                // The TLS probe speaks GnuTLS itself (the engine opens it on first use, see CLazyLoad).
                linkerSettings: [.linkedLibrary("gnutls")]),
    .testTarget(name: "SteppieCLITests", dependencies: ["SteppieCLI", "SteppieStore", "SteppieCore", "SteppieFeedback", "SteppieLocalization", "SteppieTestSupport",
                                                    "SteppieBackup", "SteppieFiles", "SteppieInput", "SteppieService", "SteppieTLS", "SteppiePostgres"]),

    // Backup and restore in Steppie's archive format (libzip; SHA-256 from SteppieSecurity).
    .target(name: "SteppieBackup", dependencies: ["SteppieCore", "SteppieStore", "SteppieSecurity", "SteppieFiles", "CZip", "CLazyLoad"]),
    .testTarget(name: "SteppieBackupTests", dependencies: ["SteppieBackup", "SteppieStore", "SteppieCore", "SteppieSecurity", "SteppieFeedback"]),
    // Proof under stress: kills, concurrent processes, hostile input, audio faults.
    .testTarget(name: "SteppieStressTests",
                dependencies: ["SteppieCLI", "SteppieStore", "SteppieCore", "SteppieBackup", "SteppieLocalization", "SteppieFeedback", "SteppieTestSupport"]),
]

// Settings applied to every Swift target in one place. Release builds put each function in its
// own section, so the link order above can place it.
for target in swiftTargets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.unsafeFlags(["-Xfrontend", "-function-sections"], .when(configuration: .release)))
    target.swiftSettings = settings
}
for target in cTargets {
    var settings = target.cSettings ?? []
    settings.append(.unsafeFlags(["-ffunction-sections"], .when(configuration: .release)))
    target.cSettings = settings
}

/// The modules the benchmarks (their own package in `Benchmarks/`, `make bench`) build on, one
/// library product each; the benchmarks also build and run the `steppie` product.
let benchmarkedModules = ["SteppieCore", "SteppieStore", "SteppieFeedback", "SteppieLocalization", "SteppieBackup",
                          "SteppieService", "SteppieTestSupport", "SteppieSync", "SteppieSyncHTTP", "SteppieTLS"]

let package = Package(
    name: "Steppie",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "steppie", targets: ["steppie"]),
    ] + benchmarkedModules.map { .library(name: $0, targets: [$0]) },
    targets: systemLibraries + cTargets + swiftTargets,
    swiftLanguageModes: [.v6]
)
