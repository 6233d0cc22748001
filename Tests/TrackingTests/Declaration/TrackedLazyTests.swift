import Testing
import Tracking

@Trackable final class Photo: @unchecked Sendable {
  var pixels: [UInt8] = [1, 2, 3]
  @TrackingIgnored var renders = 0
  @TrackedLazy(Photo.makeThumbnail) var thumbnail: String
  @TrackedLazy(initially: { (photo: Photo) in photo.pixels.count * 10 }) var size
  init() {}

  private func makeThumbnail() -> String {
    renders += 1
    return "thumbnail of \(pixels.count)"
  }
}

@Suite("Lazily initialized tracked properties (@TrackedLazy)")
struct TrackedLazyTests {
  @Test func theFirstValueIsComputedOnFirstReadOnly() {
    let photo = Photo()
    #expect(photo.renders == 0)
    #expect(photo.thumbnail == "thumbnail of 3")
    #expect(photo.thumbnail == "thumbnail of 3")
    #expect(photo.renders == 1)
    #expect(photo.size == 30)
  }

  /// The first read inside a tracking computes and stores the value; storing it
  /// notifies no one, so the tracking is still pending afterwards.
  @Test func theFirstInitializationNotifiesNoOne() {
    let photo = Photo()
    let events = Events()
    withTracking { _ = photo.size } onChange: { events("size (first)") }
    withTracking { _ = photo.thumbnail } onChange: { events("thumbnail") }
    #expect(events.all.isEmpty)
    #expect(photo.renders == 1)
  }

  @Test func aWriteNotifiesItsReaders() {
    let photo = Photo()
    let events = Events()
    withTracking { _ = photo.thumbnail } onChange: { events("thumbnail") }
    photo.thumbnail = "custom"
    #expect(events.all == ["thumbnail"])
    #expect(photo.thumbnail == "custom")
  }

  @Test func aWriteBeforeTheFirstReadSkipsTheComputation() {
    let photo = Photo()
    photo.thumbnail = "given"
    #expect(photo.thumbnail == "given")
    #expect(photo.renders == 0)
  }

  @Test func inPlaceMutationComputesFirstThenNotifies() {
    let photo = Photo()
    let events = Events()
    withTracking { _ = photo.pixels } onChange: { events("pixels") }
    photo.size += 1
    #expect(photo.size == 31)
    let other = Photo()
    withTracking { _ = other.size } onChange: { events("size") }
    other.size += 1
    #expect(events.all == ["size"])
  }

  /// Like a `lazy var`, the computation's own reads count where it runs: the first
  /// read inside a tracking depends on what the computation read.
  @Test func theComputationsReadsAreRecordedWhereItRuns() {
    let photo = Photo()
    let events = Events()
    withTracking { _ = photo.size } onChange: { events("pixels changed") }
    photo.pixels = []
    #expect(events.all == ["pixels changed"])
    #expect(photo.size == 30)  // computed once, not again
  }
}
