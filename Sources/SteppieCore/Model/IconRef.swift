/// What a routine card shows: a builtin icon or a photo kept beside the database.
public enum IconRef: Hashable, Sendable {
    case builtin(name: String)
    case photo(localAssetId: String, backupAssetName: String)

    public static let fallback = IconRef.builtin(name: "star")
}

extension IconRef: Codable {
    private enum Keys: String, CodingKey { case type, name, localAssetId, backupAssetName }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        switch try c.decode(String.self, forKey: .type) {
        case "builtin": self = .builtin(name: try c.decode(String.self, forKey: .name))
        case "photo":
            self = .photo(localAssetId: try c.decode(String.self, forKey: .localAssetId),
                          backupAssetName: try c.decode(String.self, forKey: .backupAssetName))
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .type, in: c,
                debugDescription: "icon type must be builtin or photo, got \(other)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        switch self {
        case .builtin(let name):
            try c.encode("builtin", forKey: .type)
            try c.encode(name, forKey: .name)
        case .photo(let id, let asset):
            try c.encode("photo", forKey: .type)
            try c.encode(id, forKey: .localAssetId)
            try c.encode(asset, forKey: .backupAssetName)
        }
    }
}
