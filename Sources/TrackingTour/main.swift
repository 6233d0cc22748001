import Tracking

@Trackable final class Counter { var count = 0 }
let counter = Counter()
withTracking { _ = counter.count } onChange: { print("count will change") }
counter.count += 1
print("count:", counter.count)
