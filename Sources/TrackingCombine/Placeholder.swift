// TrackingCombine lands here.
