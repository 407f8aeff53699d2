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

    static func draw(_ s: AppState, into frame: inout HomeFrame) {
        let env = AppView.environment(s)
        var next: Date?
        switch s.pane {
        case .form:
            guard let (model, spinning) = formModel(s) else { return }
            let rect = FormView.rect(for: model, screen: s.screen)
            let r = FormView.draw(model, in: rect, environment: env, into: &frame.buffer)
            next = r.nextLiveChange
            if spinning { next = [next, s.now.addingTimeInterval(spinnerStep)].compactMap { $0 }.min() }
        case .gallery:
            guard let model = galleryModel(s) else { return }
            next =
                GalleryView.draw(
                    model, in: GalleryView.rect(for: model, screen: s.screen), environment: env,
                    into: &frame.buffer
                ).nextLiveChange
        case .arrange:
            drawArrange(s, into: &frame.buffer)
        default:
            return
        }
        if let n = next, frame.nextLiveChange.map({ n < $0 }) ?? true { frame.nextLiveChange = n }
    }
}
