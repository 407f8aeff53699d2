// seeds/003: the widget's entry, provider and views as listed. See NOTES.md.
import SwiftdashKit

struct HeadlinesWidgetEntry: TimelineEntry {
    let date: Date
    let configuration: ConfigurationIntent
    let articles: [Article]
}

struct Provider: IntentTimelineProvider {
    typealias Entry = HeadlinesWidgetEntry  // extra: the listing shows the methods, not the struct around them

func placeholder(in context: Context) -> Entry {
        HeadlinesWidgetEntry(date: Date(), configuration: ConfigurationIntent(), articles: [])
    }

func getSnapshot(for configuration: ConfigurationIntent, in context: Context, completion: @escaping (Entry) -> ()) {
        let entry = HeadlinesWidgetEntry(date: Date(), configuration: configuration, articles: [])
        completion(entry)
    }

func getTimeline(for configuration: ConfigurationIntent, in context: Context, completion: @escaping (Timeline<Entry>) -> ()) {
        // Generate a timeline consisting of the latest news now and setting a update policy after 15 minutes
        let currentDate = Date()
        // The next date when the widget should reload the view with a new timeline
        let nextWidgetUpdateDate = Calendar.current.date(byAdding: .minute, value: 15, to: currentDate)!
        // The date of the only widget entry that will be part of the timeline.
        let currentHeadlinesEntry = HeadlinesWidgetEntry(date: currentDate, configuration: configuration, articles: [])
        // Timeline instance without articles in case that the retrieve from the network fails we return no stories
        let timeline = Timeline(entries: [currentHeadlinesEntry], policy: .after(nextWidgetUpdateDate))

        // Retrieve data from the network
        // Use country code selected by the user to retrieve the news
        var countryCode = "ar"
        switch configuration.country {
        case .ar:
            countryCode = "ar"
        case .us:
            countryCode = "us"
        case .unknown:
            break
        }

        let newsApiKey = ""
        guard let headlinesUrl = URL(string: "https://newsapi.org/v2/top-headlines?country=\(countryCode)&apiKey=\(newsApiKey)") else {
            return completion(timeline)
        }
        let topHeadlinesTask = URLSession.shared.topHeadlinesTask(with: headlinesUrl) { topHeadlines, response, error in
            if let topHeadlines = topHeadlines {
                let entry = HeadlinesWidgetEntry(date: nextWidgetUpdateDate, configuration: configuration, articles: topHeadlines.articles)
                completion(Timeline(entries: [entry], policy: .after(nextWidgetUpdateDate)))
            } else {
                completion(timeline)
            }
        }
        topHeadlinesTask.resume()
    }
}

struct HeadlinesWidgetEntryView : View {
    var entry: HeadlinesWidgetEntry
    @Environment(\.widgetFamily) var family: WidgetFamily

    @ViewBuilder
    var body: some View {
        switch family {
        case .systemSmall: SmallWidgetView(entry: entry)
        case .systemLarge: MediumLargeWidgetView(entry: entry, articlesCount: 5)
        case .systemMedium: MediumLargeWidgetView(entry: entry, articlesCount: 2)
        default: Text(entry.date, style: .time)
        }
    }
}

struct SmallWidgetView: View {
    var entry: HeadlinesWidgetEntry
    var body: some View {
        if let item = entry.articles.first {
            ZStack(alignment: Alignment(horizontal: .center, vertical: .bottom)) {
                VStack {
                    URLImage(url: item.urlToImage)
                        .scaledToFit()
                        .overlay(imageGradientOverlay, alignment: .bottom)
                    Spacer()
                }
                .background(Color.black)

                Text(item.title)
                    .font(.headline)
                    .foregroundColor(Color.white)
                    .multilineTextAlignment(.leading)
                    .lineLimit(5)
                    .padding([.leading, .bottom, .trailing], 10.0)

            }
            .background(Color.black)
            .widgetURL(URL(string: item.url)!)
        }
    }

    let imageGradientOverlay: some View = LinearGradient(
        gradient: Gradient(
            colors: [Color.black, Color.black.opacity(0.0)]),
        startPoint: .bottom,
        endPoint: .top)
        .frame(height: 48)
}

struct MediumLargeWidgetView: View {
    var entry: HeadlinesWidgetEntry
    var articlesCount: Int

    var body: some View {
        VStack(alignment: .leading, spacing: 7.0) {
            widgetHeaderView
            ForEach(0..<articlesCount) { index in
                if entry.articles.count > index,
                   let item = Optional(entry.articles[index]),  // extra: `let item = entry.articles[index]` binds no optional, an error in Swift
                   let url = URL(string: item.url) {  // extra: the article wraps the row in `Link(destination: url)` and leaves `url` to the reader
                    Link(destination: url) {
                      ArticleRow(item: item)
                    }
                }
            }
            Spacer()
        }
        .padding(.horizontal, 15.0)
        .frame(maxWidth: .infinity, maxHeight: .infinity)
    }

    let widgetHeaderView: some View = Text("🔥 TOP STORIES")
        .font(.headline)
				.foregroundColor(Color.storyTitle)
        .padding(.top)
}

struct ArticleRow: View {
    let item: Article
    var body: some View {
        HStack(alignment: .top) {
            URLImage(url: item.urlToImage)
                .clipShape(RoundedRectangle(cornerRadius: 8.0))
                .frame(width: 75.0, height: 50.0)
            Text(item.title)
                .font(.system(size: 14, weight: .semibold, design: .rounded))
								.foregroundColor(Color.storyTitle)
                .lineLimit(3)
            Spacer()
        }
    }
}

struct HeadlinesWidget_Previews: PreviewProvider {
    static var previews: some View {
      Group {
                  HeadlinesWidgetEntryView(entry: HeadlinesWidgetEntry(date: Date(), configuration: ConfigurationIntent(), articles: []))
                      .previewContext(WidgetPreviewContext(family: .systemSmall))
                  HeadlinesWidgetEntryView(entry: HeadlinesWidgetEntry(date: Date(), configuration: ConfigurationIntent(), articles: []))
                      .previewContext(WidgetPreviewContext(family: .systemMedium))
                  HeadlinesWidgetEntryView(entry: HeadlinesWidgetEntry(date: Date(), configuration: ConfigurationIntent(), articles: []))
                      .previewContext(WidgetPreviewContext(family: .systemLarge))
              }
    }
}
