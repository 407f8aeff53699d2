import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros

/// `#Preview(…) { … }` as a function of the widget's executable that makes the preview: its
/// arguments and closures are handed unchanged to SwiftdashKit's `_SwiftdashPreview`, whose
/// initialisers mirror the macro's forms (so the compiler checks them as it checks the macro's),
/// and the function gets a C name, `swiftdash_preview_…`, by which SwiftdashKit finds every
/// preview of the executable in its symbol table (Swift has no registry of its own to add to).
public struct PreviewMacro: DeclarationMacro {
    public static func expansion(
        of node: some FreestandingMacroExpansionSyntax, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        let name = context.makeUniqueName("Preview")
        let symbol = "swiftdash_preview_" + String(name.text.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        var line = 0
        if let location = context.location(of: node), let l = location.line.as(IntegerLiteralExprSyntax.self) {
            line = Int(l.literal.text) ?? 0
        }
        let call = FunctionCallExprSyntax(
            calledExpression: DeclReferenceExprSyntax(baseName: .identifier("_SwiftdashPreview")),
            leftParen: .leftParenToken(), arguments: node.arguments, rightParen: .rightParenToken(),
            trailingClosure: node.trailingClosure, additionalTrailingClosures: node.additionalTrailingClosures)
        return [
            """
            @_cdecl("\(raw: symbol)")
            public func \(name)() -> UnsafeMutableRawPointer {
                _SwiftdashPreview.retained(\(call), fileID: #fileID, line: \(raw: line))
            }
            """
        ]
    }
}

@main
struct Plugin: CompilerPlugin {
    let providingMacros: [Macro.Type] = [PreviewMacro.self]
}
