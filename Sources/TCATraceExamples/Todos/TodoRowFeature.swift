/// One todo in the list: the user toggles it or edits its title.
///
/// Tells its parent ``Action/DelegateAction/completionChanged(isComplete:)`` when toggled.
@Reducer
public struct TodoRowFeature: ComposedBoundingReducer {
  @ObservableState
  public struct State: Codable, Equatable, Identifiable, Sendable {
    public var id: Int
    public var title: String
    public var isComplete: Bool

    public init(id: Int, title: String, isComplete: Bool = false) {
      self.id = id
      self.title = title
      self.isComplete = isComplete
    }
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Codable, Equatable, Sendable {
    @CasePathable
    public enum ViewAction: Codable, Equatable, Sendable {
      case toggleCompleted
      case titleChanged(String)
    }

    @CasePathable
    public enum DelegateAction: Codable, Equatable, Sendable {
      case completionChanged(isComplete: Bool)
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
    case .toggleCompleted:
      state.isComplete.toggle()
      return .send(.delegate(.completionChanged(isComplete: state.isComplete)))

    case let .titleChanged(title):
      state.title = title
      return .none
    }
  }
}
