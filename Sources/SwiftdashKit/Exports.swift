// What `import WidgetKit` and `import SwiftUI` bring along on Apple's systems, so that a ported
// widget needs no other import: Foundation, and on Linux URLSession, which lives in
// FoundationNetworking there (seeds 000, 002 and 003 fetch with URLSession).
@_exported import Foundation
#if canImport(FoundationNetworking)
    @_exported import FoundationNetworking
#endif
