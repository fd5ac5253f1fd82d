// What `tcatrace-fixture crash FILE HOW` records: a feature whose reducer ends the process when
// asked to, as the bugs a crash report is for do, and a crash reporter's signal handler
// installed before the recorder, which says which signal it was called with.

import Foundation
import TCATrace

@Reducer
struct CrashFeature {
  @ObservableState
  struct State: Codable, Equatable {
    var taps = 0
    var rows = [1, 2, 3]
    var selected: Int?
  }

  @CasePathable
  enum Action: TCAFeatureAction, Codable, Equatable {
    @CasePathable
    enum ViewAction: Codable, Equatable {
      case tapped(Int)
      case crashButtonTapped(Crash)
    }

    @CasePathable
    enum InternalAction: Codable, Equatable {
      case failed
    }

    @CasePathable
    enum DelegateAction: Codable, Equatable {
      case tapped
    }

    case view(ViewAction)
    case _internal(InternalAction)
    case delegate(DelegateAction)
  }

  /// How the process ends.
  enum Crash: String, Codable, Equatable, CaseIterable {
    /// `fatalError` in the reducer.
    case fatalError
    /// A nil force-unwrapped in the reducer.
    case nilUnwrap
    /// An index out of range in the reducer.
    case indexOutOfRange
    /// `abort()` in the action's effect, once the reducer has returned.
    case abortInEffect
    /// A reducer that never returns, holding the main thread, as the watchdog finds one: the
    /// process waits to be killed.
    case hangInReducer
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case let .view(.tapped(count)):
        state.taps = count
        return .none
      case let .view(.crashButtonTapped(crash)):
        switch crash {
        case .fatalError:
          Swift.fatalError("the reducer of crashButtonTapped")
        case .nilUnwrap:
          state.taps = state.selected!
        case .indexOutOfRange:
          state.taps = state.rows[state.rows.count + state.taps]
        case .abortInEffect:
          return .run { _ in abort() }
        case .hangInReducer:
          while true { usleep(1_000) }
        }
        return .none
      case ._internal, .delegate:
        return .none
      }
    }
  }
}

/// A crash reporter's handler, installed before the recorder: it writes `handler N` for the
/// signal N it is called with, then ends the process with it, as the system would have.
func installReportingHandlers() {
  let handler: @convention(c) (Int32) -> Void = { number in
    // NB: Only what a signal handler may call: `write`, `signal`, `raise`.
    var line: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
      104, 97, 110, 100, 108, 101, 114, 32, 48 + UInt8(number / 10), 48 + UInt8(number % 10), 10
    )
    _ = withUnsafeBytes(of: &line) { write(1, $0.baseAddress, $0.count) }
    signal(number, nil)
    raise(number)
  }
  for number in [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS] {
    signal(number, handler)
  }
}
