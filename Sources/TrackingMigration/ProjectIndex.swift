import SwiftSyntax

/// Facts gathered from *all* input files before any file is rewritten.
///
/// Migration is a whole-program change: a view file only knows that
/// `@ObservedObject var book: Book` refers to a migrated model if the file
/// declaring `class Book: ObservableObject` is part of the same run. Types that
/// are not found here are treated conservatively (left alone and reported),
/// because they may be `ObservableObject`s from another module.
///
/// ``IndexCollector`` records what each file says; ``finish()`` then derives the
/// whole-program sets (which protocols refine `ObservableObject`, which classes
/// are migrated) once, before the rewrite pass.
struct ProjectIndex: Sendable {
  // MARK: Recorded per file

  /// Inherited type names of each class declaration, in order (the first
  /// declaration of a name wins: used for superclasses).
  var classInheritance: [String: [String]] = [:]
  /// Inherited type names of every class declaration of a name. Nested classes are
  /// known by their simple name, so two `Coordinator` classes share an entry: a name
  /// is migrated if any of its classes conforms, so that a second run sees the same.
  var classConformances: [String: Set<String>] = [:]
  /// Types added by extensions, by extended type name.
  var extensionConformances: [String: Set<String>] = [:]
  /// Inherited type names of each protocol declaration.
  var protocolInheritance: [String: [String]] = [:]
  /// Classes that already use an observation macro (`@Trackable`/`@Observable`),
  /// e.g. from an earlier run on part of the project.
  var macroObservableClasses: Set<String> = []
  /// Names of `@Published` properties, by declaring class.
  var publishedPropertiesByClass: [String: Set<String>] = [:]
  /// Names of `@Published` properties declared with an initial value, by class.
  var initializedPublishedByClass: [String: Set<String>] = [:]
  /// Identifiers used as `$name` inside each type (including its extensions).
  var dollarReferencesByType: [String: Set<String>] = [:]
  /// Types read with `@EnvironmentObject` anywhere.
  var environmentObjectTypes: Set<String> = []
  /// Types held in `@State` or `@StateObject` properties that create their value
  /// whenever the view is initialized (not those that start as `nil`).
  var stateHeldTypes: Set<String> = []
  /// Property name → type name, by declaring type (annotation or `T()` initializer);
  /// the key `""` holds global variables.
  var propertyTypesByType: [String: [String: String]] = [:]
  /// Property name → initial value, for properties whose type is not written
  /// (`var x = Model.shared`), by declaring type: resolved when asked.
  var propertyInitializersByType: [String: [String: ExprSyntax]] = [:]
  /// Properties whose wrapper storage an initializer of the type assigns
  /// (`_model = StateObject(wrappedValue: …)`), by type.
  var assignedWrapperStorageByType: [String: Set<String>] = [:]
  /// Functions that return the generic type of one of their arguments
  /// (`func configure<T>(_ value: T, …) -> T`): the argument's position, by name.
  var passthroughArgumentByFunction: [String: Int] = [:]
  /// Function base name → simple return type name, by declaring type (`""`: global).
  var functionReturnTypesByType: [String: [String: String]] = [:]
  /// Property name → property wrapper name (`StateObject`, `EnvironmentObject`, …),
  /// by declaring type, for the wrappers the migration cares about.
  var wrappedPropertiesByType: [String: [String: String]] = [:]
  /// Generic parameter → names of the protocols it is constrained to, by declaring type.
  var genericConstraintsByType: [String: [String: Set<String>]] = [:]
  /// Every type name declared in the inputs (classes, structs, enums, protocols,
  /// actors, type aliases, generic parameters): a name that is not here comes from
  /// another module.
  var declaredTypes: Set<String> = []
  /// Types declared at file scope (see ``swiftUIName(_:at:)``).
  var fileScopeTypes: Set<String> = []
  /// Types declared (or extended) as conforming to SwiftUI's `View` or `Scene`,
  /// whose code runs under SwiftUI's observation tracking.
  var viewTypes: Set<String> = []
  /// Stored instance `var`s of every type (classes, structs, enums' extensions…).
  var storedVarsByType: [String: Set<String>] = [:]
  /// Properties marked `@TrackingIgnored` or `@ObservationIgnored`, by type.
  var ignoredPropertiesByType: [String: Set<String>] = [:]
  /// Stored instance `var`s of each class (members inside `#if` included).
  var storedPropertiesByClass: [String: Set<String>] = [:]
  /// Names written where a class announces changes by hand (`objectWillChange.send()`
  /// in a property observer or a method), by class: those that are stored
  /// properties become tracked, since views updated when they changed.
  var announcedNamesByClass: [String: Set<String>] = [:]
  /// Side effect and calls to sibling methods of each function, by type and name
  /// (`init` for initializers).
  var functionFactsByType: [String: [String: FunctionFacts]] = [:]
  /// Stored instance `var`s of each class that have no property wrapper (so no `$name`).
  var unwrappedStoredPropertiesByClass: [String: Set<String>] = [:]
  /// Names referenced inside the extensions of each type.
  var namesReferencedInExtensions: [String: Set<String>] = [:]
  /// `lazy` stored properties of each class.
  var lazyPropertiesByClass: [String: Set<String>] = [:]
  /// `@AppStorage` stored instance properties of each class, with their bindings.
  var appStoragePropertiesByClass: [String: [String: PatternBindingSyntax]] = [:]
  /// Attributes of each class that are not known to the tool (`@Stateful(…)`), and
  /// declaration macros among its members (`#Generated`): macros whose generated
  /// members the tool cannot see, unless the attribute names a type declared in the
  /// inputs (a global actor).
  var unknownClassAttributes: [String: [String]] = [:]
  /// Macros declared in the inputs.
  var declaredMacros: Set<String> = []
  /// The cases of each type's `CodingKeys`, declared in its body or an extension.
  var codingKeysByType: [String: Set<String>] = [:]
  /// Types that declare `init(from:)` (in their body or an extension).
  var typesDecodingByHand: Set<String> = []
  /// Types that declare `encode(to:)` (in their body or an extension).
  var typesEncodingByHand: Set<String> = []

  // MARK: Derived by finish()

  /// Protocols that refine `ObservableObject`, directly or through each other.
  private(set) var observableProtocols: Set<String> = []
  /// Classes declaring `ObservableObject` conformance, directly, through a
  /// protocol that refines it, or in an extension.
  private(set) var observableObjectClasses: Set<String> = []
  /// `ObservableObject` classes left as they are, with a warning on each: because a
  /// macro attached to them (named here: `@Stateful`, or `#Generated` for a declaration
  /// macro among its members) may generate members the tool cannot see, such as
  /// `@Published` properties that would stop updating views; or because the class is
  /// `private` inside another type (named here as `private`, see
  /// ``privateNestedClasses``).
  private(set) var heldBackClasses: [String: String] = [:]
  /// Classes declared `private` inside another type, with that type's name. Neither
  /// macro can make one observable: the conformance it adds, in an extension at file
  /// scope, cannot see a `private` member type ("'Loader' is inaccessible due to
  /// 'private' protection level", for Apple's `@Observable` too).
  var privateNestedClasses: [String: String] = [:]
  /// For a class of ``heldBackClasses`` held back because of a subclass's macro, that
  /// subclass.
  private(set) var heldBackForSubclass: [String: String] = [:]
  /// Classes that inherit, directly or not, from a class in
  /// ``observableObjectClasses`` without declaring the conformance themselves.
  private(set) var migratedSubclasses: Set<String> = []
  /// Every class that is (or becomes) macro-observable after this run.
  private(set) var observableTypes: Set<String> = []
  /// Every formerly `@Published` property name in the project.
  private(set) var allPublishedProperties: Set<String> = []
  /// Stored properties of each class announced by hand in the class or a subclass.
  private(set) var announcedPropertiesByClass: [String: Set<String>] = [:]
  /// What an initializer of each type does that outlives the call (a task, a
  /// subscription, a timer…), directly or through methods of its own it calls.
  private(set) var initializerSideEffectsByType: [String: String] = [:]

  /// Stored properties of `className` whose changes were announced by hand, so
  /// that they must stay observable after migration.
  func announcedProperties(of className: String) -> Set<String> {
    announcedPropertiesByClass[className] ?? []
  }

  /// The stored properties a migrated class declares itself that stay tracked: the
  /// `@Published` ones and those announced by hand, unless ignored or `lazy`.
  /// (`@AppStorage` properties become computed.)
  func trackedAfterMigration(of className: String) -> Set<String> {
    (publishedPropertiesByClass[className] ?? []).union(announcedProperties(of: className))
      .subtracting(ignoredPropertiesByType[className] ?? [])
      .subtracting(lazyPropertiesByClass[className] ?? [])
      .subtracting((appStoragePropertiesByClass[className] ?? [:]).keys)
  }

  /// Whether `$name` names nothing in `className`, a class that already uses a macro
  /// and is not migrated by this run: `name` is one of its stored properties without a
  /// property wrapper (a `@Published` one, before an earlier run removed it).
  func lacksProjection(_ name: String, in className: String) -> Bool {
    guard macroObservableClasses.contains(className), !isMigrated(className) else { return false }
    var found = false
    forEachAncestor(of: className) { found = found || (unwrappedStoredPropertiesByClass[$0]?.contains(name) ?? false) }
    return found
  }

  /// How code the tool writes at `site` names SwiftUI's type `name` (`State`,
  /// `Environment`, `Bindable`): `SwiftUI.name` where another type of that name would be
  /// found first — one the inputs declare at file scope (XcodesApp declares its own
  /// `Environment`), or a member type of a type around `site` — else `name`.
  func swiftUIName(_ name: String, at site: some SyntaxProtocol) -> String {
    fileScopeTypes.contains(name) || SyntaxQueries.enclosingTypesDeclare(name, around: site) ? "SwiftUI.\(name)" : name
  }

  /// Whether `$name`, on an object whose type the tool cannot determine, may name
  /// nothing: `name` is a stored property without a wrapper of a class that already
  /// uses a macro (see ``lacksProjection(_:in:)``). The unknown-type counterpart of a
  /// first run's `$name` of a `@Published` property, so that a second run reports it
  /// again. As in the first run, a class that still wraps a property of that name
  /// (one the tool kept as it was) does not clear the use: the object may be either.
  func lacksProjectionOnUnknownObject(_ name: String) -> Bool {
    macroObservableClasses.contains { !isMigrated($0) && (unwrappedStoredPropertiesByClass[$0]?.contains(name) ?? false) }
  }

  /// Whether the run turns `name`, an `@AppStorage` property of `className` (or of a
  /// superclass), into a computed property (see ``AppStorageMigration``).
  func convertsAppStorage(_ name: String, of className: String) -> Bool {
    var found = false
    forEachAncestor(of: className) { ancestor in
      guard !found, isMigrated(ancestor) || macroObservableClasses.contains(ancestor),
        let binding = appStoragePropertiesByClass[ancestor]?[name]
      else { return }
      found = AppStorageMigration.obstacle(to: binding, of: ancestor, index: self) == nil
    }
    return found
  }

  /// Stored instance `var`s of `className`, including inherited ones.
  func storedProperties(visibleIn className: String) -> Set<String> {
    var result: Set<String> = []
    forEachAncestor(of: className) { result.formUnion(storedPropertiesByClass[$0] ?? []) }
    return result
  }

  /// Whether `className` is migrated by this run (declares the conformance or
  /// inherits from a class that does).
  func isMigrated(_ className: String) -> Bool {
    observableObjectClasses.contains(className) || migratedSubclasses.contains(className)
  }

  /// Direct superclass (first inherited type, when it is a class) by class name.
  func superclass(of className: String) -> String? {
    guard let first = classInheritance[className]?.first, classInheritance[first] != nil else { return nil }
    return first
  }

  /// `@Published` properties visible in `className`, including inherited ones.
  func publishedProperties(visibleIn className: String) -> Set<String> {
    var result: Set<String> = []
    forEachAncestor(of: className) { result.formUnion(publishedPropertiesByClass[$0] ?? []) }
    return result
  }

  /// The type of property `name` of `typeName`, looking through superclasses.
  func propertyType(_ name: String, of typeName: String, depth: Int = 0) -> String? {
    var found: String?
    forEachAncestor(of: typeName) { if found == nil { found = propertyTypesByType[$0]?[name] } }
    if found == nil {
      var initializer: ExprSyntax?
      forEachAncestor(of: typeName) { if initializer == nil { initializer = propertyInitializersByType[$0]?[name] } }
      if let initializer { found = ExpressionTypeResolver.typeName(of: initializer, index: self, depth: depth) }
    }
    return found
  }

  /// The return type of function `name` of `typeName` (or global, for `""`),
  /// looking through superclasses.
  func returnType(of name: String, in typeName: String) -> String? {
    var found: String?
    forEachAncestor(of: typeName) { if found == nil { found = functionReturnTypesByType[$0]?[name] } }
    return found
  }

  /// The wrapper of property `name` declared in `typeName` (or a superclass).
  func wrapper(of name: String, in typeName: String) -> String? {
    var found: String?
    forEachAncestor(of: typeName) { if found == nil { found = wrappedPropertiesByType[$0]?[name] } }
    return found
  }

  /// Whether `name`, seen inside `ownerType`, is a generic parameter constrained to
  /// a protocol that refines `ObservableObject` (and so stands for migrated classes).
  func isObservableGenericParameter(_ name: String, in ownerType: String?) -> Bool {
    guard let ownerType, let constraints = genericConstraintsByType[ownerType]?[name] else { return false }
    return !constraints.isDisjoint(with: observableProtocols)
  }

  /// Whether a type named as it is written in `ownerType` becomes macro-observable:
  /// a migrated class, or a generic parameter constrained to a migrated protocol.
  func isObservable(_ typeName: String, in ownerType: String?) -> Bool {
    observableTypes.contains(typeName) || isObservableGenericParameter(typeName, in: ownerType)
  }

  private func forEachAncestor(of className: String, _ body: (String) -> Void) {
    var current: String? = className
    var visited: Set<String> = []
    while let name = current, visited.insert(name).inserted {
      body(name)
      current = superclass(of: name)
    }
  }

  // MARK: Building

  /// Adds the facts of one parsed file.
  mutating func add(_ tree: SourceFileSyntax) {
    let collector = IndexCollector(viewMode: .sourceAccurate)
    collector.walk(tree)
    let new = collector.index
    classInheritance.merge(new.classInheritance) { old, _ in old }
    classConformances.merge(new.classConformances) { $0.union($1) }
    storedPropertiesByClass.merge(new.storedPropertiesByClass) { $0.union($1) }
    storedVarsByType.merge(new.storedVarsByType) { $0.union($1) }
    ignoredPropertiesByType.merge(new.ignoredPropertiesByType) { $0.union($1) }
    announcedNamesByClass.merge(new.announcedNamesByClass) { $0.union($1) }
    extensionConformances.merge(new.extensionConformances) { $0.union($1) }
    protocolInheritance.merge(new.protocolInheritance) { old, _ in old }
    macroObservableClasses.formUnion(new.macroObservableClasses)
    lazyPropertiesByClass.merge(new.lazyPropertiesByClass) { $0.union($1) }
    namesReferencedInExtensions.merge(new.namesReferencedInExtensions) { $0.union($1) }
    unwrappedStoredPropertiesByClass.merge(new.unwrappedStoredPropertiesByClass) { $0.union($1) }
    unknownClassAttributes.merge(new.unknownClassAttributes) { $0 + $1 }
    declaredMacros.formUnion(new.declaredMacros)
    appStoragePropertiesByClass.merge(new.appStoragePropertiesByClass) { old, new in old.merging(new) { first, _ in first } }
    codingKeysByType.merge(new.codingKeysByType) { $0.union($1) }
    typesDecodingByHand.formUnion(new.typesDecodingByHand)
    typesEncodingByHand.formUnion(new.typesEncodingByHand)
    publishedPropertiesByClass.merge(new.publishedPropertiesByClass) { $0.union($1) }
    initializedPublishedByClass.merge(new.initializedPublishedByClass) { $0.union($1) }
    dollarReferencesByType.merge(new.dollarReferencesByType) { $0.union($1) }
    stateHeldTypes.formUnion(new.stateHeldTypes)
    environmentObjectTypes.formUnion(new.environmentObjectTypes)
    viewTypes.formUnion(new.viewTypes)
    declaredTypes.formUnion(new.declaredTypes)
    fileScopeTypes.formUnion(new.fileScopeTypes)
    privateNestedClasses.merge(new.privateNestedClasses) { first, _ in first }
    for (type, functions) in new.functionFactsByType {
      functionFactsByType[type, default: [:]].merge(functions) { old, new in
        var merged = old
        merged.add(new)
        return merged
      }
    }
    for (type, members) in new.propertyTypesByType {
      propertyTypesByType[type, default: [:]].merge(members) { old, _ in old }
    }
    for (type, members) in new.propertyInitializersByType {
      propertyInitializersByType[type, default: [:]].merge(members) { old, _ in old }
    }
    assignedWrapperStorageByType.merge(new.assignedWrapperStorageByType) { $0.union($1) }
    passthroughArgumentByFunction.merge(new.passthroughArgumentByFunction) { old, _ in old }
    for (type, members) in new.functionReturnTypesByType {
      functionReturnTypesByType[type, default: [:]].merge(members) { old, _ in old }
    }
    for (type, members) in new.wrappedPropertiesByType {
      wrappedPropertiesByType[type, default: [:]].merge(members) { old, _ in old }
    }
    for (type, parameters) in new.genericConstraintsByType {
      genericConstraintsByType[type, default: [:]].merge(parameters) { $0.union($1) }
    }
  }

  /// Derives the whole-program sets; call once after the last ``add(_:)``.
  mutating func finish() {
    var protocols: Set<String> = []
    var changed = true
    while changed {
      changed = false
      for (name, parents) in protocolInheritance where !protocols.contains(name) {
        if parents.contains(where: { SyntaxQueries.isObservableObjectName($0) || protocols.contains($0) }) {
          protocols.insert(name)
          changed = true
        }
      }
    }
    observableProtocols = protocols

    func conformsDirectly(_ names: some Sequence<String>) -> Bool {
      names.contains { SyntaxQueries.isObservableObjectName($0) || protocols.contains($0) }
    }
    var classes: Set<String> = []
    for (name, inherited) in classConformances
    where conformsDirectly(inherited) || conformsDirectly(extensionConformances[name] ?? []) {
      if let macro = opaqueMacro(of: name) {
        heldBackClasses[name] = macro
      } else if privateNestedClasses[name] != nil {
        heldBackClasses[name] = "private"
      } else {
        classes.insert(name)
      }
    }
    // A subclass with such a macro holds back the class it inherits the conformance
    // from, and so every class of that hierarchy: migrating the superclass would leave
    // what the macro generates in the subclass unobserved, and a second run would no
    // longer see that the subclass inherits from a migrated class.
    for name in classInheritance.keys.sorted() where !classes.contains(name) && heldBackClasses[name] == nil {
      guard let macro = opaqueMacro(of: name) else { continue }
      var ancestor = superclass(of: name)
      var seen: Set<String> = [name]
      while let current = ancestor, seen.insert(current).inserted {
        if classes.contains(current) {
          classes.remove(current)
          heldBackClasses[current] = macro
          heldBackForSubclass[current] = name
          break
        }
        ancestor = superclass(of: current)
      }
    }
    observableObjectClasses = classes

    var subclasses: Set<String> = []
    changed = true
    while changed {
      changed = false
      for name in classInheritance.keys where !subclasses.contains(name) && !classes.contains(name) {
        if let parent = superclass(of: name), classes.contains(parent) || subclasses.contains(parent) {
          subclasses.insert(name)
          changed = true
        }
      }
    }
    migratedSubclasses = subclasses
    observableTypes = classes.union(subclasses).union(macroObservableClasses)
    // Only migrated classes lose their publishers; a class that is not an
    // ObservableObject keeps its @Published properties and their `$` publishers.
    allPublishedProperties = publishedPropertiesByClass.filter { observableTypes.contains($0.key) }.values
      .reduce(into: []) { $0.formUnion($1) }
    for (name, names) in announcedNamesByClass {
      forEachAncestor(of: name) { ancestor in
        let stored = names.intersection(storedPropertiesByClass[ancestor] ?? [])
        if !stored.isEmpty { announcedPropertiesByClass[ancestor, default: []].formUnion(stored) }
      }
    }
    for type in functionFactsByType.keys {
      if let effect = sideEffect(of: "init", in: type) { initializerSideEffectsByType[type] = effect }
    }
  }

  /// The first attribute (or member declaration macro) of class `name` that may be a
  /// macro generating members: not one the tool knows, and not a type declared in the
  /// inputs (a global actor or a property wrapper) unless a macro of that name is.
  func opaqueMacro(of name: String) -> String? {
    (unknownClassAttributes[name] ?? []).first { attribute in
      let simple = String(attribute.dropFirst())
      // A protocol cannot be an attribute: one of the same name is the macro's companion.
      return declaredMacros.contains(simple) || !declaredTypes.contains(simple) || protocolInheritance[simple] != nil
    }
  }

  /// What `function` of `type` (or a method it calls on `self`, or a superclass
  /// initializer) does that outlives the call, described for a finding.
  private func sideEffect(of function: String, in type: String) -> String? {
    var visited: Set<String> = []
    func search(_ function: String, _ type: String, via path: [String]) -> String? {
      guard visited.insert("\(type).\(function)").inserted else { return nil }
      var owner: String? = type
      while let current = owner {
        if let facts = functionFactsByType[current]?[function] {
          if let effect = facts.sideEffect {
            return path.isEmpty ? effect : "calls \(path.joined(separator: " → ")), which \(effect)"
          }
          for call in facts.calls.sorted() where call != function {
            if let found = search(call, type, via: path + ["\(call)()"]) { return found }
          }
          if function == "init", let parent = superclass(of: current),
            let found = search("init", parent, via: path + ["\(parent).init"])
          {
            return found
          }
          return nil
        }
        owner = superclass(of: current)
      }
      return nil
    }
    return search(function, type, via: [])
  }
}
