import CEvdev
import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import SteppieInput

/// Real `struct input_event` records, as the kernel writes them, and a scratch folder.
enum Records {
    static func event(type: Int32, code: Int32, value: Int32) -> [UInt8] {
        var e = input_event()
        e.time.tv_sec = 1_700_000_000
        e.time.tv_usec = 250_000
        e.type = UInt16(type)
        e.code = UInt16(code)
        e.value = value
        return withUnsafeBytes(of: &e) { Array($0) }
    }

    static func syn() -> [UInt8] { event(type: EV_SYN, code: SYN_REPORT, value: 0) }
    /// Down, sync, up, sync: one physical press and release.
    static func tap(_ code: Int32) -> [UInt8] {
        event(type: EV_KEY, code: code, value: 1) + syn() + event(type: EV_KEY, code: code, value: 0) + syn()
    }
    static func down(_ code: Int32) -> [UInt8] { event(type: EV_KEY, code: code, value: 1) + syn() }
    static func up(_ code: Int32) -> [UInt8] { event(type: EV_KEY, code: code, value: 0) + syn() }
    static func autorepeat(_ code: Int32) -> [UInt8] { event(type: EV_KEY, code: code, value: 2) + syn() }
}

/// A temporary folder, removed by `remove()`.
struct Scratch {
    let path = NSTemporaryDirectory() + "steppie-input-\(UUID().uuidString)"

    init() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func fifo(_ name: String) throws -> String {
        let p = path + "/" + name
        guard mkfifo(p, 0o600) == 0 else { throw ScratchError.system("mkfifo", errno) }
        return p
    }

    func file(_ name: String, _ bytes: [UInt8]) -> String {
        let p = path + "/" + name
        _ = FileManager.default.createFile(atPath: p, contents: Data(bytes))
        return p
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

enum ScratchError: Error { case system(String, Int32) }

/// The writing end of a FIFO (opened once a reader has it open).
final class FifoWriter {
    let fd: Int32

    init(_ path: String) throws {
        fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw ScratchError.system("open", errno) }
    }

    func write(_ bytes: [UInt8]) throws {
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw ScratchError.system("write", errno) }
    }

    deinit { close(fd) }
}

func append(_ bytes: [UInt8], to path: String) throws {
    guard let handle = FileHandle(forWritingAtPath: path) else { throw ScratchError.system("open", errno) }
    try handle.seekToEnd()
    try handle.write(contentsOf: Data(bytes))
    try handle.close()
}

/// Waits on `device`'s descriptor with poll() (no sleeping) until `done` says so or `deadline` passes,
/// reopening it as the service loop would. Returns the presses read.
func pollLoop(_ device: ButtonDevice, until deadline: ContinuousClock.Instant,
              onEachTurn: () throws -> Void = {},
              done: ([ButtonPress]) -> Bool) throws -> [ButtonPress] {
    var presses: [ButtonPress] = []
    while ContinuousClock.now < deadline {
        device.reopenIfDue(now: .now)
        try onEachTurn()
        if let fd = device.fileDescriptor {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 20)
            presses += device.read(now: .now)
        } else {
            _ = poll(nil, 0, 20)
        }
        if done(presses) { break }
    }
    return presses
}
