import Foundation

final class Store: NSObject, // the delegate methods need NSObject
    ObservableObject {
    @Published var count = 0
}

final class Note: Identifiable, /* shown in lists */ ObservableObject /* for SwiftUI */ {
    @Published var text = ""
    let id = UUID()
}

final class Pin: ObservableObject /* legacy */, Hashable {
    @Published var isOn = false
    static func == (a: Pin, b: Pin) -> Bool { a === b }
    func hash(into hasher: inout Hasher) {}
}
