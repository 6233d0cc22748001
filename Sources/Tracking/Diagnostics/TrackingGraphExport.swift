extension TrackingGraph {
  /// The graph in Graphviz's DOT language, left to right: objects as boxes, derived
  /// values as ellipses, observations as hexagons; edges labelled with the properties
  /// read. Render it with `dot -Tsvg graph.dot -o graph.svg`.
  public var dot: String {
    var lines = [
      "digraph TrackingGraph {",
      "  rankdir=LR;",
      "  node [fontname=\"Helvetica\", fontsize=11];",
      "  edge [fontname=\"Helvetica\", fontsize=9, color=\"#555555\"];",
    ]
    for node in nodes {
      let shape =
        switch node.kind {
        case .object: "shape=box, style=\"rounded,filled\", fillcolor=\"#e8f0fe\""
        case .derived: "shape=ellipse, style=filled, fillcolor=\"#fef7e0\""
        case .observation: "shape=hexagon, style=filled, fillcolor=\"#e6f4ea\""
        }
      lines.append("  \(node.id) [label=\(Self.dotQuoted(node.label)), \(shape)];")
    }
    for edge in edges {
      lines.append("  \(edge.source) -> \(edge.dependent) [label=\(Self.dotQuoted(edge.properties.joined(separator: ", ")))];")
    }
    lines.append("}")
    return lines.joined(separator: "\n") + "\n"
  }

  /// The graph as a Mermaid flowchart, left to right: objects as rectangles, derived
  /// values as stadiums, observations as hexagons; edges labelled with the properties
  /// read. GitHub and many Markdown viewers render it in a ```` ```mermaid ```` block.
  public var mermaid: String {
    var lines = ["flowchart LR"]
    for node in nodes {
      let label = Self.mermaidQuoted(node.label)
      switch node.kind {
      case .object: lines.append("  \(node.id)[\(label)]")
      case .derived: lines.append("  \(node.id)([\(label)])")
      case .observation: lines.append("  \(node.id){{\(label)}}")
      }
    }
    for edge in edges {
      let label = edge.properties.joined(separator: ", ")
      lines.append("  \(edge.source) -->|\(Self.mermaidQuoted(label))| \(edge.dependent)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// A DOT string literal.
  private static func dotQuoted(_ text: String) -> String {
    var quoted = "\""
    for character in text {
      if character == "\\" || character == "\"" { quoted.append("\\") }
      quoted.append(character)
    }
    return quoted + "\""
  }

  /// A Mermaid label: quoted, with quotes replaced by their entity.
  private static func mermaidQuoted(_ text: String) -> String {
    "\"" + text.map { $0 == "\"" ? "#quot;" : String($0) }.joined() + "\""
  }
}
