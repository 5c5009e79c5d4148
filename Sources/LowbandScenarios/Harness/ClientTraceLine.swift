import LowbandBasics
import LowbandShaper

/// One client or scenario event of the trace, with the same habits as the shaper's lines: every
/// key always present, in this order, integer nanoseconds:
///
///     {"t_ns":5123000000,"event":"visible","client":0,"chat":3,"message":2051,"value_ns":812000000,"detail":null}
///
/// `value_ns` is the event's measured figure (push-to-visible, delivery delay, drain time…).
struct ClientTraceLine {
    var time: Duration
    var event: String
    var client: Int?
    var chat: Int64?
    var message: Int64?
    var value: Duration?
    var detail: String?

    init(time: Duration, event: String, client: Int? = nil, chat: Int64? = nil, message: Int64? = nil, value: Duration? = nil, detail: String? = nil) {
        self.time = time
        self.event = event
        self.client = client
        self.chat = chat
        self.message = message
        self.value = value
        self.detail = detail
    }

    var text: String {
        var line = "{\"t_ns\":\(time.nanosecondsClamped)"
        line += ",\"event\":\(JSONString.quoted(event))"
        line += ",\"client\":\(client.map { String($0) } ?? "null")"
        line += ",\"chat\":\(chat.map { String($0) } ?? "null")"
        line += ",\"message\":\(message.map { String($0) } ?? "null")"
        line += ",\"value_ns\":\(value.map { String($0.nanosecondsClamped) } ?? "null")"
        line += ",\"detail\":\(detail.map { JSONString.quoted($0) } ?? "null")}"
        return line
    }
}
