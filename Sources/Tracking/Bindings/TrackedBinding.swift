/// A two-way connection to a value that lives somewhere else: reading
/// ``wrappedValue`` reads the source, writing it writes the source.
///
/// Bindings come from ``TrackedBindable`` (`TrackedBindable(model).name`), from other
/// bindings (`binding.address.city`, `binding[0]`, `binding[id: id]`), or from
/// ``init(get:set:)``. They need no UI framework; where SwiftUI is available,
/// `SwiftUI.Binding(trackedBinding)` converts one.
///
/// A binding derived from a binding to an object's property writes *in place*: setting
/// `TrackedBindable(model).address.city` mutates `model.address` through its `_modify`
/// accessor, so a ``Trackable()`` class reports one change of `address`, and tracking
/// sees it like any other write.
///
/// Bindings read and write on the caller's thread; they are not `Sendable`.
@dynamicMemberLookup
public struct TrackedBinding<Value> {
  private let getter: () -> Value
  private let modifier: ((inout Value) -> Void) -> Void

  /// Creates a binding that reads with `get` and writes with `set`.
  ///
  /// Derived bindings (`binding.member`, `binding[index]`) write by reading the whole
  /// value, changing the part and setting the whole value back.
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
    self.getter = get
    self.modifier = { body in
      var value = get()
      body(&value)
      set(value)
    }
  }

  /// Creates a binding that reads with `get` and mutates in place with `modify`, which
  /// must call its argument exactly once with the stored value.
  public init(get: @escaping () -> Value, modify: @escaping ((inout Value) -> Void) -> Void) {
    self.getter = get
    self.modifier = modify
  }

  /// A binding to a value that never changes; writes are ignored.
  public static func constant(_ value: Value) -> TrackedBinding<Value> {
    TrackedBinding(get: { value }, modify: { _ in })
  }

  /// The current value of the source. Setting it writes the source.
  public var wrappedValue: Value {
    get { getter() }
    nonmutating set { modifier { $0 = newValue } }
  }

  /// Mutates the source's value in place.
  public func modify(_ body: (inout Value) -> Void) {
    withoutActuallyEscaping(body) { body in modifier(body) }
  }

  /// A binding to the member of the value at `keyPath`; writes go through this binding.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> TrackedBinding<Member> {
    let source = self
    return TrackedBinding<Member>(
      get: { source.getter()[keyPath: keyPath] },
      modify: { body in source.modifier { body(&$0[keyPath: keyPath]) } })
  }
}

extension TrackedBinding where Value: MutableCollection {
  /// A binding to the element at `position`. The position must stay valid for as long
  /// as the binding is used, as for any collection subscript.
  public subscript(position: Value.Index) -> TrackedBinding<Value.Element> {
    let source = self
    return TrackedBinding<Value.Element>(
      get: { source.getter()[position] },
      modify: { body in source.modifier { body(&$0[position]) } })
  }
}

extension TrackedBinding where Value: MutableCollection, Value.Element: Identifiable {
  /// A binding to the element whose `id` is `id`, or `nil` if there is none now.
  ///
  /// The element is looked up by `id` on every read and write, so the binding follows
  /// it when the collection is reordered. If the element is later removed, reads
  /// return its last value read through this binding and writes are ignored.
  public subscript(id id: Value.Element.ID) -> TrackedBinding<Value.Element>? {
    guard let initial = getter().first(where: { $0.id == id }) else { return nil }
    let source = self
    let last = LastValue(initial)
    return TrackedBinding<Value.Element>(
      get: {
        let collection = source.getter()
        if let index = collection.firstIndex(where: { $0.id == id }) {
          last.value = collection[index]
        }
        return last.value
      },
      modify: { body in
        source.modifier { collection in
          guard let index = collection.firstIndex(where: { $0.id == id }) else { return }
          body(&collection[index])
          last.value = collection[index]
        }
      })
  }
}

/// The last value seen of an element bound by id, so a removed element still reads.
private final class LastValue<Element> {
  var value: Element
  init(_ value: Element) { self.value = value }
}
