/// The four runtime boundary rules, checked for one processed action.
///
/// A feature's view and internal actions are private to it. Its parent may route them to it
/// (`Scope`) but may only react to the delegate actions of a direct child; the view sends only
/// view actions, and effects never send them.
enum LeakRules {
  struct Input {
    var classification: ActionClassification
    var origin: ActionOrigin
    /// The route the store took, from the root: one step per embedded feature.
    var route: [ActionRoute]
    /// The state path of the route's last child: `route.statePath`.
    var statePath: String
    /// Effects each reducer along `route` returned itself, root first.
    var ownEffectCounts: [Int]
    var changes: [StateChange]
    /// Where `changes` are changes of a `Shared` value: every feature holding it shows them,
    /// so they tell nothing of which feature reacted, and are not judged.
    var sharedPaths: [String] = []
    /// How the root feature is named in details.
    var rootName: String
  }

  /// The rules `classification`, sent from `origin`, breaks; the rest of the input is only
  /// built when a rule may apply.
  static func leaks(
    _ classification: ActionClassification, origin: ActionOrigin,
    input: @autoclosure () -> Input
  ) -> [Leak] {
    guard classification.category != .unclassified, !classification.isDismiss else { return [] }
    let depth = classification.feature.count
    let mayLeak =
      switch classification.category {
      case .view: depth >= 1 || origin != .send
      case .internal: depth >= 1 || origin == .send
      case .delegate: self.parentDepth(of: classification) >= 1 || origin == .send
      case .unclassified: false
      }
    return mayLeak ? self.leaks(input()) : []
  }

  private static func leaks(_ input: Input) -> [Leak] {
    let classification = input.classification
    var leaks: [Leak] = []
    let depth = classification.feature.count

    switch classification.category {
    case .view, .internal:
      if depth >= 1 {
        leaks += self.reactions(
          to: input, allowedDepth: depth, rule: .parentReactsToPrivateChildAction
        )
      }
    case .delegate:
      let parentDepth = self.parentDepth(of: classification)
      if parentDepth >= 1 {
        leaks += self.reactions(
          to: input, allowedDepth: parentDepth, rule: .ancestorReactsToGrandchildDelegate
        )
      }
    case .unclassified:
      break
    }

    if classification.category == .view, case let .effect(cause) = input.origin {
      leaks.append(
        Leak(
          rule: .effectSendsViewAction,
          feature: classification.featurePath,
          detail: """
            view action \(classification.caseName) of \(name(classification.feature, input)) \
            was sent by an effect of action #\(cause); only the view sends view actions
            """
        )
      )
    }

    if input.origin == .send,
      classification.category == .internal || classification.category == .delegate
    {
      leaks.append(
        Leak(
          rule: .viewSendsPrivateAction,
          feature: classification.featurePath,
          detail: """
            \(classification.category.rawValue) action \(classification.caseName) of \
            \(name(classification.feature, input)) was sent from outside the store; only \
            its reducer and effects send \(classification.category.rawValue) actions
            """
        )
      )
    }
    return leaks
  }

  /// The ancestors above `allowedDepth` that changed state outside the allowed feature's state,
  /// or returned effects: one leak per ancestor.
  private static func reactions(
    to input: Input, allowedDepth: Int, rule: LeakRule
  ) -> [Leak] {
    let classification = input.classification
    // NB: Without the store's route down to the allowed feature (a child action dropped
    // because its state was gone), its state path is unknown and nothing is judged.
    guard input.route.count >= allowedDepth else { return [] }
    let allowedStatePath =
      allowedDepth == input.route.count
      ? input.statePath : Array(input.route.prefix(allowedDepth)).statePath

    var changedPaths: [Int: [String]] = [:]
    for change in input.changes
    where !contains(allowedStatePath, change.path)
      && !input.sharedPaths.contains(where: { contains($0, change.path) })
    {
      let offender =
        (0..<allowedDepth).last {
          contains(Array(input.route.prefix($0)).statePath, change.path)
        } ?? 0
      changedPaths[offender, default: []].append(change.path)
    }
    let effectDepths = (0..<min(allowedDepth, input.ownEffectCounts.count)).filter {
      input.ownEffectCounts[$0] > 0
    }
    // NB: Most actions leak nothing: the details are only written for a leak.
    guard !changedPaths.isEmpty || !effectDepths.isEmpty else { return [] }
    let effects = Set(effectDepths)

    let owner = name(classification.feature, input)
    let what =
      rule == .parentReactsToPrivateChildAction
      ? "\(classification.category.rawValue) action \(classification.caseName) of \(owner)"
      : "delegate action \(classification.caseName) of \(owner), which only \(name(Array(classification.feature.prefix(allowedDepth)), input)) may react to"
    return Set(changedPaths.keys).union(effects).sorted().map { depth in
      var reactions: [String] = []
      if let paths = changedPaths[depth] {
        reactions.append("changed " + paths.joined(separator: ", "))
      }
      // NB: Not how many: a reducer returns one effect, which TCA merges so that its parts
      // cannot be counted; `Composable` could, but both hosts must say the same.
      if effects.contains(depth) {
        reactions.append("returned an effect")
      }
      return Leak(
        rule: rule,
        feature: classification.feature.prefix(depth).joined(separator: "."),
        detail: reactions.joined(separator: " and ") + " in response to " + what
      )
    }
  }

  /// The depth of the feature that may react to the owner's delegate actions: its parent's,
  /// or, when the owner is a case of an enum reducer, the depth above the enum reducer.
  private static func parentDepth(of classification: ActionClassification) -> Int {
    var depth = classification.feature.count - 1
    while classification.enumReducerDepths.contains(depth) { depth -= 1 }
    return depth
  }

  /// Whether the state path `path` lies within the state at `prefix`.
  ///
  /// NB: Compared as UTF-8: both paths are written by the same code, and counting the prefix's
  /// characters to drop them walked the path's grapheme clusters, for every change of every
  /// action a leak rule judges.
  static func contains(_ prefix: String, _ path: String) -> Bool {
    guard !prefix.isEmpty else { return true }
    let (prefix, path) = (prefix.utf8, path.utf8)
    guard path.starts(with: prefix) else { return false }
    guard let next = path.dropFirst(prefix.count).first else { return true }
    return next == UInt8(ascii: ".") || next == UInt8(ascii: "[")
  }

  /// How a feature is named in details: its path, or the root's type name.
  private static func name(_ feature: [String], _ input: Input) -> String {
    feature.isEmpty ? input.rootName : feature.joined(separator: ".")
  }
}
