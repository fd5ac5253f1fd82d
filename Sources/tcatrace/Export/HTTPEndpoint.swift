import ToolSupport

/// An OTLP/HTTP receiver's address, `http://host:port/path`, and a `POST` of one JSON body to
/// it over a plain socket, within a time limit.
///
/// NB: `tcatrace` links Foundation's essentials only, which have no HTTP client; an OTLP/HTTP
/// request is one `POST` and its status line. `https://` is not spoken: a collector on the
/// loopback or the local network forwards over TLS.
struct HTTPEndpoint {
  /// The address as given, with the path completed.
  let url: String
  let host: String
  let port: String
  let path: String

  /// Parses `http://host[:port][/path]`; with no path, OTLP's `/v1/traces`.
  init(_ text: String) throws(CLIError) {
    guard text.hasPrefix("http://") else {
      if text.hasPrefix("https://") {
        throw CLIError(
          message:
            "--endpoint '\(text)': tcatrace sends over http:// only; send to a collector on this machine or network that forwards over TLS"
        )
      }
      throw CLIError(
        message:
          "--endpoint '\(text)' is not an http:// address: give one like http://localhost:4318")
    }
    let rest = text.dropFirst("http://".count)
    let authority = rest.prefix { $0 != "/" }
    var path = String(rest.dropFirst(authority.count))
    if path.isEmpty || path == "/" { path = "/v1/traces" }
    var host = String(authority)
    var port = "80"
    if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
      // An IPv6 address: [::1]:4318.
      let after = host[host.index(after: close)...]
      if after.hasPrefix(":") { port = String(after.dropFirst()) }
      host = String(host[host.index(after: host.startIndex)..<close])
    } else if let colon = host.lastIndex(of: ":") {
      port = String(host[host.index(after: colon)...])
      host = String(host[..<colon])
    }
    guard !host.isEmpty, !port.isEmpty, port.allSatisfy(\.isASCII), UInt16(port) != nil,
      host.allSatisfy({ $0.isASCII && !$0.isWhitespace }),
      path.allSatisfy({ $0.isASCII && !$0.isWhitespace && !$0.isNewline })
    else {
      throw CLIError(message: "--endpoint '\(text)' is not an http://host:port/path address")
    }
    self.host = host
    self.port = port
    self.path = path
    self.url = "http://\(authority)\(path)"
  }

  /// Sends `body` as a JSON `POST`; throws unless the receiver answers with a 2xx status
  /// within `timeout` seconds.
  func post(_ body: ArraySlice<UInt8>, timeout: Double) throws(CLIError) {
    let deadline = Self.now() + timeout
    let socket = try self.openConnection(before: deadline)
    defer { close(socket) }
    let hostHeader =
      self.host.contains(":") ? "[\(self.host)]:\(self.port)" : "\(self.host):\(self.port)"
    var request = Array(
      "POST \(self.path) HTTP/1.1\r\nHost: \(hostHeader)\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\nUser-Agent: tcatrace/\(TCATraceVersion.current)\r\n\r\n"
        .utf8
    )
    request += body
    var sent = 0
    while sent < request.count {
      try self.wait(for: Int16(POLLOUT), on: socket, before: deadline)
      let count = request[sent...].withUnsafeBytes {
        send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else {
        if count < 0, errno == EAGAIN || errno == EINTR { continue }
        throw self.failure("the connection closed while sending (\(Self.reason()))")
      }
      sent += count
    }
    // The status line: `HTTP/1.1 200 OK`.
    var response: [UInt8] = []
    while !response.contains(UInt8(ascii: "\n")) {
      guard response.count < 8192 else { break }
      try self.wait(for: Int16(POLLIN), on: socket, before: deadline)
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count < 0, errno == EAGAIN || errno == EINTR { continue }
      guard count > 0 else { break }
      response += chunk[..<count]
    }
    let line = String(
      decoding: response.prefix { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") },
      as: UTF8.self)
    let parts = line.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else {
      throw self.failure(
        response.isEmpty ? "it closed the connection without answering" : "its answer is not HTTP")
    }
    guard (200..<300).contains(status) else {
      let text = parts.count > 2 ? " \(parts[2].prefix(80))" : ""
      throw self.failure(
        "it answered \(status)\(text); an OTLP/HTTP receiver takes POST /v1/traces")
    }
  }

  private func openConnection(before deadline: Double) throws(CLIError) -> Int32 {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var addresses: UnsafeMutablePointer<addrinfo>?
    let resolved = getaddrinfo(self.host, self.port, &hints, &addresses)
    guard resolved == 0, let first = addresses else {
      throw self.failure("cannot find the host (\(String(cString: gai_strerror(resolved))))")
    }
    defer { freeaddrinfo(addresses) }
    var reason = "no address"
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let address = candidate {
      candidate = address.pointee.ai_next
      let descriptor = socket(
        address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
      guard descriptor >= 0 else { continue }
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      if connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 {
        return descriptor
      }
      guard errno == EINPROGRESS else {
        reason = Self.reason()
        close(descriptor)
        continue
      }
      do {
        try self.wait(for: Int16(POLLOUT), on: descriptor, before: deadline)
      } catch {
        close(descriptor)
        throw error
      }
      var error: Int32 = 0
      var length = socklen_t(MemoryLayout<Int32>.size)
      getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
      if error == 0 { return descriptor }
      reason = String(cString: strerror(error))
      close(descriptor)
    }
    throw self.failure("cannot connect (\(reason)); check that a receiver listens there")
  }

  private func wait(for events: Int16, on socket: Int32, before deadline: Double) throws(CLIError) {
    while true {
      let left = deadline - Self.now()
      guard left > 0 else { throw self.timedOut(deadline: deadline) }
      var descriptor = pollfd(fd: socket, events: events, revents: 0)
      let ready = poll(&descriptor, 1, Int32(min(left * 1000, 1000).rounded(.up)))
      if ready > 0 { return }
      if ready < 0, errno != EINTR {
        throw self.failure("cannot wait for the connection (\(Self.reason()))")
      }
    }
  }

  private func timedOut(deadline: Double) -> CLIError {
    self.failure("it did not answer in time; give it longer with --timeout")
  }

  private func failure(_ what: String) -> CLIError {
    CLIError(message: "cannot send to '\(self.url)': \(what)")
  }

  private static func reason() -> String {
    String(cString: strerror(errno))
  }

  private static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
