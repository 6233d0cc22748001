#if canImport(Combine) || OpenCombine
  @_spi(Testing) import Tracking
  import Testing
  import TrackingCombine

  #if canImport(Combine)
    import Combine
  #else
    import OpenCombine
  #endif

  struct Book: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String
  }

  @Trackable final class Shelf: @unchecked Sendable {
    var books: TrackedList<Book> = [Book(id: 1, title: "one"), Book(id: 2, title: "two")]
  }

  @Suite("Combine bridge: tracked collections")
  struct CollectionPublisherTests {
    @Test func aPublisherOfTheWholeListEmitsOnAnInPlaceEdit() {
      let shelf = Shelf()
      let seen = Received<[String]>()
      let cancellable = shelf.publisher(for: \.books).sink { seen.append($0.elements.map(\.title)) }
      shelf.books[id: 2]?.title = "TWO"
      shelf.books.append(Book(id: 3, title: "three"))
      #expect(seen.values == [["one", "TWO"], ["one", "TWO", "three"]])
      cancellable.cancel()
    }

    @Test func aPublisherOfOneElementEmitsForThatElementOnly() {
      let shelf = Shelf()
      let seen = Received<String?>()
      let cancellable = shelf.publisher(for: \.books[id: 1]?.title).sink { seen.append($0) }
      shelf.books[id: 2]?.title = "not this one"
      shelf.books[id: 1]?.title = "ONE"
      #expect(seen.values == ["ONE"])
      cancellable.cancel()
    }
  }
#endif
