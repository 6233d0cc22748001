/// A persisted model that can take a newer stored state in place, so that a change
/// made by another process or machine reaches the observers of the live model.
///
/// ```swift
/// @Trackable final class Scene: Codable {
///   var query = ""
///   var path: [String] = []
///   var filters = Filters()
/// }
///
/// extension Scene: ReloadableModel {
///   func reload(from newer: Scene) {
///     query = newer.query
///     path = newer.path
///     filters.reload(from: newer.filters)  // a nested model: reloaded in place, not replaced
///   }
/// }
/// ```
///
/// ``Persisted`` calls ``reload(from:)`` on the model's actor, with a model decoded
/// from the merged state (the stored state, with the properties this process changed
/// and has not yet saved kept as they are), and only when some property differs. The
/// setters that `@Trackable` generates skip notifying when an `Equatable` property
/// is set to an equal value, so only the observers of properties whose values changed
/// are notified. Properties of other types notify whenever they are assigned; make
/// them `Equatable`, or assign them only when they differ.
///
/// Assign every property that is encoded. ``Persisted`` checks this after each reload
/// by encoding the model again, and reports a property left behind as
/// ``PersistenceError/reloadIncomplete(properties:)``.
///
/// A model used on one actor (a `@MainActor` class whose `Codable` conformance is
/// isolated, say) conforms the same way: `extension Scene: @MainActor ReloadableModel`.
/// ``Persisted`` only ever calls it on that actor.
public protocol ReloadableModel: AnyObject {
  /// Sets every persisted property of `self` to its value in `newer`, through the
  /// properties' setters.
  func reload(from newer: Self)
}
