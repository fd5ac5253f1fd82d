import Foundation
import TCATraceLint
import TestSupport
import Testing

/// Issue #21: the shapes real apps that use the boundaries pattern write, each as the lint
/// must see it: the false alarms it gave, and the leaks it missed.
@Suite(.hangGuard) struct RealAppShapeTests {
  // MARK: False alarms

  @Test func aSendInTheCatchClosureOfRunIsAnEffects() {
    let source = """
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .view(.onAppear):
          return .run { send in
            await send(._internal(.loaded(try await client.load())))
          } catch: { error, send in
            await send(._internal(.loadFailed(error)))
            await send(.view(.retryTapped))
          }
        case .view(.retryTapped):
          return .run(operation: { send in
            await send(._internal(.loaded(try await client.load())))
          }, catch: { _, output in
            await output(.delegate(.failed))
          })
        default:
          return .run { _ in } catch: { error, send in await send(._internal(.failed(error))) }
        }
      }
      """
    // The catch closure's `send` is an effect's: only its view action is a finding.
    #expect(findings(source) == ["8:19 effect-sends-view-action"])
  }

  @Test func aSendUnderAnotherTypeIsNotFollowed() {
    // The limit Documentation/CLI.md names: a send handed on under a type of the app's own is not
    // known to be an effect's.
    let source = """
      func load(output: Output<Action>) async {
        await output(.view(.loaded))
      }
      """
    #expect(findings(source) == [])
  }

  @Test func routingToAChildWhoseActionHasNoCategoriesIsAllowed() {
    let source = """
      final class AppDelegate {
        let store: StoreOf<AppFeature>
        func application() {
          store.send(.internal(.appDelegate(.didFinishLaunching)))
          store.send(._internal(.sceneDelegate(.willEnterForeground(scene))))
          store.send(.internal(.appDelegate(.view(.tapped))))
          store.send(.internal(.todosLoaded(.success(todos))))
          store.send(.internal(.loaded(.none)))
          store.send(.internal(.refreshed))
          store.send(._internal(.setFilter(.completed)))
        }
      }
      """
    // `didFinishLaunching` is not a category: `appDelegate` routes to a plain child. A Result's
    // or an Optional's case (`.success`, `.none`) is a value, not a child's action. Line 10 is
    // the limit Documentation/CLI.md names: the syntax cannot tell `.completed` from a plain child's
    // action, so it is taken for a route and missed.
    #expect(
      findings(source) == [
        "7:17 view-sends-private-action",
        "8:17 view-sends-private-action",
        "9:17 view-sends-private-action",
      ])
  }

  // MARK: Misses

  @Test func sendsThatCannotBeChildRoutesAreReported() {
    let source = """
      struct FeatureView: View {
        let store: StoreOf<Feature>
        var body: some View {
          Button("Load") { store.send(.internal(.didLoad(title: title))) }
          Button("Pair") { store.send(._internal(.moved(from, to))) }
          Button("All") { store.send(._internal(.selected([a, b]))) }
          Button("Route") { store.send(._internal(.child(action))) }
        }
      }
      """
    // A labelled payload, two payloads or an array literal is not a child's action; a
    // variable may be (line 7 is not reported).
    #expect(
      findings(source) == [
        "4:34 view-sends-private-action",
        "5:34 view-sends-private-action",
        "6:33 view-sends-private-action",
      ])
  }

  @Test func keyPathSendsFromAViewAreSends() {
    let source = """
      struct ProfileView: View {
        @Bindable var store: StoreOf<Profile>
        var body: some View {
          TextField("Name", text: $store.user.name.sending(\\.internal.didUpdateName))
          TextField("Bio", text: $store.bio.sending(\\.view.bioChanged))
          Button("Refresh") { store.send(\\.internal.refresh) }
          Button("Tap") { store.send(\\.view.tapped) }
        }
      }
      """
    #expect(
      findings(source) == [
        "4:56 view-sends-private-action",
        "6:38 view-sends-private-action",
      ])
  }

  @Test func theOlderEffectValueFormIsAnEffect() {
    let source = """
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .view(.onAppear):
          return .concatenate(
            Effect(value: .view(.refreshTapped)),
            .init(value: ._internal(.started)),
            .merge(.init(value: .view(.poll)), Effect<Action>(value: .delegate(.done)))
          )
        default:
          return .none
        }
      }
      """
    #expect(
      findings(source) == [
        "5:22 effect-sends-view-action",
        "7:28 effect-sends-view-action",
      ])
  }

  @Test func aChildsBindingActionIsAViewAction() {
    let source = """
      switch action {
      case .destination(.presented(.statistics(.binding))):
        return .none
      case .child(.binding(\\.isOn)):
        return .none
      case .binding(\\.name):
        return .none
      case .binding:
        return .none
      default:
        return .none
      }
      """
    #expect(
      findings(source) == [
        "2:43 parent-reacts-to-private-child-action",
        "4:14 parent-reacts-to-private-child-action",
      ])
    #expect(
      BoundaryLinter.lint(source: source, file: "F.swift").first?.message
        == "'.destination(.statistics(.binding))' matches a binding action, a view action, of the child 'statistics'; a parent reacts only to its children's delegate actions"
    )
  }

  @Test func aParentSendingAChildsPrivateActionIsAFinding() {
    let source = """
      func reduce(into state: inout State, action: Action) -> Effect<Action> {
        switch action {
        case .view(.onAppear):
          return .send(.child(.sections(.internal(.reload))))
        case .view(.refresh):
          return .run { send in
            await send(._internal(.list(.view(.onAppear))))
            await send(._internal(.list(.delegate(.done))))
            await send(._internal(.path(.element(id: id, action: .settings(._internal(.saved))))))
          }
        case .view(.close):
          return .send(._internal(.list(.refresh)))
        default:
          return .send(.view(.onAppear))
        }
      }
      """
    // One finding for each send: the child's category, by the new rule (line 7's `view` is the
    // child's, so it is not also the effect rule's); line 12 routes to a child whose action
    // has no category; line 14 is the feature's own view action.
    #expect(
      findings(source) == [
        "4:36 child-private-action-sent",
        "7:36 child-private-action-sent",
        "9:71 child-private-action-sent",
        "14:19 effect-sends-view-action",
      ])
    #expect(
      BoundaryLinter.lint(source: source, file: "F.swift").first?.message
        == "'.child(.sections(.internal))' sends an internal action of the child 'sections'; a parent does not send its children's private actions: let the child act on its own"
    )
  }

  @Test func anInternalActionIsAnInternalAction() {
    let found = BoundaryLinter.lint(
      source:
        "switch action {\ncase ._internal(.userSettings(._internal(.tapped))): break\ndefault: break\n}",
      file: "Parent.swift"
    )
    #expect(
      found.map(\.message) == [
        "'._internal(.userSettings(._internal))' matches an internal action of the child 'userSettings'; a parent reacts only to its children's delegate actions"
      ])
  }

  @Test func aFileThatDoesNotParseIsNamed() throws {
    let directory = try TemporaryDirectory()
    try "let x = 1\n".write(toFile: directory.path("Good.swift"), atomically: true, encoding: .utf8)
    try "switch action {\ncase ._internal(.child(.view(.tapped))): break\n}}} func (\n"
      .write(toFile: directory.path("Broken.swift"), atomically: true, encoding: .utf8)
    let report = try BoundaryLinter.lint(paths: [directory.url.path])
    let name = { (path: String) in URL(fileURLWithPath: path).lastPathComponent }
    #expect(report.files.map(name) == ["Broken.swift", "Good.swift"])
    #expect(report.unparsedFiles.map(name) == ["Broken.swift"])
    // What did parse is still checked.
    #expect(report.findings.map { "\(name($0.file)):\($0.line)" } == ["Broken.swift:2"])
  }
}

@Suite(.hangGuard) struct KeyPathSendTests {
  @Test func aKeyPathThroughAnElementRoutesToAChild() {
    let source = """
      func test() async {
        await store.send(\\._internal.rows[id: 1].view.toggleCompleted)
        await store.send(\\._internal.rows[id: 1].internal.loaded)
        await store.send(\\._internal.rows)
      }
      """
    // A row's view action through the parent is a route; a row's internal action is not.
    #expect(
      findings(source) == [
        "3:44 view-sends-private-action",
        "4:22 view-sends-private-action",
      ])
  }

  @Test func aChildInACollectionBeforeIdentifiedActionIsAChild() {
    // `case laneEditor(id: LaneEditor.State.ID, action: LaneEditor.Action)`, as `forEach`
    // embedded children before `IdentifiedAction`; patterns may leave the labels out.
    let source = """
      switch action {
      case let .internal(.laneEditor(id, .delegate(.didSwipe(.delete)))): break
      case .internal(.laneEditor(_, .view)), .internal(.laneEditor(_, .binding)): break
      case .internal(.laneEditor(id: _, action: .internal(.loaded))): break
      case let .internal(.didLoad(id, .loaded)): break
      case let .internal(.moved(from, to)): break
      default: break
      }
      func route() {
        store.send(.internal(.laneEditor(id: id, action: .view(.tapped))))
        store.send(.internal(.laneEditor(id: id, action: .internal(.reload))))
        store.send(.internal(.didLoad(id, .loaded)))
      }
      """
    #expect(
      findings(source) == [
        "3:32 parent-reacts-to-private-child-action",
        "3:66 parent-reacts-to-private-child-action",
        "4:44 parent-reacts-to-private-child-action",
        "11:53 view-sends-private-action",
        "12:15 view-sends-private-action",
      ])
  }

  @Test func theTaskEffectBeforeTCA1SendsTheActionItReturns() {
    let source = """
      switch action {
      case .view(.appeared):
        return .task { .view(.textFieldFocused(.name)) }
      case .view(.load):
        return .task { [id = state.id] in
          if let id {
            return await .internal(.loaded(TaskResult { try await client.load(id) }))
          }
          let retry: () -> Action = { return .view(.retry) }
          return .view(.retry)
        } catch: { error in
          .view(.failed(error))
        }
      case .view(.refresh):
        return .task { .internal(.list(.view(.refresh))) }
      case .view(.done):
        return EffectTask.task(operation: { .delegate(.done) })
      default:
        return .none
      }
      var body: some View {
        Text("").task { await store.send(.view(.onAppear)).finish() }
      }
      """
    #expect(
      findings(source) == [
        "3:19 effect-sends-view-action",
        "10:13 effect-sends-view-action",
        "12:6 effect-sends-view-action",
        "15:35 child-private-action-sent",
      ])
  }

  @Test func aViewStoresBindingSendsWhatItsClosureReturns() {
    let source = """
      var body: some View {
        TextField("", text: viewStore.binding(get: \\.email, send: { .internal(.emailChanged(text: $0)) }))
        TextField("", text: viewStore.binding(get: \\.name, send: { .view(.nameChanged($0)) }))
        TextField("", text: viewStore.binding(
          get: { $0.gross },
          send: { text in
            let value = Decimal(string: text) ?? 0
            return .delegate(.grossChanged(value))
          }
        ))
        Toggle("", isOn: viewStore.binding(get: \\.isOn) { .internal(.toggled($0)) })
        Color.clear.synchronize(viewStore.binding(get: \\.focus, send: .internal(.focusChanged)))
        Color.clear.synchronize(viewStore.binding(get: \\.focus, send: { .internal(.focusChanged($0)) }))
        Color.clear.synchronize(viewStore.binding(get: \\.focus, send: Action.view(.focusChanged)))
        Color.clear.synchronize(viewStore.binding(\\.$focus))
      }
      """
    #expect(
      findings(source) == [
        "2:64 view-sends-private-action",
        "8:15 view-sends-private-action",
        "11:54 view-sends-private-action",
        "12:66 view-sends-private-action",
        "13:68 view-sends-private-action",
      ])
  }

  @Test func anAsyncFunctionReturningAnActionIsAnEffects() {
    let source = """
      func fetchMovies(page: Int) async -> Action {
        let result = await movieClient.nowPlaying(page)
        switch result {
        case .success(let movies):
          return .internal(.fetched(movies))
        case .failure(let error):
          let retry: () -> Action = { .view(.retry) }
          return .view(.showErrorAlert(error))
        }
      }
      func refresh() async -> MoviesFeature.Action { .view(.refreshed) }
      func title(for action: Action) -> Action { .view(.titleTapped) }
      func name() async -> String { "" }
      """
    // Only an `async` function is an effect's helper: `title(for:)` may be a reducer's.
    #expect(
      findings(source) == [
        "8:13 effect-sends-view-action",
        "11:49 effect-sends-view-action",
      ])
  }
}
