import Foundation
import SteppieBackup
import SteppieCore
import SteppieFeedback
import SteppieFiles
import SteppieInput
import SteppieLocalization
import SteppieService
import SteppieStore
import SteppieTLS
import Testing
@testable import SteppieCLI

/// Every error the command line says has its own catalog message (`CatalogDescribable`, next to
/// the error type) whose keys, nested ones too, are in both catalogs (issue 25, item 5): a case
/// mapped to a key that is missing, or an error type that lost its message (said as
/// `cli.error.unexpected`), fails here. One representative value per case.
@Suite struct ErrorCatalogTests {
    static let path = "/srv/steppie/data/x.db"

    /// Each case of each error type the command line renders, labelled for the failure message.
    static let samples: [(label: String, error: any Error)] = {
        let v = ContractViolation(field: "ttsRate", value: "3", allowed: "0.5…1.5")
        let pin = ContractViolation(field: "pin", value: "12", allowed: "4 to 8 digits", allowedKey: "contract.allowed.pinDigits",
                                    valueKey: "contract.value.characters", arguments: ["count": "2"])
        let sqlite: [SQLiteError] = [13, 10, 8, 3, 23, 5, 6, 11, 26, 14, 19, 1811, 1, 21].map {
            SQLiteError(code: $0, message: "SQLite's own words", sql: $0 == 1811 ? "INSERT INTO routines VALUES (1)" : nil)
        }
        let file: [FileRefusal] = [.notRegularFile(path: path, kind: .fifo), .notDirectory(path: path, kind: .regular), .missing(path: path)]
            + [ENOSPC, EPIPE, EACCES, EPERM, ENOENT, EROFS, EIO, EDQUOT, EISDIR, EADDRINUSE, EADDRNOTAVAIL, EBADF].map {
                .system(path: path, operation: "open", errno: $0, reason: "strerror's words")
            }
        let store: [StoreError] = [
            .invalid(v), .invalid(pin), .newerSchema(migrationId: "0042"), .childNotFound("Mina"), .childArchived("Mina"), .childAmbiguous(["Mina", "Joon"]),
            .childNameAmbiguous(name: "Mina", children: ["Mina (a1)", "MINA (b2)"]), .noChildren, .childNameTaken("Mina"),
            .setNotFound("Morning"), .setNameAmbiguous(name: "Morning", sets: ["s1", "s2"]), .routineNotFound("r1"),
            .noActiveSet(child: "Mina"), .notCurrent(routine: "r1", current: "r2"), .notCurrent(routine: "r1", current: nil), .allDone,
            .nothingToUndo, .undoWindowPassed(seconds: 5), .dayChanged, .corruptRow(table: "routines", id: "r1", reason: "bad title"),
            .fileSystem(path: path, reason: "strerror's words"), .databaseMissing(path: path), .foreignFile(path: path),
            .databaseReplaced(path: path), .buttonExists(path: "/dev/input/event3", id: "b1"), .buttonNotFound("b9"),
        ] + sqlite.map { .sqlite($0) } + file.map { .file($0) }
        let routine = UUID(), day = LocalDay(dayNumber: 20_514), yesterday = LocalDay(dayNumber: 20_513)
        let edits: [GuardianEditError] = [
            .activeSetCannotBeDeleted(setId: UUID(), name: LocalizedText(ko: "아침", en: "Morning")),
            .emptySetCannotBeActivated(setId: nil, name: LocalizedText(ko: "저녁", en: "Evening")),
            .dayInFuture(day: day, today: yesterday), .dayNotTracked(routineId: routine, day: day),
            .routineOfAnotherChild(routineId: routine, child: "Joon"), .childNotArchived(name: "Mina"),
            .lastRoutineOfActiveSet(routineId: routine, set: LocalizedText(ko: "아침", en: "Morning")),
        ]
        let guardian: [GuardianError] = [
            .sessionRequired(lockedSeconds: 30), .sessionRequired(lockedSeconds: nil), .lockedOut(seconds: 60),
            .wrongSecret(kind: .pin, failedAttempts: 3, lockSeconds: 30), .wrongSecret(kind: .recoveryCode, failedAttempts: 1, lockSeconds: nil),
            .notSet(.pin), .notSet(.recoveryCode), .pinMismatch, .noInput, .noTerminal,
        ]
        var backup: [BackupError] = [
            .notAZip(path: path, reason: "libzip's words"), .zip(operation: "zip_open", code: 19, message: "Not a zip archive"),
            .crypto(operation: "crypto_hash_sha256", code: -1), .fileSystem(path: path, reason: "strerror's words"),
            .unsafeEntryName("../x"), .unexpectedEntry("extra.txt"), .duplicateEntry("data.json"), .missingEntry("manifest.json"),
            .entryTooLarge(name: "data.json", size: 300_000_000, limit: 200_000_000),
            .compressionRatioTooHigh(name: "data.json", uncompressed: 5_000_000_000, compressed: 1000),
            .entrySizeMismatch(name: "data.json", declared: 10), .entryUnreadable(name: "data.json", reason: "CRC error"),
            .tooManyEntries(count: 20_000, limit: 10_000), .totalTooLarge(size: 3_000_000_000, limit: 2_000_000_000),
            .notAnImage(name: "assets/a.png"), .imageTooLarge(name: "assets/a.png", width: 9000, height: 9000),
            .photoHashMismatch(name: "assets/a.png", expected: String(repeating: "a", count: 64), actual: String(repeating: "b", count: 64)),
            .jsonTooDeep(name: "data.json", limit: 64), .jsonStringTooLong(name: "data.json", offset: 12, limit: 100_000),
            .unknownFieldTooLarge(name: "data.json", field: "extra", limit: 1_000_000), .dataStructureTooLarge(limit: 500_000_000),
            .manifestInvalid(field: "createdAt", reason: "is not a date"), .wrongApp("other"), .unsupportedSchemaVersion(9),
            .unsupportedPlatform("windows"), .unsupportedChecksumAlgorithm("md5"), .checksumMismatch(expected: "ab", actual: "cd"),
            .dataInvalid(path: "routines[3].title", reason: "is not text"), .duplicateId(entity: "routine", id: "r1"),
            .duplicateLog(date: "2026-03-02", routineId: "r1"),
            .danglingReference(entity: "routine", id: "r1", field: "setId", target: "s9"), .logSetMismatch(logId: "l1"),
            .dataWithoutSets, .contract(entity: "routine", id: "r1", violation: v), .contract(entity: "profile", id: "c1", violation: pin),
            .duplicateChildName("Mina"), .childRequired(children: ["Mina", "Joon"]), .childForDeviceBackup, .cancelled,
            .store(.sqlite(sqlite[0])), .store(.allDone),
        ]
        backup += RecordKind.allCases.map { .tooManyRecords(kind: $0, limit: 10) }
        backup += [FileKind.regular, .directory, .fifo, .characterDevice, .blockDevice, .socket, .other].map { .notRegularFile(path: path, kind: $0) }
        backup += RestoreStep.allCases.flatMap { [BackupError.restoreFailed(step: $0, reason: "disk full"),
                                                  .rollbackFailed(step: $0, reason: "disk full", rollback: "still full")] }
        let recording: [RecordingError] = [
            .notFound(path: path), .tooLarge(path: path, bytes: 12_000_000), .notAudio(path: path, reason: "libsndfile's words"),
            .tooLong(path: path, milliseconds: 31_500), .silent(path: path), .copyFailed(path: path, reason: "strerror's words"),
            .none(title: "Brush teeth", locale: "ko"),
        ]
        let feedback: [FeedbackError] = [
            .speech(call: "espeak_Synth", code: 2), .soundFile(path: path, reason: "sf_strerror"), .missingSound(name: "chime", directory: path),
            .wavFile(path: path, reason: "disk full"), .pulse(call: "pa_stream_write", reason: "Bad state"),
            .hapticDevice(path: "/dev/input/event5", reason: "denied"), .noRumble(path: "/dev/input/event5"),
            .hapticLog(path: path, reason: "denied"),
        ]
        let folder: [SocketFolderRefusal] = [
            .symbolicLink(path: path), .notDirectory(path: path, kind: .socket), .otherOwner(path: path, uid: 1001), .shared(path: "/tmp"),
            .file(.missing(path: path)), .system(path: path, operation: "mkdir", errno: EACCES),
        ]
        let library: [LibraryUnavailable] = [
            LibraryUnavailable(soname: "libzip.so.4", reason: "cannot open shared object file"),
            LibraryUnavailable(soname: "libbz2.so.1.0", neededBy: "libzip.so.4", reason: "file too short"),
            LibraryUnavailable(soname: "libsystemd.so.0", reason: "", signal: "SIGBUS"),
            LibraryUnavailable(soname: "libespeak-ng.so.1", reason: "", timedOut: true),
        ]
        let service: [ServiceError] = [
            .alreadyRunning(pid: 42, socket: "/run/user/1000/steppie/control.sock", database: path),
            .alreadyRunning(pid: nil, socket: nil, database: path), .socketInUse(path: path),
            .guardianPages(reason: CatalogMessage(describing: StoreError.sqlite(sqlite[9]))),
            .httpUnavailable(address: "127.0.0.1:8470", errno: EADDRINUSE), .system(operation: "socket", errno: EMFILE),
        ] + folder.map { .socketFolder($0) } + library.map { .library($0) } + file.map { .file($0) }
        let trust: [ServiceTrustRefusal] = folder.map { .folder($0) }
            + [.otherUser(socket: path, uid: 1001, pid: 77), .peerUnknown(socket: path, errno: EBADF)]
        let tls: [TLSError] = [
            .gnutls(call: "gnutls_x509_crt_sign2", code: -50), .file(.missing(path: path)), .damaged(path: path),
            .keyMismatch(certificate: path + ".crt", key: path + ".key"), .expired(path: path, notAfter: Date(timeIntervalSince1970: 0)),
        ]
        let codes: [ServiceFailure.Code] = [.badRequest, .lineTooLong, .unknownOperation, .otherDatabase, .childNotFound, .childAmbiguous,
                                            .noActiveSet, .invalidValue, .busy, .failed]
        let buttons: [ButtonDeviceError] = [
            .missing(path: "/dev/input/event9"), .notAnInputDevice(path: "/dev/sda", kind: .blockDevice),
            .permissionDenied(path: "/dev/input/event3"), .grabFailed(path: "/dev/input/event3", errno: EBUSY, reason: "busy"),
            .system(path: "/dev/input/event3", operation: "read", errno: EIO, reason: "I/O error"),
        ]
        let catalog: [CatalogLoadError] = [.directoryMissing(path: path), .duplicateKey(key: "a.b", firstFile: "en/a.json", secondFile: "en/b.json")]
        var all: [(String, any Error)] = []
        func add(_ values: [any Error]) { all += values.map { ("\($0)", $0) } }
        add([v, pin]); add(store); add(sqlite); add(edits); add(guardian); add(backup); add(recording); add(feedback); add(file)
        add(service); add(trust); add(tls); add(codes.map { ServiceFailure(code: $0, message: "English for programs") })
        add(buttons); add(catalog); add([L10nError.unknownKey("x.y")]); add(folder); add(library)
        return all
    }()

    static func catalogs() throws -> CatalogSet {
        try CatalogSet.load(directory: CLIHarness.repository.appendingPathComponent("Localization"))
    }

    static func messages(_ locale: String, _ catalogs: CatalogSet) -> Messages {
        let localizer = Localizer(catalogs: catalogs, systemLocale: nil)
        return Messages(locale: locale) { key, args in localizer.text(key, locale: locale, args: args) }
    }

    /// The keys of `message` and of every message nested in it.
    static func keys(_ message: CatalogMessage) -> [String] {
        [message.key] + message.arguments.values.flatMap { argument -> [String] in
            if case .message(let nested) = argument { return keys(nested) }
            return []
        }
    }

    @Test func everyErrorTheCommandLineSaysHasItsOwnSentenceInBothCatalogs() throws {
        let catalogs = try Self.catalogs()
        let en = try #require(catalogs["en"]), ko = try #require(catalogs["ko"])
        #expect(Self.samples.count > 200)
        for (label, error) in Self.samples {
            let described = try #require(error as? any CatalogDescribable, "\(label) has no catalog message")
            for message in [described.catalogMessage, described.logMessage] {
                for key in Self.keys(message) {
                    #expect(en[key] != nil, "en: \(key) of \(label)")
                    #expect(ko[key] != nil, "ko: \(key) of \(label)")
                }
            }
            for locale in ["en", "ko"] {
                let t = Self.messages(locale, catalogs)
                let line = ErrorText.line(error, t)
                #expect(line == t(described.catalogMessage))
                #expect(!line.contains("⟦") && !line.contains("{"), "\(locale): \(line) (\(label))")
                #expect(line != t("cli.error.unexpected", ["kind": String(describing: type(of: error))]), "\(label)")
            }
        }
    }

    /// A sentence that shows a path of the device (or a code, a library's words) marks it as
    /// detail, so the guardian pages never show it (`revealsDetail`).
    @Test func aPathInASentenceIsAlwaysDetail() throws {
        let t = Self.messages("en", try Self.catalogs())
        for (label, error) in Self.samples {
            guard let described = error as? any CatalogDescribable else { continue }
            let line = t(described.catalogMessage)
            for tell in [Self.path, "/dev/", "/run/", "SQLite's own words", "strerror's words", "libzip's words"] where line.contains(tell) {
                #expect(described.catalogMessage.revealsDetail, "\(line) shows \(tell) without marking it detail (\(label))")
            }
        }
    }

    /// The log's message keeps SQLite's own words and the SQL as arguments of a catalog
    /// sentence, in the log's language; the command line's never has them.
    @Test func theLogKeepsSQLitesDetailInItsOwnSentence() throws {
        let catalogs = try Self.catalogs()
        let error = StoreError.sqlite(SQLiteError(code: 1811, message: "refused by a test", sql: "INSERT INTO routines VALUES (1)"))
        let ko = Self.messages("ko", catalogs)
        let log = ko(error.logMessage), line = ErrorText.line(error, ko)
        #expect(log.hasPrefix(line), "\(log)")
        #expect(log.contains("refused by a test") && log.contains("INSERT INTO routines") && log.contains("SQLite 코드 1811"), "\(log)")
        #expect(!line.contains("refused by a test") && !line.contains("INSERT"), "\(line)")
        for tell in ["Error(", "code:", "message:", "sqlite(", "StoreError"] { #expect(!log.contains(tell), "\(log)") }
    }
}
