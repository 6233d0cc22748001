import Testing

@testable import TrackingMigration

@Suite("Line diff")
struct LineDiffTests {
  /// Applies an edit script to `a`, checking it is consistent with `b`.
  private func apply(_ operations: [LineDiff.Operation], _ a: [Character], _ b: [Character]) -> [Character] {
    var result: [Character] = []
    var oldIndex = 0
    var newIndex = 0
    for operation in operations {
      switch operation {
      case .equal(let o, let n):
        #expect(o == oldIndex && n == newIndex && a[o] == b[n])
        result.append(a[o]); oldIndex += 1; newIndex += 1
      case .delete(let o):
        #expect(o == oldIndex)
        oldIndex += 1
      case .insert(let n):
        #expect(n == newIndex)
        result.append(b[n]); newIndex += 1
      }
    }
    #expect(oldIndex == a.count && newIndex == b.count)
    return result
  }

  /// Length of the longest common subsequence, by dynamic programming.
  private func lcsLength(_ a: [Character], _ b: [Character]) -> Int {
    var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in stride(from: a.count - 1, through: 0, by: -1) {
      for j in stride(from: b.count - 1, through: 0, by: -1) {
        table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
      }
    }
    return table[0][0]
  }

  @Test("Edit scripts are valid and minimal", arguments: [
    ("", ""), ("", "abc"), ("abc", ""), ("abc", "abc"), ("abcabba", "cbabac"),
    ("kitten", "sitting"), ("aaaa", "aa"), ("abcdef", "fedcba"), ("xaxbxc", "abc"),
  ])
  func validAndMinimal(old: String, new: String) {
    let a = Array(old)
    let b = Array(new)
    let operations = LineDiff.operations(from: a, to: b)
    #expect(apply(operations, a, b) == b)
    let equal = operations.filter { if case .equal = $0 { true } else { false } }.count
    #expect(equal == lcsLength(a, b))
  }

  @Test("Pseudo-random sequences round-trip with minimal scripts")
  func randomized() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    for _ in 0..<200 {
      let a = (0..<next(12)).map { _ in Character(UnicodeScalar(UInt8(97 + next(3)))) }
      let b = (0..<next(12)).map { _ in Character(UnicodeScalar(UInt8(97 + next(3)))) }
      let operations = LineDiff.operations(from: a, to: b)
      #expect(apply(operations, a, b) == b)
      let equal = operations.filter { if case .equal = $0 { true } else { false } }.count
      #expect(equal == lcsLength(a, b))
    }
  }

  @Test("Unified format with context and hunk headers")
  func unifiedFormat() {
    let old = (1...12).map { "line \($0)\n" }.joined()
    let new = old.replacingOccurrences(of: "line 2\n", with: "line two\n").replacingOccurrences(of: "line 11\n", with: "")
    let expected = """
      --- a/f.swift
      +++ b/f.swift
      @@ -1,5 +1,5 @@
       line 1
      -line 2
      +line two
       line 3
       line 4
       line 5
      @@ -8,5 +8,4 @@
       line 8
       line 9
       line 10
      -line 11
       line 12

      """
    #expect(UnifiedDiff.diff(old: old, new: new, oldName: "a/f.swift", newName: "b/f.swift") == expected)
  }

  @Test("Close changes share one hunk; insertion into an empty file")
  func mergingAndEmpty() {
    let old = "a\nb\nc\nd\n"
    let new = "A\nb\nc\nD\n"
    #expect(UnifiedDiff.diff(old: old, new: new, oldName: "x", newName: "y") == "--- x\n+++ y\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n-d\n+D\n")
    #expect(UnifiedDiff.diff(old: "", new: "a\n", oldName: "x", newName: "y") == "--- x\n+++ y\n@@ -0,0 +1 @@\n+a\n")
    #expect(UnifiedDiff.diff(old: "same\n", new: "same\n", oldName: "x", newName: "y") == "")
  }

  @Test("Missing final newline is marked")
  func noNewlineAtEnd() {
    let diff = UnifiedDiff.diff(old: "a\nb", new: "a\nb\n", oldName: "x", newName: "y")
    #expect(diff == "--- x\n+++ y\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n")
  }
}
