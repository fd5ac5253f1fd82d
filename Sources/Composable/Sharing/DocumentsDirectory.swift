import Foundation

#if !canImport(Darwin)
  extension URL {
    /// The user's documents folder, as Foundation names it on Apple's platforms: where an app
    /// keeps its `.fileStorage` values (`.fileStorage(.documentsDirectory.appending(component:
    /// "sync-ups.json"))`, as TCA's examples write it).
    ///
    /// NB: Linux's Foundation has `URL.homeDirectory` and `URL.temporaryDirectory` but not this;
    /// it is the folder `FileManager` gives for `.documentDirectory` (`~/Documents`). Disfavored,
    /// so that Foundation's own is used where it has one.
    @_disfavoredOverload
    public static var documentsDirectory: URL {
      FileManager.default.urls(for: .documentDirectory, in: .userDomainMask).first
        ?? URL.homeDirectory.appending(component: "Documents", directoryHint: .isDirectory)
    }
  }
#endif
