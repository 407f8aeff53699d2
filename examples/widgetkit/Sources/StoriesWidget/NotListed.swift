// extra: what seeds/001 uses without listing it. Xcode's template gives the @main widget; the
// project gives Constants, DateFormatter.widgetFormatter and RowImageView (an image: a terminal
// draws no bitmap, so it draws nothing). The ArcXP content SDK (a CocoaPod for iOS) is not
// available here: ContentViewModel and SDKHelper stand in for it with the mock stories, under the
// names the listing's getTimeline calls (`fetchStoriesCollectionForWidget`; the listing defines
// `fetchTopStoriesCollectionForWidget`, a mismatch of the seed's own).
import SwiftdashKit
import Foundation

@main
struct StoriesWidget: Widget {
    let kind: String = "StoriesWidget"

    var body: some WidgetConfiguration {
        StaticConfiguration(kind: kind, provider: Provider()) { entry in
            StoriesWidgetEntryView(entry: entry)
        }
        .configurationDisplayName("Top Stories")
        .description("The top stories of the day.")
        .supportedFamilies([.systemMedium, .systemLarge])
    }
}

enum Constants {
    static let contentDomain = "example.com"
    enum WidgetConstants {
        static let organizationName = "ArcXP News"
        static let updated = "Updated"
        static let alias = "top-stories"
    }
    enum Fonts {
        static let ArcXPFontName = "Georgia"
    }
}

extension DateFormatter {
    static let widgetFormatter: DateFormatter = {
        let f = DateFormatter()
        f.dateFormat = "HH:mm"
        return f
    }()
}

struct RowImageView: View {
    init(withURL url: String, withFilename filename: String?) {}
    var body: some View { EmptyView() }
}

struct ArcXPContent {
    struct Headlines { let basic: String? }
    let identifier: String?
    let headlines: Headlines?
}

enum SDKHelper {
    static func initializeSDK() {}
}

class ContentViewModel {
    func fetchStoriesCollectionForWidget(
        alias: String, index: Int, size: Int, completion: @escaping (Result<[ArcXPContent], Error>) -> Void
    ) {
        let headlines = [
            MockDataConstants.Headlines.storyOneHeadline, MockDataConstants.Headlines.storyTwoHeadline,
            MockDataConstants.Headlines.storyThreeHeadline, MockDataConstants.Headlines.storyFourHeadline,
            MockDataConstants.Headlines.storyFiveHeadline,
        ]
        completion(.success(headlines.prefix(size).enumerated().map {
            ArcXPContent(identifier: "story/\($0.offset + 1)", headlines: .init(basic: $0.element))
        }))
    }

    func getResizedImageURLForWidget(for arcXPContent: ArcXPContent) -> String? { nil }
}
