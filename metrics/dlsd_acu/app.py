"""The dlsd_acu Space: scores through this folder's evaluate module, dlsd_acu.py (docs/space.md)."""

import os

from halluscope.space import build_metric_app

app = build_metric_app("dlsd_acu", module_folder=os.path.dirname(os.path.abspath(__file__)))

if __name__ == "__main__":
    app.launch()
