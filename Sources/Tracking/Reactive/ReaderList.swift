/// The nodes whose latest run read a computation: the edges of the reactive graph from
/// a computation to its readers, kept on the computation (in its ``NodeState``, under
/// its lock).
///
/// A tracked property's readers are observers in its object's registrar, because the
/// object is not a node. A computation is one, so an edge between two nodes is a plain
/// reference on each side: the reader lists the computations it read
/// (``ComputationReads``), the computation lists its readers here. Propagating a change
/// walks this list with no registrar lock, no observer entry and no property mask; a run
/// that reads the same computations as the previous one touches no list (see
/// ``ReactiveNode/adopt(_:end:)``).
///
/// The list holds its readers strongly, as a registrar's observer holds its node: a
/// reader is on the list until it stops reading the computation (a run that no longer
/// reads it, its cancellation, its retirement).
///
/// **Links.** A node is on a list once, with a count of *links*: whoever adds one
/// removes that one, and the node leaves the list with its last. A run that relinks
/// its node and a retirement that drops the node's dependencies on another thread may
/// overlap (the retirement removes the links of the list it took, the run adds its
/// own for the list it stores); counted, every add is matched by exactly one removal,
/// in whatever order they happen.
struct ReaderList {
  /// The readers, in the order they were added, except after a removal from a long list
  /// (which moves the last one into the gap).
  private(set) var nodes: ContiguousArray<ReactiveNode> = []
  /// How many links each reader holds (see "Links" above), by position in `nodes`.
  private var links: ContiguousArray<Int> = []
  /// Where each reader is, once the list is long (a value read by a thousand rows).
  private var index = IdentityIndex()
  /// Beyond this many readers, `index` is kept.
  private static let indexThreshold = 16

  var isEmpty: Bool { nodes.isEmpty }

  var count: Int { nodes.count }

  /// Adds a link from `node`; returns whether the node was not on the list.
  mutating func add(_ node: ReactiveNode) -> Bool {
    if let position = position(of: node) {
      links[position] += 1
      return false
    }
    nodes.append(node)
    links.append(1)
    index.appended(node, count: nodes.count, threshold: Self.indexThreshold) { nodes[$0] }
    return true
  }

  /// Removes a link from `node`; returns whether that was its last (it left the list).
  mutating func remove(_ node: ReactiveNode) -> Bool {
    guard let position = position(of: node) else {
      assertionFailure("a reader left a list it was not on")
      return false
    }
    links[position] -= 1
    guard links[position] == 0 else { return false }
    guard index.isBuilt else {
      nodes.remove(at: position)
      links.remove(at: position)
      return true
    }
    let last = nodes.count - 1
    if position != last {
      nodes.swapAt(position, last)
      links.swapAt(position, last)
    }
    index.removed(node, moving: position != last ? nodes[position] : nil, to: position)
    nodes.removeLast()
    links.removeLast()
    return true
  }

  private func position(of node: ReactiveNode) -> Int? {
    index.position(of: node) { nodes.firstIndex { $0 === node } }
  }
}

extension Computation {
  /// Puts `reader` on the reader list (nothing if it is on it).
  func addReader(_ reader: ReactiveNode) {
    let hooks = state.withLock { state -> HookTable.Transitions? in
      guard state.readers.add(reader), state.readers.count == 1, state.hooked else { return nil }
      return registrar.storage.setObservedElsewhere(0, true)
    }
    hooks?.deliver()
  }

  /// Takes `reader` off the reader list (nothing if it is not on it).
  func removeReader(_ reader: ReactiveNode) {
    let hooks = state.withLock { state -> HookTable.Transitions? in
      guard state.readers.remove(reader), state.readers.isEmpty, state.hooked else { return nil }
      return registrar.storage.setObservedElsewhere(0, false)
    }
    hooks?.deliver()
  }

  /// The readers now (introspection).
  var readers: ContiguousArray<ReactiveNode> { state.withLock { $0.readers.nodes } }

  /// From now on, the observed/unobserved hooks of the value (kept in its registrar,
  /// with those of its one-shot observers) also count its readers. Under the node's
  /// lock, then the storage's: the lock order.
  func countReadersForHooks() {
    let hooks = state.withLock { state -> HookTable.Transitions? in
      state.hooked = true
      return registrar.storage.setObservedElsewhere(0, !state.readers.isEmpty)
    }
    hooks?.deliver()
  }
}
