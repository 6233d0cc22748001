// TrackingDiagnostics lands here.
