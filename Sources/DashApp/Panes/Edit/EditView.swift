import Foundation
import DashCore
import DashWidgets
import DashScheduler
import DashRender
import DashHome

/// Draws the Edit Widget form, the gallery and arrange mode over the home screen: builds
/// their models from the state, DashRender draws them. Pure, like `AppView`.
enum EditView {
    static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    /// How often a spinner turns.
    static let spinnerStep: TimeInterval = 0.1

    static func spinnerFrame(_ now: Date) -> String {
        let i = Int(clamping: (now.timeIntervalSinceReferenceDate / spinnerStep).rounded(.down)) % spinner.count
        return String(spinner[(i + spinner.count) % spinner.count])
    }

    static func drawForm(_ s: AppState, into frame: inout HomeFrame) {
        let env = AppView.environment(s)
        guard let (model, spinning) = formModel(s) else { return }
        let rect = FormView.rect(for: model, screen: s.screen)
        let r = FormView.draw(model, in: rect, environment: env, into: &frame.buffer)
        var next = r.nextLiveChange
        if spinning { next = [next, s.now.addingTimeInterval(spinnerStep)].compactMap { $0 }.min() }
        frame.liveChange(next)
    }

    static func drawGallery(_ s: AppState, into frame: inout HomeFrame) {
        guard let model = galleryModel(s) else { return }
        let rect = GalleryView.rect(for: model, screen: s.screen)
        let r = GalleryView.draw(model, in: rect, environment: AppView.environment(s), into: &frame.buffer)
        frame.liveChange(r.nextLiveChange)
    }
}

extension HomeFrame {
    /// Draws again at `next` too, if it comes before the time already asked for.
    mutating func liveChange(_ next: Date?) {
        if let n = next, nextLiveChange.map({ n < $0 }) ?? true { nextLiveChange = n }
    }
}
