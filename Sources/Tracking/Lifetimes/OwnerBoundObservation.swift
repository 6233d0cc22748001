/// Observes on behalf of `owner`: runs `body(owner)` now, and again after every change
/// of what its latest run read, for as long as `owner` lives. No token: the
/// observation cannot leak, because it never keeps `owner` alive and ends with it.
///
/// ```swift
/// @MainActor @Trackable final class Editor {
///   var text = ""
///   var wordCount = 0
///
///   init() {
///     observe(self) { editor in editor.wordCount = editor.text.split(separator: " ").count }
///   }
/// }
/// ```
///
/// The safe way to start observing in an initializer. SwiftUI may make a `@State`
/// model several times and keep one: the others are released, and their observations
/// end with them. With a token stored in the model instead, a closure that captured
/// `self` would keep the model alive, and the observation with it, for ever.
///
/// - `owner` is held weakly and handed to `body`: capture nothing of it in `body`.
/// - The observation ends when `owner` is deallocated: at once when `body` read a
///   tracked property of `owner` (the usual case: a model observing itself), else at
///   the next change of what it read, when it finds `owner` gone; `body` never runs
///   for a deallocated owner.
/// - Started inside a ``TrackingScope``'s `run` or another observation's run, it also
///   ends with that owner.
/// - Otherwise as ``observe(fileID:line:_:)``: `body` is isolated to the caller's actor,
///   runs synchronously after each change made there (in the `didSet`), once per
///   change and per transaction.
///
/// - Parameters:
///   - owner: The object whose lifetime the observation shares.
///   - fileID: Where the observation is started, for the leak check (filled in for you).
///   - line: The line of the call (filled in for you).
///   - body: The closure to run with the owner, isolated to the caller's actor.
public func observe<Owner: AnyObject>(
  _ owner: Owner,
  fileID: StaticString = #fileID, line: UInt = #line,
  @_inheritActorContext _ body: @escaping @isolated(any) @Sendable (Owner) -> Void
) {
  let reference = WeakReference(owner)
  let reaction = Reaction(
    options: .didSet, delivery: .immediate,
    body: .onIsolation(body.isolation) { event in
      guard let object = reference.object else {
        event.cancel()
        return
      }
      callOnItsActor(body, unsafeDowncast(object, to: Owner.self))
    },
    site: SourceSite(fileID: fileID, line: line), boundTo: reference)
  LifetimeOwner.current?.own(.weakly(reaction))
  reaction.start(immediately: true)
}

/// A weak reference to an object, shareable across threads (the object is only handed
/// to a closure that runs on its isolation).
package final class WeakReference: @unchecked Sendable {
  // `@unchecked Sendable`: Swift's weak references are thread-safe; the object itself
  // is only used where the code that made this reference would use it.
  weak var object: AnyObject?

  package init(_ object: AnyObject) { self.object = object }
}
