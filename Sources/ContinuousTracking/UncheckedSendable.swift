/// Carries a value across a `Sendable` boundary where the code guarantees it is only
/// used in one isolation domain (see each use for the argument).
struct UncheckedSendable<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
