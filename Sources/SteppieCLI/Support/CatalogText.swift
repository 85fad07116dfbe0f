import Foundation
import SteppieCore

/// Interim catalog reader for command-line text (replaced by SteppieLocalization's Localizer).
enum CatalogText {
    static func messages(locale: String, dataDirectory: URL?) -> Messages {
        var tables: [String: [String: String]] = [:]
        if let dir = dataDirectory?.appendingPathComponent("Localization") {
            for tag in ["ko", "en"] {
                var table: [String: String] = [:]
                let files = (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent(tag).path)) ?? []
                for f in files.sorted() where f.hasSuffix(".json") {
                    let url = dir.appendingPathComponent(tag).appendingPathComponent(f)
                    if let data = try? Data(contentsOf: url), let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                        for (k, v) in obj { if let s = v as? String { table[k] = s } }
                    }
                }
                tables[tag] = table
            }
        }
        let chain = LocaleFallback.chain(chosen: locale, system: nil)
        let snapshot = tables
        return Messages(locale: locale) { key, args in
            var text = "⟦\(key)⟧"
            for tag in chain + ["en"] { if let t = snapshot[LocaleFallback.language(of: tag)]?[key] { text = t; break } }
            for (k, v) in args { text = text.replacingOccurrences(of: "{\(k)}", with: v) }
            return text
        }
    }
}
