// Compile-only: the usage shown in the documentation comments of Apple's shipped
// `ObservationTracking.swift` and `ContinuousObservation.swift` (Swift 6.4, stdlib/public/
// Observation), with the names of ProposalExamples.swift replaced and nothing else
// changed except where noted. The prose around each is ours.

import Tracking

// MARK: ObservationTracking: the type's overview

// Apple's `Car` declares two stored properties without defaults and no initializer,
// then calls `Car(name:speed:)`; a class gets no memberwise initializer, so one is
// added.
@Trackable class Car {
  var name: String
  var speed: Int

  init(name: String, speed: Int) {
    self.name = name
    self.speed = speed
  }
}

func carOverview() {
  let car = Car(name: "Betty", speed: 60)

  withTracking {
    // Only car.name is tracked
    print(car.name)
  } onChange: {
    print("Car name changed")
  }

  withTracking(options: [.willSet, .deinit]) {
    print(car.name)
  } onChange: { event in
    if event.kind == .willSet {
      print("About to change")
    } else if event.kind == .deinit {
      print("Object deallocated")
    }
  }
}

// MARK: withObservationTracking(_:onChange:)

func render(cars: [Car]) {
  withTracking {
    for car in cars {
      print(car.name)
    }
  } onChange: {
    print("Schedule renderer.")
  }
}

// MARK: ObservationTracking.Options

@Trackable final class ValueModel {
  var value = 0
}

func optionsExamples(model: ValueModel) {
  withTracking(options: .willSet) {
    print(model.value)
  } onChange: { event in
    // Called before the property actually changes
    print("About to change")
  }

  withTracking(options: [.willSet, .deinit]) {
    print(model.value)
  } onChange: { event in
    if event.kind == .willSet {
      print("Value changing")
    } else if event.kind == .deinit {
      print("Model deallocated")
    }
  }
}

// MARK: ObservationTracking.Event, Event.kind, Event.matches(_:)

@Trackable final class Model {
  var name: String = ""
  var age: Int = 0
}

func eventExamples(model: Model) {
  withTracking(options: [.willSet, .didSet]) {
    print(model.name)
  } onChange: { event in
    switch event.kind {
    case .willSet:
      print("Before change")
    case .didSet:
      print("After change")
    case .deinit:
      print("Object deallocated")
    default: break
    }
  }

  // The `matches(_:)` fragment of `Event`'s overview, inside a call of its own.
  withTracking(options: .willSet) {
    print(model.name)
  } onChange: { event in
    if event.matches(\Model.name) {
      print("Name property changed")
    }
  }

  // `kind`'s example.
  withTracking(options: [.willSet, .didSet]) {
    print(model.age)
  } onChange: { event in
    if event.kind == .willSet {
      print("Property is about to change")
    }
  }

  withTracking(options: .willSet) {
    print(model.name, model.age)
  } onChange: { event in
    if event.matches(\Model.name) {
      print("Name changed")
    } else if event.matches(\Model.age) {
      print("Age changed")
    }
  }
}

// MARK: Event.cancel() with withContinuousObservation

@MainActor @Trackable final class MainModel {
  var value = 0
}

@MainActor func cancelExample(model: MainModel, someCondition: Bool) -> TrackingToken {
  // Apple's example drops the token; a dropped token ends the observation at once
  // (Apple's too), so it is returned here.
  let token = withContinuousTracking(options: .willSet) { event in
    print(model.value)
    if someCondition {
      event.cancel()
    }
  }
  return token
}

// MARK: ContinuousObservation: the function, the event taken `borrowing`, the token

/// Apple's `apply` takes its event `borrowing` (`Event` is noncopyable there); such a
/// closure converts to ours.
@MainActor func borrowingEvent(model: MainModel) -> TrackingToken {
  withContinuousTracking(options: [.didSet]) { (event: borrowing TrackingEvent) in
    print(event.kind, model.value)
  }
}

/// Apple's token is kept in an optional stored property and cancelled by taking it out;
/// ours, a class, can be cancelled in place too.
@MainActor final class TokenHolder {
  private var token: TrackingToken?

  func start(_ model: MainModel) {
    token = withContinuousTracking(options: [.didSet]) { [weak self] event in
      self?.redraw(model.value)
    }
  }

  func stop() {
    token.take()?.cancel()
  }

  private func redraw(_ value: Int) { print(value) }
}

/// The loop Apple's continuous observation runs (ContinuousObservation.swift: each turn
/// tracks `apply` with the one-shot options form and waits for its `onChange` to resume
/// it), written with the public one-shot function.
@MainActor func handWrittenContinuousLoop(model: MainModel, turns: Int) async {
  for _ in 0..<turns {
    await withUnsafeContinuation(isolation: MainActor.shared) { (resume: UnsafeContinuation<Void, Never>) in
      withTracking(options: [.willSet, .didSet]) {
        print(model.value)
      } onChange: { event in
        if event.kind == .didSet { resume.resume() }
      }
    }
  }
}
