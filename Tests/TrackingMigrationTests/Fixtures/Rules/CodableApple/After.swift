import Foundation
import Observation

/// A reading profile saved as JSON with synthesized coding.
@Observable final class ReadingProfile: Codable {
    var nickname: String
    @ObservationIgnored var booksPerYear = 12
    let created = Date()

    init(nickname: String) {
        self.nickname = nickname
    }

    func rename(_ name: String) {
        nickname = name
    }

    enum CodingKeys: String, CodingKey {
        case _nickname = "nickname"
        case booksPerYear
        case created
    }
}

/// Coded through explicit keys; the editing flag is not saved.
@Observable final class Shelf: Codable {
    var isEditing = false
    var title = ""
    @ObservationIgnored var position = 0

    enum CodingKeys: String, CodingKey {
        case _title = "title", position
    }

    func retitle(_ text: String) {
        title = text
    }
}

/// Decoded by hand, encoded by synthesis.
@Observable final class Tag: Codable {
    var label = ""

    enum CodingKeys: String, CodingKey {
        case label = "name"
    }

    init(label: String) {
        self.label = label
    }

    required init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        label = try container.decode(String.self, forKey: .label)
    }
}
