// TrackingState lands here.
