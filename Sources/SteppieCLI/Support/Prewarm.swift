import CLazyLoad
import Foundation

/// Start-up work a command line can start before it is even parsed (issue 16).
enum Prewarm {
    /// True when `arguments` surely synthesize speech in this process: `say --out FILE` and
    /// `feedback preview --out FILE` (files are never handed to a service). Help, a malformed line
    /// or anything a running service may take (a `say` to the speaker) is not warmed: espeak-ng
    /// would cost that command memory and a core for nothing. The rule is CLazyLoad's
    /// `clazy_speaks_in_process`, which a constructor also applies before `main` to start loading
    /// libespeak-ng; here `main` starts initializing it.
    static func speaksInProcess(_ arguments: [String]) -> Bool {
        guard !arguments.isEmpty else { return false }
        var pointers = arguments.map { strdup($0) }
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: max(buffer.count, 1)) {
                clazy_speaks_in_process(Int32(buffer.count), $0) != 0
            }
        }
    }
}
