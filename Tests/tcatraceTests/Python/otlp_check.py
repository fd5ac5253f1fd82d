"""Reads `tcatrace export --format otlp` output with the official OpenTelemetry protobuf
definitions (PyPI's opentelemetry-proto), for ExportCommandTests.

Each line must parse as an ExportTraceServiceRequest with no unknown field. OTLP's JSON
encoding writes trace and span ids as hex where protobuf's JSON mapping has base64: they are
converted, after checking that they are hex of the right length. Prints what was read, as
JSON: requests, spans, spans with a parent, traces, leak events, services, and every parent
that names a span of its trace.

    python3 otlp_check.py FILE
"""
import base64
import json
import sys

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.trace.v1.trace_pb2 import Span


def hex_to_base64(value, length, what):
    if len(value) != length * 2 or any(c not in "0123456789abcdef" for c in value):
        sys.exit(f"{what} {value!r} is not {length} bytes of lowercase hex")
    return base64.b64encode(bytes.fromhex(value)).decode()


def main(path):
    requests = spans = parents = events = 0
    traces, services, span_ids, parent_ids = set(), set(), {}, []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            document = json.loads(line)
            for resource_spans in document["resourceSpans"]:
                for scope_spans in resource_spans["scopeSpans"]:
                    for span in scope_spans["spans"]:
                        span["traceId"] = hex_to_base64(span["traceId"], 16, "traceId")
                        span["spanId"] = hex_to_base64(span["spanId"], 8, "spanId")
                        if "parentSpanId" in span:
                            span["parentSpanId"] = hex_to_base64(span["parentSpanId"], 8, "parentSpanId")
            request = json_format.Parse(json.dumps(document), ExportTraceServiceRequest())
            requests += 1
            for resource_spans in request.resource_spans:
                attributes = {a.key: a.value for a in resource_spans.resource.attributes}
                services.add(attributes["service.name"].string_value)
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        spans += 1
                        traces.add(span.trace_id)
                        if span.kind != Span.SPAN_KIND_INTERNAL:
                            sys.exit(f"line {number}: a span of kind {span.kind}")
                        if span.start_time_unix_nano > span.end_time_unix_nano:
                            sys.exit(f"line {number}: a span ends before it starts")
                        span_ids[(span.trace_id, span.span_id)] = True
                        if span.parent_span_id:
                            parents += 1
                            parent_ids.append((span.trace_id, span.parent_span_id))
                        events += sum(1 for event in span.events if event.name == "tcatrace.leak")
    print(json.dumps({
        "requests": requests,
        "spans": spans,
        "parents": parents,
        "traces": len(traces),
        "leak_events": events,
        "services": sorted(services),
        "parents_found": all(parent in span_ids for parent in parent_ids),
        "distinct_span_ids": len(span_ids) == spans,
    }, sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1])
