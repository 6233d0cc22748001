// TrackingRenderLoop lands here.
