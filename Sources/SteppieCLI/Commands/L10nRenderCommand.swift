import Foundation
import SteppieFiles
import SteppieCore
import SteppieFeedback
import SteppieLocalization

/// `steppie l10n render`: every spoken prompt of a locale as a WAV file, with an index, for a
/// listening review. The prompts are said exactly as a child hears them (`Localizer.spoken`:
/// times, dates and counts as people say them), with sample values, the values given with
/// `--arg NAME=VALUE`, or — with `--child NAME` — once for each of that child's routine titles and
/// icon labels.
enum L10nRenderCommand {
    /// One rendering of one prompt.
    struct Row {
        var key: String
        /// What the voice says, with the values the prompt was rendered with.
        var values: [String: MessageValue]
        var file: String
    }

    /// One prompt in `index.json` (and a line of `index.tsv`).
    struct IndexEntry: Codable {
        let key: String
        let text: String
        let spoken: String
        let file: String
        let seconds: Double
        /// Only when rendered for a child's routine titles.
        let routineTitle: String?
    }

    /// `index.json`.
    struct Index: Codable {
        let locale: String
        let prompts: [IndexEntry]
    }

    /// What `--json` prints when the folder is written.
    struct Summary: Encodable {
        let locale: String
        let count: Int
        let directory: String
        let seconds: Double
    }

    static func run(_ c: Context) throws -> Int32 {
        let locale = c.invocation.value("--locale") ?? c.text.locale
        let out = URL(fileURLWithPath: c.invocation.value("--out") ?? "l10n-\(locale)")
        let catalogs = try c.env.catalogs.get()
        let localizer = Localizer(catalogs: catalogs, environment: c.env.variables)
        let keys = catalogs.allKeys.filter { $0.hasPrefix("tts.") }.sorted()
        var values = SampleArguments.typedValues(locale: locale)
        for (name, value) in try L10nCommands.arguments(c) { values[name] = MessageValue(parsing: value) }
        let titles = try c.invocation.value("--child").map { _ in try childTitles(c, locale: locale) }
        var rows: [Row] = []
        for key in keys {
            guard let titles, localizer.resolve(key, locale: locale)?.entry.placeholderNames.contains("routineTitle") == true else {
                rows.append(Row(key: key, values: values, file: key + ".wav"))
                continue
            }
            for (n, title) in titles.enumerated() {
                var own = values
                own["routineTitle"] = .text(title)
                rows.append(Row(key: key, values: own, file: "\(key)-\(n + 1).wav"))
            }
        }
        try OwnerOnly.createDirectories(out.path)
        let started = ContinuousClock.now
        var index: [IndexEntry] = []
        let showProgress = !c.json && isatty(STDERR_FILENO) == 1
        for (i, row) in rows.enumerated() {
            let text = localizer.text(row.key, locale: locale, values: row.values)
            let spoken = localizer.spoken(row.key, locale: locale, values: row.values)
            let samples = try SpeechSynthesizer.shared.speak(text: spoken, locale: locale)
            try SoundFile.writeWAV(samples, to: out.appendingPathComponent(row.file).path)
            let seconds = Double(samples.count) / Double(SpeechSynthesizer.sampleRate)
            var routineTitle: String?
            if titles != nil, case .text(let title)? = row.values["routineTitle"] { routineTitle = title }
            index.append(IndexEntry(key: row.key, text: text, spoken: SpeechText.spoken(spoken, locale: locale), file: row.file,
                                    seconds: (seconds * 1000).rounded() / 1000, routineTitle: routineTitle))
            if showProgress {
                let width = 30, filled = (i + 1) * width / rows.count
                c.console.errorText("\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                                    + "] \(i + 1)/\(rows.count) \(row.key)\u{1B}[K")
            }
        }
        if showProgress { c.console.errorText("\r\u{1B}[K") }
        let elapsed = ContinuousClock.now - started
        let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let data = try Context.jsonEncoder.encode(Index(locale: locale, prompts: index))
        try data.write(to: out.appendingPathComponent("index.json"))
        var tsv = "key\ttext\tspoken\tseconds\tfile\n"
        for row in index {
            tsv += "\(row.key)\t\(row.text)\t\(row.spoken)\t\(row.seconds)\t\(row.file)\n"
        }
        try Data(tsv.utf8).write(to: out.appendingPathComponent("index.tsv"))
        if c.json {
            try c.printJSON(Summary(locale: locale, count: rows.count, directory: out.path, seconds: total))
        } else {
            c.console.print(c.text("cli.l10n.rendered", ["count": String(rows.count), "path": out.path,
                                                         "seconds": String(format: "%.2f", total)]))
        }
        return 0
    }

    /// The child's routine titles and icon labels in `locale`, every set, each once, in order.
    static func childTitles(_ c: Context, locale: String) throws -> [String] {
        let store = try c.store()
        let child = try c.child()
        var seen: [String] = []
        func add(_ text: String) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty, !seen.contains(trimmed) { seen.append(trimmed) }
        }
        for set in try store.sets(childId: child.id) {
            for routine in try store.routines(setId: set.id) {
                add(routine.title.resolve(chosen: locale, system: nil))
                if case .builtin(let name) = routine.icon, let label = BuiltinIcons.label(of: name) {
                    add(label.resolve(chosen: locale, system: nil))
                }
            }
        }
        return seen
    }
}
