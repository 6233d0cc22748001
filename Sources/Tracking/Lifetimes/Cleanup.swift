/// Registers work to do when the current run or scope ends: before an observation's
/// body runs again and when the observation is cancelled, or when a
/// ``TrackingScope`` is cancelled or released.
///
/// ```swift
/// token = observe {
///   let subscription = feed.subscribe(to: model.channel)  // re-subscribes when `channel` changes
///   onCleanup { subscription.cancel() }
/// }
/// ```
///
/// The cleanup of React's effects, alien-signals' `onCleanup` and MobX's reaction
/// disposers: what a run set up is torn down before the next run sets it up again.
///
/// - Cleanups run in the reverse order of registration, together with the ending of
///   the observations, derived values and scopes the run started.
/// - `work` is isolated to the caller's actor. It runs synchronously when the owner ends
///   on that actor (a re-run always does); a cancellation made elsewhere schedules it
///   there.
/// - `work` runs outside every tracking scope: what it reads is not recorded by the
///   closure, if any, under way where the owner ends.
/// - Called where no run or scope is current, there is nothing to attach the work to:
///   it runs at once (so nothing is left set up), and the first such call prints a
///   warning to standard error.
///
/// - Parameter work: What to do when the run or scope ends.
public func onCleanup(@_inheritActorContext _ work: @escaping @isolated(any) @Sendable () -> Void) {
  let isolation = work.isolation
  let work = nonisolatedView(of: work)
  // Outside every tracking scope: the owner may end inside another closure whose reads
  // are being collected (a re-run caused by a write in it, a cancellation made in it),
  // and what the cleanup reads is not that closure's.
  let run: @Sendable () -> Void = { AccessList.withoutTracking(work) }
  guard let owner = LifetimeOwner.current else {
    warnOnceOfUnownedCleanup()
    Isolation.perform(on: isolation, run)
    return
  }
  owner.own(Owned(end: { Isolation.perform(on: isolation, run) }))
}

private let unownedCleanupWarned = Locked(false)

/// Prints, once per process, that a cleanup had no owner.
private func warnOnceOfUnownedCleanup() {
  let first = unownedCleanupWarned.withLock { warned -> Bool in
    defer { warned = true }
    return !warned
  }
  if first {
    writeToStandardError(
      "warning: onCleanup was called where no observation run or TrackingScope.run is under way; the cleanup ran at once\n")
  }
}
