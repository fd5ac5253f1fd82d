// `TCATrace`, recording pointfreeco's TCA: `import TCATraceOnTCA` or `import TCATrace`.
@_exported import TCATrace
