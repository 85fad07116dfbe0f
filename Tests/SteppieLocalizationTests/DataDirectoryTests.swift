import Foundation
import Testing
@testable import SteppieLocalization

@Suite struct DataDirectoryTests {
    @Test func environmentVariableWins() throws {
        let dir = try TempDirectory()
        let found = DataDirectory.locate(environment: ["STEPPIE_DATA_DIR": dir.url.path], executablePath: "/usr/bin/steppie",
                                         currentDirectory: "/")
        #expect(found?.path == dir.url.standardizedFileURL.path)
    }

    @Test func installedLayout() throws {
        let dir = try TempDirectory()
        try dir.write("prefix/bin/steppie", "")
        try dir.makeDirectory("prefix/share/steppie/Localization/ko")
        let expected = dir.url.appendingPathComponent("prefix/share/steppie").path
        let absolute = DataDirectory.locate(environment: ["STEPPIE_DATA_DIR": ""],
                                            executablePath: dir.url.appendingPathComponent("prefix/bin/steppie").path,
                                            currentDirectory: "/")
        #expect(absolute?.path == expected)
        let relative = DataDirectory.locate(environment: [:], executablePath: "bin/steppie",
                                            currentDirectory: dir.url.appendingPathComponent("prefix").path)
        #expect(relative?.path == expected)
    }

    @Test func installedLayoutThroughASymbolicLink() throws {
        let dir = try TempDirectory()
        let binary = try dir.write("opt/steppie/bin/steppie", "")
        try dir.makeDirectory("opt/steppie/share/steppie/Localization")
        try dir.makeDirectory("usr/local/bin")
        let link = dir.url.appendingPathComponent("usr/local/bin/steppie")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: binary)
        let found = DataDirectory.locate(environment: [:], executablePath: link.path, currentDirectory: "/")
        #expect(found?.path == dir.url.appendingPathComponent("opt/steppie/share/steppie").path)
    }

    @Test func swiftRunBinaryFindsTheCheckout() throws {
        let dir = try TempDirectory()
        try dir.write("repo/Package.swift", "// swift-tools-version:6.0")
        try dir.makeDirectory("repo/Localization/en")
        try dir.write("repo/.build/x86_64-unknown-linux-gnu/debug/steppie", "")
        let exe = dir.url.appendingPathComponent("repo/.build/x86_64-unknown-linux-gnu/debug/steppie").path
        let found = DataDirectory.locate(environment: [:], executablePath: exe, currentDirectory: "/")
        #expect(found?.path == dir.url.appendingPathComponent("repo").path)
    }

    @Test func currentDirectoryInsideTheCheckout() throws {
        let dir = try TempDirectory()
        try dir.write("repo/Package.swift", "")
        try dir.makeDirectory("repo/Localization")
        try dir.makeDirectory("repo/Sources/Deep")
        let found = DataDirectory.locate(environment: [:], executablePath: "/nonexistent/bin/steppie",
                                         currentDirectory: dir.url.appendingPathComponent("repo/Sources/Deep").path)
        #expect(found?.path == dir.url.appendingPathComponent("repo").path)
    }

    @Test func folderWithoutPackageSwiftIsNotACheckout() throws {
        let dir = try TempDirectory()
        try dir.makeDirectory("lonely/Localization")
        let found = DataDirectory.locate(environment: [:], executablePath: "",
                                         currentDirectory: dir.url.appendingPathComponent("lonely").path)
        #expect(found == nil)
    }

    @Test func subfolders() {
        let data = URL(fileURLWithPath: "/usr/share/steppie")
        #expect(DataDirectory.localizationDirectory(in: data).path == "/usr/share/steppie/Localization")
        #expect(DataDirectory.soundsDirectory(in: data).path == "/usr/share/steppie/Sounds")
    }
}
