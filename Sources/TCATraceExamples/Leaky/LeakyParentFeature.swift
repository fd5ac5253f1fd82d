// ⚠️ THE BAD EXAMPLE. Everything in this file breaks the boundary rules on purpose, once each,
// so that the recorder, the CLI and the lint have something to find. Do not copy it.
//
// | rule                                    | where                                              |
// |-----------------------------------------|----------------------------------------------------|
// | parent-reacts-to-private-child-action   | `LeakyParentFeature`: `.child(.view(.buttonTapped))` |
// | ancestor-reacts-to-grandchild-delegate  | `LeakyParentFeature`: `.child(._internal(.grandchild(.delegate(.didFinish))))` |
// | effect-sends-view-action                | `LeakyParentFeature`: `.onAppear`'s effect sends `.view(.refreshButtonTapped)` |
// | view-sends-private-action               | not in a reducer: a caller sends `._internal(.refreshed)` from outside, as the demo and `LeakyParentFeatureTests` do |

/// A parent that reaches into its child and grandchild, and an effect that sends a view action.
/// See the table at the top of this file.
@Reducer
public struct LeakyParentFeature: ComposedBoundingReducer {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var child = LeakyChildFeature.State()
    public var childButtonTaps = 0
    public var grandchildFinished = false
    public var refreshCount = 0

    public init(
      child: LeakyChildFeature.State = LeakyChildFeature.State(),
      childButtonTaps: Int = 0,
      grandchildFinished: Bool = false,
      refreshCount: Int = 0
    ) {
      self.child = child
      self.childButtonTaps = childButtonTaps
      self.grandchildFinished = grandchildFinished
      self.refreshCount = refreshCount
    }
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Equatable, Sendable {
    @CasePathable
    public enum ViewAction: Equatable, Sendable {
      case onAppear
      case refreshButtonTapped
    }

    @CasePathable
    public enum InternalAction: Equatable, Sendable {
      case refreshed
      case child(LeakyChildFeature.Action)
    }

    @CasePathable
    public enum DelegateAction: Equatable, Sendable {}

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(InternalAction)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) {
      LeakyChildFeature()
    }
    coreReducer
  }

  public func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<
    Action
  > {
    switch action {
    case .onAppear:
      // LEAK effect-sends-view-action: an effect pretends to be the view.
      return .run { send in
        await send(.view(.refreshButtonTapped))
      }

    case .refreshButtonTapped:
      return .send(._internal(.refreshed))
    }
  }

  public func reduce(
    into state: inout State, internalAction action: Action.InternalAction
  ) -> Effect<Action> {
    switch action {
    case .refreshed:
      state.refreshCount += 1
      return .none

    // LEAK parent-reacts-to-private-child-action: the child's view action is its own business.
    case .child(.view(.buttonTapped)):
      state.childButtonTaps += 1
      return .none

    // LEAK ancestor-reacts-to-grandchild-delegate: only the child may react to its child.
    case .child(._internal(.grandchild(.delegate(.didFinish)))):
      state.grandchildFinished = true
      return .none

    case .child:
      return .none
    }
  }
}

/// The leaky parent's child; it keeps the rules itself.
@Reducer
public struct LeakyChildFeature: ComposedBoundingReducer {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var taps = 0
    public var grandchild = LeakyGrandchildFeature.State()
    public var grandchildDone = false

    public init(
      taps: Int = 0, grandchild: LeakyGrandchildFeature.State = .init(),
      grandchildDone: Bool = false
    ) {
      self.taps = taps
      self.grandchild = grandchild
      self.grandchildDone = grandchildDone
    }
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Equatable, Sendable {
    @CasePathable
    public enum ViewAction: Equatable, Sendable {
      case buttonTapped
    }

    @CasePathable
    public enum InternalAction: Equatable, Sendable {
      case grandchild(LeakyGrandchildFeature.Action)
    }

    @CasePathable
    public enum DelegateAction: Equatable, Sendable {}

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(InternalAction)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.grandchild, action: \.grandchild) {
      LeakyGrandchildFeature()
    }
    coreReducer
  }

  public func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<
    Action
  > {
    switch action {
    case .buttonTapped:
      state.taps += 1
      return .none
    }
  }

  public func reduce(
    into state: inout State, internalAction action: Action.InternalAction
  ) -> Effect<Action> {
    switch action {
    case .grandchild(.delegate(.didFinish)):
      state.grandchildDone = true
      return .none

    case .grandchild:
      return .none
    }
  }
}

/// The leaky parent's grandchild; it keeps the rules itself.
@Reducer
public struct LeakyGrandchildFeature: ComposedBoundingReducer {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var isFinished = false

    public init(isFinished: Bool = false) {
      self.isFinished = isFinished
    }
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Equatable, Sendable {
    @CasePathable
    public enum ViewAction: Equatable, Sendable {
      case finishButtonTapped
    }

    @CasePathable
    public enum DelegateAction: Equatable, Sendable {
      case didFinish
    }

    public typealias InternalAction = Never

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(Never)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    coreReducer
  }

  public func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<
    Action
  > {
    switch action {
    case .finishButtonTapped:
      state.isFinished = true
      return .send(.delegate(.didFinish))
    }
  }
}
