// Stand-ins for the parts of SwiftUI the migrated fixtures use, built as a module
// named `SwiftUI` so that their output can be type-checked where SwiftUI does not
// exist (Linux). Only the shape matters: the generic constraints follow Apple's
// documentation — `Bindable<Value>` needs `Value: AnyObject & Observable`,
// `Environment(_:)` for an object type and `View.environment(_:)` need
// `AnyObject & Observable`, `State<Value>` takes any value, and `StateObject`,
// `ObservedObject`, `EnvironmentObject` and `View.environmentObject(_:)` need an
// `ObservableObject`. Like SwiftUI, the module re-exports Observation, Combine (here
// OpenCombine, under `-module-alias Combine=OpenCombine`) and Foundation. Nothing
// here runs. Stub modules of the whole Apple surface replace this file when
// `TRACKING_APPLE_STUBS` names their directory (see TypeChecker.swift).
@_exported import Combine
@_exported import Foundation
@_exported import Observation

@MainActor @preconcurrency public protocol View {
  associatedtype Body: View
  @ViewBuilder var body: Body { get }
}
@MainActor @preconcurrency public protocol Scene {
  associatedtype Body: Scene
  @SceneBuilder var body: Body { get }
}
@MainActor @preconcurrency public protocol App {
  associatedtype Body: Scene
  @SceneBuilder var body: Body { get }
  init()
}
extension App {
  public static func main() {}
}
public struct AnyContent: View {
  nonisolated public init() {}
  public var body: AnyContent { AnyContent() }
}
public struct AnyScene: Scene {
  nonisolated public init() {}
  public var body: AnyScene { AnyScene() }
}

@resultBuilder public enum ViewBuilder {
  public static func buildBlock(_ parts: Any...) -> AnyContent { AnyContent() }
  public static func buildExpression(_ part: some View) -> AnyContent { AnyContent() }
  public static func buildOptional(_ part: AnyContent?) -> AnyContent { AnyContent() }
  public static func buildEither(first: AnyContent) -> AnyContent { AnyContent() }
  public static func buildEither(second: AnyContent) -> AnyContent { AnyContent() }
}
@resultBuilder public enum SceneBuilder {
  public static func buildBlock(_ parts: Any...) -> AnyScene { AnyScene() }
  public static func buildExpression(_ part: some Scene) -> AnyScene { AnyScene() }
}

extension View {
  public func padding() -> AnyContent { AnyContent() }
  public func textFieldStyle(_ style: FieldStyle) -> AnyContent { AnyContent() }
  public func buttonStyle(_ style: FieldStyle) -> AnyContent { AnyContent() }
  public func onSubmit(_ action: @escaping () -> Void) -> AnyContent { AnyContent() }
  public func sheet(isPresented: Binding<Bool>, @ViewBuilder content: () -> some View) -> AnyContent { AnyContent() }
  public func tint(_ name: String) -> AnyContent { AnyContent() }
  public func task(_ action: @escaping () async -> Void) -> AnyContent { AnyContent() }
  public func disabled(_ disabled: Bool) -> AnyContent { AnyContent() }
  public func frame(width: CGFloat? = nil, height: CGFloat? = nil) -> AnyContent { AnyContent() }
  public func frame(
    minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
    idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil
  ) -> AnyContent { AnyContent() }
  /// Needs an Observable object, like SwiftUI's.
  public func environment<T: AnyObject & Observable>(_ object: T?) -> AnyContent { AnyContent() }
  /// Needs an ObservableObject, like SwiftUI's.
  public func environmentObject<T: ObservableObject>(_ object: T) -> AnyContent { AnyContent() }
}
public struct FieldStyle: Sendable {
  public static let roundedBorder = FieldStyle()
  public static let borderedProminent = FieldStyle()
}

public struct Text: View {
  public init(_ text: String) {}
  public var body: AnyContent { AnyContent() }
}
public struct Spacer: View {
  public init() {}
  public var body: AnyContent { AnyContent() }
}
public struct Button: View {
  public init(_ title: String, action: @escaping () -> Void) {}
  public var body: AnyContent { AnyContent() }
}
public struct TextField: View {
  public init(_ title: String, text: Binding<String>) {}
  public var body: AnyContent { AnyContent() }
}
public struct Toggle: View {
  public init(_ title: String, isOn: Binding<Bool>) {}
  public init(isOn: Binding<Bool>, @ViewBuilder label: () -> some View) {}
  public var body: AnyContent { AnyContent() }
}
public struct Slider: View {
  public init(value: Binding<Double>) {}
  public var body: AnyContent { AnyContent() }
}
public struct HStack: View {
  public init(@ViewBuilder content: () -> some View) {}
  public var body: AnyContent { AnyContent() }
}
public struct VStack: View {
  public init(@ViewBuilder content: () -> some View) {}
  public var body: AnyContent { AnyContent() }
}
public struct Form: View {
  public init(@ViewBuilder content: () -> some View) {}
  public var body: AnyContent { AnyContent() }
}
public struct List: View {
  public init<Data: RandomAccessCollection>(_ data: Data, @ViewBuilder row: (Data.Element) -> some View)
  where Data.Element: Identifiable {}
  public init<Data: RandomAccessCollection, ID: Hashable>(
    _ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder row: (Data.Element) -> some View
  ) {}
  public var body: AnyContent { AnyContent() }
}
public struct WindowGroup: Scene {
  public init(@ViewBuilder content: () -> some View) {}
  public var body: AnyScene { AnyScene() }
}

@propertyWrapper @dynamicMemberLookup public struct Binding<Value> {
  public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {}
  public var wrappedValue: Value { get { fatalError() } nonmutating set {} }
  public var projectedValue: Binding<Value> { self }
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Binding<Member> { fatalError() }
}

@propertyWrapper public struct State<Value> {
  public init(wrappedValue: Value) {}
  public init(initialValue: Value) {}
  public var wrappedValue: Value { get { fatalError() } nonmutating set {} }
  public var projectedValue: Binding<Value> { fatalError() }
}

/// Needs an Observable class, like SwiftUI's.
@propertyWrapper @dynamicMemberLookup public struct Bindable<Value: AnyObject & Observable> {
  public init(wrappedValue: Value) {}
  public init(_ wrappedValue: Value) {}
  public var wrappedValue: Value { fatalError() }
  public var projectedValue: Bindable<Value> { self }
  public subscript<Member>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Member>) -> Binding<Member> {
    fatalError()
  }
}

public struct EnvironmentValues {
  public var dismiss: DismissAction { DismissAction() }
}
public struct DismissAction {
  public func callAsFunction() {}
}
@propertyWrapper public struct Environment<Value> {
  public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
  /// Reads an Observable object by its type, like SwiftUI's.
  public init(_ objectType: Value.Type) where Value: AnyObject & Observable {}
  public var wrappedValue: Value { fatalError() }
}

@propertyWrapper public struct AppStorage<Value> {
  public init(wrappedValue: Value, _ key: String) {}
  public init(_ key: String) where Value: ExpressibleByNilLiteral {}
  public var wrappedValue: Value { get { fatalError() } nonmutating set {} }
  public var projectedValue: Binding<Value> { fatalError() }
}

/// Hold an ObservableObject, like SwiftUI's.
@propertyWrapper public struct StateObject<ObjectType: ObservableObject> {
  public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {}
  public var wrappedValue: ObjectType { fatalError() }
  public var projectedValue: ObservedObject<ObjectType>.Wrapper { fatalError() }
}
@propertyWrapper public struct ObservedObject<ObjectType: ObservableObject> {
  @dynamicMemberLookup public struct Wrapper {
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
      fatalError()
    }
  }
  public init(wrappedValue: ObjectType) {}
  public init(initialValue: ObjectType) {}
  public var wrappedValue: ObjectType { fatalError() }
  public var projectedValue: Wrapper { fatalError() }
}
@propertyWrapper public struct EnvironmentObject<ObjectType: ObservableObject> {
  public init() {}
  public var wrappedValue: ObjectType { fatalError() }
  public var projectedValue: ObservedObject<ObjectType>.Wrapper { fatalError() }
}
