// swift-tools-version:6.0
import PackageDescription

/// C libraries from Debian, each wrapped by exactly one adapter module.
let systemLibraries: [Target] = [
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                   providers: [.apt(["libsqlite3-dev"])]),
    .systemLibrary(name: "CEspeakNG", path: "Sources/CEspeakNG", pkgConfig: "espeak-ng",
                   providers: [.apt(["libespeak-ng-dev"])]),
    .systemLibrary(name: "CPulse", path: "Sources/CPulse", pkgConfig: "libpulse",
                   providers: [.apt(["libpulse-dev"])]),
    .systemLibrary(name: "CSndfile", path: "Sources/CSndfile", pkgConfig: "sndfile",
                   providers: [.apt(["libsndfile1-dev"])]),
    // Linux evdev force feedback: kernel headers only, no library to link.
    .systemLibrary(name: "CEvdev", path: "Sources/CEvdev"),
]

let swiftTargets: [Target] = [
    // Pure core: data contract, validation, days and clocks, rules. No C, no I/O.
    .target(name: "SteppieCore"),
    .target(name: "SteppieLocalization", dependencies: ["SteppieCore"]),
    .target(name: "SteppieStore", dependencies: ["SteppieCore", "CSQLite"]),
    .target(name: "SteppieFeedback",
            dependencies: ["SteppieCore", "SteppieLocalization", "CEspeakNG", "CPulse", "CSndfile", "CEvdev"]),
    .executableTarget(name: "steppie-bench-feedback", dependencies: ["SteppieFeedback", "SteppieCore"]),
    .target(name: "SteppieCLI",
            dependencies: ["SteppieCore", "SteppieLocalization", "SteppieStore", "SteppieFeedback"]),
    .executableTarget(name: "steppie", dependencies: ["SteppieCLI"]),

    .testTarget(name: "SteppieCoreTests", dependencies: ["SteppieCore"]),
    .testTarget(name: "SteppieLocalizationTests", dependencies: ["SteppieLocalization"]),
    .testTarget(name: "SteppieStoreTests", dependencies: ["SteppieStore", "SteppieCore"]),
    .testTarget(name: "SteppieFeedbackTests", dependencies: ["SteppieFeedback", "SteppieCore"]),
    .testTarget(name: "SteppieCLITests", dependencies: ["SteppieCLI", "SteppieStore", "SteppieCore"]),
]

// Settings applied to every Swift target in one place.
for target in swiftTargets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}

let package = Package(
    name: "Steppie",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "steppie", targets: ["steppie"]),
    ],
    targets: systemLibraries + swiftTargets,
    swiftLanguageModes: [.v6]
)
