import Foundation
import TestSupport

/// Checks response bodies against the repository's OpenAPI document: the
/// operation's declared status and media type, and the body against the
/// response's JSON Schema (the subset the document uses: type, properties,
/// required, additionalProperties, items, enum, minimum, maximum, $ref).
struct OpenAPIValidator: Sendable {
    let document: [String: any Sendable]

    static let shared: OpenAPIValidator = {
        let url = Paths.packageRoot.appendingPathComponent("docs/openapi.json")
        let object = try! JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        return OpenAPIValidator(document: Self.sendable(object) as! [String: any Sendable])
    }()

    private static func sendable(_ value: Any) -> any Sendable {
        switch value {
        case let object as [String: Any]: object.mapValues(sendable)
        case let array as [Any]: array.map(sendable)
        case let string as String: string
        case let number as NSNumber: isBool(number) ? (number.boolValue ? 1.0 : 0.0) : number.doubleValue
        default: "\(value)"
        }
    }

    /// The problems of a response to `method` `path` (the template, e.g.
    /// `/lists/{name}/stores`); empty when it conforms.
    func problems(method: String, path: String, status: Int, contentType: String?, body: Data) -> [String] {
        guard let paths = document["paths"] as? [String: any Sendable],
            let item = paths[path] as? [String: any Sendable],
            let operation = item[method.lowercased()] as? [String: any Sendable],
            let responses = operation["responses"] as? [String: any Sendable]
        else { return ["\(method) \(path) is not in the document"] }
        guard let response = responses[String(status)] as? [String: any Sendable] else {
            return ["\(method) \(path) answered \(status), which the document does not declare (\(responses.keys.sorted()))"]
        }
        guard let content = response["content"] as? [String: any Sendable] else {
            return body.isEmpty ? [] : ["\(status) declares no body but one came"]
        }
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard let media = content[mediaType] as? [String: any Sendable] else {
            return ["\(status) declares \(content.keys.sorted()), not \(mediaType)"]
        }
        guard mediaType.hasSuffix("json"), let schema = media["schema"] else { return [] }
        guard let value = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return ["the body is not JSON: \(String(decoding: body.prefix(200), as: UTF8.self))"]
        }
        var problems: [String] = []
        validate(value, against: schema, at: "$", into: &problems)
        return problems
    }

    private func resolve(_ schema: any Sendable) -> [String: any Sendable] {
        guard let object = schema as? [String: any Sendable] else { return [:] }
        if let ref = object["$ref"] as? String, ref.hasPrefix("#/components/schemas/"),
            let components = document["components"] as? [String: any Sendable],
            let schemas = components["schemas"] as? [String: any Sendable],
            let target = schemas[String(ref.dropFirst("#/components/schemas/".count))]
        {
            return resolve(target)
        }
        return object
    }

    private func validate(_ value: Any, against schema: any Sendable, at path: String, into problems: inout [String]) {
        let schema = resolve(schema)
        if let types = schema["type"] {
            let allowed = (types as? [any Sendable])?.compactMap { $0 as? String } ?? [(types as? String) ?? ""]
            guard allowed.contains(where: { Self.matches(value, type: $0) }) else {
                problems.append("\(path): \(Self.describe(value)) is not \(allowed.joined(separator: " or "))")
                return
            }
        }
        if let options = schema["enum"] as? [any Sendable] {
            let text = "\(value)"
            if !options.contains(where: { "\($0)" == text }) { problems.append("\(path): \(text) is not one of \(options)") }
        }
        if let number = value as? NSNumber, !Self.isBool(value) {
            if let minimum = schema["minimum"] as? Double, number.doubleValue < minimum { problems.append("\(path): below \(minimum)") }
            if let maximum = schema["maximum"] as? Double, number.doubleValue > maximum { problems.append("\(path): above \(maximum)") }
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: any Sendable] ?? [:]
            for key in schema["required"] as? [any Sendable] ?? [] {
                if let key = key as? String, object[key] == nil { problems.append("\(path): missing \(key)") }
            }
            for (key, member) in object {
                if let property = properties[key] {
                    validate(member, against: property, at: "\(path).\(key)", into: &problems)
                } else if let additional = schema["additionalProperties"] {
                    if let allowed = additional as? Double, allowed == 0 {
                        problems.append("\(path): unexpected member \(key)")
                    } else if additional is [String: any Sendable] {
                        validate(member, against: additional, at: "\(path).\(key)", into: &problems)
                    }
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] {
            for (index, element) in array.enumerated() {
                validate(element, against: items, at: "\(path)[\(index)]", into: &problems)
            }
        }
    }

    /// JSONSerialization's booleans are NSNumbers of type `c` (a plain
    /// `is Bool` also holds for the numbers 0 and 1 on Linux).
    private static func isBool(_ value: Any) -> Bool {
        guard let number = value as? NSNumber else { return false }
        return String(cString: number.objCType) == "c"
    }

    private static func matches(_ value: Any, type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "boolean": return isBool(value)
        case "integer":
            guard !isBool(value), let number = value as? NSNumber else { return false }
            return number.doubleValue.rounded() == number.doubleValue
        case "number": return !isBool(value) && value is NSNumber
        case "string": return value is String
        case "array": return value is [Any]
        case "object": return value is [String: Any]
        default: return false
        }
    }

    private static func describe(_ value: Any) -> String {
        let text = "\(value)"
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
}
