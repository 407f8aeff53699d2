// swiftdash-fetch, the product the build makes beside swiftdash: the same helper swiftdash runs when
// started by this name (DashNetworking's FetchHelper; the package installs a link, decision 62).
import DashNetworking

await FetchHelper.main(CommandLine.arguments)
