import Tracking

/// A message of the chapter's inbox: a plain value.
struct TourMessage: Identifiable, Equatable {
  let id: Int
  var subject: String
  var isRead = false
}

@Trackable final class TourInbox: @unchecked Sendable {
  var messages: TrackedList<TourMessage> = []
}

/// How many times the stand-ins for views ran. The tour runs on one thread.
final class RenderCounts: @unchecked Sendable {
  var list = 0
  var rows = 0
  func reset() { (list, rows) = (0, 0) }
}

enum CollectionsChapter {
  /// A list view and its row views, with observers standing in for the views: the
  /// list reads the IDs, each row reads its own message through the model.
  static func run() {
    Narrator.chapter("11. A tracked list: editing one row re-runs that row only")
    let inbox = TourInbox()
    inbox.messages = TrackedList(uniqueElements: (1...1_000).map { TourMessage(id: $0, subject: "message \($0)") })
    let renders = RenderCounts()
    var tokens = [
      observe {
        _ = inbox.messages.ids  // ForEach(inbox.messages.ids, id: \.self)
        renders.list += 1
      }
    ]
    for id in inbox.messages.ids {
      tokens.append(
        observe {
          _ = inbox.messages[id: id]?.subject  // MessageRow(inbox: inbox, id: id)
          renders.rows += 1
        })
    }
    Narrator.say("first render: the list \(renders.list) time, \(renders.rows) rows")
    renders.reset()
    inbox.messages[id: 42]?.subject = "re: message 42"
    Narrator.say("edit message 42: \(renders.rows) row re-rendered, the list \(renders.list) times")
    renders.reset()
    inbox.messages.append(TourMessage(id: 1_001, subject: "new"))
    Narrator.say("append a message: the list \(renders.list) time, \(renders.rows) rows")
    renders.reset()
    inbox.messages.remove(id: 7)
    Narrator.say("remove message 7: the list \(renders.list) time, \(renders.rows) row (its own)")
    Narrator.say("(an array of structs in an @Observable model re-runs all \(inbox.messages.count + 1) for each)")
    tokens.removeAll()
  }
}
