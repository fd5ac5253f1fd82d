import Dependencies
import Foundation
import RuntimeSupport

/// Where a shared value is read from: the base of ``SharedKey``.
///
/// NB: swift-sharing's keys load and save through continuations and can subscribe to outside
/// changes; these are synchronous, and cover the keys below. A key written for swift-sharing
/// does not compile against these protocols; one declared from these keys does:
///
/// ```swift
/// extension SharedReaderKey where Self == InMemoryKey<Int>.Default {
///   static var count: Self { Self[.inMemory("count"), default: 0] }
/// }
/// @Shared(.count) var count
/// ```
public protocol SharedReaderKey<Value>: Sendable {
  associatedtype Value
  associatedtype ID: Hashable
  /// What tells two keys for the same storage apart: keys with equal ids share one value.
  var id: ID { get }
  /// The value kept under the key, or `initialValue` (which an in-memory key keeps) when there
  /// is none; `nil` when there is neither.
  func load(initialValue: Value?) -> Value?
}

/// Where a ``Shared`` value is kept: `.inMemory("count")`, `.fileStorage(url)`.
public protocol SharedKey<Value>: SharedReaderKey {
  /// Keeps `value` under the key.
  func save(_ value: Value)
}

// MARK: - Keys with a default

extension SharedReaderKey {
  /// A key with the value to use when it holds none: `Self[.inMemory("count"), default: 0]`.
  public typealias Default = _SharedKeyDefault<Self>
}

/// A key and its default value; see ``SharedReaderKey/Default``.
public struct _SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey {
  let base: Base
  let defaultValue: @Sendable () -> Base.Value

  /// `key`, with `value` when it holds none.
  public static subscript(
    _ key: Base, default value: @autoclosure @escaping @Sendable () -> Base.Value
  ) -> Self {
    Self(base: key, defaultValue: value)
  }

  public var id: Base.ID { self.base.id }

  public func load(initialValue: Base.Value?) -> Base.Value? {
    self.base.load(initialValue: initialValue ?? self.defaultValue())
  }
}

extension _SharedKeyDefault: SharedKey where Base: SharedKey {
  public func save(_ value: Base.Value) {
    self.base.save(value)
  }
}

// MARK: - In memory

extension SharedReaderKey {
  /// A key for a value shared in memory for the life of the app (of the test, in tests).
  ///
  /// ```swift
  /// @Shared(.inMemory("count")) var count = 0
  /// ```
  public static func inMemory<Value>(_ key: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(key)
  }
}

/// A key for a value shared in memory; see ``SharedReaderKey/inMemory(_:)``.
public struct InMemoryKey<Value>: SharedKey, @unchecked Sendable {
  // NB: `@unchecked`: the storage only holds values under its lock.
  private let key: String
  private let storage: InMemoryStorage

  init(_ key: String) {
    @Dependency(\.defaultInMemoryStorage) var storage
    self.key = key
    self.storage = storage
  }

  public var id: InMemoryKeyID { InMemoryKeyID(key: self.key, storage: self.storage) }

  public func load(initialValue: Value?) -> Value? {
    self.storage.values.withLock { values in
      if let value = values[self.key] as? Value { return value }
      values[self.key] = initialValue
      return initialValue
    }
  }

  public func save(_ value: Value) {
    self.storage.values.withLock { $0[self.key] = value }
  }
}

extension InMemoryKey: CustomStringConvertible {
  public var description: String { ".inMemory(\(String(reflecting: self.key)))" }
}

/// The id of an ``InMemoryKey``: its name in its storage.
public struct InMemoryKeyID: Hashable, Sendable {
  let key: String
  let storage: InMemoryStorage
}

/// Where in-memory shared values are kept: `@Dependency(\.defaultInMemoryStorage)`, one for
/// the app, and a new one for each test.
public struct InMemoryStorage: Hashable, Sendable {
  private let id = UUID()
  fileprivate let values = Locked<[String: Any]>([:])

  public init() {}

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
  public func hash(into hasher: inout Hasher) { hasher.combine(self.id) }
}

private enum DefaultInMemoryStorageKey: DependencyKey {
  static var liveValue: InMemoryStorage { InMemoryStorage() }
  static var testValue: InMemoryStorage { InMemoryStorage() }
}

extension DependencyValues {
  /// The storage of `.inMemory` shared values.
  public var defaultInMemoryStorage: InMemoryStorage {
    get { self[DefaultInMemoryStorageKey.self] }
    set { self[DefaultInMemoryStorageKey.self] = newValue }
  }
}

// MARK: - In a file

extension SharedReaderKey {
  /// A key for a value kept as JSON in a file: read when the first `Shared` refers to it,
  /// written on every change.
  ///
  /// ```swift
  /// @Shared(.fileStorage(URL(filePath: "settings.json"))) var settings = Settings()
  /// ```
  ///
  /// In tests, files are kept in memory unless `\.defaultFileStorage` is `.fileSystem`.
  public static func fileStorage<Value: Codable>(
    _ url: URL,
    decoder: JSONDecoder = JSONDecoder(),
    encoder: JSONEncoder = JSONEncoder()
  ) -> Self where Self == FileStorageKey<Value> {
    FileStorageKey(url: url, decoder: decoder, encoder: encoder)
  }
}

/// A key for a value kept as JSON in a file; see ``SharedReaderKey/fileStorage(_:decoder:encoder:)``.
public struct FileStorageKey<Value: Codable>: SharedKey, @unchecked Sendable {
  // NB: `@unchecked`: the coders are used under the storage's lock only.
  private let url: URL
  private let storage: FileStorage
  private let decoder: JSONDecoder
  private let encoder: JSONEncoder

  init(url: URL, decoder: JSONDecoder, encoder: JSONEncoder) {
    @Dependency(\.defaultFileStorage) var storage
    self.url = url
    self.storage = storage
    self.decoder = decoder
    self.encoder = encoder
  }

  public var id: FileStorageKeyID {
    FileStorageKeyID(url: self.url.standardizedFileURL, storage: self.storage)
  }

  public func load(initialValue: Value?) -> Value? {
    do {
      guard let data = try self.storage.load(self.url) else { return initialValue }
      return try self.decoder.decode(Value.self, from: data)
    } catch {
      reportIssue("Could not read a shared value from '\(self.url.path)': \(error)")
      return initialValue
    }
  }

  public func save(_ value: Value) {
    do {
      try self.storage.save(try self.encoder.encode(value), self.url)
    } catch {
      reportIssue("Could not write a shared value to '\(self.url.path)': \(error)")
    }
  }
}

extension FileStorageKey: CustomStringConvertible {
  public var description: String { ".fileStorage(\(String(reflecting: self.url.path)))" }
}

/// The id of a ``FileStorageKey``: its file in its storage.
public struct FileStorageKeyID: Hashable, Sendable {
  let url: URL
  let storage: FileStorage
}

/// How `.fileStorage` keys read and write their files: `.fileSystem` in an app, `.inMemory`
/// in tests (`@Dependency(\.defaultFileStorage)`).
public struct FileStorage: Hashable, Sendable {
  private let id = UUID()
  let load: @Sendable (URL) throws -> Data?
  let save: @Sendable (Data, URL) throws -> Void

  /// Files on disk: a missing file holds nothing; a write creates the folders it needs and
  /// replaces the file whole.
  public static var fileSystem: Self {
    Self(
      load: { url in
        do {
          return try Data(contentsOf: url)
        } catch CocoaError.fileReadNoSuchFile {
          return nil
        }
      },
      save: { data, url in
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true
        )
        try data.write(to: url, options: .atomic)
      }
    )
  }

  /// Files in memory, for tests: nothing touches the disk.
  public static var inMemory: Self {
    let files = Locked<[URL: Data]>([:])
    return Self(
      load: { url in files.withLock { $0[url.standardizedFileURL] } },
      save: { data, url in files.withLock { $0[url.standardizedFileURL] = data } }
    )
  }

  init(
    load: @escaping @Sendable (URL) throws -> Data?,
    save: @escaping @Sendable (Data, URL) throws -> Void
  ) {
    self.load = load
    self.save = save
  }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
  public func hash(into hasher: inout Hasher) { hasher.combine(self.id) }
}

private enum DefaultFileStorageKey: DependencyKey {
  static var liveValue: FileStorage { .fileSystem }
  static var testValue: FileStorage { .inMemory }
}

extension DependencyValues {
  /// How `.fileStorage` shared values read and write their files.
  public var defaultFileStorage: FileStorage {
    get { self[DefaultFileStorageKey.self] }
    set { self[DefaultFileStorageKey.self] = newValue }
  }
}
