import Foundation
import Testing
import SteppieCore
import SteppieStore
@testable import SteppieCLI

/// Profile values, children and routine editing; every refusal leaves the database unchanged.
@Suite struct GuardianEditTests {
    @Test(arguments: [
        // Out of the range the command tree declares: a usage mistake naming the option as typed.
        (["--tts-rate", "1.6"], Int32(64), "--tts-rate does not accept \"1.6\"; allowed: a number 0.5…1.5"),
        (["--tts-rate", "fast"], 64, "--tts-rate does not accept \"fast\""),
        (["--tts-rate", "nan"], 64, "--tts-rate does not accept \"nan\""),
        (["--tts-volume", "-0.1"], 64, "--tts-volume does not accept \"-0.1\"; allowed: a number 0.0…1.0"),
        (["--volume-cap", "1.01"], 64, "--volume-cap does not accept \"1.01\"; allowed: a number 0.0…1.0"),
        (["--pitch", "100"], 64, "--pitch does not accept \"100\"; allowed: a whole number 0…99"),
        (["--pitch", "5.5"], 64, "--pitch does not accept \"5.5\""),
        (["--undo", "7"], 64, "--undo does not accept \"7\"; allowed: 3, 5 or 10"),
        (["--lead-times", "10,10"], 64, "--lead-times does not accept \"10,10\"; allowed: up to 5 different whole numbers 1…240, separated by commas, or none"),
        (["--lead-times", "0"], 64, "1…240"),
        (["--lead-times", "5,x"], 64, "--lead-times"),
        (["--lead-times", "1,2,3,4,5,6"], 64, "up to 5"),
        (["--quiet-hours", "21:00-21:00"], 64, "--quiet-hours does not accept \"21:00-21:00\"; allowed: two different times HH:mm-HH:mm, or none"),
        (["--quiet-hours", "25:00-07:00"], 64, "--quiet-hours"),
        (["--quiet-hours", "night"], 64, "--quiet-hours"),
        // What only the contract knows stays a runtime refusal.
        (["--voice", "bad/variant"], 1, "an espeak-ng variant name"),
        (["--intensity", "loud"], 64, "strong, normal, quiet, off"),
        (["--sound", "yes"], 64, "on, off"),
        (["--child-locale", "fr"], 64, "ko, en, system"),
        (["--speech", "off", "--pitch", "120"], 64, "--pitch does not accept \"120\"; allowed: a whole number 0…99"),
    ] as [([String], Int32, String)])
    func invalidProfileValuesAreRefusedAndChangeNothing(args: [String], status: Int32, message: String) throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let before = try Store(path: h.db, timeZone: h.zone).dump()
        let r = h.run(["profile", "set"] + args)
        #expect(r.status == status)
        #expect(r.err.contains(message), "\(r.err)")
        #expect(try Store(path: h.db, timeZone: h.zone).dump() == before)
    }

    @Test func validProfileValuesAreSavedAndShown() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        #expect(h.run(["profile", "set", "--intensity", "quiet", "--sound", "off", "--tts-rate", "0.8", "--pitch", "40",
                       "--voice", "f2", "--undo", "10", "--lead-times", "none", "--quiet-hours", "21:00-07:00",
                       "--child-locale", "en"]).out == "Updated the feedback profile of Mina.\n")
        #expect(h.run(["profile", "show"]).out == """
            Feedback profile of Mina
              Intensity: Quiet
              Sound: off
              Speech: on
              Haptic: on
              Speech rate: 0.80
              Speech volume: 1.00
              Volume cap: 1.00
              Pitch: 40
              Voice variant: f2
              Undo window: 10 s
              Reminders (minutes before): none
              Quiet hours: 21:00-07:00
              Language: en

            """)
        let p = try Store(path: h.db, timeZone: h.zone).resolveChild("Mina").profile
        #expect(p.intensity == .quiet && !p.soundEnabled && p.ttsRate == 0.8 && p.notificationLeadTimes.isEmpty && p.locale == "en")
    }

    @Test func childrenRenameArchiveList() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        #expect(h.run(["children", "add", "Joon"]).status == 0)
        #expect(h.run(["children", "rename", "joon", "Jun"]).out == "Renamed Joon to Jun.\n")
        let taken = h.run(["children", "rename", "Jun", "mina"])
        #expect(taken.status == 1 && taken.err == "steppie: a child named mina already exists\n")
        #expect(h.run(["children", "archive", "Jun"]).out == "Archived Jun.\n")
        #expect(try Store(path: h.db, timeZone: h.zone).children().map(\.displayName) == ["Mina"])
    }

    @Test func routineEditingKeepsTheContract() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let store = try Store(path: h.db, timeZone: h.zone)
        let set = try #require(try store.activeSet(childId: try store.resolveChild(nil).id))
        func titles() throws -> [String] { try store.routines(setId: set.id).filter(\.isVisible).map { $0.title.values["en"] ?? "" } }
        let add = h.run(["routine", "add", "--title-ko", "물 마시기", "--title-en", "Drink water", "--icon", "water",
                         "--color", "mint", "--time", "07:30", "--position", "2"])
        #expect(add.status == 0, "\(add.err)")
        #expect(try titles() == ["Wake up", "Drink water", "Wash face", "Brush teeth", "Get dressed", "Eat breakfast", "Pack bag"])
        let water = try #require(try store.routines(setId: set.id).first { $0.title.values["en"] == "Drink water" })
        let id = water.id.uuidString.lowercased()
        #expect(h.run(["routine", "move", id, "--to", "7"]).out == "Moved Drink water to position 7.\n")
        #expect(h.run(["routine", "move", id, "--to", "8"]).err == "steppie: position cannot be 8; allowed: 1…7\n")
        let plaid = h.run(["routine", "edit", id, "--title-en", "Water", "--time", "none", "--color", "plaid"])
        #expect(plaid.status == 64 && plaid.err.hasPrefix("steppie: --color does not accept \"plaid\"; allowed: sky, mint, lemon, peach, lavender, rose\n"))
        #expect(h.run(["routine", "move", id, "--to", "0"]).err.hasPrefix("steppie: --to does not accept \"0\"; allowed: a whole number 1 or more\n"))
        #expect(h.run(["routine", "edit", id, "--time", "24:00"]).status == 64)
        #expect(h.run(["routine", "edit", id, "--title-en", "Water", "--time", "none"]).status == 0)
        #expect(try store.routine(id: water.id).scheduledTime == nil)
        #expect(h.run(["routine", "delete", id]).status == 0)
        #expect(try titles().count == 6)
        let wake = try #require(try store.routines(setId: set.id).first)
        // Take the deleted routine's place (order 6) with another one, then restore: it goes to the end.
        #expect(h.run(["routine", "move", wake.id.uuidString, "--to", "6"]).status == 0)
        #expect(h.run(["routine", "add", "--title-en", "Shoes"]).status == 0)
        #expect(h.run(["routine", "restore", id]).out == "Restored Water at position 8.\n")
        #expect(h.run(["routine", "deactivate", id]).status == 0)
        #expect(h.run(["routine", "activate", id]).status == 0)
        let visible = try store.routines(setId: set.id).filter(\.isVisible)
        #expect(Set(visible.map(\.order)).count == visible.count)
        #expect(try store.integrityProblems().isEmpty)
    }

    @Test func setsCreateAndActivate() throws {
        let h = CLIHarness()
        #expect(h.run(["init", "--child", "Mina"]).status == 0)
        let created = h.run(["set", "create", "--name-ko", "주말", "--name-en", "Weekend"])
        #expect(created.status == 0 && created.out.hasPrefix("Created Weekend for Mina ("))
        #expect(h.run(["set", "create", "--template", "bedtime", "--name-en", "X"]).status == 64)
        let id = try #require(created.out.split(separator: "(").last?.dropLast(3))
        // An empty set cannot be the active one (issue 15, item 9); with a routine it can.
        let empty = h.run(["set", "activate", String(id)])
        #expect(empty.status == 1 && empty.err == "steppie: Weekend has no routines and cannot be the active set; add one first: steppie routine add --set SET-ID\n")
        #expect(h.run(["routine", "add", "--set", String(id), "--title-en", "Park"]).status == 0)
        #expect(h.run(["set", "activate", String(id)]).out == "Weekend is now the active set.\n")
        #expect(h.run(["sets"]).out.contains("* Weekend  \(id)  (1 routine, active)"))
    }
}
