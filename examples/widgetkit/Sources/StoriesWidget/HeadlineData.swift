// seeds/001 (iOS NewsApp Widget Documentation): HeadlineData.swift. See NOTES.md.
import Foundation  // extra: the listing imports UIKit for this plain struct; Foundation is what it uses

struct HeadlineData: Identifiable {
    let identifier: String // Each story headline will have a unique ID
    let headline: String // Headline text
    var headlineImageURL: String? // Each headline might have an image, that is why its an optional.
    var placeHolderImageFilename: String? // Only for use in transient states
    var id: String { identifier }
}
