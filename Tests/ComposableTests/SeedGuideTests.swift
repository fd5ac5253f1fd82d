// Every Swift code block of the TCA action-design guide (`shared/seeds/tca-action-design.md`),
// as written there, each in an enum of its own so that their `Action`s do not collide.
//
// What this file adds around the blocks, and nothing else:
// - `import Composable` where a TCA file has `import ComposableArchitecture`;
// - stubs for the types the guide names but does not define (`User`, `Item`, `saveItem`,
//   `ChildFeature`, `SettingsFeature`, `DetailFeature`, `EditFeature`, `Path`, `State`), and a
//   `Notification`: Foundation's is not `Sendable` on Linux, so a `Sendable` action cannot
//   carry it there (with TCA either);
// - in each block's enum, `Error` names an `Equatable` error: the guide declares `Equatable`
//   actions with `Error` payloads, which compile against neither TCA nor Composable otherwise;
// - blocks that show a "❌" and a "✅" version of the same enum are split at the "✅" into two
//   enums;
// - `Equatable` and `Sendable` for the `Path` of the stack block, whose `Action` needs them
//   (TCA needs them too: `@Reducer enum` synthesizes no conformances unless asked).
import Composable
import Foundation
import Testing
import TestSupport

struct EquatableError: Swift.Error, Equatable {}

struct User: Equatable, Sendable {
  var name = "Blob"
}

struct Item: Equatable, Sendable {
  var title = ""
}

let savedItems = LockIsolated<[Item]>([])

func saveItem(_ item: Item) async {
  savedItems.withValue { $0.append(item) }
}

struct State: Equatable, Sendable {}

struct Notification: Equatable, Sendable {
  var name: String
}

@Reducer
struct ChildFeature {
  @ObservableState
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable {
    case saveButtonTapped
    case cancelButtonTapped
  }
}

@Reducer
struct SettingsFeature {
  @ObservableState
  struct State: Equatable, Sendable {}
  enum Action: Equatable, Sendable {
    case closeButtonTapped
  }
}

@Reducer
struct DetailFeature {
  @ObservableState
  struct State: Equatable, Sendable {
    var item = Item()
  }
  enum Action: Equatable, Sendable {
    case editButtonTapped
  }
}

@Reducer
struct EditFeature {
  @ObservableState
  struct State: Equatable, Sendable {
    var item = Item()
  }
  enum Action: Equatable, Sendable {
    case titleChanged(String)
    case saveButtonTapped
  }
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case let .titleChanged(title) = action { state.item.title = title }
      return .none
    }
  }
}

@Reducer
enum Path {
  case detail(DetailFeature)
}
extension Path.State: Equatable, Sendable {}
extension Path.Action: Equatable, Sendable {}

extension Block14_StackAction.RootFeature.Path.State: Equatable, Sendable {}
extension Block14_StackAction.RootFeature.Path.Action: Equatable, Sendable {}

// MARK: - The guide's blocks

/// 1. Enum-Based Design
enum Block01_EnumBasedDesign {
  typealias Error = EquatableError

  @Reducer
  struct Feature {
    @ObservableState
    struct State: Equatable, Sendable { /* ... */  }

    enum Action: Equatable, Sendable {
      case incrementButtonTapped
      case decrementButtonTapped
      case numberFactButtonTapped
      case numberFactResponse(String)
      case numberFactFailed(Error)
    }

    // Body, etc.
  }
}

/// 2. Equatable
enum Block02_Equatable {
  typealias Error = EquatableError

  enum Action: Equatable, Sendable {
    case incrementButtonTapped
    case decrementButtonTapped
    case numberFactButtonTapped
    case numberFactResponse(String)
    case numberFactFailed(Error)

    // Custom Equatable implementation for Error
    static func == (lhs: Self, rhs: Self) -> Bool {
      switch (lhs, rhs) {
      case (.incrementButtonTapped, .incrementButtonTapped),
        (.decrementButtonTapped, .decrementButtonTapped),
        (.numberFactButtonTapped, .numberFactButtonTapped):
        return true
      case let (.numberFactResponse(lhsString), .numberFactResponse(rhsString)):
        return lhsString == rhsString
      case (.numberFactFailed, .numberFactFailed):
        // Compare error types or messages if needed
        return true
      default:
        return false
      }
    }
  }
}

/// 3. Sendable
enum Block03_Sendable {
  typealias Error = EquatableError

  enum Action: Equatable, Sendable {
    case incrementButtonTapped
    case decrementButtonTapped
    case numberFactButtonTapped
    case numberFactResponse(String)
    case numberFactFailed(Error)
  }
}

/// User Actions
enum Block04_UserActions {
  typealias Error = EquatableError

  enum Action: Equatable, Sendable {
    case incrementButtonTapped
    case decrementButtonTapped
    case refreshButtonTapped
    case saveButtonTapped
    case deleteButtonTapped
    case textFieldChanged(String)
    case toggleChanged(Bool)
  }
}

/// System Actions
enum Block05_SystemActions {
  typealias Error = EquatableError

  enum Action: Equatable, Sendable {
    case appDidBecomeActive
    case appDidEnterBackground
    case timerTick
    case notificationReceived(Notification)
  }
}

/// Effect Actions
enum Block06_EffectActions {
  typealias Error = EquatableError

  enum Action: Equatable, Sendable {
    case dataLoaded(Data)
    case dataLoadFailed(Error)
    case userAuthenticated(User)
    case userAuthenticationFailed(Error)
  }
}

/// Child Actions
enum Block07_ChildActions {
  typealias Error = EquatableError

  enum Action: Equatable, Sendable {
    case child(ChildFeature.Action)
    case settings(PresentationAction<SettingsFeature.Action>)
    case path(StackAction<Path.State, Path.Action>)
  }
}

/// Binding Actions
enum Block08_BindingActions {
  typealias Error = EquatableError

  enum Action: BindableAction, Equatable, Sendable {
    case binding(BindingAction<State>)
    case saveButtonTapped
    case cancelButtonTapped
  }
}

/// 1. Naming Conventions
enum Block09_NamingConventions {
  typealias Error = EquatableError

  enum Action: Equatable, Sendable {
    // User interactions: verb + noun + past tense
    case incrementButtonTapped
    case decrementButtonTapped
    case refreshButtonTapped

    // Form field changes: noun + Changed
    case nameChanged(String)
    case emailChanged(String)
    case passwordChanged(String)

    // Toggle changes: noun + Changed
    case notificationsEnabledChanged(Bool)
    case darkModeEnabledChanged(Bool)

    // Effect responses: noun + past tense
    case userLoaded(User)
    case userLoadFailed(Error)
    case dataSaved
    case dataSaveFailed(Error)
  }
}

/// 2. Associated Values
enum Block10_AssociatedValues {
  typealias Error = EquatableError

  enum Action: Equatable, Sendable {
    // Simple actions without data
    case refreshButtonTapped

    // Actions with primitive data
    case textFieldChanged(String)
    case toggleChanged(Bool)
    case sliderChanged(Double)

    // Actions with complex data
    case userSelected(User)
    case itemsLoaded([Item])
    case errorOccurred(Error)
  }
}

/// 3. Nested Actions
enum Block11_NestedActions {
  typealias Error = EquatableError

  enum Action: Equatable, Sendable {
    // Authentication actions
    enum Auth: Equatable, Sendable {
      case loginButtonTapped
      case signupButtonTapped
      case logoutButtonTapped
      case userAuthenticated(User)
      case authenticationFailed(Error)
    }

    // Profile actions
    enum Profile: Equatable, Sendable {
      case nameChanged(String)
      case emailChanged(String)
      case bioChanged(String)
      case saveButtonTapped
      case profileSaved
      case profileSaveFailed(Error)
    }

    // Settings actions
    enum Settings: Equatable, Sendable {
      case notificationsEnabledChanged(Bool)
      case darkModeEnabledChanged(Bool)
      case autoSaveEnabledChanged(Bool)
      case settingsSaved
      case settingsSaveFailed(Error)
    }

    // Top-level actions
    case auth(Auth)
    case profile(Profile)
    case settings(Settings)
  }
}

/// 4. BindableAction
enum Block12_BindableAction {
  typealias Error = EquatableError

  @Reducer
  struct SettingsFeature {
    @ObservableState
    struct State: Equatable, Sendable {
      var name = ""
      var email = ""
      var notificationsEnabled = false
      var darkModeEnabled = false
    }

    enum Action: BindableAction, Equatable, Sendable {
      case binding(BindingAction<State>)
      case saveButtonTapped
      case cancelButtonTapped
    }

    var body: some ReducerOf<Self> {
      BindingReducer()
      Reduce { state, action in
        switch action {
        case .binding:
          // BindingReducer handles this automatically
          return .none

        case .saveButtonTapped:
          // Handle save button tap
          return .none

        case .cancelButtonTapped:
          // Handle cancel button tap
          return .none
        }
      }
    }
  }
}

/// 5. PresentationAction
enum Block13_PresentationAction {
  typealias Error = EquatableError

  @Reducer
  struct ParentFeature {
    @ObservableState
    struct State: Equatable, Sendable {
      @Presents var child: ChildFeature.State?
    }

    enum Action: Equatable, Sendable {
      case addButtonTapped
      case child(PresentationAction<ChildFeature.Action>)
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .addButtonTapped:
          state.child = ChildFeature.State()
          return .none

        case .child(.presented(.saveButtonTapped)):
          // Handle child save button tap
          state.child = nil
          return .none

        case .child(.presented(.cancelButtonTapped)):
          // Handle child cancel button tap
          state.child = nil
          return .none

        case .child:
          return .none
        }
      }
      .ifLet(\.$child, action: \.child) {
        ChildFeature()
      }
    }
  }
}

/// 6. StackAction
enum Block14_StackAction {
  typealias Error = EquatableError

  @Reducer
  struct RootFeature {
    @ObservableState
    struct State: Equatable, Sendable {
      var path = StackState<Path.State>()
    }

    enum Action: Equatable, Sendable {
      case detailButtonTapped
      case path(StackAction<Path.State, Path.Action>)
    }

    @Reducer
    enum Path {
      case detail(DetailFeature)
      case edit(EditFeature)
    }

    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .detailButtonTapped:
          state.path.append(.detail(DetailFeature.State()))
          return .none

        case let .path(.element(id: id, action: .detail(.editButtonTapped))):
          guard let detailState = state.path[id: id]?.detail else { return .none }
          state.path.append(.edit(EditFeature.State(item: detailState.item)))
          return .none

        case let .path(.element(id: id, action: .edit(.saveButtonTapped))):
          guard let editState = state.path[id: id]?.edit else { return .none }
          state.path.pop(from: id)
          return .run { _ in
            await saveItem(editState.item)
          }

        case .path:
          return .none
        }
      }
      .forEach(\.path, action: \.path)
    }
  }
}

/// 1. Keep Actions Focused
enum Block15_KeepActionsFocused_Bad {
  typealias Error = EquatableError

  // ❌ Too broad
  enum Action: Equatable, Sendable {
    case handleFormSubmission(name: String, email: String, password: String)
  }
}

/// 1. Keep Actions Focused
enum Block15_KeepActionsFocused_Good {
  typealias Error = EquatableError

  // ✅ Focused
  enum Action: Equatable, Sendable {
    case nameChanged(String)
    case emailChanged(String)
    case passwordChanged(String)
    case submitButtonTapped
  }
}

/// 2. Use Descriptive Names
enum Block16_UseDescriptiveNames_Bad {
  typealias Error = EquatableError

  // ❌ Unclear
  enum Action: Equatable, Sendable {
    case tap
    case change(String)
    case load
  }
}

/// 2. Use Descriptive Names
enum Block16_UseDescriptiveNames_Good {
  typealias Error = EquatableError

  // ✅ Descriptive
  enum Action: Equatable, Sendable {
    case saveButtonTapped
    case nameChanged(String)
    case userDataLoaded(User)
  }
}

/// 3. Avoid TaskResult in Actions
enum Block17_AvoidTaskResultInActions_Bad {
  typealias Error = EquatableError

  // ❌ Using TaskResult
  enum Action: Equatable, Sendable {
    case loadUser
    case userResponse(TaskResult<User>)
  }
}

/// 3. Avoid TaskResult in Actions
enum Block17_AvoidTaskResultInActions_Good {
  typealias Error = EquatableError

  // ✅ Separate success and failure
  enum Action: Equatable, Sendable {
    case loadUser
    case userLoaded(User)
    case userLoadFailed(Error)
  }
}

/// 4. Group Related Actions
enum Block18_GroupRelatedActions_Bad {
  typealias Error = EquatableError

  // ❌ Flat structure
  enum Action: Equatable, Sendable {
    case loginButtonTapped
    case loginSucceeded(User)
    case loginFailed(Error)
    case signupButtonTapped
    case signupSucceeded(User)
    case signupFailed(Error)
    case logoutButtonTapped
    case logoutSucceeded
    case logoutFailed(Error)
  }
}

/// 4. Group Related Actions
enum Block18_GroupRelatedActions_Good {
  typealias Error = EquatableError

  // ✅ Grouped structure
  enum Action: Equatable, Sendable {
    case login(LoginAction)
    case signup(SignupAction)
    case logout(LogoutAction)
  }

  enum LoginAction: Equatable, Sendable {
    case buttonTapped
    case succeeded(User)
    case failed(Error)
  }

  enum SignupAction: Equatable, Sendable {
    case buttonTapped
    case succeeded(User)
    case failed(Error)
  }

  enum LogoutAction: Equatable, Sendable {
    case buttonTapped
    case succeeded
    case failed(Error)
  }
}

/// 5. Document Complex Actions
enum Block19_DocumentComplexActions {
  typealias Error = EquatableError

  enum Action: Equatable, Sendable {
    /// Triggered when the user taps the refresh button.
    /// This will reload all data from the server.
    case refreshButtonTapped

    /// Triggered when the user data is successfully loaded.
    /// - Parameter user: The loaded user data.
    case userLoaded(User)

    /// Triggered when the user data fails to load.
    /// - Parameter error: The error that occurred.
    case userLoadFailed(Error)

    /// Triggered when the user changes their name.
    /// - Parameter name: The new name.
    case nameChanged(String)
  }
}

// MARK: - The guide's features at work

@MainActor
@Suite(.hangGuard)
struct SeedGuideTests {
  @Test func bindableActionSetsTheSettings() {
    let store = Store(initialState: Block12_BindableAction.SettingsFeature.State()) {
      Block12_BindableAction.SettingsFeature()
    }
    store.send(.binding(.set(\.name, "Blob")))
    store.send(.binding(.set(\.darkModeEnabled, true)))
    #expect(store.name == "Blob")
    #expect(store.darkModeEnabled)
  }

  @Test func presentationActionPresentsAndDismissesTheChild() {
    let store = Store(initialState: Block13_PresentationAction.ParentFeature.State()) {
      Block13_PresentationAction.ParentFeature()
    }
    store.send(.addButtonTapped)
    #expect(store.child != nil)
    store.send(.child(.presented(.saveButtonTapped)))
    #expect(store.child == nil)
  }

  @Test func stackActionPushesEditsAndSaves() async {
    savedItems.setValue([])
    let store = Store(initialState: Block14_StackAction.RootFeature.State()) {
      Block14_StackAction.RootFeature()
    } withDependencies: {
      $0.stackElementID = .incrementing
    }
    store.send(.detailButtonTapped)
    store.send(.path(.element(id: 0, action: .detail(.editButtonTapped))))
    #expect(Array(store.path.ids) == [0, 1])
    store.send(.path(.element(id: 1, action: .edit(.titleChanged("Milk")))))
    await store.send(.path(.element(id: 1, action: .edit(.saveButtonTapped)))).finish()
    #expect(Array(store.path.ids) == [0])
    #expect(savedItems.value == [Item(title: "Milk")])
  }

  @Test func taskResultComparesItsValuesAndErrors() async {
    typealias Bad = Block17_AvoidTaskResultInActions_Bad
    let user = await TaskResult { User() }
    let failure = await TaskResult<User> { throw EquatableError() }
    #expect(Bad.Action.userResponse(user) == .userResponse(.success(User())))
    #expect(Bad.Action.userResponse(failure) == .userResponse(.failure(EquatableError())))
    #expect(Bad.Action.userResponse(failure) != .userResponse(user))
    // Errors of an `Equatable` type compare by `==`; others by what they print.
    struct Coded: Error, Equatable { var code: Int }
    struct Plain: Error { var reason: String }
    #expect(TaskResult<User>.failure(Coded(code: 1)) == .failure(Coded(code: 1)))
    #expect(TaskResult<User>.failure(Coded(code: 1)) != .failure(Coded(code: 2)))
    #expect(TaskResult<User>.failure(Plain(reason: "a")) == .failure(Plain(reason: "a")))
    #expect(TaskResult<User>.failure(Plain(reason: "a")) != .failure(Plain(reason: "b")))
    #expect(TaskResult<User>.failure(Plain(reason: "a")) != .failure(Coded(code: 1)))
  }
}
