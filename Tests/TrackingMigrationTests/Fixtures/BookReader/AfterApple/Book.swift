import Foundation
import Observation

/// A book the library lends out.
@Observable class Book: Identifiable {
    var title = "Sample Book Title"
    var author = "Unknown Author"
    var isAvailable = true

    let id = UUID()
}
