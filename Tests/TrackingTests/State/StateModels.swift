@_spi(Testing) import Tracking

@TrackedState
struct Feature {
  var count = 0
  var title = "Feature"
  var child = Child()
  var optionalChild: Child? = nil
  var items: [Item] = []
  var destination: Destination? = nil
  let fixed = 1
}

@TrackedState
struct Child {
  var value = 0
  var name = "child"
}

@TrackedState
struct Item: Identifiable {
  let id: Int
  var done = false
}

@TrackedState
enum Destination {
  case detail(Child)
  case settings(Child)
  case empty
}

@TrackedState
struct Saved: Codable, Equatable {
  var name = ""
  var count = 0
}

@TrackedState
struct Screen {
  var route: Route = .none
}

@TrackedState
enum Route {
  case edit(child: Child, _ note: String)
  case none
}
