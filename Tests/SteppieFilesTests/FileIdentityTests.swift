import Foundation
import Testing
import SteppieFiles

/// `FileIdentity.isGone`: whether an open descriptor still is what its path names (a button or a
/// game pad unplugged, its node deleted or made again for another device).
@Suite struct FileIdentityTests {
    @Test func anOpenFileIsGoneWhenDeletedOrReplaced() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/event5", link = dir + "/by-id"
        #expect(FileManager.default.createFile(atPath: path, contents: Data([1])))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let fd = open(path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(!FileIdentity.isGone(fd, path: path))
        #expect(!FileIdentity.isGone(fd, path: link), "a link to it names the same node")
        #expect(FileIdentity(descriptor: fd) == FileIdentity(path: link))

        // Deleted: the open node has no name left.
        #expect(unlink(path) == 0)
        #expect(FileIdentity.isGone(fd, path: path))
        // Made again (the next device plugged in gets a new node under the same name).
        #expect(FileManager.default.createFile(atPath: path, contents: Data([2])))
        #expect(FileIdentity.isGone(fd, path: path))
        #expect(FileIdentity.isGone(fd, path: link))
        #expect(FileIdentity.isGone(-1, path: path))
    }
}
