/// The profile settings screen, pushed on ``AppFeature``'s navigation stack. Its fields are
/// edited through `binding` view actions.
@Reducer
public struct SettingsFeature: ComposedBoundingReducer {
  @ObservableState
  public struct State: Codable, Equatable, Sendable {
    public var displayName: String
    public var notificationsEnabled: Bool

    public init(displayName: String = "", notificationsEnabled: Bool = false) {
      self.displayName = displayName
      self.notificationsEnabled = notificationsEnabled
    }
  }

  @CasePathable
  public enum Action: TCAFeatureAction, Codable, Equatable, Sendable {
    @CasePathable
    public enum ViewAction: BindableAction, Equatable, Sendable {
      case binding(BindingAction<State>)
      case saveButtonTapped
    }

    @CasePathable
    public enum DelegateAction: Codable, Equatable, Sendable {
      case didSave(displayName: String, notificationsEnabled: Bool)
    }

    public typealias InternalAction = Never

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(Never)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    BindingReducer(action: \.view)
    coreReducer
  }

  public func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<
    Action
  > {
    switch action {
    case .binding:
      return .none

    case .saveButtonTapped:
      return .send(
        .delegate(
          .didSave(displayName: state.displayName, notificationsEnabled: state.notificationsEnabled)
        )
      )
    }
  }
}
