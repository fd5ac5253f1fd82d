// Where SwiftUI is, its `Animation` and `Transaction` are the ones features name, and a store
// sends in a transaction as TCA's does; elsewhere, stand-ins that are accepted and ignored, as
// the other SwiftUI stand-ins are (SwiftUIValues.swift).
#if canImport(SwiftUI)
  import SwiftUI
#else
  /// A stand-in for SwiftUI's `Animation`, so that reducers that animate compile and run where
  /// SwiftUI is not.
  ///
  /// There is no UI to animate: an animation passed to `send(_:animation:)` or
  /// `Effect.send(_:animation:)` is accepted and ignored.
  public struct Animation: Hashable, Sendable, CustomStringConvertible {
    /// How the animation was made: `easeInOut(duration: 0.3)`.
    public let description: String

    private init(_ description: String) {
      self.description = description
    }

    public static let `default` = Self("default")
    public static let linear = Self("linear")
    public static let easeIn = Self("easeIn")
    public static let easeOut = Self("easeOut")
    public static let easeInOut = Self("easeInOut")
    public static let bouncy = Self("bouncy")
    public static let smooth = Self("smooth")
    public static let snappy = Self("snappy")
    public static let spring = Self("spring")
    public static let interactiveSpring = Self("interactiveSpring")

    public static func linear(duration: Double) -> Self {
      Self("linear(duration: \(duration))")
    }

    public static func easeIn(duration: Double) -> Self {
      Self("easeIn(duration: \(duration))")
    }

    public static func easeOut(duration: Double) -> Self {
      Self("easeOut(duration: \(duration))")
    }

    public static func easeInOut(duration: Double) -> Self {
      Self("easeInOut(duration: \(duration))")
    }

    public static func spring(
      response: Double = 0.5, dampingFraction: Double = 0.825, blendDuration: Double = 0
    ) -> Self {
      Self("spring(response: \(response), dampingFraction: \(dampingFraction))")
    }

    // NB: Disfavoured, so that `.spring()` is the one above, as SwiftUI reads it.
    @_disfavoredOverload
    public static func spring(duration: Double = 0.5, bounce: Double = 0, blendDuration: Double = 0)
      -> Self
    {
      Self("spring(duration: \(duration), bounce: \(bounce))")
    }

    public static func interactiveSpring(
      response: Double = 0.15, dampingFraction: Double = 0.86, blendDuration: Double = 0.25
    ) -> Self {
      Self("interactiveSpring(response: \(response), dampingFraction: \(dampingFraction))")
    }

    public static func interpolatingSpring(
      mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0
    ) -> Self {
      Self("interpolatingSpring(mass: \(mass), stiffness: \(stiffness), damping: \(damping))")
    }

    public static func interpolatingSpring(
      duration: Double = 0.5, bounce: Double = 0, initialVelocity: Double = 0
    ) -> Self {
      Self("interpolatingSpring(duration: \(duration), bounce: \(bounce))")
    }

    /// The same animation, delayed; ignored as the animation is.
    public func delay(_ delay: Double) -> Self {
      Self("\(self.description).delay(\(delay))")
    }

    /// The same animation, sped up; ignored as the animation is.
    public func speed(_ speed: Double) -> Self {
      Self("\(self.description).speed(\(speed))")
    }
  }

  /// A stand-in for SwiftUI's `Transaction`: the animation an action is sent with.
  public struct Transaction: Sendable {
    public var animation: Animation?
    public var disablesAnimations = false

    public init(animation: Animation? = nil) {
      self.animation = animation
    }
  }
#endif

extension Send {
  /// Sends `action` with `animation`: in a transaction that animates where SwiftUI is;
  /// elsewhere the animation is accepted and ignored.
  public func callAsFunction(_ action: Action, animation: Animation?) {
    self(action, transaction: Transaction(animation: animation))
  }

  /// Sends `action` in `transaction` where SwiftUI is; elsewhere the transaction is accepted
  /// and ignored.
  public func callAsFunction(_ action: Action, transaction: Transaction) {
    #if canImport(SwiftUI)
      withTransaction(transaction) { self(action) }
    #else
      self(action)
    #endif
  }
}

extension Store {
  /// Sends `action`, as ``send(_:)`` does, with `animation`: in a transaction that animates
  /// where SwiftUI is; elsewhere the animation is accepted and ignored.
  @discardableResult
  public func send(_ action: Action, animation: Animation?) -> StoreTask {
    self.send(action, transaction: Transaction(animation: animation))
  }

  /// Sends `action`, as ``send(_:)`` does, in `transaction` where SwiftUI is; elsewhere the
  /// transaction is accepted and ignored.
  @discardableResult
  public func send(_ action: Action, transaction: Transaction) -> StoreTask {
    #if canImport(SwiftUI)
      withTransaction(transaction) { self.send(action) }
    #else
      self.send(action)
    #endif
  }
}

extension Effect {
  /// An effect that sends `action` at once; the animation is accepted and ignored.
  public static func send(_ action: Action, animation: Animation?) -> Self {
    .send(action)
  }

  /// This effect; the animation it would send its actions with is ignored.
  public func animation(_ animation: Animation? = .default) -> Self {
    self
  }

  /// This effect; the transaction it would send its actions in is ignored.
  public func transaction(_ transaction: Transaction) -> Self {
    self
  }
}
