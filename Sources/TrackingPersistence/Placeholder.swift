// TrackingPersistence lands here.
