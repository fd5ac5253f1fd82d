#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes a ``StateRenderer`` writes, appended to memory it owns.
///
/// NB: A large state renders as hundreds of thousands of appends of a few bytes each. Appended
/// to an array, each checked that the array's storage was not shared and had room, and went
/// through the generic `append(contentsOf:)`: the appends were a third of the time of
/// rendering a keyframe's parts. Here an append checks room and copies.
struct RenderedBytes: ~Copyable {
  private var start: UnsafeMutablePointer<UInt8>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int = 256) {
    self.capacity = max(capacity, 16)
    self.start = .allocate(capacity: self.capacity)
  }

  deinit {
    self.start.deallocate()
  }

  /// The bytes written, as an array.
  var array: [UInt8] {
    Array(UnsafeBufferPointer(start: self.start, count: self.count))
  }

  /// The bytes written, as a string (what is not UTF-8 replaced, as `String(decoding:)` does).
  var string: String {
    String(decoding: UnsafeBufferPointer(start: self.start, count: self.count), as: UTF8.self)
  }

  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if self.count == self.capacity { self.grow(toHold: 1) }
    self.start[self.count] = byte
    self.count += 1
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeRawBufferPointer) {
    guard let base = bytes.baseAddress, bytes.count > 0 else { return }
    if self.capacity - self.count < bytes.count { self.grow(toHold: bytes.count) }
    UnsafeMutableRawPointer(self.start + self.count).copyMemory(from: base, byteCount: bytes.count)
    self.count += bytes.count
  }

  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.append(UnsafeRawBufferPointer(bytes))
  }

  @inline(__always)
  mutating func append(_ string: StaticString) {
    self.append(UnsafeRawBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
  }

  /// Appends `byte` `count` times.
  @inline(__always)
  mutating func append(_ byte: UInt8, count: Int) {
    guard count > 0 else { return }
    if self.capacity - self.count < count { self.grow(toHold: count) }
    (self.start + self.count).update(repeating: byte, count: count)
    self.count += count
  }

  /// Whether `byte` is among the bytes from `index` on.
  func contains(_ byte: UInt8, from index: Int) -> Bool {
    index < self.count && memchr(self.start + index, Int32(byte), self.count - index) != nil
  }

  /// Removes the bytes in `range`, moving those after it back.
  mutating func removeSubrange(_ range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= self.count)
    let after = self.count - range.upperBound
    memmove(self.start + range.lowerBound, self.start + range.upperBound, after)
    self.count -= range.count
  }

  /// Removes the bytes from `index` on.
  mutating func removeLast(from index: Int) {
    precondition(index >= 0 && index <= self.count)
    self.count = index
  }

  /// Makes room for at least `capacity` bytes in all.
  mutating func reserveCapacity(_ capacity: Int) {
    if capacity > self.capacity { self.grow(toHold: capacity - self.count) }
  }

  @inline(never)
  private mutating func grow(toHold more: Int) {
    let capacity = max(self.capacity * 2, self.count + more)
    let start = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    start.moveInitialize(from: self.start, count: self.count)
    self.start.deallocate()
    self.start = start
    self.capacity = capacity
  }
}
