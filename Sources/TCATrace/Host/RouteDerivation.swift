import RuntimeSupport

#if ComposableArchitecture
  import ActionObservation
  import ComposableArchitecture

  /// The route an action takes through the features of a state, read from the action and the
  /// state themselves: on TCA, whose `Scope`, `ifLet` and `forEach` do not report it as
  /// `Composable`'s do.
  ///
  /// A step is taken where a case's associated value is a child feature's action (`X.Action`,
  /// or one in a `PresentationAction`, `IdentifiedAction` or `StackAction`) and exactly one
  /// stored property of the state holds that feature's state (`X.State`, optional, presented,
  /// or a collection or stack of them): the step is named after that property, as
  /// `Composable` names it after the scoping key path. Where no property or more than one
  /// holds it, the route stops there: what it cannot tell is not guessed.
  enum RouteDerivation {
    /// The route, the type of the action each step's child received, and whether each step's
    /// child is an enum reducer (its state an enum): one that only scopes to its cases.
    struct Derived {
      var route: [ActionRoute]
      var actionTypes: [ObjectIdentifier]
      var isEnumReducer: [Bool]
    }

    /// The route of `action` in the state at `state`, kept with the action's chain of cases by
    /// `classifier`, the classifier of `Action`, where it depends on nothing else: derived once
    /// for each chain, not at every action (deriving a child's action's route costs as much as
    /// recording it). The state is read only where the route is derived.
    static func route<Action, State>(
      of action: Action, in state: UnsafePointer<State>, classifier: ActionClassifier?
    ) -> Derived {
      // NB: The classifier of an enum type, whose values are of that type: what its cases
      // cannot lead to is known once (see `steps(of:in:derivation:)`, whose first turn asks the
      // same), and its actions' chains are not looked up.
      if let classifier, classifier.routeIsRoot {
        return Derived(route: [], actionTypes: [], isEnumReducer: [])
      }
      let stateType = ObjectIdentifier(State.self)
      // NB: A state of a struct type: an existential's or a class's values are of other types.
      let mayKeep = classifier != nil && MetadataKind.of(State.self) == MetadataKind.struct
      if mayKeep, let classifier,
        let kept = withUnsafePointer(
          to: action,
          {
            classifier.keptRoute(at: UnsafeRawPointer($0), stateType: stateType)
          })
      {
        return kept
      }
      var derivation = Derivation()
      let steps = self.steps(of: action, in: state.pointee, derivation: &derivation)
      let derived = Derived(
        route: steps.map(\.route),
        actionTypes: steps.map { step in
          ObjectIdentifier(step.childAction.map { type(of: $0) } ?? Never.self)
        },
        isEnumReducer: steps.map { step in
          self.isEnumReducer(
            state: step.childState, action: step.childAction, derivation: &derivation)
        }
      )
      if mayKeep, let classifier, derivation.dependsOnTypesAlone {
        withUnsafePointer(to: action) {
          classifier.keep(
            derived, levels: derivation.levels, stateType: stateType, at: UnsafeRawPointer($0)
          )
        }
      }
      return derived
    }

    /// What a derivation read: how many of the action's cases, and whether anything but those
    /// cases and the types (an element's id, whether an optional holds a value, an enum
    /// state's case) decided the route.
    struct Derivation {
      var levels = 0
      var dependsOnTypesAlone = true
    }

    /// The state of each child feature the action went to, from the root down, as far as
    /// there is one.
    static func states(of action: Any, in state: Any) -> [Any] {
      var states: [Any] = []
      var derivation = Derivation()
      for step in self.steps(of: action, in: state, derivation: &derivation) {
        guard let state = step.childState else { break }
        states.append(state)
      }
      return states
    }

    private static func steps(
      of action: Any, in state: Any, derivation: inout Derivation
    ) -> [Step] {
      var steps: [Step] = []
      var action = action
      var current: Any? = state
      // NB: Bounded by the action's depth: each turn takes one case apart. An action whose
      // cases cannot lead to a child's action (a view action's) is not taken apart.
      while self.mayStep(from: type(of: action)),
        let (_, payload) = EnumReflection.decompose(action),
        let payload
      {
        derivation.levels += 1
        // NB: A class's values may be of its subclasses, an existential's of any type.
        if !self.isValueType(type(of: payload)) { derivation.dependsOnTypesAlone = false }
        if let state = current, let step = self.step(payload, in: state, derivation: &derivation) {
          steps.append(step)
          guard let childAction = step.childAction else { break }
          action = childAction
          // NB: Deeper steps need the child's state; without it (an element not found),
          // the route stops at this step.
          guard let childState = step.childState else { break }
          current = childState
          continue
        }
        action = payload
      }
      return steps
    }

    /// Whether a child whose state and action these are is an enum reducer, which only scopes to
    /// its cases: its state an enum whose case is its action's (`.browsing(Book.State)` and
    /// `.browsing(Book.Action)`). A feature whose state is an enum has actions of its own.
    private static func isEnumReducer(
      state: Any?, action: Any?, derivation: inout Derivation
    ) -> Bool {
      guard let state, let action else { return false }
      // NB: Only an enum, or a value whose mirror is its own, is asked for
      // its mirror: a struct's cost a mirror at every step of every action.
      guard MetadataKind.of(type(of: state)) == MetadataKind.enum || state is any CustomReflectable
      else { return false }
      derivation.dependsOnTypesAlone = false
      let mirror = Mirror(reflecting: state)
      guard mirror.displayStyle == .enum, let stateCase = mirror.children.first?.label,
        let (actionCase, _) = EnumReflection.decompose(action)
      else { return false }
      return stateCase == actionCase
    }

    private struct Step {
      var route: ActionRoute
      var childAction: Any?
      var childState: Any?
    }

    /// Whether the type named `name`, an action's associated value's, may be where a step is
    /// taken: a child's action, plain or in a `PresentationAction`, `IdentifiedAction` or
    /// `StackAction` (see ``step(_:in:)``).
    private static func isStep(_ name: String) -> Bool {
      name.hasSuffix(".Action") || name.hasPrefix("ComposableArchitecture.PresentationAction<")
        || name.hasPrefix("ComposableArchitecture.IdentifiedAction<")
        || name.hasPrefix("ComposableArchitecture.StackAction<")
    }

    private static let mayStep = Locked<[ObjectIdentifier: Bool]>([:])

    /// Whether an action of type `type` may lead to a step: whether an associated value of one of
    /// its cases, or of theirs, may be a child's action. Read from the types once per type;
    /// where a value's type may be another than the declared one (a class, an existential),
    /// or an enum's cases cannot be read, it may. Where it cannot, every action of the type
    /// stays in the root (`ActionClassifier.routeIsRoot`).
    static func mayStep(from type: Any.Type) -> Bool {
      // NB: Only a whole search is kept: within one, a type met again counts as leading nowhere
      // (what it leads to is found where it was first met), which is not its own answer.
      self.mayStep.value(for: ObjectIdentifier(type)) {
        var visiting: Set<ObjectIdentifier> = []
        return self.casesMayStep(of: type, visiting: &visiting)
      }
    }

    private static func casesMayStep(of type: Any.Type, visiting: inout Set<ObjectIdentifier>)
      -> Bool
    {
      guard let layout = EnumReflection.layout(of: type) else { return true }
      visiting.insert(ObjectIdentifier(type))
      for enumCase in layout.cases {
        guard let payload = enumCase.payload?.type else { continue }
        if self.isStep(self.name(of: payload)) { return true }
        // NB: A struct, an `Optional` and a tuple are not taken apart; an enum is.
        switch MetadataKind.of(payload) {
        case MetadataKind.struct, MetadataKind.optional, MetadataKind.tuple:
          continue
        case MetadataKind.enum:
          if visiting.contains(ObjectIdentifier(payload)) { continue }
          if self.casesMayStep(of: payload, visiting: &visiting) { return true }
        default:
          return true
        }
      }
      return false
    }

    private static func step(_ payload: Any, in state: Any, derivation: inout Derivation) -> Step? {
      let payloadType = self.name(of: type(of: payload))
      var childAction: Any? = payload
      var elementID: Any?
      if payloadType.hasPrefix("ComposableArchitecture.PresentationAction<") {
        derivation.dependsOnTypesAlone = false
        guard let (name, presented) = EnumReflection.decompose(payload), name == "presented" else {
          return nil
        }
        childAction = presented
      } else if payloadType.hasPrefix("ComposableArchitecture.IdentifiedAction<")
        || payloadType.hasPrefix("ComposableArchitecture.StackAction<")
      {
        derivation.dependsOnTypesAlone = false
        guard let (name, element) = EnumReflection.decompose(payload), name == "element",
          let element
        else { return nil }
        let parts = Mirror(reflecting: element).children.map(\.value)
        guard parts.count == 2 else { return nil }
        elementID = parts[0]
        childAction = parts[1]
      }
      guard let childAction else { return nil }
      let plan = self.plan(in: type(of: state), childAction: type(of: childAction))
      guard let childStateType = plan.childStateType else { return nil }

      let holders: [(String, Any)]
      switch plan.holder {
      case let .field(name, offset, load):
        holders = [(name, NodeKind.withPlace(of: state) { load($0 + offset) })]
      case .none:
        return nil
      case .mirror:
        derivation.dependsOnTypesAlone = false
        holders = Mirror(reflecting: state).children.compactMap { child -> (String, Any)? in
          guard let label = child.label else { return nil }
          let name = label.hasPrefix("_") ? String(label.dropFirst()) : label
          guard self.holds(Swift.type(of: child.value), name: name, childStateType: childStateType)
          else { return nil }
          return (name, child.value)
        }
      }
      guard holders.count == 1 else { return nil }
      let (name, holder) = holders[0]
      let keyPath: AnyKeyPath = \Void.self

      if let elementID {
        guard let id = elementID as? AnyHashable else { return nil }
        // NB: The collection is asked for its element, in constant time: a stack's mirror shows
        // no ids, and looking through an identified array's would take time in its size.
        let element = (holder as? any _ElementsByID)?.element(id: id)
        return Step(
          route: ActionRoute(
            keyPath: keyPath, kind: .element(id: ActionRoute.ElementID(ElementIDValue(id))),
            name: name),
          childAction: childAction,
          childState: element
        )
      }
      // NB: A property declared of the child's state type holds that state itself. (Typed: in
      // a tuple, the optional that `unwrapped(_:)` returns was boxed into an `Any`.)
      // NB: Whether an optional or a presentation holds a value is the state's, not its type's.
      if !plan.holdsStateItself { derivation.dependsOnTypesAlone = false }
      let unwrapped: Any? = plan.holdsStateItself ? holder : self.unwrapped(holder)
      let isOptional = !plan.holdsStateItself && self.name(of: type(of: holder)) != childStateType
      return Step(
        route: ActionRoute(keyPath: keyPath, kind: isOptional ? .optional : .scope, name: name),
        childAction: childAction,
        childState: unwrapped
      )
    }

    /// Whether a stored property named `name` (its label without a leading `_`), of type
    /// `type`, holds the state of type `childStateType`: plain, optional, presented, or a
    /// collection or stack of them. Not `@ObservableState`'s own (`_$id`, `_$observationRegistrar`).
    private static func holds(_ type: Any.Type, name: String, childStateType: String) -> Bool {
      guard !name.hasPrefix("$") else { return false }
      let type = self.name(of: type)
      return type == childStateType || type.hasSuffix("<" + childStateType + ">")
        || type.hasSuffix(", " + childStateType + ">")
    }

    /// Where a state keeps a child's state.
    private enum HolderPlace {
      /// In the one stored property that holds it: its name, where it lies in the state, and
      /// how to read it there.
      case field(name: String, offset: Int, load: (UnsafeRawPointer) -> Any)
      /// In no property, or in more than one.
      case none
      /// Not known without the state's mirror: a state that is not a struct, whose mirror is its
      /// own, or one with a property whose value's type may be other than its declared one (a
      /// class, an existential).
      case mirror
    }

    private struct HolderKey: Hashable {
      let state: ObjectIdentifier
      let childAction: ObjectIdentifier
    }

    /// What a step from a state of one type into the child whose action is of another needs
    /// to know of the two types.
    private struct StepPlan {
      /// The name of the child's state type (`App.Child.State` for `App.Child.Action`); `nil`
      /// when the action's type does not read as a feature's.
      let childStateType: String?
      let holder: HolderPlace
      /// Whether the holder is a property declared of the child's state type: not an optional,
      /// a presentation or a collection of it.
      let holdsStateItself: Bool
    }

    private static let plans = Locked<[HolderKey: StepPlan]>([:])

    /// What a step needs to know of a state of `stateType` and a child's action of
    /// `childAction`, found once for the two types: the mirror the route asked for it at every
    /// step of every action boxed each of the state's properties, and named each one's type,
    /// and naming the child's state type built a string at every step.
    private static func plan(in stateType: Any.Type, childAction: Any.Type) -> StepPlan {
      self.plans.value(
        for: HolderKey(
          state: ObjectIdentifier(stateType), childAction: ObjectIdentifier(childAction))
      ) {
        let actionType = self.name(of: childAction)
        guard actionType.hasSuffix(".Action") else {
          return StepPlan(childStateType: nil, holder: .none, holdsStateItself: false)
        }
        let childStateType = String(actionType.dropLast("Action".count)) + "State"
        let (holder, holdsStateItself) = self.findHolderPlace(
          in: stateType, childStateType: childStateType)
        return StepPlan(
          childStateType: childStateType, holder: holder, holdsStateItself: holdsStateItself)
      }
    }

    /// Where a state of `stateType` keeps the state of type `childStateType`, and whether the
    /// property holding it is declared of that type (see ``StepPlan/holdsStateItself``).
    private static func findHolderPlace(
      in stateType: Any.Type, childStateType: String
    ) -> (place: HolderPlace, holdsStateItself: Bool) {
      // NB: The properties of a plain struct, as the diff reads them in place. A value type's
      // value is of the type its property declares; the mirror names the type of the value a
      // class or existential property holds, so a state with one asks its mirror.
      guard let fields = NodeKind.of(stateType).fields,
        fields.allSatisfy({ self.isValueType($0.kind.type) })
      else { return (.mirror, false) }
      let holders = fields.filter {
        self.holds($0.kind.type, name: $0.name, childStateType: childStateType)
      }
      guard holders.count == 1 else { return (.none, false) }
      let holder = holders[0]
      return (
        .field(name: holder.name, offset: holder.offset, load: holder.kind.load),
        self.name(of: holder.kind.type) == childStateType
      )
    }

    /// Whether `type` is a struct, an enum, an optional or a tuple.
    private static func isValueType(_ type: Any.Type) -> Bool {
      [MetadataKind.struct, MetadataKind.enum, MetadataKind.optional, MetadataKind.tuple].contains(
        MetadataKind.of(type))
    }

    private static let names = Locked<[ObjectIdentifier: String]>([:])

    /// `String(reflecting: type)`, kept: a type's name is built from its metadata each time it
    /// is asked for, and a route asks for those of its action and of its state's properties at
    /// every step of every action (as do the presentation check and a binding's payload).
    static func name(of type: Any.Type) -> String {
      self.names.value(for: ObjectIdentifier(type)) { String(reflecting: type) }
    }

    /// The state inside an optional or a `PresentationState`, `nil` when there is none.
    private static func unwrapped(_ holder: Any) -> Any? {
      if let wrapper = holder as? any _TransparentStateWrapper {
        return self.unwrapped(wrapper.wrappedState)
      }
      // NB: Only an optional, or a value whose mirror is its own, is asked
      // for its mirror, as in `isEnumReducer`.
      guard
        MetadataKind.of(type(of: holder)) == MetadataKind.optional
          || holder is any CustomReflectable
      else { return holder }
      let mirror = Mirror(reflecting: holder)
      guard mirror.displayStyle == .optional else { return holder }
      return mirror.children.first.map { self.unwrapped($0.value) } ?? nil
    }
  }

  /// A collection of child states that finds one by its id.
  protocol _ElementsByID {
    func element(id: AnyHashable) -> Any?
  }

  extension StackState: _ElementsByID {
    func element(id: AnyHashable) -> Any? {
      (id.base as? StackElementID).flatMap { self[id: $0] }
    }
  }

  extension IdentifiedArray: _ElementsByID {
    func element(id: AnyHashable) -> Any? {
      (id.base as? ID).flatMap { self[id: $0] }
    }
  }

  /// An element's id for ``ActionRoute/ElementID``, which takes a `Sendable` id; it reads as the
  /// id does. NB: `@unchecked`: the ids of identified collections and stacks are `Sendable`,
  /// which a value of type `Any` cannot be cast to.
  private struct ElementIDValue: Hashable, CustomStringConvertible, @unchecked Sendable {
    let base: AnyHashable
    init(_ base: AnyHashable) { self.base = base }
    var description: String { ActionRoute.ElementID.describe(self.base.base) }
  }
#endif
