#if canImport(Glibc)
    import Glibc

    /// glibc's `_np` posix_spawn file actions (2.29 and 2.34), looked up at run time: Swift's
    /// Glibc module hides them, and an older libc simply goes without.
    public enum SpawnActions {
        public typealias Actions = UnsafeMutablePointer<posix_spawn_file_actions_t>
        public typealias AddChdir = @convention(c) (Actions?, UnsafePointer<CChar>?) -> Int32
        public typealias AddClosefrom = @convention(c) (Actions?, Int32) -> Int32

        public static let addChdir: AddChdir? = symbol("posix_spawn_file_actions_addchdir_np")
        /// Closes every descriptor from the given one up in the child, so that it inherits only
        /// what it is given, whatever another thread opened without close-on-exec.
        public static let addClosefrom: AddClosefrom? = symbol(
            "posix_spawn_file_actions_addclosefrom_np")

        static func symbol<T>(_ name: String) -> T? {
            guard let handle = dlopen(nil, RTLD_NOW), let p = dlsym(handle, name) else { return nil }
            return unsafeBitCast(p, to: T.self)
        }
    }

    /// The NUL-ended C string arrays `posix_spawn` takes: `argv` word for word, `envp` as
    /// `KEY=VALUE` sorted by key. The caller frees them (`release`) once the spawn returned.
    public enum SpawnStrings {
        public typealias CStrings = [UnsafeMutablePointer<CChar>?]

        public static func argv(_ words: [String]) -> CStrings { words.map { strdup($0) } + [nil] }

        public static func envp(_ environment: [String: String]) -> CStrings {
            argv(environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
        }

        public static func release(_ strings: CStrings) { strings.forEach { free($0) } }
    }
#endif
