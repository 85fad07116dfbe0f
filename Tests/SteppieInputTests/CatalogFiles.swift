import Foundation

/// The keys of `Localization/<locale>/buttons.json` in this checkout.
enum CatalogFiles {
    static func keys() throws -> [String: Set<String>] {
        let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var result: [String: Set<String>] = [:]
        for locale in ["ko", "en"] {
            let url = root.appendingPathComponent("Localization/\(locale)/buttons.json")
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any] ?? [:]
            result[locale] = Set(object.keys)
        }
        return result
    }
}
