import Foundation
import Tracking

/// A book the library lends out.
@Trackable class Book: Identifiable {
    var title = "Sample Book Title"
    var author = "Unknown Author"
    var isAvailable = true

    let id = UUID()
}
