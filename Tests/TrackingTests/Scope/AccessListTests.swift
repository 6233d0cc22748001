import Testing
@_spi(Testing) @testable import Tracking

/// What a scope records of its reads: each property once, however many times it is read.
@Suite("A scope's reads")
struct AccessListTests {
  @Test func aReadMadeAgainIsRecordedOnce() {
    let counter = Counter()
    let pair = Pair(1, 2)
    let (_, reads) = AccessList.collect {
      for _ in 0..<3 { _ = counter.count }
      _ = pair.first
      _ = counter.label
      _ = counter.count
      _ = pair.first
    }
    #expect(reads.dependencies.map { $0.description } == ["Counter.count", "Counter.label", "Pair<Int>.first"])
  }

  @Test func aKeyPathNumberedPropertyReadAgainIsRecordedOnce() {
    let model = HandWritten()
    let (_, reads) = AccessList.collect {
      _ = model.manual
      _ = model.manual
    }
    #expect(reads.dependencies.count == 1)
  }

  /// A scope that read properties several times, among others, hears each of them:
  /// a property of a second object with the same number as one of the first's, and a
  /// property numbered past 63.
  @Test func propertiesReadAgainStillFire() {
    let counter = Counter()
    let pair = Pair(1, 2)
    let model = HandWritten()
    let log = EventLog()
    withTracking {
      _ = counter.count
      _ = counter.count
      _ = pair.first
      _ = pair.first
    } onChange: {
      log("counter and pair")
    }
    withTracking {
      _ = model.manual
      _ = counter.label
      _ = model.manual
    } onChange: {
      log("model")
    }
    pair.first = 3
    model.manual = 1
    #expect(log.events == ["counter and pair", "model"])
  }
}

extension AccessList {
  /// The properties this scope read, by object type and property name.
  var dependencies: [TrackingDependency] {
    var result: [TrackingDependency] = []
    forEach { result += TrackingDependency.all(of: $0.type, $0.properties) }
    return result
  }
}
