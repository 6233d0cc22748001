/// When a ``TrackingPublisher`` emits, relative to the change that triggered it.
public enum TrackedChangeTiming: Sendable, Hashable {
  /// During the first `willSet` of a change: the publisher emits the value its closure
  /// returns *before* the change is stored — the value about to be replaced.
  case willSet
  /// During the `didSet` of a change: the publisher emits the value its closure returns
  /// *after* the change is stored — the new value.
  case didSet
}
