import SwiftUI

/// Something that loads pages of posts.
@MainActor protocol PostsSource: ObservableObject {
    var posts: [String] { get }
    func refresh() async
}

protocol Pinnable: AnyObject, ObservableObject {
    var isPinned: Bool { get set }
}

final class HomeFeed: PostsSource {
    @Published private(set) var posts: [String] = []
    @Published var limit: Int

    init(limit: Int) {
        _limit = Published(initialValue: limit)
        self._posts = Published(wrappedValue: ["welcome"])
    }

    func refresh() async {}
}

final class Draft {
    @Published var text = ""
}

extension Draft: ObservableObject {}

struct PostsList<Source: ObservableObject & PostsSource>: View {
    @ObservedObject var source: Source

    var body: some View {
        List(source.posts, id: \.self) { Text($0) }
    }
}

struct Badge<Model>: View where Model: ObservableObject, Model: PostsSource {
    @StateObject var model: Model
    var body: some View { Text("\(model.posts.count)") }
}

struct AnyCounter<Model: ObservableObject>: View {
    @ObservedObject var model: Model
    var body: some View { Text("?") }
}
