// A guided tour of Tracking. Run it with `swift run tracking-tour`
// (`swift run tracking-tour --graph-dot` prints the graph chapter's graph as Graphviz DOT).
// Each chapter is one file; later chapters build on the earlier ones.

if CommandLine.arguments.dropFirst().first == "--graph-dot" {
  GraphChapter.run(dotOnly: true)
} else {
  print("Tracking tour\n")
  CoreChapter.run()
  ExternalStorageChapter.run()
  await ContinuousChapter.run()
  GraphChapter.run()
  CollectionsChapter.run()
  LifetimesChapter.run()
  await RenderLoopChapter.run()
  await PersistenceChapter.run()
  print("\nDone.")
}
