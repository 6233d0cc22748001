import Foundation
import Tracking

@Trackable final class Store: NSObject // the delegate methods need NSObject
    {
    var count = 0
}

@Trackable final class Note: Identifiable /* shown in lists */ /* for SwiftUI */ {
    var text = ""
    let id = UUID()
}

@Trackable final class Pin: /* legacy */ Hashable {
    var isOn = false
    static func == (a: Pin, b: Pin) -> Bool { a === b }
    func hash(into hasher: inout Hasher) {}
}
