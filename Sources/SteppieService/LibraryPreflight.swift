import CLazyLoad

/// A C library `steppie serve` may use that cannot be loaded, as the loader said it.
public struct LibraryUnavailable: Error, Equatable, Sendable {
    /// The library that failed (`libzip.so.4`), or one it needs when the loader named that.
    public var soname: String
    /// Ours that needs `soname`, when `soname` is not one of ours.
    public var neededBy: String?
    /// The loader's own words (`…/libsystemd.so.0: file too short`); empty after a signal.
    public var reason: String
    /// The signal that ended the check while loading `soname` (`SIGBUS` for a truncated file).
    public var signal: String?
    /// The check did not finish (a library's start-up hung).
    public var timedOut: Bool

    public init(soname: String, neededBy: String? = nil, reason: String, signal: String? = nil, timedOut: Bool = false) {
        self.soname = soname; self.neededBy = neededBy; self.reason = reason; self.signal = signal; self.timedOut = timedOut
    }

    init(_ f: clazy_failure) {
        var f = f
        func text<T>(_ field: inout T) -> String {
            withUnsafeBytes(of: &field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let parent = text(&f.needed_by)
        let signal = text(&f.signal_name)
        self.init(soname: text(&f.soname), neededBy: parent.isEmpty ? nil : parent, reason: text(&f.reason),
                  signal: f.signal == 0 || signal.isEmpty ? nil : signal, timedOut: f.timed_out != 0)
    }
}

/// The libraries the release binary opens on first use (Sources/CLazyLoad), all loaded before the
/// always-on service opens its database or says it is ready: a guardian's first backup download
/// (libzip) or the first sound must not be what finds a missing or damaged library and ends the
/// service (issue 24, class 7). Only `serve` pays for it; other commands still load on first use.
public enum LibraryPreflight {
    /// Checks every library in a child process (a truncated file can SIGBUS while it is mapped),
    /// then opens them all in this one, every name resolved, so nothing is left to load later.
    public static func run() throws(LibraryUnavailable) {
        var failure = clazy_failure()
        // 1: the check could not start (no /proc/self/exe): the in-process opening below still
        // names any library the loader refuses; only a file that crashes the loader goes unchecked.
        if clazy_check_all(&failure) < 0 { throw LibraryUnavailable(failure) }
        if clazy_open_all(&failure) != 0 { throw LibraryUnavailable(failure) }
    }
}
