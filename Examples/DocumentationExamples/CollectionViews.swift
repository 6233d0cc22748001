// "Tracked collections": a SwiftUI list over a `TrackedList`. The list reads only the
// IDs, each row reads only its own element through the model, so editing one message
// re-renders one row, and inserting one re-renders the list and no row.
#if canImport(SwiftUI)
  import SwiftUI
  import Tracking

  /// The article's list: its body reads the IDs only.
  struct InboxView: View {
    let inbox: Inbox

    var body: some View {
      TrackedView {
        List {
          ForEach(inbox.messages.ids, id: \.self) { id in
            MessageRow(inbox: inbox, id: id)
          }
        }
      }
    }
  }

  /// The article's row: its body reads its own message, through the model.
  struct MessageRow: View {
    let inbox: Inbox
    let id: Message.ID

    var body: some View {
      TrackedView {
        Text(inbox.messages[id: id]?.subject ?? "")
      }
    }
  }

  /// Editing one message, as a row's action would: only that row re-renders.
  @MainActor func markRead(_ id: Message.ID, in inbox: Inbox) {
    inbox.messages[id: id]?.isRead = true
  }
#endif
