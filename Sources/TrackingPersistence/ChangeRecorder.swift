import Foundation

/// Encodes the model on its actor and hands new encodings to the writer, numbered so
/// the writer never stores an older state after a newer one.
///
/// Running ``record()`` inside a tracking scope observes every tracked property of
/// every tracked object the model reaches — nested objects included (see
/// ``recordReadsOfAllTrackedProperties(in:)``).
final class ChangeRecorder<Model: Encodable> {
  let model: Model
  private let writer: PersistenceWriter
  private let onError: @Sendable (PersistenceError) -> Void
  private let encoder: JSONEncoder
  private var lastEncoded: Data?
  private var generation = 0
  private var started = false

  init(model: Model, writer: PersistenceWriter, onError: @escaping @Sendable (PersistenceError) -> Void) {
    self.model = model
    self.writer = writer
    self.onError = onError
    encoder = JSONEncoder()
    // Sorted keys make equal states encode to equal bytes, so unchanged states aren't rewritten.
    encoder.outputFormatting = [.sortedKeys]
  }

  /// Encodes the model and submits the encoding if it differs from the last one.
  /// The first call only records the starting state (what was just restored).
  @discardableResult
  func record() -> PersistenceError? {
    recordReadsOfAllTrackedProperties(in: model)
    let data: Data
    do {
      data = try encoder.encode(model)
    } catch {
      let failure = PersistenceError.encodingFailed(underlying: error)
      onError(failure)
      return failure
    }
    defer { started = true }
    guard data != lastEncoded else { return nil }
    lastEncoded = data
    guard started else { return nil }
    generation += 1
    writer.submit(data, generation: generation)
    return nil
  }
}
