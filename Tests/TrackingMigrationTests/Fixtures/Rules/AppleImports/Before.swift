import Foundation

final class Timer: ObservableObject, @unchecked Sendable {
    @Published var elapsed: TimeInterval = 0
    private var startDate = Date()
}
