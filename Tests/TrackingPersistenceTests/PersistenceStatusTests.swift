import Testing
import TrackingPersistence

@Suite("Persistence status")
struct PersistenceStatusTests {
  private let newer = PersistenceError.newerSchemaVersion(stored: 3, supported: 2)

  /// Healthy: changes reach the storage. Every other status says why they do not.
  @Test func onlySavedAndSavingAreHealthy() {
    #expect(PersistenceStatus.saved.isHealthy)
    #expect(PersistenceStatus.saving.isHealthy)
    #expect(!PersistenceStatus.restoring(lastError: nil).isHealthy)
    #expect(!PersistenceStatus.restoring(lastError: newer).isHealthy)
    #expect(!PersistenceStatus.failed(newer).isHealthy)
    #expect(!PersistenceStatus.disabled(newer).isHealthy)
  }

  @Test func theDescriptionNamesTheStatusAndItsError() {
    let reason = "the stored value has schema version 3, newer than 2; it is kept and saving is off for this run"
    #expect(PersistenceStatus.saved.description == "saved")
    #expect(PersistenceStatus.saving.description == "saving")
    #expect(PersistenceStatus.restoring(lastError: nil).description == "restoring")
    #expect(PersistenceStatus.restoring(lastError: newer).description == "restoring (\(reason))")
    #expect(PersistenceStatus.failed(newer).description == "failed: \(reason)")
    #expect(PersistenceStatus.disabled(newer).description == "disabled: \(reason)")
  }
}
