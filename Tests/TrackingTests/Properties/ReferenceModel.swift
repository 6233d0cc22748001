/// The reference model: what a script must log, worked out from the documented rules
/// with plain data — no locks, no atomics, no masks, no epochs.
///
/// The rules it encodes:
/// - A tracking is installed when its `apply` returns, on the objects it (and the
///   trackings nested in it) read; nothing is installed for a scope that read nothing,
///   or for empty options. A write inside `apply` therefore never fires that tracking.
/// - At a write, the will-set callbacks of the pending trackings that watch the
///   property run first, in installation order, before the value is stored; then the
///   did-set callbacks are queued, in installation order, in the thread's batch (a
///   `withTransaction`, or one opened by the write), and run when it closes: first in,
///   first out, each tracking or observation at most once per batch. A tracking is
///   installed on every property it watches at once; an observation is installed on a
///   property when a run first reads it, and stays installed on it for as long as each
///   run reads it again.
/// - `onChange` and `[.willSet]` end at their first will-set; `[.didSet]` and
///   `[.willSet, .didSet]` end at their first did-set, and take no other event once it
///   has happened (its callback may still wait for the end of a transaction).
///   `[.deinit]` alone never ends by itself.
/// - `.deinit`: once per pending tracking per object read, when the object's storage
///   goes — when the object is released, or, if a tracking scope that read it is still
///   open, when the last such scope ends (the scope holds the storage).
/// - Cancelling ends a tracking: nothing runs for it afterwards.
/// - `observe` runs its closure at once and again after each batch in which a property
///   its latest run read changed, unless a run that began after that change (at the
///   end of another thread's batch) has already seen it; its reads are its own (not the
///   enclosing scope's). Another thread's open batch never holds back a run.
/// - Threads (threaded scripts): a change that another thread made to a property a
///   scope had already read, before the scope's tracking was installed, fires the
///   tracking at install (will-set, then did-set, of an unknown property). A change by
///   another thread to *another* property of an object the scope read may fire it too
///   (the runtime checks per object); such trackings are marked `mayFireSpuriously`.
///
/// `@unchecked Sendable`: threaded scripts run it on several threads, by turns.
final class ReferenceModel: ScriptBackend, @unchecked Sendable {
  private(set) var log: [String] = []
  /// The trackings that a change racing with their install may have fired although
  /// they did not depend on it (threaded scripts only).
  private(set) var mayFireSpuriously: Set<String> = []

  // MARK: Objects

  private struct Object {
    let slot: Slot
    var values = [0, 0]
    var alive = true
    var storageAlive = true
  }

  private var objects: [Object] = Slot.allCases.map { Object(slot: $0) }
  /// The object in each slot.
  private var slots: [Int] = Slot.allCases.map(\.rawValue)
  private var lastValue = 0

  // MARK: Observers

  private enum Kind: Equatable {
    case onChange, willSetOnce, didSetOnce, willSetThenDidSet, deinitOnly
    case observation(Int)
  }

  /// One installed tracking, or the observer of one observation's run.
  private struct Observer {
    let label: String
    let kind: Kind
    let wantsDeinit: Bool
    /// The objects watched, in the order they were first read, with their properties.
    let watches: [Watch]
    /// When it was installed (a tracking, on everything it watches).
    var installedAt = 0
    /// When it was installed on each property it watches (an observation), by
    /// ``propertyKey(_:_:)``.
    var installedOn: [Int: Int] = [:]
    var pending = true
    /// Its ending did-set happened; the callback may wait in a batch.
    var didSetDue = false

    func watches(_ object: Int, _ property: Int) -> Bool {
      watches.contains { $0.object == object && $0.properties.contains(property) }
    }

    func watches(_ object: Int) -> Bool { watches.contains { $0.object == object } }

    /// When it was installed on `property` of `object`.
    func installed(on object: Int, _ property: Int) -> Int {
      installedOn[propertyKey(object, property)] ?? installedAt
    }

    /// Whether a change event may still reach it.
    var listening: Bool { pending && !didSetDue }
  }

  private struct Watch: Equatable {
    let object: Int
    var properties: Set<Int>
  }

  /// In the order they were made; each tells, per property, when it was installed.
  private var observers: [Observer] = []
  /// The installations so far (see ``Observer/installedAt``).
  private var installs = 0

  /// The pending observers that watch `property` of `object`, in installation order.
  private func listeners(of object: Int, _ property: Int) -> [Int] {
    observers.indices
      .filter { observers[$0].listening && observers[$0].watches(object, property) }
      .sorted { observers[$0].installed(on: object, property) < observers[$1].installed(on: object, property) }
  }

  // MARK: Scopes, batches, time

  /// The reads of an open tracking scope.
  private struct Scope {
    struct Read {
      let object: Int
      /// When the scope first read the object.
      let firstRead: Int
      /// When it first read each property.
      var properties: [Int: Int]
    }
    var reads: [Read] = []

    mutating func record(_ object: Int, _ property: Int, at time: Int) {
      if let index = reads.firstIndex(where: { $0.object == object }) {
        if reads[index].properties[property] == nil { reads[index].properties[property] = time }
      } else {
        reads.append(Read(object: object, firstRead: time, properties: [property: time]))
      }
    }

    /// Adds the reads of a nested scope that just ended.
    mutating func merge(_ inner: Scope) {
      for read in inner.reads {
        if let index = reads.firstIndex(where: { $0.object == read.object }) {
          reads[index].properties.merge(read.properties) { Swift.min($0, $1) }
        } else {
          reads.append(read)
        }
      }
    }

    var watches: [Watch] { reads.map { Watch(object: $0.object, properties: Set($0.properties.keys)) } }
  }

  private struct Write {
    let time: Int
    let thread: Int
    let object: Int
    let property: Int
  }

  /// Open scopes, innermost last, by thread.
  private var scopes: [Int: [Scope]] = [:]
  /// The did-set callbacks waiting in each thread's open batch: the observer, the
  /// property whose change queued it, and the time of the latest change that did.
  private var batches: [Int: [(observer: Int, source: String, time: Int)]] = [:]
  private var time = 0
  private var writes: [Write] = []

  // MARK: Handles

  private var trackCount = 0
  /// The handle of each cancellable tracking: the observer it cancels (`nil` when the
  /// tracking installed nothing).
  private var handles: [Int: Int?] = [:]

  private struct Observation {
    let label: String
    let reads: [ObserveRead]
    /// The object of each slot when `observe` was called (held weakly by the closure).
    let captured: [Int]
    var cancelled = false
    var observer: Int?
    var signature: [Watch] = []
    /// When the latest run began.
    var startedAt = 0
  }

  private var observations: [Int: Observation] = [:]
  private var observeCount = 0

  // MARK: Operations

  func read(_ ref: PropertyRef, thread: Int) {
    time += 1
    guard var stack = scopes[thread], !stack.isEmpty else { return }
    stack[stack.count - 1].record(slots[ref.slot.rawValue], ref.property, at: time)
    scopes[thread] = stack
  }

  func write(_ ref: PropertyRef, sameValue: Bool, thread: Int) {
    time += 1
    // The same value is stored again and notifies no one.
    guard !sameValue else { return }
    let object = slots[ref.slot.rawValue]
    let property = ref.property
    let source = "\(ref)"
    writes.append(Write(time: time, thread: thread, object: object, property: property))
    for index in listeners(of: object, property) {
      switch observers[index].kind {
      case .onChange:
        observers[index].pending = false
        emit(index, "onChange")
      case .willSetOnce:
        observers[index].pending = false
        emit(index, "willSet \(source)")
      case .willSetThenDidSet:
        emit(index, "willSet \(source)")
      case .didSetOnce, .deinitOnly, .observation:
        break
      }
    }
    lastValue += 1
    objects[object].values[property] = lastValue
    inBatch(thread) {
      for index in listeners(of: object, property) {
        switch observers[index].kind {
        case .didSetOnce, .willSetThenDidSet:
          observers[index].didSetDue = true
          enqueue(index, source, thread: thread)
        case .observation:
          enqueue(index, source, thread: thread)
        case .onChange, .willSetOnce, .deinitOnly:
          break
        }
      }
    }
  }

  func track(_ mode: TrackMode, thread: Int, apply: () -> Void) {
    trackCount += 1
    let number = trackCount
    scopes[thread, default: []].append(Scope())
    apply()
    let scope = scopes[thread]!.removeLast()
    if !scopes[thread]!.isEmpty { scopes[thread]![scopes[thread]!.count - 1].merge(scope) }
    let kind: Kind? =
      switch (mode.events, mode.deinitToo) {
      case (.onChange, _): .onChange
      case (.willSet, _): .willSetOnce
      case (.didSet, _): .didSetOnce
      case (.willSetDidSet, _): .willSetThenDidSet
      case (.none, true): .deinitOnly
      case (.none, false): nil
      }
    if mode.cancellable { handles[number] = .some(nil) }
    if let kind, !scope.reads.isEmpty {
      let label = "T\(number)"
      installs += 1
      observers.append(
        Observer(
          label: label, kind: kind, wantsDeinit: mode.deinitToo && mode.events != .onChange, watches: scope.watches,
          installedAt: installs))
      let index = observers.count - 1
      if mode.cancellable { handles[number] = index }
      reportChangesElsewhere(during: scope, to: index, thread: thread)
    }
    // The scope held the storages it read: those of released objects go now, unless
    // a scope still open holds them too.
    for read in scope.reads where !objects[read.object].alive { storageGoes(read.object) }
  }

  /// At install: a change made by another thread, after the scope read the property,
  /// fires the tracking at once; a change of another property of an object it read
  /// may fire it.
  private func reportChangesElsewhere(during scope: Scope, to index: Int, thread: Int) {
    var must = false
    var may = false
    for read in scope.reads {
      for write in writes where write.thread != thread && write.object == read.object && write.time > read.firstRead {
        may = true
        if let readAt = read.properties[write.property], readAt < write.time { must = true }
      }
    }
    if may && !must { mayFireSpuriously.insert(observers[index].label) }
    guard must else { return }
    switch observers[index].kind {
    case .onChange:
      observers[index].pending = false
      emit(index, "onChange")
    case .willSetOnce:
      observers[index].pending = false
      emit(index, "willSet ?")
    case .willSetThenDidSet, .didSetOnce:
      if observers[index].kind == .willSetThenDidSet { emit(index, "willSet ?") }
      observers[index].didSetDue = true
      inBatch(thread) { enqueue(index, "?", thread: thread) }
    case .deinitOnly, .observation:
      break
    }
  }

  func observe(_ reads: [ObserveRead], thread: Int) {
    observeCount += 1
    observations[observeCount] = Observation(label: "O\(observeCount)", reads: reads, captured: slots)
    run(observation: observeCount)
  }

  /// One run of an observation: logs what it read, then keeps its observer if it read
  /// the same things as the previous run, else installs a new one.
  private func run(observation number: Int) {
    guard var observation = observations[number], !observation.cancelled else { return }
    observation.startedAt = time
    var scope = Scope()
    var parts: [String] = []
    func look(_ ref: PropertyRef) -> Int? {
      let object = observation.captured[ref.slot.rawValue]
      guard objects[object].alive else { return nil }
      time += 1
      scope.record(object, ref.property, at: time)
      return objects[object].values[ref.property]
    }
    for read in observation.reads {
      switch read {
      case .read(let ref):
        parts.append("\(ref)=\(look(ref).map(String.init) ?? "-")")
      case .readIfOdd(let ref, let then):
        let value = look(ref)
        parts.append("\(ref)=\(value.map(String.init) ?? "-")")
        if let value, value % 2 != 0 { parts.append("\(then)=\(look(then).map(String.init) ?? "-")") }
      }
    }
    log.append("\(observation.label) run \(parts.joined(separator: " "))")
    let watches = scope.watches
    let keep = observation.observer.map { observers[$0].pending && observation.signature == watches } ?? false
    if !keep {
      var installed: Int?
      if !watches.isEmpty {
        // Installed anew on the properties this run read first, in the order it read
        // them; still installed on those the previous run read too.
        let previous = observation.observer.map { observers[$0].installedOn } ?? [:]
        var installedOn: [Int: Int] = [:]
        let firstReads = scope.reads.flatMap { read in read.properties.map { (key: propertyKey(read.object, $0.key), time: $0.value) } }
        for read in firstReads.sorted(by: { $0.time < $1.time }) {
          if let kept = previous[read.key] {
            installedOn[read.key] = kept
          } else {
            installs += 1
            installedOn[read.key] = installs
          }
        }
        observers.append(
          Observer(
            label: observation.label, kind: .observation(number), wantsDeinit: false, watches: watches,
            installedOn: installedOn))
        installed = observers.count - 1
      }
      if let old = observation.observer { observers[old].pending = false }
      observation.observer = installed
      observation.signature = watches
    }
    observations[number] = observation
  }

  func cancel(tracking number: Int, thread: Int) {
    guard let handle = handles[number] else { return }
    if let index = handle { observers[index].pending = false }
    log.append("T\(number) cancel")
  }

  func stop(observation number: Int, thread: Int) {
    guard var observation = observations[number] else { return }
    observation.cancelled = true
    if let index = observation.observer { observers[index].pending = false }
    observations[number] = observation
    log.append("O\(number) stop")
  }

  func release(_ slot: Slot, thread: Int) {
    let old = slots[slot.rawValue]
    objects.append(Object(slot: slot))
    slots[slot.rawValue] = objects.count - 1
    objects[old].alive = false
    storageGoes(old)
  }

  func transaction(thread: Int, _ body: () -> Void) {
    inBatch(thread, body)
  }

  var finalValues: [Int] { PropertyRef.all.map { objects[slots[$0.slot.rawValue]].values[$0.property] } }

  func finish() {
    for slot in Slot.allCases { release(slot, thread: 0) }
    for number in observations.keys { observations[number]!.cancelled = true }
  }

  // MARK: Delivery

  private func emit(_ index: Int, _ what: String) {
    log.append("\(observers[index].label) \(what)")
  }

  /// Runs `body` in the thread's open batch, or in a new one that is drained after it.
  private func inBatch(_ thread: Int, _ body: () -> Void) {
    if batches[thread] != nil { return body() }
    batches[thread] = []
    body()
    while let (index, source, changedAt) = batches[thread]!.first {
      batches[thread]!.removeFirst()
      switch observers[index].kind {
      case .didSetOnce, .willSetThenDidSet:
        if observers[index].pending {
          observers[index].pending = false
          emit(index, "didSet \(source)")
        }
      case .observation(let number):
        if observers[index].pending, observations[number]!.startedAt < changedAt { run(observation: number) }
      case .onChange, .willSetOnce, .deinitOnly:
        break
      }
    }
    batches[thread] = nil
  }

  private func enqueue(_ index: Int, _ source: String, thread: Int) {
    if let queued = batches[thread]!.firstIndex(where: { $0.observer == index }) {
      batches[thread]![queued].time = time
    } else {
      batches[thread]!.append((index, source, time))
    }
  }

  /// The storage of a released object goes, unless an open scope holds it; its pending
  /// trackings that asked for `.deinit` hear of it, in installation order.
  private func storageGoes(_ object: Int) {
    guard objects[object].storageAlive, !objects[object].alive else { return }
    let held = scopes.values.contains { stack in stack.contains { $0.reads.contains { $0.object == object } } }
    guard !held else { return }
    objects[object].storageAlive = false
    for index in observers.indices
    where observers[index].listening && observers[index].wantsDeinit && observers[index].watches(object) {
      emit(index, "deinit")
    }
  }
}

/// The key of `property` of `object` in ``ReferenceModel``'s installation times.
private func propertyKey(_ object: Int, _ property: Int) -> Int { object * 16 + property }
