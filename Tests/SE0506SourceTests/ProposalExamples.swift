// Compile-only: SE-0506's code, with Apple's names replaced by ours and nothing else
// changed except where noted. This target must build in Swift 6 mode with no warnings;
// nothing here runs (the behaviour is tested in Tests/TrackingTests/SE0506).
//
//   withObservationTracking                    -> withTracking
//   withContinuousObservationTracking          -> withContinuousTracking
//     (the proposal's name; Apple ships it as withContinuousObservation)
//   ObservationTracking.Options / .Event / .Event.Kind / .Token
//                                              -> TrackingOptions / TrackingEvent /
//                                                 TrackingEvent.Kind / TrackingToken
//   @Observable, Observable                    -> @Trackable, Trackable
//
// Source: swiftlang/swift-evolution, proposals/0506-advanced-observation-tracking.md.

import Tracking

// MARK: Detailed design: the signatures

enum ExampleError: Error { case failed }

/// The one-shot function has the proposal's shape: options, a typed-throwing `apply`
/// whose result may be noncopyable, and a `@Sendable` `onChange` taking the event.
func proposalSignatures() {
  let oneShot:
    (TrackingOptions, () throws(ExampleError) -> Int, @escaping @Sendable (TrackingEvent) -> Void)
      throws(ExampleError) -> Int = withTracking(options:_:onChange:)
  _ = oneShot

  requiresSetAlgebra(TrackingOptions.self)
  let options: TrackingOptions = [.willSet, .didSet, .deinit]
  _ = options.union(TrackingOptions())
  requiresEquatable(TrackingEvent.Kind.self)
}

func requiresSetAlgebra<T: SetAlgebra & Sendable>(_: T.Type) {}
func requiresEquatable<T: Equatable & Sendable>(_: T.Type) {}

// MARK: Detailed design: matching the changed property

@Trackable final class MyObject {
  var foo = 0
  var bar = 0
}

func matchingExample(myObject: MyObject) {
  withTracking(options: [.willSet]) {
    print(myObject.foo + myObject.bar)
  } onChange: { event in
    if event.matches(\MyObject.foo) {
      print("got a change of foo")
    }
    if event.matches(\MyObject.bar) {
      print("got a change of bar")
    }
  }

  myObject.bar += 1
}

// MARK: Detailed design: the deinit event

func deinitExample() {
  var myObject: MyObject? = MyObject()

  withTracking(options: [.deinit]) {
    if let myObject {
      print(myObject.foo + myObject.bar)
    }
  } onChange: { event in
    print("got a deinit event")
  }

  myObject = nil
}

// MARK: Behavior & Example Usage

@Trackable final class Observed {
  var property = 0
}

func behaviorExample(observable: Observed) {
  _ = withTracking(options: [.willSet, .didSet, .deinit]) {
    observable.property
  } onChange: { event in
    switch event.kind {
    case .initial: print("initial event")
    case .willSet: print("property will set")
    case .didSet: print("property did set")
    case .deinit: print("an Observable instance deallocated")
    }
  }

  observable.property += 1
}

// MARK: Behavior & Example Usage: the continuous form on the main actor

@MainActor final class MyLabel {
  var text = ""
}

@MainActor final class MyView {
  let label = MyLabel()
}

@MainActor @Trackable final class MyObservable {
  var someStringValue = ""
}

@MainActor
final class Controller {
  var view: MyView
  var model: MyObservable
  let synchronization: TrackingToken

  init(view: MyView, model: MyObservable) {
    // Not in the proposal: its sample never sets `view` and `model`, which no compiler
    // accepts (Apple's neither), so the two assignments are added.
    self.view = view
    self.model = model
    synchronization = withContinuousTracking(options: [.willSet]) { [view, model] event in
      view.label.text = model.someStringValue
    }
  }
}

// MARK: The three places the issue found

/// Apple's shipped spelling labels the closure `apply:`; the unlabeled form and a
/// trailing closure are accepted too.
@MainActor func continuousSpellings(model: MyObservable) -> [TrackingToken] {
  [
    withContinuousTracking(options: [.willSet, .didSet], apply: { event in print(model.someStringValue) }),
    withContinuousTracking(options: .didSet, { event in print(model.someStringValue) }),
    withContinuousTracking(options: .didSet) { event in print(model.someStringValue) },
  ]
}

/// `matches(_:)` takes a `PartialKeyPath<Model>` value, as Apple's takes
/// `PartialKeyPath<some Observable>`.
func matchingStoredKeyPaths(myObject: MyObject) {
  withTracking(options: .didSet) {
    _ = myObject.foo + myObject.bar
  } onChange: { event in
    // (Key paths are not `Sendable`, so they are made in the callback, not captured.)
    let watched: [PartialKeyPath<MyObject>] = [\.foo, \.bar]
    for keyPath in watched where event.matches(keyPath) {
      print("changed:", keyPath)
    }
  }
}

func changed(_ event: TrackingEvent, _ keyPath: PartialKeyPath<MyObject>) -> Bool {
  event.matches(keyPath)
}

/// `apply` may return a noncopyable value (Apple's `Result: ~Copyable`), and throw a
/// typed error.
struct Reservation: ~Copyable {
  let seat: Int
  consuming func confirm() -> Int { seat }
}

func noncopyableResult(myObject: MyObject) throws(ExampleError) -> Int {
  let reservation = try withTracking(options: .willSet) { () throws(ExampleError) -> Reservation in
    guard myObject.foo >= 0 else { throw .failed }
    return Reservation(seat: myObject.foo)
  } onChange: { _ in }
  return reservation.confirm()
}
