// A stand-in for Apple's Combine, for type-checking this package's Apple-only code on
// Linux (Scripts/check-apple-platforms.sh). It declares only what the package and its
// examples use, each with the signature on the Apple documentation page named above
// it (https://developer.apple.com/documentation/combine/...). Nothing here runs: the
// module is only ever emitted as a .swiftmodule and type-checked against.

/// Combine: Publisher (protocol).
public protocol Publisher<Output, Failure> {
  associatedtype Output
  associatedtype Failure: Error

  /// Combine: Publisher/receive(subscriber:).
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
  /// Combine: Publisher/subscribe(_:) (the Subscriber overload).
  public func subscribe<S: Subscriber>(_ subscriber: S) where S.Input == Output, S.Failure == Failure {
    fatalError("stub")
  }
}

extension Publisher where Failure == Never {
  /// Combine: Publisher/sink(receiveValue:).
  public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
    fatalError("stub")
  }
}

extension Publisher {
  /// Combine: Publisher/sink(receiveCompletion:receiveValue:).
  public func sink(
    receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
    receiveValue: @escaping (Output) -> Void
  ) -> AnyCancellable {
    fatalError("stub")
  }
}

/// Combine: Subscriber (protocol).
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
  associatedtype Input
  associatedtype Failure: Error

  /// Combine: Subscriber/receive(subscription:).
  func receive(subscription: any Subscription)
  /// Combine: Subscriber/receive(_:).
  func receive(_ input: Input) -> Subscribers.Demand
  /// Combine: Subscriber/receive(completion:).
  func receive(completion: Subscribers.Completion<Failure>)
}

/// Combine: Subscription (protocol).
public protocol Subscription: Cancellable, CustomCombineIdentifierConvertible {
  /// Combine: Subscription/request(_:).
  func request(_ demand: Subscribers.Demand)
}

/// Combine: Cancellable (protocol).
public protocol Cancellable {
  /// Combine: Cancellable/cancel().
  func cancel()
}

/// Combine: CustomCombineIdentifierConvertible (protocol).
public protocol CustomCombineIdentifierConvertible {
  /// Combine: CustomCombineIdentifierConvertible/combineIdentifier.
  var combineIdentifier: CombineIdentifier { get }
}

extension CustomCombineIdentifierConvertible where Self: AnyObject {
  /// Combine: CustomCombineIdentifierConvertible/combineIdentifier (the default for classes).
  public var combineIdentifier: CombineIdentifier { fatalError("stub") }
}

/// Combine: CombineIdentifier.
public struct CombineIdentifier: Hashable, CustomStringConvertible {
  /// Combine: CombineIdentifier/init().
  public init() {}
  /// Combine: CombineIdentifier/init(_:).
  public init(_ obj: AnyObject) {}
  /// Combine: CombineIdentifier/description.
  public var description: String { fatalError("stub") }
}

/// Combine: Subscribers.
public enum Subscribers {
  /// Combine: Subscribers/Demand.
  @frozen public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible {
    /// Combine: Subscribers/Demand/unlimited.
    public static let unlimited = Demand()
    /// Combine: Subscribers/Demand/none.
    public static let none = Demand()
    /// Combine: Subscribers/Demand/max(_:) (the static function).
    public static func max(_ value: Int) -> Demand { fatalError("stub") }
    /// Combine: Subscribers/Demand/max (the property).
    public var max: Int? { fatalError("stub") }
    /// Combine: Subscribers/Demand/description.
    public var description: String { fatalError("stub") }

    init() {}

    /// Combine: Subscribers/Demand/<(_:_:).
    public static func < (lhs: Demand, rhs: Demand) -> Bool { fatalError("stub") }
    /// Combine: Subscribers/Demand/>(_:_:) (Demand, Int).
    public static func > (lhs: Demand, rhs: Int) -> Bool { fatalError("stub") }
    /// Combine: Subscribers/Demand/==(_:_:) (Demand, Int).
    public static func == (lhs: Demand, rhs: Int) -> Bool { fatalError("stub") }
    /// Combine: Subscribers/Demand/+=(_:_:) (Demand, Demand).
    public static func += (lhs: inout Demand, rhs: Demand) { fatalError("stub") }
    /// Combine: Subscribers/Demand/+=(_:_:) (Demand, Int).
    public static func += (lhs: inout Demand, rhs: Int) { fatalError("stub") }
    /// Combine: Subscribers/Demand/-=(_:_:) (Demand, Demand).
    public static func -= (lhs: inout Demand, rhs: Demand) { fatalError("stub") }
    /// Combine: Subscribers/Demand/-=(_:_:) (Demand, Int).
    public static func -= (lhs: inout Demand, rhs: Int) { fatalError("stub") }
  }

  /// Combine: Subscribers/Completion.
  @frozen public enum Completion<Failure: Error> {
    case finished
    case failure(Failure)
  }
}

/// Combine: AnyCancellable.
final public class AnyCancellable: Cancellable, Hashable {
  /// Combine: AnyCancellable/init(_:) (the closure overload).
  public init(_ cancel: @escaping () -> Void) {}
  /// Combine: AnyCancellable/init(_:) (the Cancellable overload).
  public init<C: Cancellable>(_ canceller: C) {}
  /// Combine: AnyCancellable/cancel().
  final public func cancel() {}
  /// Combine: AnyCancellable/store(in:) (the Set overload).
  final public func store(in set: inout Set<AnyCancellable>) {}
  /// Combine: AnyCancellable/store(in:) (the RangeReplaceableCollection overload).
  final public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {}

  public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
  final public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Combine: ObservableObject (protocol).
public protocol ObservableObject: AnyObject {
  /// Combine: ObservableObject/ObjectWillChangePublisher.
  associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
  where ObjectWillChangePublisher.Failure == Never
  /// Combine: ObservableObject/objectWillChange.
  var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
  /// Combine: ObservableObject/objectWillChange (the default implementation).
  public var objectWillChange: ObservableObjectPublisher { fatalError("stub") }
}

/// Combine: ObservableObjectPublisher.
final public class ObservableObjectPublisher: Publisher {
  public typealias Output = Void
  public typealias Failure = Never
  /// Combine: ObservableObjectPublisher/init().
  public init() {}
  /// Combine: ObservableObjectPublisher/receive(subscriber:).
  final public func receive<S: Subscriber>(subscriber: S) where S.Input == Void, S.Failure == Never {}
  /// Combine: ObservableObjectPublisher/send().
  final public func send() {}
}

/// Combine: Published.
@propertyWrapper public struct Published<Value> {
  /// Combine: Published/init(wrappedValue:).
  public init(wrappedValue: Value) {}
  /// Combine: Published/init(initialValue:).
  public init(initialValue: Value) {}

  /// Combine: Published (a property of a class only; the compiler goes through the
  /// enclosing-instance subscript below).
  @available(*, unavailable, message: "@Published is only available on properties of classes")
  public var wrappedValue: Value {
    get { fatalError("stub") }
    set { fatalError("stub") }
  }

  public static subscript<EnclosingSelf: AnyObject>(
    _enclosingInstance object: EnclosingSelf,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
  ) -> Value {
    get { fatalError("stub") }
    set { fatalError("stub") }
  }

  /// Combine: Published/Publisher.
  public struct Publisher: Combine.Publisher {
    public typealias Output = Value
    public typealias Failure = Never
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Value, S.Failure == Never {}
  }

  /// Combine: Published/projectedValue.
  public var projectedValue: Published<Value>.Publisher {
    mutating get { fatalError("stub") }
    set {}
  }
}
