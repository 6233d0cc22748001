import Foundation

/// A reading profile saved as JSON with synthesized coding.
final class ReadingProfile: Codable, ObservableObject {
    var nickname: String
    var booksPerYear = 12
    let created = Date()

    init(nickname: String) {
        self.nickname = nickname
    }

    func rename(_ name: String) {
        nickname = name
        objectWillChange.send()
    }
}

/// Coded through explicit keys; the editing flag is not saved.
final class Shelf: ObservableObject, Codable {
    @Published var isEditing = false
    var title = ""
    var position = 0

    enum CodingKeys: CodingKey {
        case title, position
    }

    func retitle(_ text: String) {
        title = text
        objectWillChange.send()
    }
}

/// Decoded by hand, encoded by synthesis.
final class Tag: ObservableObject, Codable {
    var label = "" {
        didSet { objectWillChange.send() }
    }

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
