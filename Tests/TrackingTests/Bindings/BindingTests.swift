import Testing
@_spi(Testing) import Tracking

@Trackable
final class Profile {
  var name = "Ada"
  var address = Address(city: "London", zip: "N1")
  var tags: [Tag] = [Tag(id: 1, label: "one"), Tag(id: 2, label: "two")]
  var visits = 0
}

struct Address: Equatable {
  var city: String
  var zip: String
}

struct Tag: Identifiable, Equatable {
  let id: Int
  var label: String
}

@Suite("Tracked bindings")
struct BindingTests {
  @Test func getAndSetRoundTripThroughTheObject() {
    let profile = Profile()
    let name = TrackedBindable(profile).name
    #expect(name.wrappedValue == "Ada")
    name.wrappedValue = "Grace"
    #expect(profile.name == "Grace")
    profile.name = "Barbara"
    #expect(name.wrappedValue == "Barbara")
  }

  /// As a property wrapper: the property is the object, and `$` its bindings.
  @Test func asAPropertyWrapperTheProjectionMakesTheBindings() {
    struct Editor {
      @TrackedBindable var profile: Profile
    }
    let profile = Profile()
    let editor = Editor(profile: profile)
    #expect(editor.profile === profile)
    let name = editor.$profile.name
    let events = Events()
    withTracking { _ = name.wrappedValue } onChange: { events("name") }
    name.wrappedValue = "Grace"
    #expect(profile.name == "Grace")
    #expect(events.all == ["name"])
  }

  @Test func aSetThroughABindingFiresTrackingOfThatPropertyOnly() {
    let profile = Profile()
    let bindable = TrackedBindable(profile)
    let events = Events()
    withTracking { _ = profile.name } onChange: { events("name") }
    withTracking { _ = profile.visits } onChange: { events("visits") }
    bindable.name.wrappedValue = "Grace"
    #expect(events.all == ["name"])
  }

  @Test func readingThroughABindingIsTracked() {
    let profile = Profile()
    let name = TrackedBindable(profile).name
    let events = Events()
    withTracking { _ = name.wrappedValue } onChange: { events("name") }
    profile.name = "Grace"
    #expect(events.all == ["name"])
  }

  @Test func nestedKeyPathsWriteTheParentPropertyInPlace() {
    let profile = Profile()
    let city = TrackedBindable(profile).address.city
    let events = Events()
    withTracking { _ = profile.address } onChange: { events("address") }
    city.wrappedValue = "Paris"
    #expect(profile.address == Address(city: "Paris", zip: "N1"))
    #expect(city.wrappedValue == "Paris")
    #expect(events.all == ["address"])
  }

  @Test func arrayElementByIndex() {
    let profile = Profile()
    let second = TrackedBindable(profile).tags[1]
    #expect(second.wrappedValue.label == "two")
    second.label.wrappedValue = "deux"
    #expect(profile.tags.map(\.label) == ["one", "deux"])
  }

  @Test func arrayElementByIDFollowsReorderingAndSurvivesRemoval() throws {
    let profile = Profile()
    let tags = TrackedBindable(profile).tags
    #expect(tags[id: 99] == nil)
    let tag = try #require(tags[id: 2])
    profile.tags.reverse()
    tag.label.wrappedValue = "deux"
    #expect(profile.tags == [Tag(id: 2, label: "deux"), Tag(id: 1, label: "one")])
    profile.tags.removeAll { $0.id == 2 }
    #expect(tag.wrappedValue == Tag(id: 2, label: "deux"))
    tag.label.wrappedValue = "gone"
    #expect(profile.tags == [Tag(id: 1, label: "one")])
  }

  @Test func customBindingsWriteWholeValuesBack() {
    var storage = Address(city: "Rome", zip: "00100")
    let writes = Events()
    let binding = TrackedBinding(
      get: { storage },
      set: { storage = $0; writes("set") })
    binding.zip.wrappedValue = "00118"
    #expect(storage == Address(city: "Rome", zip: "00118"))
    #expect(writes.all == ["set"])
  }

  @Test func modifyMutatesInPlaceAndConstantIgnoresWrites() {
    let profile = Profile()
    TrackedBindable(profile).visits.modify { $0 += 2 }
    #expect(profile.visits == 2)
    let constant = TrackedBinding.constant(5)
    constant.wrappedValue = 6
    #expect(constant.wrappedValue == 5)
  }
}
