import SwiftUI

/// The collection of books shown by the app.
class Library: ObservableObject {
    @Published var books: [Book] = [Book(), Book(), Book()]

    var availableBookCount: Int {
        books.filter(\.isAvailable).count
    }
}
