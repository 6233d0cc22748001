/// A type whose property reads and writes can be tracked.
///
/// You don't conform to `Trackable` by hand: attach the ``Trackable()`` macro to a
/// class and it adds the conformance, a ``TrackingRegistrar`` and the accessors that
/// report reads and writes. The protocol carries no requirements; like Apple's
/// `Observable`, it marks types that take part in tracking so that generic code
/// (registrar entry points, value streams) can say so in its constraints.
///
/// | Apple (`Observation`)          | This library (`Tracking`)   |
/// |--------------------------------|-----------------------------|
/// | `Observable` protocol          | ``Trackable``               |
/// | `@Observable` macro            | ``Trackable()``             |
public protocol Trackable: AnyObject {}
