extension Computation {
  /// The nodes subscribed to the value now: those whose latest run read it
  /// (introspection).
  var readers: [ReactiveNode] {
    Graph.enter()
    let nodes = Graph.subscribers(of: graph)
    Graph.leave()
    return nodes
  }

  /// From now on, the observed/unobserved hooks of the value (kept in its registrar,
  /// with those of its one-shot observers) also count its subscribers. Under the graph
  /// lock, then the storage's: the lock order.
  func countReadersForHooks() {
    let hooks = Graph.withLock { () -> HookTable.Transitions? in
      graph.pointee.hooked = true
      return registrar.storage.setObservedElsewhere(0, graph.pointee.subs != nil)
    }
    hooks?.deliver()
  }
}
