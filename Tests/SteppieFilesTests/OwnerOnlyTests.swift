import Foundation
import Testing
@testable import SteppieFiles

@Suite struct OwnerOnlyTests {
    let base = NSTemporaryDirectory() + "steppie-files-\(UUID().uuidString)"

    @Test func foldersAndFilesAreOwnerOnlyUnderAWideUmask() throws {
        let old = umask(0)
        defer { umask(old) }
        let created = try OwnerOnly.createDirectories(base + "/a/b")
        #expect(created == [base, base + "/a", base + "/a/b"])
        for dir in created { #expect(OwnerOnly.permissions(of: dir) == 0o700) }
        let fd = try OwnerOnly.openForWriting(base + "/a/b/f")
        close(fd)
        #expect(OwnerOnly.permissions(of: base + "/a/b/f") == 0o600)
        #expect(try OwnerOnly.createFileIfMissing(base + "/g"))
        #expect(OwnerOnly.permissions(of: base + "/g") == 0o600)
        #expect(try !OwnerOnly.createFileIfMissing(base + "/g"))
        try? FileManager.default.removeItem(atPath: base)
    }

    @Test func looserModesAreTightenedAndReported() throws {
        try OwnerOnly.createDirectories(base)
        let path = base + "/loose"
        FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        chmod(path, 0o644)
        #expect(try OwnerOnly.tighten(path) == 0o644)
        #expect(OwnerOnly.permissions(of: path) == 0o600)
        #expect(try OwnerOnly.tighten(path) == nil)
        try? FileManager.default.removeItem(atPath: base)
    }

    @Test func nonRegularTargetsAreRefusedUntouched() throws {
        try OwnerOnly.createDirectories(base)
        let fifo = base + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: FileRefusal.notRegularFile(path: fifo, kind: .fifo)) { try OwnerOnly.openForWriting(fifo) }
        #expect(OwnerOnly.kind(of: fifo) == .fifo)
        #expect(throws: FileRefusal.notRegularFile(path: base, kind: .directory)) { try OwnerOnly.checkOutputTarget(base) }
        #expect(throws: FileRefusal.notRegularFile(path: "/dev/null", kind: .characterDevice)) { try OwnerOnly.checkOutputTarget("/dev/null") }
        #expect(throws: FileRefusal.notDirectory(path: fifo, kind: .fifo)) { try OwnerOnly.createDirectories(fifo + "/x") }
        try? FileManager.default.removeItem(atPath: base)
    }

    @Test func aFullDiskIsAnErrorValueNotATrap() throws {
        let fd = open("/dev/full", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(throws: FileRefusal.system(path: "/dev/full", operation: "write", errno: ENOSPC, reason: String(cString: strerror(ENOSPC)))) {
            try Descriptor.writeAll(fd, "hello", path: "/dev/full")
        }
    }

    @Test func aClosedPipeIsEPIPE() throws {
        Descriptor.ignoreBrokenPipe()
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        close(fds[0])
        defer { close(fds[1]) }
        do {
            try Descriptor.writeAll(fds[1], "hello", path: "pipe")
            Issue.record("write to a closed pipe succeeded")
        } catch {
            guard case .system(_, _, let e, _) = error else { Issue.record("\(error)"); return }
            #expect(e == EPIPE)
        }
    }
}
