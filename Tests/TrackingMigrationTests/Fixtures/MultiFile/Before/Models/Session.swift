import Foundation

class Session: ObservableObject {
    @Published var user: String?
}

class AdminSession: Session {
    @Published var permissions: [String] = []
    @Published var note = ""
}
