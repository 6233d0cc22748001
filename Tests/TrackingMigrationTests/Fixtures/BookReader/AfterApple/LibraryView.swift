import SwiftUI

struct LibraryView: View {
    @Environment(Library.self) var library

    var body: some View {
        List(library.books) { book in
            BookView(book: book)
        }
    }
}
