import SwiftUI
import Tracking

/// The collection of books shown by the app.
@Trackable class Library {
    var books: [Book] = [Book(), Book(), Book()]

    var availableBookCount: Int {
        books.filter(\.isAvailable).count
    }
}
