/// Carries a value across a `Sendable` boundary that the compiler cannot check.
///
/// The one unchecked box of the package: every use states, where it is made, why the
/// value is only ever used in one isolation domain (or is immutable and safe to share).
/// Like swift-async-algorithms' `UnsafeTransfer`.
@usableFromInline
package struct UncheckedSendable<Value>: @unchecked Sendable {
  @usableFromInline package let value: Value
  @inlinable package init(_ value: Value) { self.value = value }
}
