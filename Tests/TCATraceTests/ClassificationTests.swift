import CustomDump
import TCATrace
import TCATraceExamples
import Testing
import TestSupport

/// A plain action enum without boundaries.
private enum FlatAction {
  case increment
  case setCount(Int)
  case child(TwoFactorFeature.Action)
}

/// An enum with boundary cases that does not conform to `TCAFeatureAction`, using `internal`.
private enum ReflectedAction {
  enum Internal { case loaded([Int]), child(LoginFeature.Action) }
  case view(String)
  case `internal`(Internal)
  case delegate(Never)
}

/// Features written without the boundaries, as TCA's examples are (issue #71): their actions
/// are plain enums named `Action`.
private enum Plain {
  enum Action: Sendable {
    case loaded(Result<Int, Failure>)
    case sort(Order)
    case child(Child.Action)
    case destination(PresentationAction<Destination.Action>)
  }
  enum Order: Sendable { case ascending }
  enum Child {
    enum Action: Sendable {
      case tapped
      case response(Int)
      case grandchild(Grandchild.Action)
    }
  }
  enum Grandchild {
    enum Action: Sendable { case tapped }
  }
  enum Destination {
    enum Action: Sendable { case child(Child.Action) }
  }
}

private final class Token: Sendable {
  let name: String
  init(_ name: String) { self.name = name }
}

private enum Failure: Error { case bad }

private indirect enum Tree {
  case leaf(Int)
  case node(Tree, Tree)
}

/// Payloads stored in every way an enum can store them.
private enum Shapes<Value> {
  case one(id: Int)
  indirect case boxed(Value)
  case object(Token)
  case existential(any Error)
  case optional(Int?)
  case empty
}

@Suite(.hangGuard)
struct ClassificationTests {
  typealias App = AppFeature.Action

  @Test func viewActionOfADirectChild() {
    expectNoDifference(
      ActionClassification(App._internal(.login(.view(.loginButtonTapped)))),
      ActionClassification(
        path: "_internal.login.view.loginButtonTapped", rootCategory: .internal,
        feature: ["login"], category: .view, caseName: "loginButtonTapped"
      )
    )
  }

  @Test func grandchildViewActionWithPayload() {
    expectNoDifference(
      ActionClassification(
        App._internal(.login(._internal(.twoFactor(.presented(.view(.codeChanged("42")))))))),
      ActionClassification(
        path: "_internal.login._internal.twoFactor.presented.view.codeChanged",
        rootCategory: .internal,
        feature: ["login", "twoFactor"], category: .view, caseName: "codeChanged",
        payload: #""42""#
      )
    )
  }

  @Test func rootViewAction() {
    expectNoDifference(
      ActionClassification(App.view(.settingsButtonTapped)),
      ActionClassification(
        path: "view.settingsButtonTapped", rootCategory: .view, feature: [],
        category: .view, caseName: "settingsButtonTapped"
      )
    )
  }

  @Test func internalActionWithAnEnumPayloadIsNotAChild() {
    let classification = ActionClassification(
      App._internal(.login(._internal(.loginResponse(.failure(.invalidCredentials)))))
    )
    expectNoDifference(
      classification,
      ActionClassification(
        path: "_internal.login._internal.loginResponse", rootCategory: .internal,
        feature: ["login"], category: .internal, caseName: "loginResponse",
        payload: "Result.failure(.invalidCredentials)"
      )
    )
  }

  @Test func delegateAction() {
    expectNoDifference(
      ActionClassification(App._internal(.login(.delegate(.didLogin(User(id: 1, name: "b")))))),
      ActionClassification(
        path: "_internal.login.delegate.didLogin", rootCategory: .internal,
        feature: ["login"], category: .delegate, caseName: "didLogin",
        payload: """
          User(
            id: 1,
            name: "b"
          )
          """
      )
    )
  }

  @Test func elementIdIsPartOfThePath() {
    expectNoDifference(
      ActionClassification(
        App._internal(.todos(._internal(.rows(.element(id: 3, action: .view(.toggleCompleted))))))
      ),
      ActionClassification(
        path: "_internal.todos._internal.rows[id: 3].view.toggleCompleted",
        rootCategory: .internal, feature: ["todos", "rows[id: 3]"], category: .view,
        caseName: "toggleCompleted"
      )
    )
  }

  @Test func stackElementOfAnEnumReducerAndBinding() {
    expectNoDifference(
      ActionClassification(
        App._internal(
          .path(.element(id: 0, action: .settings(.view(.binding(.set(\.displayName, "Blob")))))))
      ),
      ActionClassification(
        path: "_internal.path[id: 0].settings.view.binding", rootCategory: .internal,
        feature: ["path[id: 0]", "settings"], category: .view, caseName: "binding",
        payload: #".set(\.displayName, "Blob")"#, enumReducerDepths: [1]
      )
    )
  }

  @Test func dismissIsAViewActionOfThePresentedChild() {
    expectNoDifference(
      ActionClassification(App._internal(.login(._internal(.twoFactor(.dismiss))))),
      ActionClassification(
        path: "_internal.login._internal.twoFactor.dismiss", rootCategory: .internal,
        feature: ["login", "twoFactor"], category: .view, caseName: "dismiss", isDismiss: true
      )
    )
  }

  @Test func popFromAndPushAreViewActionsOfTheStack() {
    expectNoDifference(
      ActionClassification(App._internal(.path(.popFrom(id: 3)))),
      ActionClassification(
        path: "_internal.path.popFrom", rootCategory: .internal, feature: ["path"],
        category: .view, caseName: "popFrom", isDismiss: true, payload: "#3"
      )
    )
    expectNoDifference(
      ActionClassification(
        App._internal(.path(.push(id: 4, state: .settings(SettingsFeature.State()))))
      ).caseName,
      "push"
    )
  }

  @Test func severalAssociatedValuesWithLabels() {
    let action = App._internal(
      .path(
        .element(
          id: 1,
          action: .settings(.delegate(.didSave(displayName: "Blob", notificationsEnabled: true)))))
    )
    expectNoDifference(
      ActionClassification(action),
      ActionClassification(
        path: "_internal.path[id: 1].settings.delegate.didSave", rootCategory: .internal,
        feature: ["path[id: 1]", "settings"], category: .delegate, caseName: "didSave",
        payload: """
          (
            displayName: "Blob",
            notificationsEnabled: true
          )
          """,
        enumReducerDepths: [1]
      )
    )
  }

  @Test func payloadsAreReadHoweverTheEnumStoresThem() {
    func payload(_ action: Any) -> (String, String?) {
      let classification = ActionClassification(action)
      return (classification.caseName, classification.payload)
    }
    #expect(payload(Shapes<String>.one(id: 3)) == ("one", "3"))
    #expect(payload(Shapes<String>.boxed("x")) == ("boxed", #""x""#))
    #expect(payload(Shapes<[Int]>.boxed([1, 2])) == ("boxed", String(customDumping: [1, 2])))
    #expect(
      payload(Shapes<String>.existential(Failure.bad)) == (
        "existential", String(customDumping: Failure.bad)
      ))
    #expect(payload(Shapes<String>.optional(nil)) == ("optional", "nil"))
    #expect(payload(Shapes<String>.optional(5)) == ("optional", "5"))
    #expect(payload(Shapes<String>.empty) == ("empty", nil))
    #expect(payload(Tree.leaf(7)) == ("leaf", "7"))
    #expect(
      payload(Tree.node(.leaf(1), .node(.leaf(2), .leaf(3))))
        == ("node", String(customDumping: (Tree.leaf(1), Tree.node(.leaf(2), .leaf(3)))))
    )
  }

  @Test func bindingPayloadsReadAsCustomDumpPrintsThem() {
    for text in ["Blob", "say \"hi\"", "back\\slash", "two\nlines", "é", ""] {
      let action = SettingsFeature.Action.view(.binding(.set(\.displayName, text)))
      let binding = BindingAction<SettingsFeature.State>.set(\.displayName, text)
      #expect(ActionClassification(action).payload == String(customDumping: binding))
    }
    let toggle = SettingsFeature.Action.view(.binding(.set(\.notificationsEnabled, true)))
    #expect(ActionClassification(toggle).payload == ".set(\\.notificationsEnabled, true)")
  }

  @Test func readingAPayloadLeavesTheActionAndItsReferencesIntact() {
    weak var released: Token?
    do {
      let token = Token("t")
      released = token
      let action = Shapes<String>.object(token)
      for _ in 0..<3 {
        #expect(ActionClassification(action).payload == String(customDumping: token))
      }
      guard case let .object(same) = action else {
        Issue.record("The action changed case")
        return
      }
      #expect(same === token)
    }
    // Every copy the reading made was released with it.
    #expect(released == nil)
  }

  @Test func plainEnumsAreUnclassified() {
    expectNoDifference(
      ActionClassification(FlatAction.increment),
      ActionClassification(
        path: "increment", rootCategory: .unclassified, feature: [], category: .unclassified,
        caseName: "increment"
      )
    )
    expectNoDifference(
      ActionClassification(FlatAction.setCount(3)),
      ActionClassification(
        path: "setCount", rootCategory: .unclassified, feature: [], category: .unclassified,
        caseName: "setCount", payload: "3"
      )
    )
  }

  @Test func plainEnumEmbeddingABoundaryChild() {
    expectNoDifference(
      ActionClassification(FlatAction.child(.view(.submitButtonTapped))),
      ActionClassification(
        path: "child.view.submitButtonTapped", rootCategory: .unclassified, feature: ["child"],
        category: .view, caseName: "submitButtonTapped"
      )
    )
  }

  /// TicTacToe's `.login(.loginResponse(…))`: a child's action is the child's, boundaries or
  /// not; a payload that is not a feature's action (`Result`, an enum of the feature's own) is
  /// not a child.
  @Test func plainEnumEmbeddingAChildWithoutBoundaries() {
    expectNoDifference(
      ActionClassification(Plain.Action.child(.response(3))),
      ActionClassification(
        path: "child.response", rootCategory: .unclassified, feature: ["child"],
        category: .unclassified, caseName: "response", payload: "3"
      )
    )
    expectNoDifference(
      ActionClassification(Plain.Action.child(.grandchild(.tapped))),
      ActionClassification(
        path: "child.grandchild.tapped", rootCategory: .unclassified,
        feature: ["child", "grandchild"], category: .unclassified, caseName: "tapped"
      )
    )
    expectNoDifference(
      ActionClassification(Plain.Action.destination(.presented(.child(.tapped)))),
      ActionClassification(
        path: "destination.presented.child.tapped", rootCategory: .unclassified,
        feature: ["destination", "child"], category: .unclassified, caseName: "tapped",
        enumReducerDepths: [1]
      )
    )
    #expect(ActionClassification(Plain.Action.loaded(.success(1))).feature == [])
    #expect(ActionClassification(Plain.Action.sort(.ascending)).feature == [])
  }

  @Test func enumsWithBoundaryCasesAreClassifiedWithoutTheProtocol() {
    expectNoDifference(
      ActionClassification(ReflectedAction.internal(.loaded([1, 2]))),
      ActionClassification(
        path: "internal.loaded", rootCategory: .internal, feature: [], category: .internal,
        caseName: "loaded",
        payload: """
          [
            [0]: 1,
            [1]: 2
          ]
          """
      )
    )
    expectNoDifference(
      ActionClassification(
        ReflectedAction.internal(.child(.delegate(.didLogin(User(id: 2, name: "c")))))),
      ActionClassification(
        path: "internal.child.delegate.didLogin", rootCategory: .internal, feature: ["child"],
        category: .delegate, caseName: "didLogin",
        payload: """
          User(
            id: 2,
            name: "c"
          )
          """
      )
    )
    expectNoDifference(
      ActionClassification(ReflectedAction.view("tap")),
      ActionClassification(
        path: "view", rootCategory: .view, feature: [], category: .view, caseName: "view",
        payload: #""tap""#
      )
    )
  }

  @Test func leakyExamplesNestedDelegate() {
    let action = LeakyParentFeature.Action._internal(
      .child(._internal(.grandchild(.delegate(.didFinish)))))
    expectNoDifference(
      ActionClassification(action),
      ActionClassification(
        path: "_internal.child._internal.grandchild.delegate.didFinish", rootCategory: .internal,
        feature: ["child", "grandchild"], category: .delegate, caseName: "didFinish"
      )
    )
  }
}
