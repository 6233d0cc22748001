import Foundation
import Observation

@Observable final class Timer: @unchecked Sendable {
    var elapsed: TimeInterval = 0
    @ObservationIgnored private var startDate = Date()
}
