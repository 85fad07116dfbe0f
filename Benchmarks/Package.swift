// swift-tools-version:6.0
import PackageDescription

// The benchmarks of `make bench` (scripts/bench.sh), in their own package so that the ordinary
// build and test run (`swift build --build-tests` at the root) never compiles them. They use the
// root package's modules through its library products, and run its `steppie` product, which
// scripts/bench.sh builds into this package's .build beside them (`swift build --product steppie`).

/// The name SwiftPM gives the root package's modules (`-package-name`): its identity, the last
/// component of its folder, lowercased, with anything but letters, digits and `_` as `_`.
let rootPackageName = String(Context.packageDirectory.split(separator: "/").dropLast().last ?? "steppie").lowercased()
    .map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" }.reduce(into: "") { $0.append($1) }

/// The root package's products the benchmarks import.
func steppie(_ module: String) -> Target.Dependency { .product(name: module, package: "Steppie") }

let targets: [Target] = [
    // SQLite called directly by the store benchmark's baseline (a bare open and query); the root
    // keeps its own CSQLite to the store.
    .systemLibrary(name: "CSQLiteBench", path: "Sources/CSQLiteBench", pkgConfig: "sqlite3",
                   providers: [.apt(["libsqlite3-dev"])]),
    // epoll for the centre benchmark's waiter (Swift's Glibc module lacks <sys/epoll.h>).
    .systemLibrary(name: "CEpollBench", path: "Sources/CEpollBench"),
    // The 10-year fixture, the report rows and the sink monitor listener the benchmarks share.
    .target(name: "SteppieBenchSupport",
            dependencies: [steppie("SteppieCore"), steppie("SteppieStore"), steppie("SteppieTestSupport")]),
    // Command start-up, child-mode start-up and memory, the store at scale.
    .executableTarget(name: "steppie-bench",
                      dependencies: ["SteppieBenchSupport", "CSQLiteBench", steppie("SteppieCore"), steppie("SteppieStore"),
                                     steppie("SteppieTestSupport")]),
    // Press → first sample through a real PulseAudio null sink.
    .executableTarget(name: "steppie-bench-feedback",
                      dependencies: ["SteppieBenchSupport", steppie("SteppieCore"), steppie("SteppieFeedback"),
                                     steppie("SteppieLocalization"), steppie("SteppieTestSupport")]),
    // `steppie serve` against the plain tools.
    .executableTarget(name: "steppie-bench-service",
                      dependencies: ["SteppieBenchSupport", steppie("SteppieService"), steppie("SteppieTestSupport")]),
    // Sync's cost: presses on a joined device, a completion seen on another device, a first copy
    // of the 10-year fixture and the database's size with the sync metadata (issue 27).
    .executableTarget(name: "steppie-bench-sync",
                      dependencies: ["SteppieBenchSupport", steppie("SteppieCore"), steppie("SteppieService"),
                                     steppie("SteppieTestSupport")]),
    // The centre's hub (issue 28): 500 simulated devices through one and two `steppie hub` processes on
    // a private PostgreSQL, beside one `psql` session writing the same rows. Its devices are protocol
    // clients in the bench process: the sync messages and the device's HTTPS client are `package`
    // declarations of the root package, so this target is compiled with the root package's name
    // (`rootPackageName` below) to use them as the household devices do, rather than copies of them.
    .executableTarget(name: "steppie-bench-centre",
                      dependencies: ["SteppieBenchSupport", "CEpollBench", steppie("SteppieSync"), steppie("SteppieSyncHTTP"), steppie("SteppieTLS"),
                                     steppie("SteppieTestSupport")],
                      packageAccess: false, swiftSettings: [.unsafeFlags(["-package-name", rootPackageName])]),
    // Backup and restore of the 10-year database with photos.
    .executableTarget(name: "steppie-bench-backup",
                      dependencies: ["SteppieBenchSupport", steppie("SteppieBackup"), steppie("SteppieStore"), steppie("SteppieCore"),
                                     steppie("SteppieTestSupport")]),
]

for target in targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    target.swiftSettings = settings
}

let package = Package(
    name: "SteppieBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Steppie", path: "..")],
    targets: targets,
    swiftLanguageModes: [.v6]
)
