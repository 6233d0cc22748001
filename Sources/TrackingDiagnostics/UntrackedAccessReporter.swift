import IssueReporting
import Tracking

#if DEBUG
  /// Installs the runtime's untracked-read handler (once) and runs required regions.
  /// Debug builds only; release builds of the module contain none of this.
  @usableFromInline
  enum UntrackedAccessReporter {
    /// Set up on first use, thread-safely, by the global-initializer machinery.
    /// Handlers are additive, so one installed by someone else stays in place too.
    private static let installed: Void = {
      RequiredTracking.addHandler(report)
    }()

    @usableFromInline
    static func run<T>(
      fileID: StaticString, filePath: StaticString, line: UInt, column: UInt, _ body: () throws -> T
    ) rethrows -> T {
      _ = installed
      return try withIssueContext(fileID: fileID, filePath: filePath, line: line, column: column) {
        try RequiredTracking.run(body)
      }
    }

    /// The text reported for a read of `property` of `type` outside tracking.
    /// Where the runtime cannot name the property (a key path to a computed property
    /// prints as `<computed 0x…>` without symbol names), the message says so.
    static func message(type: String, property: String) -> String {
      let subject =
        property.contains("<computed")
        ? "A tracked property of '\(type)' (\(property))"
        : "Tracked property '\(property)' of '\(type)'"
      return """
        \(subject) was read outside of tracking, in code that requires it \
        (withTrackingRequired). Changes to it will not be observed; read it inside \
        'withTracking', or in 'withoutTracking' if the read is deliberate.
        """
    }

    @Sendable static func report(type: String, property: String) {
      reportIssue(message(type: type, property: property))
    }
  }
#endif
