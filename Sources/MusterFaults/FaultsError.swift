/// A campaign that could not run as planned (the lab, a kiosk, a file), with what to look at.
struct FaultsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
