import Foundation

extension Pane: Codable {
    enum CodingKeys: String, CodingKey {
        case tabs
        case selected
        case id
    }

    convenience init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            tabs: try container.decode([URL].self, forKey: .tabs),
            selected: try container.decodeIfPresent(URL.self, forKey: .selected),
            workspace: nil)
        id = try container.decode(UUID.self, forKey: .id)
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tabs, forKey: .tabs)
        try container.encodeIfPresent(selected, forKey: .selected)
        try container.encode(id, forKey: .id)
    }
}
