import Testing
@testable import Tracking

/// The inline-first containers of `Sources/Tracking/Support`: order, growth past their
/// first allocation, and the release of what they hold when their memory is freed.
/// (That a debug build frees the memory itself is what the soak measures.)
@Suite struct SmallContainerTests {
  final class Item {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  @Test(arguments: [1, 2, 16, 40])
  func aListPopsInReverseAndVisitsInOrder(count: Int) {
    var list = SmallList<Int>()
    for value in 0..<count { list.append(value) }
    #expect(list.count == count)
    var visited: [Int] = []
    list.forEach { visited.append($0) }
    #expect(visited == Array(0..<count))
    var popped: [Int] = []
    while let value = list.popLast() { popped.append(value) }
    #expect(popped == Array((0..<count).reversed()))
    #expect(list.count == 0)
    list.deallocate()
  }

  @Test func freeingAListReleasesTheElementsPastTheFirstAndKeepsTheFirst() {
    var list = SmallList<Item>()
    var watched: [Weak] = []
    for value in 0..<20 {
      let item = Item(value)
      watched.append(Weak(item))
      list.append(item)
    }
    list.deallocate()
    #expect(watched.dropFirst().allSatisfy { $0.item == nil })
    #expect(watched[0].item != nil)
    #expect(list.popLast()?.value == 0)
    list.append(Item(1))
    list.append(Item(2))
    #expect(list.count == 2)
    list.deallocate()
  }

  @Test(arguments: [1, 2, 16, 40])
  func aQueueKeepsItsOrderWhileItIsTakenFromAndGrows(count: Int) {
    var queue = SmallQueue<Int>()
    var taken: [Int] = []
    for value in 0..<count {
      queue.append(value)
      // Take one entry for every two appended: the queue grows with entries taken.
      if value % 2 == 1, let next = queue.next() { taken.append(next) }
    }
    while let next = queue.next() { taken.append(next) }
    #expect(taken == Array(0..<count))
    #expect(queue.next() == nil)
    queue.deallocate()
    #expect(!queue.holdsReferences)
  }

  struct Weak {
    weak var item: Item?
    init(_ item: Item) { self.item = item }
  }
}
