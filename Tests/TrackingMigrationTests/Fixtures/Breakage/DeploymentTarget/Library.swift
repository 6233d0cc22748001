import SwiftUI

final class Library: ObservableObject {
    @Published var books: [String] = []
}

struct LibraryView: View {
    @EnvironmentObject var library: Library

    var body: some View {
        Text("\(library.books.count) books")
    }
}
