import Foundation
import PropertyBased
import Testing

/// Random scripts of track / write / cancel / nest / release / transaction / observe on
/// one thread, run against the runtime and against the reference model: the two logs of
/// callbacks must be the same, event for event, in the same order.
///
/// A failure prints the script, shrunk to a minimal one, and the two logs; the seed it
/// prints replays it (`@Test(.fixedSeed("…"))`).
@Suite("Properties: scripts on one thread")
struct ScriptPropertyTests {
  /// Runs `script` on both backends and compares what they logged and the final values.
  static func check(_ script: Script, sourceLocation: SourceLocation = #_sourceLocation) {
    let model = ReferenceModel()
    model.run(script.ops)
    let modelValues = model.finalValues
    model.finish()
    let world = RuntimeWorld()
    world.run(script.ops)
    let worldValues = world.finalValues
    world.finish()
    #expect(world.log.events == model.log, "script: \(script)", sourceLocation: sourceLocation)
    #expect(worldValues == modelValues, sourceLocation: sourceLocation)
  }

  @Test func theRuntimeLogsWhatTheModelLogs() async {
    await propertyCheck(count: Self.count, input: ScriptGenerator.scripts()) { script in
      Self.check(script)
    }
  }

  static let count = Int(ProcessInfo.processInfo.environment["TRACKING_PROPERTY_CASES"] ?? "") ?? 400
}
