// A guided tour of Tracking. Run it with `swift run tracking-tour`.
// Each chapter is one file; later chapters build on the earlier ones.

print("Tracking tour\n")
CoreChapter.run()
ExternalStorageChapter.run()
await ContinuousChapter.run()
GraphChapter.run()
await RenderLoopChapter.run()
await PersistenceChapter.run()
print("\nDone.")
