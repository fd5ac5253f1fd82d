import Foundation

/// A state type that `@ObservableState` made observable; do not conform to it by hand.
public protocol ObservableState: Observable {
  /// The identity of this value: it changes when the value is modified in place through a
  /// `_$willModify()`, and is shared by copies.
  var _$id: ObservableStateID { get }
  mutating func _$willModify()
}

/// The identity of an observable state value.
public struct ObservableStateID: Hashable, Sendable {
  private indirect enum Kind: Hashable, Sendable {
    case location(UUID)
    case tagged(Int, Kind)

    mutating func relocate() {
      switch self {
      case .location: self = .location(UUID())
      case .tagged(let tag, var base):
        base.relocate()
        self = .tagged(tag, base)
      }
    }
  }

  private var kind: Kind

  /// A new identity.
  public init() {
    self.kind = .location(UUID())
  }

  private init(kind: Kind) {
    self.kind = kind
  }

  /// The identity of `value` if it is observable state; a new identity otherwise.
  public static func _$id<T>(for value: T) -> Self {
    (value as? any ObservableState)?._$id ?? Self()
  }

  /// The identity of `value`.
  public static func _$id(for value: some ObservableState) -> Self {
    value._$id
  }

  /// This identity, distinguished by `tag`: an enum's case tags its value's identity.
  public func _$tag(_ tag: Int) -> Self {
    Self(kind: .tagged(tag, self.kind))
  }

  /// Gives the value a new identity.
  public mutating func _$willModify() {
    self.kind.relocate()
  }
}

/// Holds the identity of an `@ObservableState` value.
///
/// Every registrar equals every other and encodes to nothing, so that the property
/// `@ObservableState` adds changes neither equality, hashing nor coding of the state.
public struct ObservationStateRegistrar: Sendable {
  /// The state's identity.
  public private(set) var id = ObservableStateID()

  public init() {}

  /// Gives the state a new identity.
  public mutating func _$willModify() {
    self.id._$willModify()
  }
}

extension ObservationStateRegistrar: Hashable, Codable {
  public static func == (_: Self, _: Self) -> Bool { true }
  public func hash(into hasher: inout Hasher) {}
  public init(from decoder: any Decoder) throws { self.init() }
  public func encode(to encoder: any Encoder) throws {}
}

/// Gives `value` a new identity if it is observable state; does nothing otherwise.
public func _$willModify<T>(_ value: inout T) {}

/// Gives `value` a new identity.
public func _$willModify<T: ObservableState>(_ value: inout T) {
  value._$willModify()
}
