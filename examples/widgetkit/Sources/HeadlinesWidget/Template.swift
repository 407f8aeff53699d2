// extra: what seeds/003 takes from Xcode's widget template and from its project without listing
// them: the @main widget, the configuration intent (Xcode generates it from the .intentdefinition
// file: a country, Argentina or the United States), the URLImage view (a package that loads an
// image; a terminal draws no bitmap, so it draws nothing) and the asset catalog's storyTitle colour.
import SwiftdashKit
import Foundation

@main
struct HeadlinesWidget: Widget {
    let kind: String = "HeadlinesWidget"

    var body: some WidgetConfiguration {
        IntentConfiguration(kind: kind, intent: ConfigurationIntent.self, provider: Provider()) { entry in
            HeadlinesWidgetEntryView(entry: entry)
        }
        .configurationDisplayName("Top Headlines")
        .description("The latest headlines of a country.")
        .supportedFamilies([.systemSmall, .systemMedium, .systemLarge])
    }
}

enum Country: String, AppEnum {
    case unknown, ar, us
    static var typeDisplayRepresentation: TypeDisplayRepresentation = "Country"
    static var caseDisplayRepresentations: [Country: DisplayRepresentation] = [
        .unknown: "Default", .ar: "Argentina", .us: "United States",
    ]
}

struct ConfigurationIntent: WidgetConfigurationIntent {
    static var title: LocalizedStringResource = "Country"
    @Parameter(title: "Country", default: .ar) var country: Country
}

struct URLImage: View {
    let url: String
    var body: some View { Image(url) }
}

extension Color {
    static let storyTitle = Color("storyTitle")
}
