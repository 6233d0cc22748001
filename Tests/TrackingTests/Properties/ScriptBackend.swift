/// What runs a script's operations: the real runtime (`RuntimeWorld`) or the reference
/// model (`ReferenceModel`). `thread` numbers the thread of a threaded script (0 for
/// a script on one thread); a backend keeps its per-thread state (open tracking scopes,
/// open notification batches) by that number.
///
/// Both backends number what a script starts in the same way: tracking `T<n>` is the
/// n-th `track` operation to *start* (so an outer tracking has a smaller number than
/// the ones nested in its `apply`), observation `O<n>` the n-th `observe`; and each
/// `write` stores the next number of one counter, so every write changes the value.
protocol ScriptBackend: AnyObject {
  func read(_ ref: PropertyRef, thread: Int)
  func write(_ ref: PropertyRef, sameValue: Bool, thread: Int)
  func track(_ mode: TrackMode, thread: Int, apply: () -> Void)
  func observe(_ reads: [ObserveRead], thread: Int)
  func cancel(tracking number: Int, thread: Int)
  func stop(observation number: Int, thread: Int)
  func release(_ slot: Slot, thread: Int)
  func transaction(thread: Int, _ body: () -> Void)
  /// The values of the live objects' properties, in `PropertyRef.all` order.
  var finalValues: [Int] { get }
  /// Releases every object (so trackings that asked for `.deinit` hear of it), then
  /// stops every observation.
  func finish()
}

extension ScriptBackend {
  /// Runs `ops` on thread number `thread`; `pause` hands the turn to another thread.
  func run(_ ops: [ScriptOp], thread: Int = 0, pause: () -> Void = {}) {
    for op in ops {
      switch op {
      case .read(let ref): read(ref, thread: thread)
      case .write(let ref): write(ref, sameValue: false, thread: thread)
      case .writeSame(let ref): write(ref, sameValue: true, thread: thread)
      case .track(let mode, let body): track(mode, thread: thread) { run(body, thread: thread, pause: pause) }
      case .observe(let reads): observe(reads, thread: thread)
      case .cancel(let number): cancel(tracking: number, thread: thread)
      case .stop(let number): stop(observation: number, thread: thread)
      case .release(let slot): release(slot, thread: thread)
      case .transaction(let body): transaction(thread: thread) { run(body, thread: thread, pause: pause) }
      case .pause: pause()
      }
    }
  }
}
