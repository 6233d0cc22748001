// A stand-in for Apple's SwiftUI, for type-checking this package's Apple-only code on
// Linux (Scripts/check-apple-platforms.sh). It declares only what the package and its
// examples use, each with the signature, isolation, `Sendable` conformance and
// availability on the Apple documentation page named above it ("SwiftUI: Binding/
// init(get:set:)" is https://developer.apple.com/documentation/swiftui/binding/init(get:set:)).
// Nothing here runs: the module is only ever emitted as a .swiftmodule.
//
// It follows the SDKs of Xcode 16 to 26, where `@State` is a property wrapper and
// `@ViewBuilder` builds `View`s (Xcode 27 makes both macros; see TestSupport/AppleStubs/README.md).
// Availability is written as documented, but a Linux compiler does not enforce Apple
// availability: the macOS workflow checks that.

import Combine
import Foundation
import Observation

// MARK: Views

/// SwiftUI: View.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
@MainActor @preconcurrency public protocol View {
  associatedtype Body: View
  /// SwiftUI: View/body-swift.property.
  @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// SwiftUI: Never (its View conformance, for views with no body of their own).
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension Never: View {
  public typealias Body = Never
  public var body: Never { fatalError("stub") }
}

/// SwiftUI: ViewBuilder.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
@resultBuilder public struct ViewBuilder {
  /// SwiftUI: ViewBuilder/buildBlock() (no statements).
  public static func buildBlock() -> EmptyView { fatalError("stub") }
  /// SwiftUI: ViewBuilder/buildBlock(_:) (one view).
  public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
  /// SwiftUI: ViewBuilder/buildBlock(_:) (several views, a parameter pack).
  public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
    fatalError("stub")
  }
}

/// SwiftUI: EmptyView.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
@frozen public struct EmptyView: View {
  public typealias Body = Never
  public var body: Never { fatalError("stub") }
}

/// SwiftUI: TupleView.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
@frozen public struct TupleView<T>: View {
  public typealias Body = Never
  public var body: Never { fatalError("stub") }
}

/// SwiftUI: Text.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
@frozen public struct Text: Equatable, Sendable {
  /// SwiftUI: Text/init(_:tableName:bundle:comment:).
  public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {}
  /// SwiftUI: Text/init(_:) (a StringProtocol value, not localized; a string literal
  /// picks the localized initializer above).
  @_disfavoredOverload public init<S: StringProtocol>(_ content: S) {}
  /// SwiftUI: Text/init(verbatim:).
  public init(verbatim content: String) {}

  public static func == (a: Text, b: Text) -> Bool { fatalError("stub") }
}

@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension Text: View {
  public typealias Body = Never
  public nonisolated var body: Never { fatalError("stub") }
}

/// SwiftUI: LocalizedStringKey.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
@frozen public struct LocalizedStringKey: Equatable, ExpressibleByStringInterpolation {
  /// SwiftUI: LocalizedStringKey/init(_:).
  public init(_ value: String) {}
  /// SwiftUI: LocalizedStringKey/init(stringLiteral:).
  public init(stringLiteral value: String) {}
  /// SwiftUI: LocalizedStringKey/init(stringInterpolation:).
  public init(stringInterpolation: StringInterpolation) {}

  /// SwiftUI: LocalizedStringKey/StringInterpolation.
  public struct StringInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    /// SwiftUI: LocalizedStringKey/StringInterpolation/appendLiteral(_:).
    public mutating func appendLiteral(_ literal: String) {}
    /// SwiftUI: LocalizedStringKey/StringInterpolation/appendInterpolation(_:) (a String).
    public mutating func appendInterpolation(_ string: String) {}
    /// SwiftUI: LocalizedStringKey/StringInterpolation/appendInterpolation(_:) (a
    /// number: a value of a `_FormatSpecifiable` type).
    public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T) {}
  }

  public static func == (a: LocalizedStringKey, b: LocalizedStringKey) -> Bool { fatalError("stub") }
}

/// SwiftUI's public protocol of the number types a localized string can interpolate
/// (named in LocalizedStringKey/StringInterpolation/appendInterpolation(_:)).
public protocol _FormatSpecifiable: Equatable {}
extension Int: _FormatSpecifiable {}
extension Double: _FormatSpecifiable {}

/// SwiftUI: TextField.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
nonisolated public struct TextField<Label: View>: View {
  public typealias Body = Never
  public var body: Never { fatalError("stub") }
}

@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension TextField where Label == Text {
  /// SwiftUI: TextField/init(_:text:) (a localized title).
  nonisolated public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
}

/// SwiftUI: Toggle.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
nonisolated public struct Toggle<Label: View>: View {
  public typealias Body = Never
  public var body: Never { fatalError("stub") }
}

@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension Toggle where Label == Text {
  /// SwiftUI: Toggle/init(_:isOn:) (a localized title key).
  nonisolated public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {}
}

/// SwiftUI: Form.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
nonisolated public struct Form<Content: View>: View {
  /// SwiftUI: Form/init(content:).
  public init(@ViewBuilder content: () -> Content) {}
  public typealias Body = Never
  public var body: Never { fatalError("stub") }
}

/// SwiftUI: List.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
nonisolated public struct List<SelectionValue: Hashable, Content: View>: View {
  public typealias Body = Never
  public var body: Never { fatalError("stub") }
}

@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension List where SelectionValue == Never {
  /// SwiftUI: List/init(content:).
  nonisolated public init(@ViewBuilder content: () -> Content) {}
}

/// SwiftUI: ForEach.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content> {
  /// SwiftUI: ForEach/data.
  public var data: Data
  /// SwiftUI: ForEach/content.
  public var content: (Data.Element) -> Content
}

@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension ForEach: View where Content: View {
  public typealias Body = Never
  public var body: Never { fatalError("stub") }
}

@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension ForEach where Content: View {
  /// SwiftUI: ForEach/init(_:id:content:).
  public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {
    fatalError("stub")
  }
}

// MARK: Data flow

/// SwiftUI: DynamicProperty.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
public protocol DynamicProperty {}

/// SwiftUI: State.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
@frozen @propertyWrapper public struct State<Value>: DynamicProperty {
  /// SwiftUI: State/init(wrappedValue:).
  public init(wrappedValue value: Value) {}
  /// SwiftUI: State/init(initialValue:).
  public init(initialValue value: Value) {}
  /// SwiftUI: State/wrappedValue.
  public var wrappedValue: Value {
    get { fatalError("stub") }
    nonmutating set {}
  }
  /// SwiftUI: State/projectedValue.
  public var projectedValue: Binding<Value> { fatalError("stub") }
}

/// SwiftUI: Binding.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
@frozen @propertyWrapper @dynamicMemberLookup public struct Binding<Value>: DynamicProperty {
  /// SwiftUI: Binding/init(get:set:) (the overload whose setter takes only the value).
  @preconcurrency public init(
    get: @escaping @isolated(any) @Sendable () -> Value,
    set: @escaping @isolated(any) @Sendable (Value) -> Void
  ) {}
  /// SwiftUI: Binding/init(projectedValue:).
  public init(projectedValue: Binding<Value>) {}
  /// SwiftUI: Binding/wrappedValue.
  public var wrappedValue: Value {
    get { fatalError("stub") }
    nonmutating set {}
  }
  /// SwiftUI: Binding/projectedValue.
  public var projectedValue: Binding<Value> { self }
  /// SwiftUI: Binding/subscript(dynamicMember:).
  public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
    fatalError("stub")
  }
}

/// SwiftUI: Binding ("A binding conforms to Sendable only if its wrapped value type also
/// conforms to Sendable", Binding/init(get:set:)).
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
extension Binding: @unchecked Sendable where Value: Sendable {}

/// SwiftUI: ObservedObject.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
@MainActor @propertyWrapper @preconcurrency @frozen
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
  /// SwiftUI: ObservedObject/Wrapper.
  @MainActor @dynamicMemberLookup @preconcurrency @frozen public struct Wrapper: Sendable {
    /// SwiftUI: ObservedObject/Wrapper/subscript(dynamicMember:).
    @MainActor @preconcurrency
    public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
      fatalError("stub")
    }
  }

  /// SwiftUI: ObservedObject/init(wrappedValue:).
  @MainActor @preconcurrency public init(wrappedValue: ObjectType) {}
  /// SwiftUI: ObservedObject/init(initialValue:).
  @MainActor @preconcurrency public init(initialValue: ObjectType) {}
  /// SwiftUI: ObservedObject/wrappedValue.
  @MainActor @preconcurrency public var wrappedValue: ObjectType {
    get { fatalError("stub") }
    nonmutating set {}
  }
  /// SwiftUI: ObservedObject/projectedValue.
  @MainActor @preconcurrency public var projectedValue: ObservedObject<ObjectType>.Wrapper { fatalError("stub") }
}

/// SwiftUI: Bindable.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@dynamicMemberLookup @propertyWrapper public struct Bindable<Value> {
  private var object: Value
  /// SwiftUI: Bindable/wrappedValue.
  public var wrappedValue: Value {
    get { object }
    set { object = newValue }
  }
  /// SwiftUI: Bindable/projectedValue.
  public var projectedValue: Bindable<Value> { self }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Bindable where Value: AnyObject {
  /// SwiftUI: Bindable/subscript(dynamicMember:).
  public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<Value, Subject>) -> Binding<Subject> {
    fatalError("stub")
  }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Bindable where Value: AnyObject, Value: Observable {
  /// SwiftUI: Bindable/init(wrappedValue:).
  public init(wrappedValue: Value) { object = wrappedValue }
  /// SwiftUI: Bindable/init(_:).
  public init(_ wrappedValue: Value) { object = wrappedValue }
  /// SwiftUI: Bindable/init(projectedValue:).
  public init(projectedValue: Bindable<Value>) { self = projectedValue }
}

/// SwiftUI: Environment.
@available(macOS 10.15, iOS 13, tvOS 13, watchOS 6, *)
@frozen @propertyWrapper public struct Environment<Value>: DynamicProperty {
  // Rules out an implicit `init()`, which a public property wrapper may not leave internal.
  private let key: ObjectIdentifier
  /// SwiftUI: Environment/wrappedValue.
  public var wrappedValue: Value { fatalError("stub") }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Environment where Value: AnyObject, Value: Observable {
  /// SwiftUI: Environment/init(_:) (an `Observable` object type; reading it traps if
  /// no ancestor placed one).
  public init(_ objectType: Value.Type) { key = ObjectIdentifier(objectType) }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Environment {
  /// SwiftUI: Environment/init(_:)-8slkf (an optional `Observable` object).
  public init<T>(_ objectType: T.Type) where Value == T?, T: AnyObject, T: Observable {
    key = ObjectIdentifier(objectType)
  }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension View {
  /// SwiftUI: View/environment(_:) (an `Observable` object).
  nonisolated public func environment<T>(_ object: T?) -> some View where T: AnyObject, T: Observable {
    EmptyView()
  }
}
