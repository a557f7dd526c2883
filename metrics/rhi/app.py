from halluscope.space import build_metric_app

app = build_metric_app("rhi")
app.launch()
