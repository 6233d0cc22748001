import SwiftUI
import Tracking

/// Something that loads pages of posts.
@MainActor protocol PostsSource: AnyObject {
    var posts: [String] { get }
    func refresh() async
}

protocol Pinnable: AnyObject {
    var isPinned: Bool { get set }
}

@Trackable final class HomeFeed: PostsSource {
    private(set) var posts: [String] = []
    var limit: Int

    init(limit: Int) {
        self.limit = limit
        self._posts = ["welcome"]
    }

    func refresh() async {}
}

@Trackable final class Draft {
    var text = ""
}

extension Draft {}

struct PostsList<Source: AnyObject & PostsSource>: View {
    var source: Source

    var body: some View {
        List(source.posts, id: \.self) { Text($0) }
    }
}

struct Badge<Model>: View where Model: AnyObject, Model: PostsSource {
    @State var model: Model
    var body: some View { Text("\(model.posts.count)") }
}

struct AnyCounter<Model: ObservableObject>: View {
    @ObservedObject var model: Model
    var body: some View { Text("?") }
}
