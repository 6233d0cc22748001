import Foundation

/// Reads a model from a storage at launch, classifying what can go wrong.
enum Restore<Model: Decodable> {
  /// What restoring produced: a model (`nil`: nothing stored or nothing usable), an
  /// error to report, and whether saving may go ahead.
  struct Outcome {
    var model: Model?
    var error: PersistenceError?
    var mayWrite: Bool
  }

  static func run(from storage: any PersistenceStorage) -> Outcome {
    let data: Data?
    do {
      data = try storage.load()
    } catch {
      return Outcome(model: nil, error: .readFailed(underlying: error), mayWrite: false)
    }
    guard let data else { return Outcome(model: nil, error: nil, mayWrite: true) }
    do {
      return Outcome(model: try JSONDecoder().decode(Model.self, from: data), error: nil, mayWrite: true)
    } catch {
      // Well-formed JSON that doesn't fit the model is a schema mismatch; anything
      // else (garbage, a truncated file) is corrupt.
      let wellFormed = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
      let reason = wellFormed ? "schema mismatch: \(error)" : "corrupt: \(error)"
      let location: QuarantineLocation?
      do {
        location = try storage.quarantine(reason: reason)
      } catch let quarantineError {
        return Outcome(
          model: nil, error: .quarantineFailed(underlying: quarantineError, reading: error), mayWrite: false)
      }
      guard let location else {
        // The value vanished between loading and moving it: nothing to keep.
        return Outcome(model: nil, error: nil, mayWrite: true)
      }
      if wellFormed, let decodingError = error as? DecodingError {
        return Outcome(model: nil, error: .schemaMismatch(underlying: decodingError, movedTo: location), mayWrite: true)
      }
      return Outcome(model: nil, error: .corrupt(underlying: error, movedTo: location), mayWrite: true)
    }
  }
}
