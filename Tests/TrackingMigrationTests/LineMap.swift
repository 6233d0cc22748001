@testable import TrackingMigration

/// Line numbers of a file before and after migration, from a line diff.
struct LineMap {
  private var newToOld: [Int]
  private var oldToNew: [Int]

  init(from old: String, to new: String) {
    let a = old.split(separator: "\n", omittingEmptySubsequences: false)
    let b = new.split(separator: "\n", omittingEmptySubsequences: false)
    newToOld = [Int](repeating: 1, count: b.count + 1)
    oldToNew = [Int](repeating: 1, count: a.count + 1)
    // Hunks of deleted and inserted lines between equal ones: the lines a hunk adds
    // replace the lines it removes, pairwise, the extra ones belonging to its last
    // removed line (a declaration expanded into several); with nothing removed, to the
    // line before.
    var lastOld = 0
    var lastNew = 0
    var deleted: [Int] = []
    var inserted: [Int] = []
    func closeHunk() {
      for (position, o) in deleted.enumerated() {
        oldToNew[o] = (inserted.isEmpty ? lastNew : inserted[min(position, inserted.count - 1)]) + 1
      }
      for (position, n) in inserted.enumerated() {
        newToOld[n] = deleted.isEmpty ? max(lastOld, 1) : deleted[min(position, deleted.count - 1)] + 1
      }
      deleted = []
      inserted = []
    }
    for operation in LineDiff.operations(from: a, to: b) {
      switch operation {
      case .equal(let o, let n):
        closeHunk()
        newToOld[n] = o + 1
        oldToNew[o] = n + 1
        lastOld = o + 1
        lastNew = n + 1
      case .delete(let o): deleted.append(o)
      case .insert(let n): inserted.append(n)
      }
    }
    closeHunk()
  }

  /// The 1-based line of the original that line `line` of the new text came from.
  func oldLine(ofNewLine line: Int) -> Int { line >= 1 && line <= newToOld.count ? newToOld[line - 1] : line }

  /// The 1-based line of the new text where line `line` of the original is (or was replaced).
  func newLine(ofOldLine line: Int) -> Int { line >= 1 && line <= oldToNew.count ? oldToNew[line - 1] : line }
}
