import Foundation

/// The `steppie` binary that tests run as real processes. The one devices run (the release
/// build, `STEPPIE_RELEASE_BIN`, which scripts/test.sh builds and sets before the tests) when it
/// is given, else the debug build, else a release build found in the repository. The process
/// suites spawn thousands of commands and services: the release binary starts in a third of the
/// debug one's time and runs its work several times faster, which the test command's half-hour
/// budget needs (docs/testing.md).
package enum BuiltBinary {
    package static func path(repository: URL) -> String {
        if let release = ProcessInfo.processInfo.environment["STEPPIE_RELEASE_BIN"], !release.isEmpty { return release }
        for config in ["debug", "release"] {
            let path = repository.appendingPathComponent(".build/\(config)/steppie").path
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return repository.appendingPathComponent(".build/debug/steppie").path
    }
}
