import Foundation
import Tracking

@Trackable class Session {
    var user: String?
}

@Trackable class AdminSession: Session {
    var permissions: [String] = []
    var note = ""
}
