import Foundation
import Testing
import SteppieCore

/// The hostile review's findings (issue 11), each fed through the real binary with the database
/// dump and the file tree compared before and after.
@Suite(.serialized) struct HardeningTests {
    // MARK: 1. The scripted clock does not move security time

    @Test func steppieNowNeitherShortensNorStretchesTheLockout() throws {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        #expect(h.sh("$S guardian set-pin --pin-stdin", input: "1234\n").status == 0)
        // Five wrong PINs, each "a year later" by the scripted clock: the fifth locks for 30 s.
        for n in 1...5 {
            let r = h.sh("$S guardian unlock --pin-stdin", env: ["STEPPIE_NOW": "20\(30 + n)-01-01T00:00:00+09:00"], input: "9999\n")
            #expect(r.status == 1, "attempt \(n): \(r.err)")
        }
        // The right PIN a century later by STEPPIE_NOW is still refused without being checked.
        let early = h.sh("$S guardian unlock --pin-stdin", env: ["STEPPIE_NOW": "2126-01-01T00:00:00+09:00"], input: "1234\n")
        #expect(early.status == 1)
        #expect(early.err.contains("Too many attempts"), "\(early.err)")
        // Neither a far-future nor a far-past scripted clock changes what is left: at most 30 s.
        for now in ["2126-01-01T00:00:00+09:00", "1990-01-01T00:00:00+09:00", ""] {
            let status = h.sh("$S guardian status --json", env: now.isEmpty ? [:] : ["STEPPIE_NOW": now])
            let json = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any]
            let left = json?["lockedSeconds"] as? Int
            #expect(left != nil && left! > 0 && left! <= 30, "STEPPIE_NOW=\(now): lockedSeconds \(String(describing: left))")
            #expect(json?["failedAttempts"] as? Int == 5)
        }
        // The stored lock is within 30 s of the real time, not of the scripted one.
        let stored = h.query("SELECT pin_locked_until FROM device_settings")
        let until = try #require(Timestamp.parse(stored))
        #expect(until.timeIntervalSinceNow <= 31 && until.timeIntervalSinceNow > 0, "stored lock \(stored)")
    }

    // MARK: 2. Guardian rights

    @Test func changingThePinNeedsTheCurrentPinEvenInGuardianMode() {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        #expect(h.sh("$S guardian set-pin --pin-stdin", input: "1234\n").status == 0)
        #expect(h.sh("$S guardian unlock --pin-stdin", input: "1234\n").status == 0)
        let hash = h.query("SELECT guardian_pin_hash FROM device_settings")
        // In guardian mode, a new PIN alone is not enough: the first line is taken as the current PIN.
        let taken = h.sh("$S guardian set-pin --pin-stdin", input: "5678\n")
        #expect(taken.status == 1, "\(taken.out)\(taken.err)")
        #expect(h.query("SELECT guardian_pin_hash FROM device_settings") == hash)
        // With the current PIN it works.
        #expect(h.sh("$S guardian set-pin --pin-stdin", input: "1234\n5678\n").status == 0)
        #expect(h.query("SELECT guardian_pin_hash FROM device_settings") != hash)
    }

    @Test func initOnADatabaseWithAPinIsAGuardianCommand() {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        #expect(h.sh("$S guardian set-pin --pin-stdin", input: "1234\n").status == 0)
        #expect(h.sh("$S guardian lock").status == 0)
        let before = h.dump()
        let refused = h.sh("$S init --child Eve --template school")
        #expect(refused.status == 1)
        #expect(refused.err.contains("guardian"), "\(refused.err)")
        #expect(h.dump() == before)
    }

    @Test func lookingDoesNotExtendTheGuardianSession() {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        #expect(h.sh("$S guardian set-pin --pin-stdin", input: "1234\n").status == 0)
        #expect(h.sh("$S guardian unlock --pin-stdin", input: "1234\n").status == 0)
        let until = h.query("SELECT guardian_unlocked_until || ' ' || guardian_unlocked_boot FROM device_settings")
        #expect(until.count > 20)
        for command in ["today", "routines", "history", "stats", "sets", "children list", "profile show", "guardian status", "icons"] {
            let r = h.sh("$S \(command)")
            #expect(r.status == 0, "\(command): \(r.err)")
        }
        #expect(h.query("SELECT guardian_unlocked_until || ' ' || guardian_unlocked_boot FROM device_settings") == until)
    }

    // MARK: 3. File modes

    @Test func filesAreOwnerOnlyWhateverTheUmask() {
        let h = BinaryHarness()
        #expect(h.sh("umask 022; $S init --child Mina").status == 0)
        #expect(h.mode(h.directory + "/data") == "700")
        #expect(h.mode(h.db) == "600")
        // A write while another connection holds the database keeps its WAL and SHM.
        #expect(h.sh("umask 000; $S complete").status == 0)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: h.db + suffix) {
            #expect(h.mode(h.db + suffix) == "600", "\(suffix)")
        }
        // Looser modes are tightened on open, with a notice.
        chmod(h.db, 0o644)
        let r = h.sh("$S today")
        #expect(r.status == 0)
        #expect(h.mode(h.db) == "600")
        #expect(r.err.contains("owner-only"), "\(r.err)")
        #expect(h.sh("umask 000; $S say hello --out $D/hello.wav").status == 0)
        #expect(h.mode(h.directory + "/hello.wav") == "600")
    }

    // MARK: 5. Failed writes

    @Test func aFullDiskOnStandardOutputIsExitOneWithOneLine() {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        for command in ["today", "today --json", "--help", "routines --json", "history"] {
            let r = h.sh("$S \(command) > /dev/full")
            #expect(r.status == 1, "\(command): \(r.status) \(r.err)")
            #expect(!BinaryHarness.trapped(r.err), "\(command): \(r.err)")
            #expect(r.err.contains("disk is full"), "\(command): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1, "\(command): \(r.err)")
        }
    }

    @Test func aClosedPipeIsExitOneNotATrap() {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        // The reader is gone before steppie starts: python closes the read end, then runs it.
        let script = """
            python3 -c 'import os,subprocess,sys; r,w=os.pipe(); os.close(r); \
            p=subprocess.run([os.environ["S"]]+sys.argv[1:], stdout=w, stderr=subprocess.PIPE); \
            sys.stderr.write(p.stderr.decode()); sys.exit(p.returncode)' today --json
            """
        let r = h.sh(script)
        #expect(r.status == 1, "\(r.status) \(r.err)")
        #expect(!BinaryHarness.trapped(r.err), "\(r.err)")
        // A reader that went away took what it wanted (`| head`): exit 1 with no error line
        // (#26 item 9; before, "steppie: cannot write to standard output: the reader went away").
        #expect(r.err.isEmpty, "\(r.err)")
    }

    @Test func aClosedEventStreamIsANoticeAndTheRoutineGoesOn() {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        // The events go to a pipe whose reader quits after the first byte: later event writes fail
        // with EPIPE. Child mode says so once and saves both presses.
        let r = h.sh("(printf 'wait 0.5\\ndone\\nwait 0.5\\nnext\\nwait 0.2\\ndone\\nwait 0.3\\nquit\\n' | $S child --output null --events - --keys-from - 2>$D/err.txt) | head -c 1 > /dev/null; cat $D/err.txt")
        #expect(!BinaryHarness.trapped(r.out), "\(r.out)")
        #expect(r.out.contains("event stream could not be written"), "\(r.out)")
        #expect(r.out.components(separatedBy: "event stream").count == 2, "said more than once: \(r.out)")
        #expect(h.query("SELECT count(*) FROM daily_logs WHERE status = 'completed'") == "2", "\(r.out)")
    }

    // MARK: 6. Output targets and the database path

    @Test func nonRegularTargetsAreRefusedAndLeftIntact() {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        #expect(h.sh("mkfifo $D/fifo && mkdir $D/folder").status == 0)
        let before = h.dump(), tree = h.tree()
        // (`backup create --out` a folder writes the default name inside it: BackupOutFolderTests.)
        for command in ["backup create --out $D/fifo", "backup create --out /dev/null",
                        "say hi --out $D/fifo", "child --output wav --wav $D/fifo --keys-from /dev/null",
                        "child --output null --events $D/folder --keys-from /dev/null", "l10n render --out $D/fifo"] {
            let r = h.sh("$S \(command)", timeout: 20)
            #expect(r.status == 64, "\(command): \(r.status) \(r.err)")
            #expect(r.err.contains("left untouched") || r.err.contains("not a folder"), "\(command): \(r.err)")
        }
        #expect(h.tree() == tree)
        #expect(h.dump() == before)
    }

    @Test func aDatabasePathThatIsNotARegularFileIsRefusedWithoutAJournal() {
        let h = BinaryHarness()
        #expect(h.sh("mkfifo $D/fifo.db && mkdir $D/dir.db").status == 0)
        let tree = h.tree()
        for db in ["$D/fifo.db", "$D/dir.db", "/dev/null"] {
            for command in ["init", "today", "children add Eve"] {
                let viaOption = h.sh("$S \(command) --db \(db)", timeout: 20)
                #expect(viaOption.status == 64, "\(command) --db \(db): \(viaOption.err)")
                let viaVariable = h.sh("$S \(command)", env: ["STEPPIE_DB": db.replacingOccurrences(of: "$D", with: h.directory)], timeout: 20)
                #expect(viaVariable.status == 1, "STEPPIE_DB=\(db) \(command): \(viaVariable.err)")
                #expect(viaVariable.err.contains("not a regular file"), "\(viaVariable.err)")
            }
        }
        #expect(h.tree() == tree)
        #expect(!FileManager.default.fileExists(atPath: "/dev/null-journal") && !FileManager.default.fileExists(atPath: "/dev/null-wal"))
    }

    @Test func lookOnlyCommandsNeverCreateADatabase() {
        let h = BinaryHarness()
        for command in ["today", "routines", "history", "stats", "guardian status", "sets", "children list", "profile show"] {
            let r = h.sh("$S \(command)")
            #expect(r.status == 1, "\(command): \(r.status) \(r.err)")
            #expect(r.err.contains("steppie init"), "\(command): \(r.err)")
            #expect(h.tree().isEmpty, "\(command) created \(h.tree())")
        }
        #expect(h.sh("$S icons").status == 0)
        #expect(h.tree().isEmpty, "icons created \(h.tree())")
        let verify = h.sh("$S backup verify $D/missing.zip")
        #expect(verify.status == 1)
        #expect(h.tree().isEmpty, "backup verify created \(h.tree())")
    }

    @Test func aShortOrForeignFileIsNeverInitialisedOver() throws {
        let h = BinaryHarness()
        let short = h.directory + "/short.db", foreign = h.directory + "/foreign.db"
        try Data([0x41]).write(to: URL(fileURLWithPath: short))
        #expect(h.sh("sqlite3 '\(foreign)' 'CREATE TABLE notes(x); INSERT INTO notes VALUES (42);'").status == 0)
        let foreignDump = h.dumpOf(foreign)
        let tree = h.tree()
        for path in [short, foreign] {
            for command in ["init", "today", "children add Eve"] {
                let r = h.sh("$S \(command) --db '\(path)'")
                #expect(r.status == 1, "\(command) on \(path): \(r.err)")
                #expect(r.err.contains("not a Steppie database"), "\(r.err)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: short)) == Data([0x41]))
        #expect(h.dumpOf(foreign) == foreignDump)
        #expect(h.tree() == tree)
    }

    // MARK: 8. A database replaced under a running process

    @Test func aReplacedDatabaseOrDeletedWALIsNeverASilentSuccess() throws {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        let child = try ChildProcess(db: h.db, directory: URL(fileURLWithPath: h.directory))
        #expect(child.waitFor(ChildProcess.type("focus")) != nil)
        // Another program deletes the WAL while child mode runs.
        try FileManager.default.removeItem(atPath: h.db + "-wal")
        child.send("done")
        let failed = child.waitFor(ChildProcess.type("saveFailed"))
        let (status, _, err) = child.finish()
        #expect(failed != nil, "no saveFailed event; stderr: \(err)")
        #expect(err.contains("replaced") || err.contains("journal"), "\(err)")
        #expect(status == 0)
        #expect(!child.events.contains { $0["type"] as? String == "completed" })
    }

    @Test func childModeFollowsARestoreMadeByAnotherProcess() throws {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        #expect(h.sh("$S backup create --out $D/b.zip").status == 0)
        let child = try ChildProcess(db: h.db, directory: URL(fileURLWithPath: h.directory))
        #expect(child.waitFor(ChildProcess.type("focus")) != nil)
        // The restore gives the children back; child mode must still show the routine.
        let restore = h.sh("$S backup restore $D/b.zip", input: "")
        #expect(restore.status == 0, "\(restore.err)")
        child.send("done")
        let completed = child.waitFor(ChildProcess.type("completed"))
        let (_, _, err) = child.finish()
        #expect(completed != nil, "\(err)")
    }

    // MARK: 9. Environment and echoes

    @Test func aMalformedEnvironmentIsAUsageErrorNamingTheVariable() {
        let h = BinaryHarness()
        for (name, value) in [("TZ", "Mars/Olympus_Mons"), ("STEPPIE_NOW", "yesterday"), ("STEPPIE_DATA_DIR", "/nonexistent/steppie")] {
            let r = h.sh("$S today", env: [name: value])
            #expect(r.status == 64, "\(name): \(r.status) \(r.err)")
            #expect(r.err.contains(name), "\(name): \(r.err)")
            #expect(!r.err.contains("catalogs"), "\(name): \(r.err)")
            let ko = h.sh("$S today --locale ko", env: [name: value])
            #expect(ko.err.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) }, "\(name) in Korean: \(ko.err)")
        }
        #expect(h.tree().isEmpty)
    }

    @Test func echoedInputHasControlCharactersEscaped() {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        for command in ["today --child \"$(printf 'X\\033]0;owned\\007')\"", "\"$(printf 'to\\033[2Jday')\"",
                        "today --\"$(printf 'x\\033[31m')\"", "children add \"$(printf 'A\\033[31mB')\""] {
            let r = h.sh("$S \(command)")
            #expect(r.status != 0, "\(command)")
            #expect(!r.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "\(command): \(r.err.debugDescription)")
            #expect(!r.err.contains("\u{7}"))
        }
    }

    @Test func pinStdinReadsOneShortLine() {
        let h = BinaryHarness()
        #expect(h.sh("$S init --child Mina").status == 0)
        #expect(h.sh("$S guardian set-pin --pin-stdin", input: "1234\n").status == 0)
        // An endless line (here 64 MiB without a newline) is cut, refused, and not read to the end.
        let started = Date()
        let r = h.sh("head -c 67108864 /dev/zero | tr '\\0' 7 | (ulimit -v 1048576; $S guardian unlock --pin-stdin)")
        #expect(r.status == 1, "\(r.err)")
        #expect(!BinaryHarness.trapped(r.err))
        #expect(Date().timeIntervalSince(started) < 20)
    }
}


