/// The typed side of a ``Derived``: its closure, its rule for telling two values apart
/// and the handling of its value, as two closures over untyped memory, made where the
/// value's type is known.
///
/// The node behind a `Derived` (``DerivedComputation``) is not generic, so that the
/// engine's code is one specialized copy whatever the value's type. What does depend
/// on the type is made by the `@inlinable` initializers of `Derived`: they are compiled
/// in the module that makes the value, for its concrete type, so that running the
/// closure, comparing two values with `==` and moving one into the cache are
/// specialized code, not generic code that looks up the type's witnesses at each step
/// (a third of a chain of derived values' cost, measured in the ceiling study; see
/// `Benchmarks/Sources/ceiling/README.md`).
///
/// The node keeps two slots of the value's size: the cache, and the slot a
/// recomputation computes into before the value is compared and stored.
@usableFromInline
struct DerivedValueOperations {
  /// What ``commit`` does with the two slots.
  @usableFromInline
  enum Step {
    /// Returns whether the new value differs from the cached one (both initialized).
    case differs
    /// Moves the new value into the cache, which holds a value. Returns whether the
    /// old value is left in the new value's slot, for the caller to destroy with
    /// ``discard`` once the graph lock is left (its deinit may be anything, reading a
    /// derived value too); a value with nothing to destroy is overwritten.
    case replace
    /// Moves the new value into the cache, which is empty.
    case fill
    /// Destroys the new value (it was no change).
    case discard
    /// Destroys the cached value (the node goes away).
    case empty
  }

  /// Runs the user's closure and initializes the slot with its value.
  @usableFromInline
  let run: (_ new: UnsafeMutableRawPointer) -> Void
  /// Does `step` with the cache and the new value's slot; returns the answer of
  /// ``Step/differs`` and ``Step/replace`` (and `false` for the other steps).
  @usableFromInline
  let commit: (_ step: Step, _ cache: UnsafeMutableRawPointer, _ new: UnsafeMutableRawPointer) -> Bool
  /// `MemoryLayout<Value>.stride` and `.alignment`.
  @usableFromInline
  let stride: Int
  @usableFromInline
  let alignment: Int

  @usableFromInline
  init(
    run: @escaping (UnsafeMutableRawPointer) -> Void,
    commit: @escaping (Step, UnsafeMutableRawPointer, UnsafeMutableRawPointer) -> Bool,
    stride: Int, alignment: Int
  ) {
    self.run = run
    self.commit = commit
    self.stride = stride
    self.alignment = alignment
  }

  /// The operations of a value computed by `compute`, told apart from the previous
  /// one by `differs` (which sees both slots initialized).
  @inlinable @inline(__always)
  static func make<Value>(
    _ compute: @escaping () -> Value, differs: @escaping (Value, Value) -> Bool
  ) -> DerivedValueOperations {
    DerivedValueOperations(
      run: { new in new.initializeMemory(as: Value.self, to: compute()) },
      commit: { step, cache, new in
        let cached = cache.assumingMemoryBound(to: Value.self)
        let computed = new.assumingMemoryBound(to: Value.self)
        switch step {
        case .differs: return differs(cached.pointee, computed.pointee)
        case .replace:
          guard _isPOD(Value.self) else {
            swap(&cached.pointee, &computed.pointee)
            return true
          }
          cached.pointee = computed.move()
        case .fill: cached.initialize(to: computed.move())
        case .discard: computed.deinitialize(count: 1)
        case .empty: cached.deinitialize(count: 1)
        }
        return false
      },
      stride: MemoryLayout<Value>.stride, alignment: MemoryLayout<Value>.alignment)
  }

  /// The operations of a value compared with `==`.
  @inlinable
  static func equatable<Value: Equatable>(_ compute: @escaping () -> Value) -> DerivedValueOperations {
    make(compute) { $0 != $1 }
  }

  /// The operations of a value that counts as changed at every recomputation.
  @inlinable
  static func alwaysDiffering<Value>(_ compute: @escaping () -> Value) -> DerivedValueOperations {
    make(compute) { _, _ in true }
  }

  /// The operations of a value told apart by the caller's `isEqual`.
  @inlinable
  static func comparing<Value>(
    _ compute: @escaping () -> Value, by isEqual: @escaping (Value, Value) -> Bool
  ) -> DerivedValueOperations {
    make(compute) { !isEqual($0, $1) }
  }
}
