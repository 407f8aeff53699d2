print("swiftdash")
