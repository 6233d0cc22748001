import Observation
import Tracking

// Struct state (`@TrackedState` values in a `StateStore`) against a `@Trackable` class
// with the same ten properties doing the same thing. A store mutation copies the
// state, runs the body, compares old and new state field by field, notifies and stores;
// a class write notifies and stores. The `ours` column of a `state.*.store` row is the
// store; compare it with the `ours` column of the `.class` row it names as baseline
// (its Apple column is Apple's `@Observable` class doing the class row's work).

/// Ten tracked fields, as `Ours10` has ten tracked properties.
@TrackedState
public struct State10 {
  public var p0 = 0
  public var p1 = 0
  public var p2 = 0
  public var p3 = 0
  public var p4 = 0
  public var p5 = 0
  public var p6 = 0
  public var p7 = 0
  public var p8 = 0
  public var p9 = 0
  /// Elements no benchmark touches (empty unless a row fills it).
  public var items: [StateItem] = []
  public init() {}
}

/// An element of ``State10/items``.
@TrackedState
public struct StateItem {
  public var id = 0
  public var done = false
  public init(id: Int) { self.id = id }
}

extension Operation {
  static let stateWriteClass = Operation(
    "state.write.class", "@Trackable class, 10 properties: write 1 that 1 pending observer watches (fires it)",
    iterations: 5_000, quick: 20,
    .time([
      .apple: { n, w in
        fireLoop(n, w, observers: 1, Apple10.init) { m in
          withObservationTracking { consume(m.p0) } onChange: { fire() }
          return nil
        } _: { $0.p0 = 1 }
      },
      .ours: { n, w in
        fireLoop(n, w, observers: 1, Ours10.init) { m in
          withTracking { consume(m.p0) } onChange: { fire() }
          return nil
        } _: { $0.p0 = 1 }
      },
    ]))

  static let stateWriteStore = Operation(
    "state.write.store", "StateStore, 10 fields: mutate 1 that 1 pending observer watches (fires it)",
    iterations: 5_000, quick: 20, baseline: stateWriteClass.name,
    .time([
      .ours: { n, w in
        fireLoop(n, w, observers: 1, { StateStore(State10()) }) { store in
          withTracking { consume(store.p0) } onChange: { fire() }
          return nil
        } _: { $0.mutate { $0.p0 = 1 } }
      }
    ]))

  static let stateCycleClass = Operation(
    "state.cycle.class", "@Trackable class, 10 properties: track 1, write it, callback runs",
    iterations: 200_000, quick: 50,
    .time([
      .apple: { n, w in
        cycleLoop(n, w, Apple10.init) { m in
          consume(withObservationTracking { m.p0 } onChange: { fire() })
          m.p0 &+= 1
        }
      },
      .ours: { n, w in
        cycleLoop(n, w, Ours10.init) { m in
          consume(withTracking { m.p0 } onChange: { fire() })
          m.p0 &+= 1
        }
      },
    ]))

  static let stateCycleStore = Operation(
    "state.cycle.store", "StateStore, 10 fields: track 1, mutate it, callback runs",
    iterations: 200_000, quick: 50, baseline: stateCycleClass.name,
    .time([
      .ours: { n, w in
        cycleLoop(n, w, { StateStore(State10()) }) { store in
          consume(withTracking { store.p0 } onChange: { fire() })
          store.mutate { $0.p0 &+= 1 }
        }
      }
    ]))

  static let stateCycleStoreArray = Operation(
    "state.cycle.store.array1000", "as state.cycle.store, the state also holding 1 000 untouched tracked elements",
    iterations: 200_000, quick: 50, baseline: stateCycleClass.name,
    .time([
      .ours: { n, w in
        cycleLoop(n, w, { () -> StateStore<State10> in
          var state = State10()
          state.items = (0..<1_000).map(StateItem.init(id:))
          return StateStore(state)
        }) { store in
          consume(withTracking { store.p0 } onChange: { fire() })
          store.mutate { $0.p0 &+= 1 }
        }
      }
    ]))

  static let structState: [Operation] = [
    stateWriteClass, stateWriteStore, stateCycleClass, stateCycleStore, stateCycleStoreArray,
  ]
}
