import TCABoundaries

/// The seed's child: a settings feature whose view, internal and delegate actions are handled
/// by a `BoundingReducer`. Every handler writes to `log`, so tests see which one ran.
struct UserSettingsFeature: BoundingReducer {
  struct State: Equatable {
    var dayEnd = 17
    var log: [String] = []
  }

  @CasePathable
  enum Action: TCAFeatureAction, Equatable {
    @CasePathable
    enum ViewAction: Equatable { case onDayEndChanged(Int), saveTapped }
    @CasePathable
    enum InternalAction: Equatable { case saved }
    @CasePathable
    enum DelegateAction: Equatable { case didSave(dayEnd: Int) }

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(InternalAction)
  }

  func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<Action> {
    state.log.append("view \(action)")
    switch action {
    case let .onDayEndChanged(hour):
      state.dayEnd = hour
      return .none
    case .saveTapped:
      return .send(._internal(.saved))
    }
  }

  func reduce(
    into state: inout State, internalAction action: Action.InternalAction
  ) -> Effect<Action> {
    state.log.append("internal \(action)")
    return .send(.delegate(.didSave(dayEnd: state.dayEnd)))
  }
}

/// The seed's parent, a `ComposedBoundingReducer`: its `coreReducer` with the child scoped in
/// through the `InternalAction` conveniences (`Scope`, `ifLet`, `forEach`).
struct SettingsHostFeature: ComposedBoundingReducer {
  struct State: Equatable {
    var settings = UserSettingsFeature.State()
    var sheet: UserSettingsFeature.State?
    var rows: IdentifiedArrayOf<Row> = []
    var savedDayEnds: [Int] = []
  }

  struct Row: Equatable, Identifiable {
    var id: Int
    var settings = UserSettingsFeature.State()
  }

  @CasePathable
  enum Action: TCAFeatureAction, Equatable {
    @CasePathable
    enum ViewAction: Equatable { case openSheetTapped }
    @CasePathable
    enum InternalAction: Equatable {
      case userSettings(UserSettingsFeature.Action)
      case sheet(PresentationAction<UserSettingsFeature.Action>)
      case rows(IdentifiedActionOf<UserSettingsRow>)
    }
    @CasePathable
    enum DelegateAction: Equatable {}

    case view(ViewAction)
    case delegate(DelegateAction)
    case _internal(InternalAction)
  }

  var body: some ReducerOf<Self> {
    // NB: TCA 1.25's unlabelled spelling, on a child in `InternalAction`.
    Scope(\.settings, action: \.userSettings) {
      UserSettingsFeature()
    }
    coreReducer
      .ifLet(\.sheet, action: \.sheet) {
        UserSettingsFeature()
      }
      .forEach(\.rows, action: \.rows) {
        UserSettingsRow()
      }
  }

  func reduce(into state: inout State, viewAction action: Action.ViewAction) -> Effect<Action> {
    switch action {
    case .openSheetTapped:
      state.sheet = UserSettingsFeature.State()
      return .none
    }
  }

  func reduce(
    into state: inout State, internalAction action: Action.InternalAction
  ) -> Effect<Action> {
    switch action {
    case let .userSettings(.delegate(.didSave(dayEnd))),
      let .sheet(.presented(.delegate(.didSave(dayEnd)))):
      state.savedDayEnds.append(dayEnd)
      return .none
    case .userSettings, .sheet, .rows:
      return .none
    }
  }
}

/// A row wrapping the settings feature, for `forEach`.
struct UserSettingsRow: Reducer {
  typealias State = SettingsHostFeature.Row
  typealias Action = UserSettingsFeature.Action

  var body: some ReducerOf<Self> {
    Scope(state: \.settings, action: \.self) {
      UserSettingsFeature()
    }
  }
}
