// Stand-ins for the SwiftUI value types that reducer code keeps in its state or actions, so that
// such features compile and run where SwiftUI is not: equatable, printable, and nothing more.
// There is no UI here to draw them. Where SwiftUI is, it is SwiftUI's that features use.
#if !canImport(SwiftUI)
  import CustomDump
  import Foundation

  /// A stand-in for SwiftUI's `Color`: a named color, compared and printed by its name.
  public struct Color: Hashable, Sendable, CustomStringConvertible, CustomDumpStringConvertible {
    /// The color's name: `red`, or the asset name it was made with.
    public let description: String
    private let isAsset: Bool

    /// A color from an asset catalog, by name; the bundle is ignored.
    public init(_ name: String, bundle: Bundle? = nil) {
      self.description = name
      self.isAsset = true
    }

    private init(named name: String) {
      self.description = name
      self.isAsset = false
    }

    /// `Color.red`, or `Color("brand")` for an asset's.
    public var customDumpDescription: String {
      self.isAsset ? "Color(\(String(reflecting: self.description)))" : "Color.\(self.description)"
    }

    public static let black = Self(named: "black")
    public static let blue = Self(named: "blue")
    public static let brown = Self(named: "brown")
    public static let clear = Self(named: "clear")
    public static let cyan = Self(named: "cyan")
    public static let gray = Self(named: "gray")
    public static let green = Self(named: "green")
    public static let indigo = Self(named: "indigo")
    public static let mint = Self(named: "mint")
    public static let orange = Self(named: "orange")
    public static let pink = Self(named: "pink")
    public static let purple = Self(named: "purple")
    public static let red = Self(named: "red")
    public static let teal = Self(named: "teal")
    public static let white = Self(named: "white")
    public static let yellow = Self(named: "yellow")
    public static let primary = Self(named: "primary")
    public static let secondary = Self(named: "secondary")
    public static let accentColor = Self(named: "accentColor")
  }

  /// A stand-in for SwiftUI's `LocalizedStringKey`: the key, compared as text; a string literal
  /// makes one, so an enum can take it as its raw value.
  public struct LocalizedStringKey: Hashable, Sendable, ExpressibleByStringInterpolation,
    CustomStringConvertible
  {
    /// The key.
    public let key: String

    public init(_ value: String) {
      self.key = value
    }

    public init(stringLiteral value: String) {
      self.key = value
    }

    public init(stringInterpolation: DefaultStringInterpolation) {
      self.key = String(stringInterpolation: stringInterpolation)
    }

    public var description: String { self.key }
  }

  /// A stand-in for SwiftUI's `EditMode`: whether a list is being edited.
  public enum EditMode: Hashable, Sendable {
    case inactive
    case transient
    case active

    /// Whether the mode is `active` or `transient`.
    public var isEditing: Bool { self != .inactive }
  }
#endif
