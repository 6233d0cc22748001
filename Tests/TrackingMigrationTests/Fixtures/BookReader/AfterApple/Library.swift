import SwiftUI

/// The collection of books shown by the app.
@Observable class Library {
    var books: [Book] = [Book(), Book(), Book()]

    var availableBookCount: Int {
        books.filter(\.isAvailable).count
    }
}
