import Tracking

@MainActor @Trackable final class ImageAdjustments {
  var brightness = 0.5
  var contrast = 0.5
  var saturation = 0.5
}

/// Continuous observation: transactional values, operators, callbacks.
@MainActor
enum ContinuousChapter {
  static func run() async {
    let image = ImageAdjustments()

    Narrator.chapter("7. A throttled stream of (brightness, saturation)")
    let previews = TrackedValues { (image.brightness, image.saturation) }
      .atMostOnce(every: .milliseconds(20), clock: ContinuousClock())
    // The consumer acknowledges each value, so the script below runs in a fixed order.
    let (acks, ack) = AsyncStream<Void>.makeStream()
    let consumer = Task { @MainActor in
      var count = 0
      for await (brightness, saturation) in previews {
        count += 1
        Narrator.say("preview #\(count): brightness \(brightness), saturation \(saturation)")
        ack.yield()
      }
    }
    var acknowledged = acks.makeAsyncIterator()
    await acknowledged.next()

    Narrator.say("drag the brightness slider: 0.6, 0.7, 0.8 in one transaction")
    image.brightness = 0.6
    image.brightness = 0.7
    image.brightness = 0.8
    await acknowledged.next()

    Narrator.say("change contrast (not read by the stream), then saturation")
    image.contrast = 0.9  // produces no value
    image.saturation = 0.2
    await acknowledged.next()
    consumer.cancel()

    Narrator.chapter("8. Callbacks with a token")
    let token = image.onChange(of: \.contrast) { old, new in
      Narrator.say("contrast \(old) -> \(new)")
    }
    image.contrast = 0.3
    token.cancel()
    image.contrast = 0.1
    Narrator.say("after cancel, changes are not reported")
  }
}
