/// The page `tcatrace serve` serves: `Page/index.html`, `app.js` and `app.css`, built into the
/// program (SwiftPM's `embedInCode`), so that it needs no network and no files beside it.
enum PageAssets {
  /// The HTML, its script and style loaded with `token` (hexadecimal digits only).
  static func index(token: String) -> String {
    String(decoding: PackageResources.index_html, as: UTF8.self)
      .replacingOccurrences(of: "{{token}}", with: token)
  }

  static let script = String(decoding: PackageResources.app_js, as: UTF8.self)

  static let style = String(decoding: PackageResources.app_css, as: UTF8.self)
}
