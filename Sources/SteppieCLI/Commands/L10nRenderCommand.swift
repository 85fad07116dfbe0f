import Foundation
import SteppieFiles
import SteppieCore
import SteppieFeedback
import SteppieLocalization

/// `steppie l10n render`: every spoken prompt of a locale as a WAV file, with an index, for a
/// listening review.
enum L10nRenderCommand {
    static func run(_ c: Context) throws -> Int32 {
        let locale = c.invocation.value("--locale") ?? c.text.locale
        let out = URL(fileURLWithPath: c.invocation.value("--out") ?? "l10n-\(locale)")
        try OwnerOnly.createDirectories(out.path)
        let catalogs = try c.env.catalogs.get()
        let localizer = Localizer(catalogs: catalogs, environment: c.env.variables)
        let keys = catalogs.allKeys.filter { $0.hasPrefix("tts.") }.sorted()
        let args = SampleArguments.values(locale: locale)
        let started = ContinuousClock.now
        var index: [[String: Any]] = []
        let showProgress = !c.json && isatty(STDERR_FILENO) == 1
        for (i, key) in keys.enumerated() {
            let text = localizer.text(key, locale: locale, args: args)
            let samples = try SpeechSynthesizer.shared.speak(text: text, locale: locale)
            let file = key + ".wav"
            try SoundFile.writeWAV(samples, to: out.appendingPathComponent(file).path)
            let seconds = Double(samples.count) / Double(SpeechSynthesizer.sampleRate)
            index.append(["key": key, "text": text, "file": file, "seconds": (seconds * 1000).rounded() / 1000])
            if showProgress {
                let width = 30, filled = (i + 1) * width / keys.count
                c.console.errorText("\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled)
                                    + "] \(i + 1)/\(keys.count) \(key)\u{1B}[K")
            }
        }
        if showProgress { c.console.errorText("\r\u{1B}[K") }
        let elapsed = ContinuousClock.now - started
        let total = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let data = try JSONSerialization.data(withJSONObject: ["locale": locale, "prompts": index],
                                              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        try data.write(to: out.appendingPathComponent("index.json"))
        var tsv = "key\ttext\tseconds\tfile\n"
        for row in index { tsv += "\(row["key"] ?? "")\t\(row["text"] ?? "")\t\(row["seconds"] ?? "")\t\(row["file"] ?? "")\n" }
        try Data(tsv.utf8).write(to: out.appendingPathComponent("index.tsv"))
        if c.json {
            try c.printJSON(["locale": locale, "count": keys.count, "directory": out.path, "seconds": total])
        } else {
            c.console.print(c.text("cli.l10n.rendered", ["count": String(keys.count), "path": out.path,
                                                         "seconds": String(format: "%.2f", total)]))
        }
        return 0
    }
}
