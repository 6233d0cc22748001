import Tracking

@Trackable final class Cart: @unchecked Sendable {
  var items: [String] = []
  var coupon: String? = nil
  @TrackingIgnored var lastViewed = "never"
}

/// One-shot tracking, Apple's semantics, and what Apple's module lacks.
enum CoreChapter {
  static func run() {
    let cart = Cart()

    Narrator.chapter("1. One-shot tracking (willSet, like withObservationTracking)")
    let count = withTracking { cart.items.count } onChange: {
      Narrator.say("onChange: items are about to change (still \(cart.items.count) of them)")
    }
    Narrator.say("apply read \(count) items")
    cart.items.append("tea")  // in place, no copy; fires once
    cart.items.append("milk")  // already fired: nothing
    cart.coupon = "SPRING"  // never read: nothing

    Narrator.chapter("2. didChange: after the change, with the new value")
    withTracking { _ = cart.coupon } didSet: { change in
      let coupon = change.value(of: \Cart.coupon) ?? nil
      Narrator.say("didChange: coupon is now \(coupon ?? "none")")
    }
    cart.coupon = nil

    Narrator.chapter("3. Equal values notify no one")
    withTracking { _ = cart.coupon } onChange: { Narrator.say("this does not print") }
    cart.coupon = nil
    Narrator.say("set coupon to the same value: no notification")

    Narrator.chapter("4. Cancelling a pending tracking")
    let (_, token) = withCancellableTracking { cart.items } onChange: {
      Narrator.say("this does not print either")
    }
    token.cancel()
    cart.items.removeAll()
    Narrator.say("cancelled before the change; pending: \(token.isPending)")

    Narrator.chapter("5. Nested scopes: the outer one tracks what the inner one read")
    withTracking {
      withTracking { _ = cart.items } onChange: { Narrator.say("inner fired") }
    } onChange: {
      Narrator.say("outer fired too")
    }
    cart.items = ["bread"]
    cart.lastViewed = "now"  // ignored property
  }
}
