"""The ehi Space: scores through this folder's evaluate module, ehi.py (docs/space.md)."""

import os

from halluscope.space import build_metric_app

app = build_metric_app("ehi", module_folder=os.path.dirname(os.path.abspath(__file__)))

if __name__ == "__main__":
    app.launch()
